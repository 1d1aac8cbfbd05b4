// The lane restock grid (DESIGN §1: hand-written): a device's lanes as tiles (number, goods picture and
// name, left / capacity as a bar, shelf on or off, free space, stock warnings). Tapping a lane loads it;
// "fill all" loads every shelved lane as far as the goods' stock goes. Built for a phone held at the
// machine: the tiles reflow to two columns at 390 px and every target is finger-sized. The server
// checks each quantity against the lane's free space in the statement that loads it; its refusal is
// shown as it says it (SPEC §8: "current lane has 1 left, so at most 1 can be added"). Without a network
// the lanes stay as last seen, and a restock that could not be sent stays in its dialog, with the quantity
// typed, and is offered again once the network is back (sent again with the same key: loaded once).
import { useQuery, useQueryClient } from "@tanstack/react-query";
import {
  App,
  Button,
  Card,
  Empty,
  Image,
  InputNumber,
  Modal,
  Progress,
  Space,
  Tag,
  Typography,
  type GetRef,
} from "antd";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { api, notSent, type ApiError } from "../../app/api.ts";
import { NotSent, useKeptAction } from "../../app/not-sent.tsx";
import { allowed } from "../../app/providers/access-control.ts";
import type { MachineReplenishmentCheckAnswer } from "../../generated/types.ts";
import type { ReadsMeta } from "../../app/query-reads.ts";

/** A lane as machine-replenishment-check answers it (its schema, held to the server by the API tests). */
export type Lane = MachineReplenishmentCheckAnswer["lanes"][number];

export const lanesKey = (machineId: number) => ["restock-lanes", machineId];

/** What a lane may take now: its free space, as far as the goods' stock goes. */
const loadable = (lane: Lane) => Math.max(0, Math.min(lane.free, lane.stock ?? 0));
const restockable = (lane: Lane) => lane.goods_id !== null && lane.shelf_status === 1 && lane.free > 0;

/** A lane's state: no goods, empty, low (but not empty), full, or in between. */
export function laneState(lane: Lane): "none" | "empty" | "low" | "full" | "ok" {
  if (lane.goods_id === null) return "none";
  if (lane.left === 0) return "empty";
  if (lane.low) return "low";
  return lane.left >= lane.count ? "full" : "ok";
}

/** The lanes once `quantity` was loaded into lane `channelId`: its level and free space, the goods' stock. */
export function afterLoading(
  answer: MachineReplenishmentCheckAnswer,
  channelId: number,
  quantity: number,
): MachineReplenishmentCheckAnswer {
  const lane = answer.lanes.find((l) => l.channel_id === channelId);
  if (!lane) return answer;
  return {
    ...answer,
    lanes: answer.lanes.map((l) => {
      const stock =
        l.goods_id !== null && l.goods_id === lane.goods_id && l.stock !== null ? l.stock - quantity : l.stock;
      if (l !== lane) return { ...l, stock };
      const left = l.left + quantity;
      // Low as the server says it (server/domain/machines/restock.ts): a shelved lane with goods, at or below the alert.
      const low = l.goods_id !== null && l.shelf_status === 1 && left <= answer.stock_alert_quantity;
      return { ...l, stock, left, free: l.free - quantity, low };
    }),
  };
}

/** On a vending device's detail screen (its first tab): its lanes. */
export function RestockPanel({ record }: { record: Record<string, unknown> }) {
  return <RestockGrid machineId={Number(record.id)} />;
}

