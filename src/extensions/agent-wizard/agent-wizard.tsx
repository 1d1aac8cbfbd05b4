// Adding an agent (SPEC §2 "agent ... add wizard"), at /manage/add where the agent list's Add leads:
// 1. the account (account, password and its confirmation), 2. superior and role (the superior among the
// caller and its subtree, manage-pid-list; then the roles the caller may grant below its own rank,
// manage-role-down, narrowed to those of the next level down from the chosen superior's role, the rule
// the server holds every new agent to: server/domain/accounts/place.ts, which also refuses a role granting
// what the superior's does not; the parent role is not asked, the server sets the superior's), 3. the profile. Each step is checked by the agent schema's own rules before
// the next; the server's field errors bring the user back to the step that holds the field, with
// everything typed kept.
import { useQuery } from "@tanstack/react-query";
import { App, Button, Card, Form, Result, Select, Space, Steps, type FormInstance } from "antd";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { api, type ApiError, type FieldError } from "../../app/api.ts";
import { allowed } from "../../app/providers/access-control.ts";
import { currentSession } from "../../app/session.ts";
import { forgetUnsaved } from "../../app/unsaved.tsx";
import { formSchema, SchemaForm } from "../../crud/schema-form.tsx";
import { useScreen } from "../../crud/resource.ts";
import type { ExtensionProps } from "../index.ts";

import { only, stepOf, stepSchema, STEPS, type Data, type Schema } from "./steps.ts";
import { entityKeyBase, fieldLabelKey } from "../../schema/keys.ts";
import { nextLevelDown } from "../../schema/permissions.ts";

interface Option {
  id: number;
  title: string;
}

/**
 * The second step's choices: the superiors the caller may pick (searched), and the roles it may grant of
 * the next level down from the chosen superior's role (those of its own direct agents while that level is
 * unknown to it: the server still checks).
 */
function usePlaceOptions(roleForm: FormInstance<Data>) {
  const [search, setSearch] = useState("");

  const roles = useQuery({
    queryKey: ["manage-role-down", 1],
    queryFn: () => api("manage-role-down", { query: { force_down: 1 } }),
  });
  // Every role the caller may grant, with its level: where the chosen superior's role ranks.
  const grantable = useQuery({ queryKey: ["manage-role-down", 0], queryFn: () => api("manage-role-down") });
  const superiors = useQuery({
    queryKey: ["manage-pid-list", search],
    queryFn: () => api<Option[]>("manage-pid-list", { query: { keyword: search || undefined } }),
  });
  const pid = Form.useWatch("pid", roleForm) as number | undefined;
  const superior = useQuery({
    queryKey: ["manage-detail", pid],
    enabled: pid !== undefined,
    queryFn: () => api<{ role_id: number }>("manage-detail", { query: { id: pid } }),
  });
  const superiorLevel = (grantable.data ?? []).find((r) => r.id === superior.data?.role_id)?.level;
  const roleOptions =
    superiorLevel === undefined
      ? (roles.data ?? [])
      : (grantable.data ?? []).filter((r) => nextLevelDown(r.level, superiorLevel));

  return {
    setSearch,
    superiors: superiors.data ?? [],
    superiorsLoading: superiors.isLoading,
    roles: roleOptions,
    rolesLoading: roles.isLoading || grantable.isLoading || superior.isLoading,
  };
}

