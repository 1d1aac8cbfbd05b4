// An outlet manager's home starts with its outlets: each with its devices and today's takings and paid
// orders (statistics-devices by outlet, today), their sum above; a tap opens the outlet's devices. Its
// devices that need restocking follow (my-devices.tsx), then the to-do and the map of its devices.
import { ShopOutlined } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import { Card, Col, Empty, List, Row, Space, Statistic, Typography } from "antd";
import { Link } from "react-router";
import { resources } from "../../generated/resources.ts";
import { ErrorText, useCardText } from "./card-parts.tsx";
import { queries, type OutletRow } from "./queries.ts";

const deviceList = resources.find((r) => r.identifier === "machine_list")!.list!;
/** The device list filtered to one outlet, in the address format the list screens read. */
const devicesAt = (id: number) =>
  `${deviceList}?${new URLSearchParams({
    "filters[0][field]": "shop_id",
    "filters[0][operator]": "eq",
    "filters[0][value]": String(id),
  })}`;

export function MyOutlets() {
  const { t, money } = useCardText();
  const query = useQuery(queries.outletsToday());
  const outlets = (query.data?.breakdown.list ?? []).filter((row) => row.id !== null);
  return (
    <Card variant="borderless" className="screen-card my-outlets" title={t("common:home.myOutlets")}>
      {query.error && !query.data ? (
        <ErrorText error={query.error} />
      ) : (
        <>
          <Row gutter={[16, 16]} className="my-outlets-totals">
            <Col xs={12} md={8}>
              <Statistic
                title={t("common:home.takingsToday")}
                value={money(query.data?.totals.takings ?? 0)}
                loading={query.isLoading}
              />
            </Col>
            <Col xs={12} md={8}>
              <Statistic
                title={t("common:home.ordersToday")}
                value={query.data?.totals.orders ?? 0}
                loading={query.isLoading}
              />
            </Col>
            <Col xs={24} md={8}>
              <Statistic
                title={t("common:home.devices")}
                value={query.data?.totals.devices ?? 0}
                loading={query.isLoading}
              />
            </Col>
          </Row>
          <List<OutletRow>
            className="my-outlets-list"
            loading={query.isLoading}
            dataSource={outlets}
            locale={{
              emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("common:home.noOutlets")} />,
            }}
            renderItem={(outlet) => (
              <List.Item className="my-outlet" data-outlet={outlet.name ?? ""}>
                <List.Item.Meta
                  avatar={<ShopOutlined className="my-outlet-icon" />}
                  title={<Link to={devicesAt(outlet.id!)}>{outlet.name}</Link>}
                  description={
                    <Typography.Text type="secondary">
                      {t("common:home.outletDevices", { count: outlet.devices })}
                    </Typography.Text>
                  }
                />
                <Space size="large" className="my-outlet-figures">
                  <Statistic title={t("common:home.takingsToday")} value={money(outlet.takings)} />
                  <Statistic title={t("common:home.ordersToday")} value={outlet.orders} />
                </Space>
              </List.Item>
            )}
          />
        </>
      )}
    </Card>
  );
}