export function RestockGrid({ machineId }: { machineId: number }) {
  const { t } = useTranslation(["common", "machine"]);
  const { message, modal } = App.useApp();
  const client = useQueryClient();
  const [lane, setLane] = useState<Lane>();
  const mayRestock = allowed("machine.replenish");
  const query = useQuery({
    queryKey: lanesKey(machineId),
    // Its lanes and their goods, and the device itself (its state).
    meta: { reads: { machine_channel: true, goods: true, machine: [machineId] } } satisfies ReadsMeta,
    queryFn: () => api("machine-replenishment-check", { method: "POST", body: { id: machineId }, reads: true }),
  });

  /** `firstSent`: when this restock was first sent, if this is it sent again (after the network failed it). */
  const restock = async (
    body: { fill?: true; lanes?: { channel_id: number; quantity: number }[] },
    firstSent?: number,
  ) => {
    const result = await api("machine-replenishment-goods", {
      method: "POST",
      body: { id: machineId, ...body },
    });
    // A lane loaded shows its new level at once, from the answer (a phone's round trip for the lanes again
    // would be the wait); then the lanes, the device's state and its restock records are asked again. Not
    // when the lanes were read again since the restock was first sent: they may hold it already (its answer
    // was lost, the server loaded it), and are only asked again.
    const loaded = body.lanes?.[0];
    const lanesReadSince = (client.getQueryState(lanesKey(machineId))?.dataUpdatedAt ?? 0) > (firstSent ?? Infinity);
    if (loaded && body.lanes?.length === 1 && !lanesReadSince)
      client.setQueryData(
        lanesKey(machineId),
        (lanes: MachineReplenishmentCheckAnswer | undefined) =>
          lanes && afterLoading(lanes, loaded.channel_id, result.quantity),
      );
    message.success(t("restock.done", { quantity: result.quantity, count: result.count }));
    if (loaded) void client.invalidateQueries();
    else await client.invalidateQueries();
  };

  const keep = useKeptAction();
  const fill = (): Promise<void> =>
    restock({ fill: true }).catch((error: ApiError) => {
      if (!notSent(error)) return void message.error(error.message);
      void message.warning(t("offline.notSentAction", { action: t("restock.fillAll") }));
      keep(fill);
    });

  if (query.isLoading) return <Card loading className="screen-card" variant="borderless" />;
  // Lanes on screen stay when a refresh fails (offline, say): the offline notice says they may be out of date.
  if (query.error && !query.data)
    return (
      <Card className="screen-card" variant="borderless">
        <Space direction="vertical">
          <Typography.Text type="danger">{(query.error as ApiError).message}</Typography.Text>
          <Button onClick={() => void query.refetch()}>{t("actions.retry")}</Button>
        </Space>
      </Card>
    );
  const data = query.data!;
  const lanes = data.lanes;
  const fillable = lanes.filter(restockable);
  const fillTotal = fillable.reduce((sum, l) => sum + loadable(l), 0);
  // Each lane is counted once: an empty lane is not also a low one.
  const count = (state: ReturnType<typeof laneState>) => lanes.filter((l) => laneState(l) === state).length;
  const [empty, low, full] = [count("empty"), count("low"), count("full")];

  const fillAll = () =>
    modal.confirm({
      title: t("restock.fillAll"),
      content: t("restock.fillAllConfirm", { device: data.mac_name, quantity: fillTotal, count: fillable.length }),
      okText: t("restock.fillAll"),
      cancelText: t("actions.cancel"),
      onOk: fill,
    });

  return (
    <Card
      className="screen-card restock-grid"
      variant="borderless"
      title={
        <Space wrap size={8}>
          <span>{data.mac_name}</span>
          <Typography.Text type="secondary">{t("restock.lanes", { count: lanes.length })}</Typography.Text>
          {empty > 0 && <Tag color="red">{t("restock.emptyLanes", { count: empty })}</Tag>}
          {low > 0 && <Tag color="orange">{t("restock.lowLanes", { count: low })}</Tag>}
          {full > 0 && <Tag color="green">{t("restock.fullLanes", { count: full })}</Tag>}
        </Space>
      }
      extra={
        mayRestock && (
          <Button type="primary" disabled={fillTotal === 0} onClick={fillAll} data-testid="fill-all">
            {t("restock.fillAll")}
          </Button>
        )
      }
    >
      {lanes.length === 0 ? (
        <Empty description={t("restock.noLanes")} />
      ) : (
        <div className="lane-grid">
          {lanes.map((l) => (
            <LaneTile
              key={l.channel_id}
              lane={l}
              onOpen={mayRestock && restockable(l) ? () => setLane(l) : undefined}
            />
          ))}
        </div>
      )}
      {lane && (
        <LaneDialog
          lane={lane}
          onClose={() => setLane(undefined)}
          onRestock={async (quantity, firstSent) => {
            await restock({ lanes: [{ channel_id: lane.channel_id, quantity }] }, firstSent);
            setLane(undefined);
          }}
        />
      )}
    </Card>
  );
}

