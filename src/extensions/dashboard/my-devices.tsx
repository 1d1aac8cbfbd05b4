// An operator's home: the devices bound to it, those that need restocking first, each with where it stands
// (outlet, room), its stock state and Restock a tap away. Restock opens the device on its lanes, where a
// lane is loaded with two more taps: sign-in to a loaded lane in four taps on a phone.
import { EnvironmentOutlined } from "@ant-design/icons";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Button, Card, Empty, Input, List, Pagination, Segmented, Space, Typography } from "antd";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { api, type ApiError } from "../../app/api.ts";
import { allowed } from "../../app/providers/access-control.ts";
import { FieldValue } from "../../crud/field-value.tsx";
import { entityView } from "../../crud/model.ts";
import type { AnswerTitles } from "../../crud/relations.ts";
import { resources } from "../../generated/resources.ts";
import { readsAny } from "../../app/query-reads.ts";

const PAGE = 10;
/** The stock states that call for a visit. */
const NEEDING = ["out_of_stock", "low_stock"];

interface Device extends Record<string, unknown> {
  id: number;
  mac_name: string;
  kind: string;
  shop_id: number | null;
  room_number: string | null;
  stock_status: string | null;
  status: string;
}

interface Answer {
  list: Device[];
  total: number;
  titles?: AnswerTitles;
}

type Show = "needing" | "all";

const detailPath = (id: number) =>
  resources.find((r) => r.identifier === "machine_list")!.show!.replace(":id", String(id));

const devices = (show: Show, search: string, page: number) => ({
  queryKey: ["machine-list", "my-devices", show, search, page],
  meta: { reads: readsAny("machine", "machine_channel") },
  queryFn: () =>
    api<Answer>("machine-list", {
      query: {
        page,
        limit: PAGE,
        ...(show === "needing" ? { stock_status: NEEDING.join(",") } : {}),
        ...(search ? { mac_name_like: search } : {}),
      },
    }),
  placeholderData: keepPreviousData,
});

/** `empty`: what to say when the user has no device at all (an operator's are bound, a manager's stand at its outlets). */
export function MyDevices({ empty = "home.noDevices" }: { empty?: string }) {
  const { t } = useTranslation(["common", "machine"]);
  const [search, setSearch] = useState("");
  const [page, setPage] = useState(1);
  // The first page of each choice gives its count (and is the list itself when shown).
  const needing = useQuery(devices("needing", search, 1));
  const all = useQuery(devices("all", search, 1));
  // Those needing a visit come first, when there are any (known once counted), unless the user chose.
  const [chosen, setChosen] = useState<Show>();
  const show: Show = chosen ?? (needing.data?.total === 0 ? "all" : "needing");
  const query = useQuery(devices(show, search, page));
  const view = useMemo(() => entityView("machine"), []);
  const mayRestock = allowed("machine.replenish");
  const titles = query.data?.titles?.shop ?? {};

  return (
    <Card
      variant="borderless"
      className="screen-card my-devices"
      title={t("home.myDevices")}
      extra={
        // Searched on Enter or the button (not a call a keystroke); clearing the box shows all again.
        <Input.Search
          allowClear
          placeholder={t("home.findDevice")}
          aria-label={t("home.findDevice")}
          className="my-devices-search"
          // A device's code, not words: a phone's keyboard neither capitalises nor corrects it; Enter searches.
          enterKeyHint="search"
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          onSearch={(value) => {
            setSearch(value.trim());
            setPage(1);
          }}
        />
      }
    >
      <Segmented<Show>
        block
        className="my-devices-show"
        value={show}
        onChange={(value) => {
          setChosen(value);
          setPage(1);
        }}
        options={[
          { value: "needing", label: t("home.needRestock", { count: needing.data?.total ?? 0 }) },
          { value: "all", label: t("home.allDevices", { count: all.data?.total ?? 0 }) },
        ]}
      />
      {query.error && !query.data ? (
        <Typography.Text type="danger">{(query.error as ApiError).message}</Typography.Text>
      ) : (
        <List<Device>
          className="my-devices-list"
          loading={query.isLoading}
          dataSource={query.data?.list ?? []}
          locale={{
            emptyText: (
              <Empty
                image={Empty.PRESENTED_IMAGE_SIMPLE}
                description={t(search ? "home.noDeviceFound" : show === "needing" ? "home.nothingToRestock" : empty, {
                  search,
                })}
              />
            ),
          }}
          renderItem={(device) => {
            const where = [device.shop_id ? titles[device.shop_id] : undefined, device.room_number]
              .filter(Boolean)
              .join(" · ");
            return (
              <List.Item
                className="my-device"
                data-device={device.mac_name}
                actions={[
                  device.kind === "vending" && mayRestock ? (
                    <Link key="restock" to={`${detailPath(device.id)}?tab=panel`}>
                      <Button type="primary" size="large" className="my-device-restock">
                        {t("restock.load")}
                      </Button>
                    </Link>
                  ) : (
                    <Link key="open" to={detailPath(device.id)}>
                      <Button size="large">{t("actions.show")}</Button>
                    </Link>
                  ),
                ]}
              >
                <List.Item.Meta
                  title={<Link to={detailPath(device.id)}>{device.mac_name}</Link>}
                  description={
                    <Space direction="vertical" size={4}>
                      {where && (
                        <Typography.Text type="secondary">
                          <EnvironmentOutlined /> {where}
                        </Typography.Text>
                      )}
                      <Space size={4} wrap>
                        {device.kind === "vending" && (
                          <FieldValue field={view.byName.get("stock_status")!} value={device.stock_status} />
                        )}
                        <FieldValue field={view.byName.get("status")!} value={device.status} />
                      </Space>
                    </Space>
                  }
                />
              </List.Item>
            );
          }}
        />
      )}
      {(query.data?.total ?? 0) > PAGE && (
        <Pagination
          className="my-devices-pager"
          size="small"
          align="end"
          current={page}
          pageSize={PAGE}
          total={query.data!.total}
          showSizeChanger={false}
          onChange={setPage}
        />
      )}
    </Card>
  );
}