export function AgentWizard({ route }: ExtensionProps) {
  const { t } = useTranslation(["agent", "common", "validation"]);
  const { message } = App.useApp();
  const navigate = useNavigate();
  const screen = useScreen(route?.resource.identifier ?? "manage_list");
  const { view } = screen;
  const full = useMemo(() => formSchema(view, "create") as Schema, [view]);
  const schemas = useMemo(() => STEPS.map((fields) => stepSchema(full, fields)), [full]);
  const [step, setStep] = useState(0);
  const [data, setData] = useState<Data>(() => ({ pid: currentSession()?.user.agent_id ?? undefined }));
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [roleForm] = Form.useForm<Data>();
  const place = usePlaceOptions(roleForm);

  if (!allowed("agent.add")) return <Result status="403" title="403" subTitle={t("errors:forbidden")} />;

  const label = (field: string) => t(fieldLabelKey(entityKeyBase("agent"), field));
  const next = (part: Data) => {
    setData((current) => ({ ...current, ...part }));
    setStep((current) => current + 1);
  };
  const stepErrors = (index: number) => errors.filter((e) => stepOf(e.field.split("/")[0]) === index);

  const create = async (part: Data) => {
    const values = { ...data, ...part };
    setData(values);
    try {
      const created = await api<{ id: number }>("manage-add", { method: "POST", body: values });
      forgetUnsaved(); // created: going to its page does not ask
      void message.success(t("common:messages.addSuccess"));
      navigate(`/manage/list/show/${created.id}`);
    } catch (error) {
      const failed = error as ApiError;
      setErrors(failed.fieldErrors ?? []);
      void message.error(failed.message || t("common:messages.addFailed"));
      const first = failed.fieldErrors?.[0];
      if (first) {
        const at = stepOf(first.field.split("/")[0]);
        setStep(at);
        if (at === 1)
          roleForm.setFields(stepErrors(1).map((e) => ({ name: e.field.split("/")[0], errors: [e.message] })));
      }
    }
  };

  const pickerRule = (field: string) => ({
    required: true,
    message: t("validation:required", { field: label(field) }),
  });

  return (
    <Card className="screen-card form-card" variant="borderless" data-testid="agent-wizard">
      <Steps
        current={step}
        size="small"
        responsive
        style={{ marginBottom: 24 }}
        items={[
          { title: t("common:agentWizard.account") },
          { title: t("common:agentWizard.role") },
          { title: t("common:agentWizard.profile") },
        ]}
      />
      {step === 0 && (
        <SchemaForm
          key="account"
          view={view}
          schema={schemas[0]}
          initial={only(data, STEPS[0])}
          serverErrors={stepErrors(0)}
          submitText={t("common:agentWizard.next")}
          onCancel={() => navigate(screen.listPath)}
          onSubmit={next}
        />
      )}
      {step === 1 && (
        <Form
          form={roleForm}
          layout="horizontal"
          labelCol={{ xs: { span: 24 }, md: { flex: "200px" } }}
          wrapperCol={{ xs: { span: 24 }, md: { flex: "1 1 0" } }}
          colon={false}
          initialValues={data}
          // Another superior: the role is chosen again, among those below it.
          onValuesChange={(changed: Data) => {
            if ("pid" in changed) roleForm.setFieldValue("role_id", undefined);
          }}
          onFinish={next}
        >
          <Form.Item name="pid" label={label("pid")} rules={[pickerRule("pid")]}>
            <Select
              id="pid"
              showSearch
              filterOption={false}
              onSearch={place.setSearch}
              loading={place.superiorsLoading}
              options={place.superiors.map((a) => ({ value: a.id, label: a.title }))}
              style={{ maxWidth: 360 }}
            />
          </Form.Item>
          <Form.Item name="role_id" label={label("role_id")} rules={[pickerRule("role_id")]}>
            <Select
              id="role_id"
              loading={place.rolesLoading}
              options={place.roles.map((r) => ({ value: r.id, label: r.title }))}
              style={{ maxWidth: 360 }}
            />
          </Form.Item>
          <Form.Item label=" ">
            <Space>
              <Button type="primary" htmlType="submit">
                {t("common:agentWizard.next")}
              </Button>
              <Button onClick={() => setStep(0)}>{t("common:actions.back")}</Button>
            </Space>
          </Form.Item>
        </Form>
      )}
      {step === 2 && (
        <SchemaForm
          key="profile"
          view={view}
          schema={schemas[2]}
          initial={only(data, STEPS[2])}
          serverErrors={stepErrors(2)}
          submitText={t("common:actions.save")}
          cancelText={t("common:actions.back")}
          onCancel={() => setStep(1)}
          onSubmit={create}
        />
      )}
    </Card>
  );
}
