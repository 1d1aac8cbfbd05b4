// Home after sign-in: a greeting, the size of the business the user sees (totals from the list
// calls the user may make) and shortcuts into the menu. The dashboard extension replaces it later.
import { useQueries } from "@tanstack/react-query";
import { Card, Col, Row, Statistic, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { resources } from "../../generated/resources.ts";
import { dataProvider } from "../providers/data-provider.ts";
import { allowed, permissionOf } from "../providers/access-control.ts";
import { currentSession } from "../session.ts";
import { MenuIcon } from "../layout/icons.tsx";

/** Entities whose size the home page shows, each linked to its main list (from the generated resources). */
const TOTALS = (["machine", "order", "goods", "shop", "agent"] as const).map((entity) => ({
  entity,
  route: resources.find((r) => r.meta.entity === entity && r.meta.screen === "list" && !r.meta.listCall)!.list!,
}));

export function HomePage() {
  const { t } = useTranslation(["common", ...TOTALS.map((s) => s.entity)]);
  const session = currentSession();
  const shown = TOTALS.filter((s) => allowed(permissionOf(s.entity, "list")));
  const totals = useQueries({
    queries: shown.map((s) => ({
      queryKey: ["home-total", s.entity],
      queryFn: () => dataProvider.getList({ resource: s.entity, pagination: { currentPage: 1, pageSize: 1 } }),
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
                <Statistic
                  title={t(`${s.entity}:name`)}
                  value={totals[i].data?.total ?? 0}
                  loading={totals[i].isLoading}
                />
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
