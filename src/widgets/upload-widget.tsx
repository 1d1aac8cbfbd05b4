// Image, video, audio and certificate uploads (x-upload): the type and size are checked before
// sending (the server checks the content again), images are compressed toward their target, and
// the field keeps the url the server answers. One widget for a single file and for a list.
import type { WidgetProps } from "@rjsf/utils";
import { App, Button, Upload, type UploadFile } from "antd";
import { PlusOutlined, UploadOutlined } from "@ant-design/icons";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { uploadFile, type ApiError } from "../app/api.ts";
import type { XUpload } from "../schema/types.ts";
import { compressImage } from "./compress.ts";

const MB = 1024 * 1024;

/** The message key of a file the field refuses, or undefined when it may be sent. */
export function uploadProblem(file: { type: string; size: number }, rules: XUpload): string | undefined {
  const mp3Only = rules.accept.length === 1 && rules.accept[0] === "audio/mpeg";
  if (rules.kind !== "certificate" && !rules.accept.includes(file.type))
    return mp3Only ? "messages.onlyMp3" : "messages.uploadFormat";
  if (file.size > rules.maxBytes) return "messages.uploadSize";
  return undefined;
}

const toFile = (url: string, i: number): UploadFile => ({
  uid: `${i}:${url}`,
  name: url.split("/").pop() ?? url,
  status: "done",
  url: url.startsWith("private:") ? undefined : url,
});

export function UploadWidget(props: WidgetProps) {
  const { id, value, onChange, disabled, readonly, options, schema } = props;
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(0);
  const rules = options.upload as XUpload;
  const multiple = schema.type === "array";
  const urls = (multiple ? ((value as unknown[] | undefined) ?? []) : [value]).filter(
    (url): url is string => typeof url === "string" && url !== "",
  );
  // Several files may finish uploading before the next render: append to the latest list.
  const latest = useRef(urls);
  latest.current = urls;
  const max = multiple ? (schema.maxItems ?? 20) : 1;
  const image = rules.kind === "image";

  const beforeUpload = async (file: File) => {
    const problem = uploadProblem(file, rules);
    if (problem) {
      message.error(t(problem, { limit: `${Math.round(rules.maxBytes / MB)} MB` }));
      return Upload.LIST_IGNORE;
    }
    setBusy((n) => n + 1);
    try {
      const ready = image && rules.compressTo ? await compressImage(file, rules.compressTo) : file;
      const url = await uploadFile(String(options.entity), String(options.field), ready, file.name);
      if (multiple) {
        latest.current = [...latest.current, url];
        onChange(latest.current);
      } else onChange(url);
    } catch (error) {
      message.error((error as ApiError).message);
    } finally {
      setBusy((n) => n - 1);
    }
    return Upload.LIST_IGNORE; // the field's value is the list; antd keeps none of its own
  };

  const remove = (file: UploadFile) => {
    const index = Number(file.uid.split(":")[0]);
    const next = urls.filter((_, i) => i !== index);
    onChange(multiple ? next : undefined);
  };

  const locked = disabled || readonly;
  const full = urls.length >= max;
  return (
    <Upload
      id={id}
      accept={rules.kind === "certificate" ? ".p12,.pem,.key,.crt,.cer" : rules.accept.join(",")}
      listType={image ? "picture-card" : "text"}
      fileList={urls.map(toFile)}
      multiple={multiple}
      disabled={locked}
      beforeUpload={beforeUpload}
      onRemove={locked ? undefined : remove}
      showUploadList={{ showRemoveIcon: !locked }}
    >
      {!locked &&
        !full &&
        (image ? (
          <button type="button" className="upload-tile" aria-label={t("actions.upload")}>
            <PlusOutlined />
            <div>{busy ? t("form.uploading") : t("actions.upload")}</div>
          </button>
        ) : (
          <Button icon={<UploadOutlined />} loading={busy > 0}>
            {t("actions.upload")}
          </Button>
        ))}
    </Upload>
  );
}
