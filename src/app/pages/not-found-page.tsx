// The catch-all page for a path no route knows.
import { Button, Result } from "antd";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Result
      status="404"
      title={t("notFound.title")}
      extra={
        <Link to="/">
          <Button type="primary">{t("notFound.back")}</Button>
        </Link>
      }
    />
  );
}
