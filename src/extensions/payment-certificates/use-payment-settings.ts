// The payment settings screen's state (payment-settings.tsx lays it out): the stored settings and what the
// stored certificates hold, the certificates uploaded in this visit with the errors on them, and the save,
// which sends what was typed or uploaded and keeps what was left empty.
import { useQuery } from "@tanstack/react-query";
import { App, Form } from "antd";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { api, type ApiError } from "../../app/api.ts";
import { entityView } from "../../crud/model.ts";
import type { PaySettingCertificatesAnswer } from "../../generated/types.ts";
import { MASK } from "../../schema/constants.ts";

type Data = Record<string, unknown>;

/** A certificate field as pay-setting-certificates answers it. */
export type StoredCertificate = PaySettingCertificatesAnswer[number];

/**
 * A certificate's description: as stored (pay-setting-certificates) or as just uploaded (the upload answers
 * it with the whole days until it expires, as the server counts them).
 */
export type CertificateInfo = NonNullable<StoredCertificate["info"]> & { days_left?: number | null };

export function usePaymentSettings() {
  const { t } = useTranslation("common");
  const { message } = App.useApp();
  const view = useMemo(() => entityView("payment_setting"), []);
  const [form] = Form.useForm<Data>();
  // Certificates uploaded in this visit, by field: their address (sent on save) and what they hold.
  const [uploaded, setUploaded] = useState<Record<string, { url: string; info: CertificateInfo }>>({});
  const [saving, setSaving] = useState(false);
  // Certificate fields are not form inputs: their errors (a refused upload, the server's) are kept here.
  const [certErrors, setCertErrors] = useState<Record<string, string>>({});
  const settings = useQuery({ queryKey: ["pay-setting-get"], queryFn: () => api<Data>("pay-setting-get") });
  const stored = useQuery({
    queryKey: ["pay-setting-certificates"],
    queryFn: () => api("pay-setting-certificates"),
  });

  const data = settings.data ?? {};
  const isSet = (field: string) => data[field] === MASK;
  // The form's first values: the stored settings but the secrets, which the server answers only as set.
  const initial: Data = Object.fromEntries(
    view.fields.filter((f) => !f.writeOnly && data[f.name] !== undefined).map((f) => [f.name, data[f.name]]),
  );

  const save = async (values: Data) => {
    const body: Data = { version: data.version };
    // What is left empty and was never set is not sent; a secret left empty is kept (MASK); a plain field
    // emptied is sent empty, for the schema to accept or refuse in words.
    const empty = (value: unknown) => value === undefined || value === null || value === "";
    for (const field of view.fields) {
      const name = field.name;
      const typed = values[name];
      if (field.node["x-certificate"]) {
        if (uploaded[name]) body[name] = uploaded[name].url;
        else if (isSet(name)) body[name] = MASK;
      } else if (field.writeOnly) {
        if (!empty(typed)) body[name] = typed;
        else if (isSet(name)) body[name] = MASK;
      } else if (!empty(typed)) body[name] = typed;
      else if (!empty(initial[name])) body[name] = "";
    }
    setSaving(true);
    try {
      await api("pay-setting-set", { method: "POST", body });
      void message.success(t("common:messages.editSuccess"));
      setUploaded({});
      form.resetFields(view.fields.filter((f) => f.writeOnly).map((f) => f.name));
      await Promise.all([settings.refetch(), stored.refetch()]);
    } catch (error) {
      const failure = error as ApiError;
      const errors = (failure.fieldErrors ?? []).map((e) => ({ name: e.field.split("/")[0], message: e.message }));
      const isCertificate = (name: string) => Boolean(view.byName.get(name)?.node["x-certificate"]);
      form.setFields(errors.filter((e) => !isCertificate(e.name)).map((e) => ({ name: e.name, errors: [e.message] })));
      setCertErrors(Object.fromEntries(errors.filter((e) => isCertificate(e.name)).map((e) => [e.name, e.message])));
      void message.error(failure.message || t("common:messages.editFailed"));
      // The first field refused, in view: the button is at the foot of a long page.
      if (errors.length) requestAnimationFrame(scrollToFirstError);
    } finally {
      setSaving(false);
    }
  };

  /** A certificate field's part: what is stored, what was uploaded in this visit, and why it was refused. */
  const certificate = (name: string) => ({
    stored: stored.data?.find((c) => c.field === name),
    fresh: uploaded[name]?.info,
    error: certErrors[name],
    // An upload is sent on save, and an earlier refusal of the field is gone.
    onUploaded: (url: string, info: CertificateInfo) => {
      setUploaded((current) => ({ ...current, [name]: { url, info } }));
      setCertErrors(({ [name]: _, ...rest }) => rest);
    },
    onFailed: (text: string) => setCertErrors((current) => ({ ...current, [name]: text })),
  });

  return { view, form, settings, stored, initial, isSet, uploaded, saving, save, certificate };
}

/** Brings the form's first field in error into view (a field antd marked, or a certificate's box). */
export function scrollToFirstError(): void {
  document
    .querySelector("[data-testid=payment-settings] :is(.ant-form-item-has-error, .certificate-error)")
    ?.scrollIntoView?.({ block: "center", behavior: "instant" });
}
