// The licence (the serial service, SPEC §7): its state, who it is for, until when, and this installation's
// id (copied to send to the vendor, who issues serial numbers for it); for whoever may manage the system
// (version.upgrade), the secret key (write-only) and a serial number to install. Shown on System upgrade
// and on the expired page, where installing a serial number lets everyone in.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Card, Descriptions, Form, Input, Skeleton, Space, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { api, type ApiError } from "../../app/api.ts";
import { allowed } from "../../app/providers/access-control.ts";
import { formatDate } from "../../crud/format.ts";
import { operationSchemas } from "../../generated/operations.ts";
import type { ChecksnAnswer } from "../../generated/types.ts";
import { fieldLabelKey, operationKeyBase } from "../../schema/keys.ts";

/** Within this many days of its end, the licence warns. */
const WARN_DAYS = 30;
/**
 * A licence's last day as the vendor signed it: a serial runs to the end of a UTC day (2036-12-31), which
 * the server's messages name too, so it is shown as that calendar day, not at the business's clock.
 */
const licenceDay = (validUntil: string) => formatDate(validUntil.slice(0, 10));
const STATE_COLOR = { licensed: "green", trial: "blue", expired: "red" } as const;
const ADMIN = { base: "/admin" };
const KEY_LABEL = fieldLabelKey(operationKeyBase(operationSchemas.saveSecretKey), "secret_key");
const SERIAL_LABEL = fieldLabelKey(operationKeyBase(operationSchemas.sn), "sn");

export function LicencePanel({ onLicensed }: { onLicensed?: () => void }) {
  const { t } = useTranslation(["common", "operations"]);
  const { message, modal } = App.useApp();
  const client = useQueryClient();
  const [keyForm] = Form.useForm<{ secret_key: string }>();
  const [serialForm] = Form.useForm<{ sn: string }>();
  const status = useQuery({ queryKey: ["checksn"], queryFn: () => api("checksn", ADMIN) });
  const manage = allowed("version.upgrade");
  const required = (label: string) => [
    { required: true, whitespace: true, message: t("validation:required", { field: t(label) }) },
  ];

  /** Sends a form's value; the server's refusal lands on the field, the value stays for correcting. */
  const send = async <F extends object>(
    form: ReturnType<typeof Form.useForm<F>>[0],
    call: "saveSecretKey" | "sn",
    body: F,
  ) => {
    try {
      const answer: ChecksnAnswer = await api(call, { ...ADMIN, method: "POST", body });
      client.setQueryData(["checksn"], answer);
      return answer;
    } catch (error) {
      const failed = error as ApiError;
      if (failed.fieldErrors.length)
        form.setFields(failed.fieldErrors.map((e) => ({ name: e.field as never, errors: [e.message] })));
      else void message.error(failed.message);
      return undefined;
    }
  };
  const saveKey = async ({ secret_key }: { secret_key: string }) => {
    const run = async () => {
      if (!(await send(keyForm, "saveSecretKey", { secret_key }))) return;
      keyForm.resetFields();
      void message.success(t("licence.keyDone"));
    };
    // A new key may end the installed serial number's licence: asked first.
    if (status.data?.state !== "licensed") return run();
    modal.confirm({
      title: t("licence.replaceKeyTitle"),
      content: t("licence.replaceKeyText"),
      okText: t("licence.saveKey"),
      okButtonProps: { danger: true },
      cancelText: t("actions.cancel"),
      onOk: run,
    });
  };
  const install = async ({ sn }: { sn: string }) => {
    const answer = await send(serialForm, "sn", { sn });
    if (!answer) return;
    serialForm.resetFields();
    void message.success(t("licence.serialDone", { date: licenceDay(answer.valid_until) }));
    onLicensed?.();
  };

  if (status.isLoading) return <Skeleton active />;
  const data = status.data;
  return (
    <Card className="screen-card" variant="borderless" title={t("licence.title")} data-testid="licence">
      {status.error && (
        <Alert
          type="error"
          showIcon
          message={(status.error as ApiError).message}
          action={<Button onClick={() => void status.refetch()}>{t("actions.retry")}</Button>}
        />
      )}
      {data && (
        <Space direction="vertical" size={16} style={{ width: "100%" }}>
          {data.state !== "expired" && data.days_left <= WARN_DAYS && (
            <Alert type="warning" showIcon message={t("licence.expiresSoon", { date: licenceDay(data.valid_until) })} />
          )}
          <Descriptions column={{ xs: 1, sm: 2 }} size="small">
            <Descriptions.Item label={t("operations:checksn.name")}>
              <Tag color={STATE_COLOR[data.state]} data-testid="licence-state">
                {t(`licence.state.${data.state}`)}
              </Tag>
            </Descriptions.Item>
            <Descriptions.Item label={t("licence.licensee")}>{data.licensee ?? "—"}</Descriptions.Item>
            <Descriptions.Item label={t("licence.validUntil")}>
              <Space size={8} wrap>
                <span data-testid="licence-until">{licenceDay(data.valid_until)}</span>
                {data.state !== "expired" && (
                  <Typography.Text type="secondary">{t("licence.daysLeft", { count: data.days_left })}</Typography.Text>
                )}
              </Space>
            </Descriptions.Item>
            <Descriptions.Item label={t("licence.installation")} span="filled">
              <Space direction="vertical" size={2}>
                <Typography.Text
                  code
                  copyable={{ tooltips: [t("licence.copy"), t("licence.copied")] }}
                  data-testid="licence-installation"
                  style={{ overflowWrap: "anywhere" }}
                >
                  {data.installation}
                </Typography.Text>
                <Typography.Text type="secondary">{t("licence.installationHelp")}</Typography.Text>
              </Space>
            </Descriptions.Item>
          </Descriptions>
          {manage && (
            <>
              <Form form={serialForm} layout="vertical" onFinish={install} requiredMark={false}>
                <Form.Item name="sn" label={t(SERIAL_LABEL)} rules={required(SERIAL_LABEL)}>
                  <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} spellCheck={false} />
                </Form.Item>
                <Button type="primary" htmlType="submit" data-testid="install-serial">
                  {t("licence.install")}
                </Button>
              </Form>
              <Form form={keyForm} layout="vertical" onFinish={saveKey} requiredMark={false}>
                <Form.Item
                  name="secret_key"
                  label={t(KEY_LABEL)}
                  extra={t(data.key_saved ? "licence.keySaved" : "licence.keyMissing")}
                  rules={required(KEY_LABEL)}
                >
                  <Input.Password autoComplete="new-password" />
                </Form.Item>
                <Button htmlType="submit" data-testid="save-key">
                  {t("licence.saveKey")}
                </Button>
              </Form>
            </>
          )}
        </Space>
      )}
    </Card>
  );
}
