// A spreadsheet import, as a wizard (of every entity that declares x-import, issues 11 and 33): 1. download
// the template (XLSX, in the user's language); 2. upload the filled file, with the upload's progress, and
// the server checks it; 3. the problems, by row and column, or the rows ready to import, and for a file
// whose headers are in words of its own a select per unmatched column (the server remembers the choice
// once an import is confirmed); 4. confirm: every row is written or none, and the result says how many
// were created and how many already existed.
import { CheckCircleOutlined, DownloadOutlined, InboxOutlined } from "@ant-design/icons";
import {
  Alert,
  App,
  Button,
  Card,
  Form,
  Grid,
  Progress,
  Result,
  Select,
  Space,
  Statistic,
  Steps,
  Table,
  Typography,
  Upload,
  type TableColumnsType,
} from "antd";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { download, postFile, type ApiError, type WorkProgress } from "../../app/api.ts";
import { allowed } from "../../app/providers/access-control.ts";
import type { MachineImportCheckAnswer } from "../../generated/types.ts";

/** What every import's check and confirm answer (codegen/imports.ts). */
export type ImportAnswer = MachineImportCheckAnswer;
type Problem = ImportAnswer["problems"][number];

type Stage =
  | { step: "upload" }
  | { step: "uploading"; name: string; progress: number; work?: WorkProgress }
  | { step: "checked"; file: File; answer: ImportAnswer }
  | { step: "confirming"; file: File; answer: ImportAnswer; work?: WorkProgress }
  | { step: "done"; answer: ImportAnswer };

const STEP_INDEX: Record<Stage["step"], number> = { upload: 1, uploading: 1, checked: 2, confirming: 3, done: 3 };

export interface ImportWizardProps {
  calls: { template: string; check: string; confirm: string };
  permission: string;
  /** What the wizard's words (entity_import's wizard.* keys) interpolate: the entity's name. */
  words?: Record<string, string>;
  /** The done page's way back (a link to the list, or closing the dialog). */
  back: ReactNode;
  /** The fields a header may be mapped to by hand, with their labels; none: headers are matched by name only. */
  fields?: { field: string; label: string }[];
}

/** A call with the user's mapping in its query, when there is one. */
const withMapping = (call: string, mapping: Record<string, string> | undefined) =>
  mapping && Object.keys(mapping).length ? `${call}?mapping=${encodeURIComponent(JSON.stringify(mapping))}` : call;

const ns = "entity_import";

