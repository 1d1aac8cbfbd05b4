// The device import (SPEC /machine/import, issue 11): a wizard. 1. download the template (XLSX, in the
// user's language); 2. upload the filled file, with the upload's progress, and the server checks it;
// 3. the problems, by row and column, or the rows ready to import; 4. confirm: every row is written or
// none, and the result says how many were created and how many already existed.
import { CheckCircleOutlined, DownloadOutlined, InboxOutlined } from "@ant-design/icons";
import { Alert, App, Button, Card, Progress, Result, Space, Statistic, Steps, Table, Typography, Upload } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { download, postFile, type ApiError } from "../../app/api.ts";
import { allowed } from "../../app/providers/access-control.ts";
import type { MachineImportCheckAnswer } from "../../generated/types.ts";

/** What the check and the import answer alike (their schemas declare the same shape). */
type ImportAnswer = MachineImportCheckAnswer;
type Problem = ImportAnswer["problems"][number];

type Stage =
  | { step: "upload" }
  | { step: "uploading"; name: string; progress: number }
  | { step: "checked"; file: File; answer: ImportAnswer }
  | { step: "confirming"; file: File; answer: ImportAnswer }
  | { step: "done"; answer: ImportAnswer };

const STEP_INDEX: Record<Stage["step"], number> = { upload: 1, uploading: 1, checked: 2, confirming: 3, done: 3 };

export function MachineImport() {
  const { t } = useTranslation(["machine_import", "common", "machine", "errors"]);
  const { message } = App.useApp();
  const [stage, setStage] = useState<Stage>({ step: "upload" });
  const [error, setError] = useState<string>();
  const [templateBusy, setTemplateBusy] = useState(false);

  if (!allowed("machine.import")) return <Result status="403" title="403" subTitle={t("errors:forbidden")} />;

  const template = async () => {
    setTemplateBusy(true);
    try {
      await download("machine-import-template", {});
    } catch (e) {
      message.error((e as ApiError).message);
    } finally {
      setTemplateBusy(false);
    }
  };

  const check = async (file: File) => {
    setError(undefined);
    setStage({ step: "uploading", name: file.name, progress: 0 });
    try {
      const answer = await postFile("machine-import-check", file, file.name, (progress) =>
        setStage({ step: "uploading", name: file.name, progress }),
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
      const answer = await postFile("machine-import-confirm", file, file.name);
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
    setStage({ step: "upload" });
  };

  return (
    <Card className="machine-import" title={t("wizard.title")}>
      <Steps
        className="machine-import-steps"
        current={STEP_INDEX[stage.step]}
        status={stage.step === "done" ? "finish" : undefined}
        size="small"
        items={[
          { title: t("wizard.steps.template") },
          { title: t("wizard.steps.upload") },
          { title: t("wizard.steps.check") },
          { title: t("wizard.steps.result") },
        ]}
      />
      <Space direction="vertical" size="large" className="machine-import-body">
        <Space wrap align="center">
          <Typography.Text>{t("wizard.templateHint")}</Typography.Text>
          <Button icon={<DownloadOutlined />} loading={templateBusy} onClick={() => void template()}>
            {t("wizard.downloadTemplate")}
          </Button>
        </Space>
        {error && <Alert type="error" showIcon message={error} className="machine-import-error" />}

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
              <div className="machine-import-progress">
                <Typography.Text>{t("wizard.uploading", { name: stage.name })}</Typography.Text>
                <Progress percent={Math.round(stage.progress * 100)} status="active" />
              </div>
            )}
          </>
        )}

        {(stage.step === "checked" || stage.step === "confirming") && (
          <Checked
            answer={stage.answer}
            busy={stage.step === "confirming"}
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
              <Link key="list" to="/machine/list">
                <Button type="primary">{t("wizard.toDevices")}</Button>
              </Link>,
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

function Checked({
  answer,
  busy,
  onConfirm,
  onRestart,
}: {
  answer: ImportAnswer;
  busy: boolean;
  onConfirm: () => void;
  onRestart: () => void;
}) {
  const { t } = useTranslation(["machine_import", "common"]);
  const toCreate = answer.problem_count ? 0 : answer.rows - answer.skipped;
  return (
    <Space direction="vertical" size="middle" className="machine-import-body">
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
            className="machine-import-problems"
            size="small"
            rowKey={(p) => `${p.row}-${p.field}-${p.message}`}
            dataSource={answer.problems}
            pagination={{ pageSize: 20, hideOnSinglePage: true, showSizeChanger: false }}
            columns={[
              { title: t("wizard.row"), dataIndex: "row", width: 80 },
              { title: t("wizard.column"), dataIndex: "column", width: 180 },
              { title: t("wizard.message"), dataIndex: "message" },
            ]}
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
        </>
      )}
    </Space>
  );
}
