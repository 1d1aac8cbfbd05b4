// The dashboard (SPEC §1), home after sign-in: the figures of this month, this week, today and yesterday;
// total turnover, revenue and orders; device, team and member counts; the trade trend (7, 30 or 90 days)
// and the order mix; the to-do list, each item opening its list already filtered; pending withdrawals to
// approve or refuse; the team; the device map. Each panel shows only what the user may see, and every
// figure comes from the statistics calls, scoped to the user's subtree on the server. The cards are in
// cards.tsx, each with its own query. An operator's home starts with its devices (my-devices.tsx), then its
// earnings (my-earnings.tsx); an outlet
// manager's with its outlets and today's takings (my-outlets.tsx), then its devices.
import { EnvironmentOutlined } from "@ant-design/icons";
import { Button, Card, Col, Row, Skeleton, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { mayFetchAhead } from "../../app/fetch-ahead.ts";
import { lazyScreen } from "../../app/lazy-screen.tsx";
import { currentSession } from "../../app/session.ts";
import { BusinessDay, PeriodCards, TodoCard, TotalCards } from "./cards.tsx";
import { MyDevices } from "./my-devices.tsx";
import { MyEarnings } from "./my-earnings.tsx";
import { MyOutlets } from "./my-outlets.tsx";
import { access, NAMESPACES } from "./queries.ts";

/** ECharts and the map's outlines load with the map; sign-in's wait starts them (queries.ts). */
export const DeviceMap = lazyScreen(() => import("./device-map.tsx").then((m) => m.DeviceMap), {
  fallback: <Skeleton active />,
});

/** The trend's charts (ECharts), the team's table and the withdrawal panel (its actions' dialogs), each
 * loaded for those who see it. */
const TrendCards = lazyScreen(() => import("./trend-cards.tsx").then((m) => m.TrendCards), {
  fallback: <Skeleton active />,
});
const TeamCard = lazyScreen(() => import("./team-card.tsx").then((m) => m.TeamCard), {
  fallback: <Skeleton active />,
});
const WithdrawalCard = lazyScreen(() => import("./withdrawal-card.tsx").then((m) => m.WithdrawalCard), {
  fallback: <Skeleton active />,
});

/**
 * The device map; on a phone (mayFetchAhead) behind a tap, since its code and outlines are the largest
 * download of the console and most visits of a phone's home are for something else.
 */
function MapPanel() {
  const { t } = useTranslation(NAMESPACES);
  const [asked, setAsked] = useState(mayFetchAhead);
  if (asked) return <DeviceMap />;
  return (
    <Card variant="borderless" className="screen-card map-on-request" title={t("common:home.map")}>
      <Button icon={<EnvironmentOutlined />} size="large" block onClick={() => setAsked(true)}>
        {t("common:home.showMap")}
      </Button>
    </Card>
  );
}

export function Dashboard() {
  const { t } = useTranslation(NAMESPACES);
  const session = currentSession();
  const can = access();

  return (
    <div className="home-page dashboard">
      <div className="dashboard-head">
        <Typography.Title level={3} className="home-greeting">
          {t("common:home.greeting", { name: session?.user.nickname ?? "" })}
        </Typography.Title>
        {can.orders && <BusinessDay />}
      </div>

      {session?.user.kind === "operator" && <MyDevices />}
      {session?.user.kind === "operator" && <MyEarnings />}
      {session?.user.kind === "manager" && <MyOutlets />}
      {session?.user.kind === "manager" && <MyDevices empty="home.noOutletDevices" />}
      {can.orders && <PeriodCards />}
      {can.orders && <TotalCards />}
      {can.orders && <TrendCards />}

      <Row gutter={[16, 16]} className="dashboard-row">
        <Col xs={24} xl={can.withdrawals ? 8 : 24}>
          <TodoCard />
        </Col>
        {can.withdrawals && (
          <Col xs={24} xl={16}>
            <WithdrawalCard />
          </Col>
        )}
      </Row>

      {(can.map || can.team) && (
        <Row gutter={[16, 16]} className="dashboard-row">
          {can.map && (
            <Col xs={24} xl={can.team ? 16 : 24}>
              <MapPanel />
            </Col>
          )}
          {can.team && (
            <Col xs={24} xl={can.map ? 8 : 24}>
              <TeamCard />
            </Col>
          )}
        </Row>
      )}
    </div>
  );
}