export function ImportWizard({ calls, permission, words, back, fields }: ImportWizardProps) {
  const { t: translate, i18n } = useTranslation([ns, "common", "errors"]);
  const { language } = i18n;
  const t = (key: string, params?: Record<string, unknown>) =>
    translate(key.includes(":") ? key : `${ns}:${key}`, { ...words, ...params });
  const { message } = App.useApp();
  const [stage, setStage] = useState<Stage>({ step: "upload" });
  const [error, setError] = useState<string>();
  const [templateBusy, setTemplateBusy] = useState(false);
  const [mapping, setMapping] = useState<Record<string, string>>();

  if (!allowed(permission)) return <Result status="403" title="403" subTitle={t("errors:forbidden")} />;

  const template = async () => {
    setTemplateBusy(true);
    try {
      await download(calls.template, {});
    } catch (e) {
      message.error((e as ApiError).message);
    } finally {
      setTemplateBusy(false);
    }
  };

  const check = async (file: File, chosen = mapping) => {
    setError(undefined);
    setStage({ step: "uploading", name: file.name, progress: 0 });
    try {
      const answer = await postFile<ImportAnswer>(
        withMapping(calls.check, chosen),
        file,
        file.name,
        (progress) => setStage({ step: "uploading", name: file.name, progress }),
        (work) => setStage({ step: "uploading", name: file.name, progress: 1, work }),
      );
      setStage({ step: "checked", file, answer });
    } catch (e) {
      setError((e as ApiError).fieldErrors[0]?.message ?? (e as ApiError).message);
      setStage({ step: "upload" });
    }
  };

  const confirm = async (file: File, checked: ImportAnswer) => {
    setError(undefined);
    setStage({ step: "confirming", file, answer: checked });
    try {
      const answer = await postFile<ImportAnswer>(
        withMapping(calls.confirm, mapping),
        file,
        file.name,
        undefined,
        (work) => setStage({ step: "confirming", file, answer: checked, work }),
      );
      setStage({ step: "done", answer });
    } catch (e) {
      const refused = e as ApiError;
      const data = refused.data as Partial<ImportAnswer> | undefined;
      // The devices changed since the check: the new problems are shown as the check's.
      if (data?.problems) setStage({ step: "checked", file, answer: data as ImportAnswer });
      else setStage({ step: "checked", file, answer: checked });
      setError(refused.message);
    }
  };

  const restart = () => {
    setError(undefined);
    setMapping(undefined);
    setStage({ step: "upload" });
  };

  return (
    <Card className="import-wizard" title={t("wizard.title")}>
      <Steps
        className="import-wizard-steps"
        // The server checking what has arrived is the check's step.
        current={stage.step === "uploading" && stage.work ? STEP_INDEX.checked : STEP_INDEX[stage.step]}
        status={stage.step === "done" ? "finish" : undefined}
        size="small"
        items={[
          { title: t("wizard.steps.template") },
          { title: t("wizard.steps.upload") },
          { title: t("wizard.steps.check") },
          { title: t("wizard.steps.result") },
        ]}
      />
      <Space direction="vertical" size="large" className="import-wizard-body">
        <Space wrap align="center">
          <Typography.Text>{t("wizard.templateHint")}</Typography.Text>
          <Button icon={<DownloadOutlined />} loading={templateBusy} onClick={() => void template()}>
            {t("wizard.downloadTemplate")}
          </Button>
        </Space>
        {error && <Alert type="error" showIcon message={error} className="import-wizard-error" />}

        {(stage.step === "upload" || stage.step === "uploading") && (
          <>
            <Upload.Dragger
              accept=".xlsx,.csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,text/csv"
              multiple={false}
              showUploadList={false}
              disabled={stage.step === "uploading"}
              beforeUpload={(file) => {
                void check(file);
                return false;
              }}
            >
              <p className="ant-upload-drag-icon">
                <InboxOutlined />
              </p>
              <p className="ant-upload-text">{t("wizard.drop")}</p>
              <p className="ant-upload-hint">{t("wizard.dropHint")}</p>
            </Upload.Dragger>
            {stage.step === "uploading" && (
              <div className="import-wizard-progress" role="status">
                <Typography.Text>
                  {stage.work
                    ? t("wizard.checking", { name: stage.name, rows: stage.work.rows.toLocaleString(language) })
                    : t("wizard.uploading", { name: stage.name })}
                </Typography.Text>
                <Progress percent={Math.round((stage.work ? stage.work.read : stage.progress) * 100)} status="active" />
              </div>
            )}
          </>
        )}

        {(stage.step === "checked" || stage.step === "confirming") && fields && (
          <Mapping
            key={JSON.stringify(stage.answer.headers)}
            answer={stage.answer}
            mapping={mapping ?? {}}
            fields={fields}
            t={t}
            busy={stage.step === "confirming"}
            onCheck={(chosen) => {
              setMapping(chosen);
              void check(stage.file, chosen);
            }}
          />
        )}
        {(stage.step === "checked" || stage.step === "confirming") && (
          <Checked
            t={t}
            answer={stage.answer}
            busy={stage.step === "confirming"}
            work={stage.step === "confirming" ? stage.work : undefined}
            language={language}
            onConfirm={() => void confirm(stage.file, stage.answer)}
            onRestart={restart}
          />
        )}

        {stage.step === "done" && (
          <Result
            status="success"
            icon={<CheckCircleOutlined />}
            title={t("wizard.doneTitle", { count: stage.answer.created })}
            subTitle={t("wizard.doneSkipped", { count: stage.answer.skipped })}
            extra={[
              <span key="back">{back}</span>,
              <Button key="again" onClick={restart}>
                {t("wizard.another")}
              </Button>,
            ]}
          />
        )}
      </Space>
    </Card>
  );
}

type T = (key: string, params?: Record<string, unknown>) => string;

/**
 * The file's headers no name matched, each with a select of the fields no name took (and those the user
 * chose before, to change them); checking again sends the choice.
 */
