// Payment settings (/setting/paySetting, SPEC §3 and §5): the mini-program identity, the social-app wallet,
// the online wallet, the regional provider and two more, each a section. Secrets are write-only: the
// server answers only whether one is set, an empty input keeps it, typing replaces it. Each certificate
// or key shows what the stored file holds (subject, fingerprint, expiry, with a warning within 30 days)
// and is replaced by an upload the server checks is of the field's own kind. The schema says which
// fields there are, which are required and which are secret; this screen only lays them out (its state,
// the uploads and the save are use-payment-settings.ts).
import { CheckCircleOutlined, ExclamationCircleOutlined, UploadOutlined } from "@ant-design/icons";
import {
  App,
  Button,
  Card,
  Col,
  Descriptions,
  Form,
  Input,
  Row,
  Skeleton,
  Space,
  Switch,
  Tag,
  Typography,
  Upload,
} from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { postFile, type ApiError } from "../../app/api.ts";
import { allowed } from "../../app/providers/access-control.ts";
import { formatDate } from "../../crud/format.ts";
import { LoadFailure, RefreshFailed } from "../../crud/record-state.tsx";
import { entityView } from "../../crud/model.ts";
import { entityKeyBase, fieldHelpKey, fieldLabelKey } from "../../schema/keys.ts";
import {
  scrollToFirstError,
  usePaymentSettings,
  type CertificateInfo,
  type StoredCertificate,
} from "./use-payment-settings.ts";

/** The sections, by the fields' name prefix; each field is laid out as its schema says. */
const SECTIONS = [
  { key: "mini", prefix: "mini_" },
  { key: "socialWallet", prefix: "social_wallet_" },
  { key: "onlineWallet", prefix: "online_wallet_" },
  { key: "regional", prefix: "regional_" },
  { key: "others", prefix: "provider_" },
] as const;

/**
 * field -> the switches that need it while on (x-needs' `all`; an `anyOf` choice is the server's to word,
 * the switch's help says it).
 */
const switchesNeeding: ReadonlyMap<string, string[]> = (() => {
  const map = new Map<string, string[]>();
  for (const field of entityView("payment_setting").fields)
    for (const needed of field.node["x-needs"]?.all ?? []) map.set(needed, [...(map.get(needed) ?? []), field.name]);
  return map;
})();

/** Days before expiry from which a certificate is flagged. */
export const EXPIRY_WARNING_DAYS = 30;

export function PaymentSettings() {
  const { t, i18n } = useTranslation(["payment_setting", "common", "validation", "errors"]);
  const { message } = App.useApp();
  const { view, form, settings, stored, initial, isSet, uploaded, saving, save, certificate } = usePaymentSettings();
  const editable = allowed("payment_setting.set");
  const required = new Set(view.schema.required ?? []);
  const label = (field: string) => t(fieldLabelKey(entityKeyBase("payment_setting"), field));
  // A provider in use (its switch on) needs its own fields (x-needs): they are marked and asked for.
  const values = (Form.useWatch([], form) ?? initial) as Record<string, unknown>;
  const neededBy = (name: string) => switchesNeeding.get(name) ?? [];
  const onNow = (name: string) => neededBy(name).find((s) => Number(values[s] ?? initial[s]) === 1);

  if (settings.isLoading) return <Skeleton active />;
  // A failed load says why, with a retry; a failed refresh keeps the settings on screen and says so above.
  const failed = (settings.error ?? stored.error) as ApiError | null;
  const retry = () => void Promise.all([settings.refetch(), stored.refetch()]);
  if (!settings.data) return <LoadFailure error={failed} onRetry={retry} fallback="messages.detailFailed" />;

  const input = (name: string) => {
    const field = view.byName.get(name)!;
    if (field.node["x-certificate"])
      return <CertificateField field={name} disabled={!editable} {...certificate(name)} />;
    if (field.ui.widget === "switch") return <Switch id={name} />;
    const placeholder = field.writeOnly && isSet(name) ? t("common:paySettings.secretSet") : undefined;
    if (field.writeOnly && field.ui.widget === "textarea")
      return <Input.TextArea id={name} rows={3} placeholder={placeholder} autoComplete="off" />;
    if (field.writeOnly) return <Input.Password id={name} placeholder={placeholder} autoComplete="new-password" />;
    return <Input id={name} />;
  };

  const rules = (name: string) => {
    const field = view.byName.get(name)!;
    // A secret or certificate already set stays set when left empty.
    const kept = (field.writeOnly && isSet(name)) || (field.node["x-certificate"] && uploaded[name]);
    if (kept || field.node["x-certificate"]) return [];
    const provider = onNow(name);
    if (provider)
      return [
        { required: true, message: t("errors:providerNeeds", { field: label(name), provider: label(provider) }) },
      ];
    return required.has(name) ? [{ required: true, message: t("validation:required", { field: label(name) }) }] : [];
  };

  return (
    <Form
      form={form}
      layout="vertical"
      initialValues={initial}
      disabled={!editable}
      onFinish={(values) => void save(values)}
      // Refused before it is sent: how many fields need the user, and the first of them in view.
      onFinishFailed={({ errorFields }) => {
        void message.error(t("common:form.fix", { count: errorFields.length }));
        requestAnimationFrame(scrollToFirstError);
      }}
      data-testid="payment-settings"
    >
      <RefreshFailed error={failed} onRetry={retry} />
      <Space direction="vertical" size={16} style={{ width: "100%" }}>
        {SECTIONS.map((section) => (
          <Card
            key={section.key}
            className="screen-card"
            variant="borderless"
            title={t(`common:paySettings.sections.${section.key}`)}
            data-testid={`pay-section-${section.key}`}
          >
            <Row gutter={24}>
              {view.fields
                .filter((f) => f.name.startsWith(section.prefix))
                .map((f) => (
                  <Col key={f.name} xs={24} lg={f.node["x-certificate"] || f.ui.widget === "textarea" ? 24 : 12}>
                    <Form.Item
                      name={f.node["x-certificate"] ? undefined : f.name}
                      label={label(f.name)}
                      required={required.has(f.name) || onNow(f.name) !== undefined}
                      rules={rules(f.name)}
                      dependencies={f.node["x-certificate"] ? undefined : neededBy(f.name)}
                      valuePropName={f.ui.widget === "switch" ? "checked" : "value"}
                      getValueFromEvent={f.ui.widget === "switch" ? (on: boolean) => (on ? 1 : 0) : undefined}
                      getValueProps={
                        f.ui.widget === "switch" ? (value: unknown) => ({ checked: value === 1 }) : undefined
                      }
                      extra={
                        i18n.exists(fieldHelpKey(entityKeyBase("payment_setting"), f.name))
                          ? t(fieldHelpKey(entityKeyBase("payment_setting"), f.name))
                          : undefined
                      }
                    >
                      {input(f.name)}
                    </Form.Item>
                  </Col>
                ))}
            </Row>
          </Card>
        ))}
        {editable && (
          <Button type="primary" htmlType="submit" loading={saving}>
            {t("common:actions.save")}
          </Button>
        )}
      </Space>
    </Form>
  );
}

