// The restock screen (/machine/channel): pick a device (an operator sees only those bound to it), then
// its lane grid. The chosen device is in the address (?machine_id=7), so a device's detail links here
// and a phone's back button returns to the choice.
import { useQuery } from "@tanstack/react-query";
import { Card, Select, Space, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { api } from "../../app/api.ts";
import type { ExtensionProps } from "../index.ts";
import { RestockGrid } from "./restock-grid.tsx";
import { readsAny } from "../../app/query-reads.ts";

interface Option {
  id: number;
  title: string;
}

export function RestockScreen(_props: ExtensionProps) {
  const { t } = useTranslation("common");
  const [params, setParams] = useSearchParams();
  const [search, setSearch] = useState("");
  const chosen = Number(params.get("machine_id")) || undefined;
  const devices = useQuery({
    queryKey: ["machine-all", "vending", search],
    meta: { reads: readsAny("machine", "machine_channel") },
    queryFn: () => api<Option[]>("machine-all", { query: search ? { q: search } : {} }),
    placeholderData: (previous) => previous,
  });
  return (
    <Space direction="vertical" size={16} className="screen-stack restock-screen">
      <Card className="screen-card" variant="borderless">
        <Space direction="vertical" size={8} style={{ width: "100%" }}>
          <Typography.Text strong>{t("restock.chooseDevice")}</Typography.Text>
          <Select
            showSearch
            allowClear
            size="large"
            className="restock-device"
            style={{ width: "100%", maxWidth: 420 }}
            placeholder={t("restock.devicePlaceholder")}
            filterOption={false}
            onSearch={setSearch}
            loading={devices.isFetching}
            value={chosen}
            options={(devices.data ?? []).map((d) => ({ value: d.id, label: d.title }))}
            onChange={(value?: number) => setParams(value ? { machine_id: String(value) } : {})}
          />
        </Space>
      </Card>
      {chosen && <RestockGrid machineId={chosen} />}
    </Space>
  );
}
