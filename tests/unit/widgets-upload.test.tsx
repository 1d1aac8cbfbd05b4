// @vitest-environment jsdom
// src/widgets/upload-widget.tsx: files refused before sending, and the url kept after an upload.
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { WidgetProps } from "@rjsf/utils";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { entityView } from "../../src/crud/model.ts";
import type { XUpload } from "../../src/schema/types.ts";
import { UploadWidget, uploadProblem } from "../../src/widgets/upload-widget.tsx";
import { AntdRoot } from "./antd-root.ts";
import { setupI18n, signIn } from "./dom-setup.ts";

const MB = 1024 * 1024;
const setting = entityView("system_setting");
const mp3 = setting.byName.get("bg_music")!.upload!;
const image = setting.byName.get("logo")!.upload!;
const certificate = entityView("payment_setting").byName.get("social_wallet_cert_p12")!.upload!;

beforeAll(async () => {
  await setupI18n(["common"]);
  signIn(["system_setting.set"]);
});

describe("uploadProblem", () => {
  it("accepts a file of an accepted type within the size", () => {
    expect(uploadProblem({ type: "image/png", size: 2 * MB }, image)).toBeUndefined();
    expect(uploadProblem({ type: "audio/mpeg", size: MB }, mp3)).toBeUndefined();
  });

  it("refuses a type the field does not accept", () => {
    expect(uploadProblem({ type: "application/pdf", size: 1000 }, image)).toBe("messages.uploadFormat");
    expect(uploadProblem({ type: "", size: 1000 }, image)).toBe("messages.uploadFormat");
  });

  it("says only mp3 is allowed on an mp3-only field", () => {
    expect(uploadProblem({ type: "audio/wav", size: 1000 }, mp3)).toBe("messages.onlyMp3");
    // A field that takes several audio types gets the general message.
    const audio = entityView("machine_ad").byName.get("audio")!.upload!;
    expect(uploadProblem({ type: "video/mp4", size: 1000 }, audio)).toBe("messages.uploadFormat");
  });

  it("refuses a file over the field's size", () => {
    expect(uploadProblem({ type: "image/png", size: image.maxBytes + 1 }, image)).toBe("messages.uploadSize");
    expect(uploadProblem({ type: "image/png", size: image.maxBytes }, image)).toBeUndefined();
  });

  it("leaves a certificate's type to the server, not its size", () => {
    expect(uploadProblem({ type: "", size: 1000 }, certificate)).toBeUndefined();
    expect(uploadProblem({ type: "", size: certificate.maxBytes + 1 }, certificate)).toBe("messages.uploadSize");
  });
});

function renderWidget(upload: XUpload, onChange = vi.fn()) {
  const props = {
    id: "root_bg_music",
    name: "bg_music",
    value: undefined,
    onChange,
    onBlur: vi.fn(),
    onFocus: vi.fn(),
    options: { entity: "system_setting", field: "bg_music", upload },
    schema: { type: "string" },
    label: "Background music",
    disabled: false,
    readonly: false,
  } as unknown as WidgetProps;
  render(
    <AntdRoot>
      <UploadWidget {...props} />
    </AntdRoot>,
  );
  return onChange;
}

const fileInput = () => document.querySelector<HTMLInputElement>("input[type=file]")!;

describe("UploadWidget", () => {
  it("refuses a WAV on an mp3-only field with the translated message, sending nothing", async () => {
    const fetch = vi.fn();
    vi.stubGlobal("fetch", fetch);
    const onChange = renderWidget(mp3);
    const user = userEvent.setup({ applyAccept: false, pointerEventsCheck: 0 });
    await user.upload(fileInput(), new File(["RIFF"], "song.wav", { type: "audio/wav" }));
    expect(await screen.findByText("Only mp3 files are allowed")).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
    expect(onChange).not.toHaveBeenCalled();
  });

  it("sends an accepted file to the upload call and keeps the url it answers", async () => {
    const fetch = vi.fn(
      async (_url: string, _init: RequestInit) =>
        new Response(JSON.stringify({ code: 200, message: "ok", data: { url: "/uploads/system_setting/a.mp3" } })),
    );
    vi.stubGlobal("fetch", fetch);
    const onChange = renderWidget(mp3);
    const user = userEvent.setup({ applyAccept: false, pointerEventsCheck: 0 });
    await user.upload(fileInput(), new File(["ID3"], "song.mp3", { type: "audio/mpeg" }));
    await waitFor(() => expect(onChange).toHaveBeenCalledWith("/uploads/system_setting/a.mp3"));
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe("/merchant/upload?entity=system_setting&field=bg_music");
    expect(init.method).toBe("POST");
    expect((init.body as FormData).get("file")).toBeInstanceOf(File);
  });
});