interface CertificateFieldProps {
  field: string;
  disabled: boolean;
  stored?: StoredCertificate;
  fresh?: CertificateInfo;
  /** Why the last upload (or the save) was refused. */
  error?: string;
  onUploaded: (url: string, info: CertificateInfo) => void;
  onFailed: (message: string) => void;
}

/** A certificate or key: what the stored (or just uploaded) file holds, and an upload to replace it. */
function CertificateField({ field, disabled, stored, fresh, error, onUploaded, onFailed }: CertificateFieldProps) {
  const { t } = useTranslation(["common"]);
  const [busy, setBusy] = useState(false);
  const info = fresh ?? stored?.info ?? null;
  const days = (fresh ? fresh.days_left : stored?.days_left) ?? null;
  const status =
    days === null ? null : days < 0 ? (
      <Tag color="red" icon={<ExclamationCircleOutlined />}>
        {t("paySettings.expired", { date: formatDate(info!.valid_to!) })}
      </Tag>
    ) : days <= EXPIRY_WARNING_DAYS ? (
      <Tag color="orange" icon={<ExclamationCircleOutlined />} data-testid="expiry-warning">
        {t("paySettings.expiresIn", { count: days, date: formatDate(info!.valid_to!) })}
      </Tag>
    ) : (
      <Tag color="green" icon={<CheckCircleOutlined />}>
        {t("paySettings.validUntil", { date: formatDate(info!.valid_to!) })}
      </Tag>
    );
  return (
    <div className="certificate-field" data-testid={`certificate-${field}`}>
      {info ? (
        <Descriptions size="small" column={1} bordered className="certificate-info">
          {info.subject && (
            <Descriptions.Item label={t("paySettings.subject")}>
              <Typography.Text style={{ whiteSpace: "pre-line" }}>{info.subject}</Typography.Text>
            </Descriptions.Item>
          )}
          {info.key && <Descriptions.Item label={t("paySettings.key")}>{info.key}</Descriptions.Item>}
          <Descriptions.Item label={t("paySettings.fingerprint")}>
            <Typography.Text code copyable className="fingerprint">
              {info.fingerprint}
            </Typography.Text>
          </Descriptions.Item>
          {info.locked && (
            <Descriptions.Item label={t("paySettings.subject")}>{t("paySettings.locked")}</Descriptions.Item>
          )}
          {status && <Descriptions.Item label={t("paySettings.expiry")}>{status}</Descriptions.Item>}
        </Descriptions>
      ) : (
        <Typography.Text type={stored?.problem === "unreadable" ? "danger" : "secondary"}>
          {t(stored?.problem === "unreadable" ? "paySettings.unreadable" : "paySettings.none")}
        </Typography.Text>
      )}
      {fresh && <Tag color="blue">{t("paySettings.notSaved")}</Tag>}
      {error && (
        <Typography.Text type="danger" className="certificate-error" role="alert">
          {error}
        </Typography.Text>
      )}
      <Upload
        showUploadList={false}
        disabled={disabled}
        customRequest={({ file }) => {
          setBusy(true);
          const blob = file as File;
          postFile<{ url: string; certificate: CertificateInfo }>(
            `upload?entity=payment_setting&field=${field}`,
            blob,
            blob.name,
          )
            .then((answer) => onUploaded(answer.url, answer.certificate))
            .catch((error: ApiError) => onFailed(error.fieldErrors?.[0]?.message ?? error.message))
            .finally(() => setBusy(false));
        }}
      >
        <Button icon={<UploadOutlined />} loading={busy} disabled={disabled} style={{ marginTop: 8 }}>
          {t(info ? "paySettings.replace" : "paySettings.upload")}
        </Button>
      </Upload>
    </div>
  );
}