function LaneTile({ lane, onOpen }: { lane: Lane; onOpen?: () => void }) {
  const { t } = useTranslation("common");
  const percent = lane.count ? Math.round((lane.left / lane.count) * 100) : 0;
  const state = laneState(lane);
  const short = lane.goods_id !== null && (lane.stock ?? 0) < lane.free;
  return (
    <button
      type="button"
      className={`lane-tile lane-${state}${lane.shelf_status === 1 ? "" : " lane-off"}`}
      onClick={onOpen}
      disabled={!onOpen}
      aria-label={t("restock.laneLabel", { lane: lane.channel_number, goods: lane.goods_name ?? "-" })}
      data-lane={lane.channel_number}
    >
      <div className="lane-head">
        <span className="lane-number">{lane.channel_number}</span>
        {lane.shelf_status === 1 ? (
          <Tag color="green" bordered={false}>
            {t("restock.shelfOn")}
          </Tag>
        ) : (
          <Tag bordered={false}>{t("restock.shelfOff")}</Tag>
        )}
      </div>
      <div className="lane-goods">
        {lane.pic_url ? (
          <Image src={lane.pic_url} width={40} height={40} preview={false} className="lane-picture" />
        ) : (
          <span className="lane-picture lane-picture-none" />
        )}
        <span className="lane-goods-name">{lane.goods_name ?? t("restock.noGoods")}</span>
      </div>
      <Progress
        percent={percent}
        showInfo={false}
        size="small"
        status={state === "empty" || state === "low" ? "exception" : state === "full" ? "success" : "normal"}
      />
      <div className="lane-figures">
        <span className="lane-left">
          {lane.left} / {lane.count}
        </span>
        {state === "full" ? (
          <span className="lane-free lane-full-note">{t("restock.full")}</span>
        ) : (
          <span className="lane-free">{t("restock.free", { count: lane.free })}</span>
        )}
      </div>
      {short && <span className="lane-warning">{t("restock.stockShort", { stock: lane.stock ?? 0 })}</span>}
    </button>
  );
}

function LaneDialog({
  lane,
  onClose,
  onRestock,
}: {
  lane: Lane;
  onClose: () => void;
  onRestock: (quantity: number, firstSent?: number) => Promise<void>;
}) {
  const { t } = useTranslation("common");
  const [quantity, setQuantity] = useState<number | null>(loadable(lane) || 1);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  // The last restock was not sent (no network): the dialog keeps the quantity and offers that restock again.
  const [unsent, setUnsent] = useState<{ quantity: number; at: number }>();
  // The quantity has the focus once the dialog is open (the dialog focuses itself as it opens).
  const input = useRef<GetRef<typeof InputNumber>>(null);
  // One restock at a time: a second tap (or "send again") while one is under way is not another.
  const sending = useRef(false);
  const submit = async (value: number | null) => {
    if (!value || value < 1) {
      setError(t("restock.quantityRequired"));
      return;
    }
    if (sending.current) return;
    sending.current = true;
    setBusy(true);
    setError(undefined);
    // The same quantity again is the restock not sent, sent again (with the key it was first sent with).
    const again = unsent?.quantity === value ? unsent.at : undefined;
    const at = again ?? Date.now();
    try {
      await onRestock(value, again);
    } catch (e) {
      const failure = e as ApiError;
      setUnsent(notSent(failure) ? { quantity: value, at } : undefined);
      if (!notSent(failure)) setError(failure.fieldErrors?.[0]?.message ?? failure.message);
    } finally {
      sending.current = false;
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={t("restock.laneTitle", { lane: lane.channel_number, goods: lane.goods_name ?? "" })}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      className="lane-dialog"
      afterOpenChange={(open) => open && input.current?.focus()}
    >
      <Space direction="vertical" size={12} style={{ width: "100%" }}>
        <Typography.Text>
          {t("restock.laneNow", { left: lane.left, count: lane.count, free: lane.free })}
        </Typography.Text>
        {lane.stock !== null && lane.stock < lane.free && (
          <Typography.Text type="warning">{t("restock.stockShort", { stock: lane.stock })}</Typography.Text>
        )}
        <InputNumber
          aria-label={t("restock.quantity")}
          className="lane-quantity"
          // A phone brings up its number pad, not the full keyboard.
          inputMode="numeric"
          ref={input}
          min={1}
          precision={0}
          value={quantity}
          onChange={(v) => setQuantity(v)}
          size="large"
          style={{ width: "100%" }}
          status={error ? "error" : undefined}
        />
        {error && (
          <Typography.Text type="danger" role="alert">
            {error}
          </Typography.Text>
        )}
        {unsent && <NotSent busy={busy} onResend={() => submit(unsent.quantity)} />}
        <div className="lane-dialog-actions">
          <Button size="large" onClick={onClose}>
            {t("actions.cancel")}
          </Button>
          <Button
            size="large"
            disabled={loadable(lane) === 0}
            onClick={() => void submit(loadable(lane))}
            loading={busy}
          >
            {t("restock.fillLane", { count: loadable(lane) })}
          </Button>
          <Button
            size="large"
            type="primary"
            onClick={() => void submit(quantity)}
            loading={busy}
            data-testid="lane-load"
          >
            {t("restock.load")}
          </Button>
        </div>
      </Space>
    </Modal>
  );
}