function Mapping({
  answer,
  mapping,
  fields,
  t,
  busy,
  onCheck,
}: {
  answer: ImportAnswer;
  mapping: Record<string, string>;
  fields: { field: string; label: string }[];
  t: T;
  busy: boolean;
  onCheck: (mapping: Record<string, string>) => void;
}) {
  const [chosen, setChosen] = useState(mapping);
  const headers = answer.headers ?? [];
  const open = headers.filter((h) => !h.field || h.header in mapping);
  if (open.length === 0) return null;
  const byName = new Set(headers.filter((h) => h.field && !(h.header in mapping)).map((h) => h.field));
  const options = [
    { value: "", label: t("wizard.mapNone") },
    ...fields.filter((f) => !byName.has(f.field)).map((f) => ({ value: f.field, label: f.label })),
  ];
  return (
    <Card size="small" className="import-wizard-mapping">
      <Typography.Paragraph strong>{t("wizard.mapping")}</Typography.Paragraph>
      <Form layout="vertical">
        {open.map((h) => (
          <Form.Item key={h.header} label={h.header}>
            <Select
              aria-label={h.header}
              className="import-wizard-map"
              value={chosen[h.header] ?? ""}
              options={options}
              onChange={(field: string) =>
                setChosen((current) => {
                  const next = { ...current };
                  if (field) next[h.header] = field;
                  else delete next[h.header];
                  return next;
                })
              }
            />
          </Form.Item>
        ))}
      </Form>
      <Button disabled={busy} onClick={() => onCheck(chosen)}>
        {t("wizard.checkAgain")}
      </Button>
    </Card>
  );
}

function Checked({
  t,
  answer,
  busy,
  work,
  language,
  onConfirm,
  onRestart,
}: {
  t: T;
  answer: ImportAnswer;
  busy: boolean;
  /** How far the confirm has got, while it writes. */
  work?: WorkProgress;
  language: string;
  onConfirm: () => void;
  onRestart: () => void;
}) {
  const toCreate = answer.problem_count ? 0 : answer.rows - answer.skipped;
  // On a phone the row and its column share one narrow cell, so the problem keeps the width to be read.
  const phone = !Grid.useBreakpoint().sm;
  const columns: TableColumnsType<Problem> = phone
    ? [
        {
          title: `${t("wizard.row")} · ${t("wizard.column")}`,
          key: "where",
          width: 112,
          render: (_, p) => (
            <>
              <div>{p.row}</div>
              <Typography.Text type="secondary">{p.column}</Typography.Text>
            </>
          ),
        },
        { title: t("wizard.message"), dataIndex: "message" },
      ]
    : [
        { title: t("wizard.row"), dataIndex: "row", width: 80 },
        { title: t("wizard.column"), dataIndex: "column", width: 180 },
        { title: t("wizard.message"), dataIndex: "message" },
      ];
  return (
    <Space direction="vertical" size="middle" className="import-wizard-body">
      <Space size="large" wrap>
        <Statistic title={t("wizard.rows")} value={answer.rows} />
        <Statistic title={t("wizard.toCreate")} value={toCreate} />
        <Statistic title={t("wizard.skipped")} value={answer.skipped} />
        <Statistic
          title={t("wizard.problems")}
          value={answer.problem_count}
          valueStyle={answer.problem_count ? { color: "#cf1322" } : undefined}
        />
      </Space>
      {answer.problem_count > 0 ? (
        <>
          <Alert
            type="error"
            showIcon
            message={t("wizard.hasProblems", { count: answer.problem_count })}
            description={
              answer.problem_count > answer.problems.length
                ? t("wizard.firstProblems", { count: answer.problems.length })
                : undefined
            }
          />
          <Table<Problem>
            className="import-wizard-problems"
            size="small"
            rowKey={(p) => `${p.row}-${p.field}-${p.message}`}
            dataSource={answer.problems}
            pagination={{ pageSize: 20, hideOnSinglePage: true, showSizeChanger: false }}
            columns={columns}
          />
          <Button type="primary" onClick={onRestart}>
            {t("wizard.fixAndRetry")}
          </Button>
        </>
      ) : (
        <>
          <Alert
            type="success"
            showIcon
            message={t("wizard.ready", { count: toCreate })}
            description={answer.skipped ? t("wizard.readySkipped", { count: answer.skipped }) : undefined}
          />
          <Space>
            <Button type="primary" loading={busy} onClick={onConfirm}>
              {t("wizard.confirm", { count: toCreate })}
            </Button>
            <Button disabled={busy} onClick={onRestart}>
              {t("wizard.another")}
            </Button>
          </Space>
          {busy && work && (
            <div className="import-wizard-progress" role="status">
              <Typography.Text>{t("wizard.importing", { rows: work.rows.toLocaleString(language) })}</Typography.Text>
              <Progress percent={Math.round(work.read * 100)} status="active" />
            </div>
          )}
        </>
      )}
    </Space>
  );
}
