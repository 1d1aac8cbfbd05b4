// Home after sign-in: a greeting, the size of the business the user sees (totals from the list
// calls the user may make) and shortcuts into the menu. The dashboard extension replaces it later.
import { useQueries } from "@tanstack/react-query";
import { Card, Col, Row, Statistic, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { api } from "../api.ts";
import { allowed } from "../providers/access-control.ts";
import { currentSession } from "../session.ts";
import { MenuIcon } from "../layout/icons.tsx";

const TOTALS = [
  { entity: "machine", call: "machine-list", route: "/machine/list", label: "machine:name" },
  { entity: "order", call: "order-list", route: "/order/applicationList", label: "order:name" },
  { entity: "goods", call: "goods-list", route: "/goods/list", label: "goods:name" },
  { entity: "shop", call: "shop-list", route: "/shop/list", label: "shop:name" },
  { entity: "agent", call: "manage-list", route: "/manage/list", label: "agent:name" },
] as const;

export function HomePage() {
  const { t } = useTranslation(["common", ...TOTALS.map((s) => s.entity)]);
  const session = currentSession();
  const shown = TOTALS.filter((s) => allowed(`${s.entity}.list`));
  const totals = useQueries({
    queries: shown.map((s) => ({
      queryKey: ["home-total", s.call],
      queryFn: () => api<{ total: number }>(s.call, { query: { page: 1, limit: 1 } }),
    })),
  });
  return (
    <div className="home-page">
      <Typography.Title level={3} className="home-greeting">
        {t("home.greeting", { name: session?.user.nickname ?? "" })}
      </Typography.Title>
      <Row gutter={[16, 16]}>
        {shown.map((s, i) => (
          <Col key={s.entity} xs={24} sm={12} lg={6} xxl={4}>
            <Link to={s.route}>
              <Card variant="borderless" hoverable className="home-stat">
                <Statistic title={t(s.label)} value={totals[i].data?.total ?? 0} loading={totals[i].isLoading} />
              </Card>
            </Link>
          </Col>
        ))}
      </Row>
      <Typography.Title level={5} className="home-section">
        {t("home.shortcuts")}
      </Typography.Title>
      <Row gutter={[16, 16]}>
        {(session?.menu ?? []).map((group) => (
          <Col key={group.id} xs={24} sm={12} lg={8} xxl={6}>
            <Card
              variant="borderless"
              className="home-group"
              title={
                <span>
                  <MenuIcon name={group.icon} /> {t(`menu:groups.${group.id}`)}
                </span>
              }
            >
              <div className="home-links">
                {group.routes.slice(0, 6).map((route) => (
                  <Link key={route.id} to={route.path}>
                    {t(`menu:routes.${route.id}`)}
                  </Link>
                ))}
              </div>
            </Card>
          </Col>
        ))}
      </Row>
    </div>
  );
}
