// The one client of the /merchant API (DESIGN §4): JSON in, the { code, message, data } envelope
// out, the headers every call carries, and one error type for everything that is not a 200. Every write
// carries an Idempotency-Key, the same one when the same write is sent again after the network failed it
// (src/app/network.ts), and every call tells whether the server could be reached.
import i18n from "i18next";
import type { OperationAnswers } from "../generated/types.ts";
import { retryFailedTranslations } from "./i18n.ts";
import { IDEMPOTENCY_HEADER } from "../schema/idempotency.ts";
import { keyFor, reportReached, settleKey } from "./network.ts";
import { token } from "./session.ts";
import type { FieldError } from "../schema/types.ts";

export type { FieldError };

/** A failed call. `statusCode` is what Refine's notification and auth hooks read. */
export class ApiError extends Error {
  readonly statusCode: number;
  /** The server's per-field errors of a 400 (Refine's own `errors` has another shape). */
  readonly fieldErrors: FieldError[];
  /** The envelope's data, when a refusal carries more than field errors (an import's problems). */
  readonly data: unknown;
  constructor(status: number, message: string, fieldErrors: FieldError[] = [], data?: unknown) {
    super(message);
    this.name = "ApiError";
    this.statusCode = status;
    this.fieldErrors = fieldErrors;
    this.data = data;
  }
}

export type Query = Record<string, string | number | boolean | (string | number)[] | undefined | null>;

export interface CallOptions {
  method?: "GET" | "POST" | "DELETE";
  query?: Query;
  body?: unknown;
  /** /merchant (default) or /admin (versions). */
  base?: string;
  signal?: AbortSignal;
  /**
   * A POST that only reads (a device's lanes), or one whose repetition means nothing (an edit form's presence
   * beat): sent without an Idempotency-Key, so it is never answered from before, nor its answer kept.
   */
  reads?: boolean;
  /** Sent even as the page goes away (a tab closed): fetch's keepalive. */
  keepalive?: boolean;
}

/** A call the network failed (offline, the server out of reach): not an answer of the server's. */
export const notSent = (error: unknown): boolean => error instanceof ApiError && error.statusCode === 0;

export function queryString(query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === "") continue;
    params.set(key, Array.isArray(value) ? value.join(",") : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

function headers(): Record<string, string> {
  const bearer = token();
  return {
    "Content-Type": "application/json",
    Locale: i18n.resolvedLanguage ?? "en",
    Source: "pc",
    ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}),
  };
}

/** Calls answered without a session; any other call needs a token. */
const PUBLIC_CALLS = new Set(["login", "setting-no", "version-check"]);

async function send(call: string, options: CallOptions): Promise<Response> {
  const { method = "GET", query, body, base = "/merchant", signal, keepalive } = options;
  // Signed out (or another tab signed out): answer 401 here rather than ask the server in vain.
  if (!token() && !PUBLIC_CALLS.has(call)) throw new ApiError(401, i18n.t("errors:unauthorized"));
  const url = `${base}/${call}${queryString(query)}`;
  const text = body === undefined ? undefined : JSON.stringify(body);
  // A write, as it is sent: the same write sent again gets the key it was first sent with.
  const write = method !== "GET" && !options.reads && token() ? `${method} ${url}\n${text ?? ""}` : undefined;
  const key = write === undefined ? undefined : keyFor(write);
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: { ...headers(), ...(key ? { [IDEMPOTENCY_HEADER]: key } : {}) },
      body: text,
      signal,
      keepalive,
    });
  } catch (error) {
    // Given up or cut off, the write may have reached the server: its key is kept either way.
    if (write) settleKey(write, key!, false);
    if ((error as Error).name === "AbortError") throw error;
    reportReached(false);
    console.warn(`${method} ${call} failed`, error);
    throw new ApiError(0, i18n.t("common:messages.networkError"));
  }
  reportReached(true);
  // A gateway's 502 or 504 may hide an answer the server gave: the key stays for the write sent again.
  if (write) settleKey(write, key!, response.status < 500);
  return response;
}

async function failure(response: Response): Promise<ApiError> {
  const envelope = (await response.json().catch(() => null)) as {
    message?: string;
    data?: { errors?: FieldError[] };
  } | null;
  return new ApiError(
    response.status,
    envelope?.message ?? i18n.t("common:messages.networkError"),
    envelope?.data?.errors ?? [],
    envelope?.data,
  );
}

/** HTTP 402: the system's licence has expired (SPEC §4); the shell shows the expired page. */
const EXPIRED = 402;

/** A call whose answer its operation's schema declares: the answer is typed by the call's name. */
export type DeclaredCall = keyof OperationAnswers;

/**
 * Calls the API and answers the envelope's data; throws ApiError otherwise. A call whose answer its schema
 * declares is typed from it (src/generated/types.ts, which the API tests hold the server to); any other
 * call (an entity's, or an operation answering a record or a page) takes the type its caller gives.
 */
export async function api<C extends DeclaredCall>(call: C, options?: CallOptions): Promise<OperationAnswers[C]>;
export async function api<T>(call: string, options?: CallOptions): Promise<T>;
export async function api(call: string, options: CallOptions = {}): Promise<unknown> {
  const response = await send(call, options);
  if (response.status === EXPIRED) window.dispatchEvent(new Event("system-expired"));
  if (!response.ok) throw await failure(response);
  // The server answered: translations a network blip kept away can be fetched now.
  retryFailedTranslations();
  const envelope = (await response.json()) as { code: number; message: string; data: unknown };
  if (envelope.code !== 200) throw new ApiError(envelope.code, envelope.message);
  return envelope.data;
}

/** A file a call answered, with the name the server gives it (its UTF-8 name when it sends one). */
export interface FileAnswer {
  blob: Blob;
  name: string;
}

/** Calls a GET that answers a file (an export, a QR code, a template). */
export async function fetchFile(call: string, query: Query = {}): Promise<FileAnswer> {
  const response = await send(call, { query });
  if (!response.ok) throw await failure(response);
  const disposition = response.headers.get("content-disposition") ?? "";
  const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  const name = utf8 ? decodeURIComponent(utf8) : (/filename="?([^";]+)"?/.exec(disposition)?.[1] ?? call);
  return { blob: await response.blob(), name };
}

/** Saves a file in the browser's downloads. */
export function saveFile({ blob, name }: FileAnswer): void {
  const url = URL.createObjectURL(blob);
  const link = Object.assign(document.createElement("a"), { href: url, download: name });
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Calls an export and saves the file it answers under the server's name. */
export async function download(call: string, query: Query): Promise<void> {
  saveFile(await fetchFile(call, query));
}

/** How far a call that tells its progress has got (an import's check: rows checked, share of the file read). */
export interface WorkProgress {
  rows: number;
  read: number;
}

/**
 * Posts one file (multipart, part "file") to a call and answers the envelope's data, reporting the
 * upload's progress (0 to 1): XMLHttpRequest, since fetch reports none. With onWork, the server is asked
 * to tell its own progress as JSON lines (application/x-ndjson), each heard as it comes, the last line
 * being the call's envelope.
 */
export function postFile<C extends DeclaredCall>(
  call: C,
  file: Blob,
  name: string,
  onProgress?: (fraction: number) => void,
  onWork?: (progress: WorkProgress) => void,
): Promise<OperationAnswers[C]>;
export function postFile<T>(
  call: string,
  file: Blob,
  name: string,
  onProgress?: (fraction: number) => void,
  onWork?: (progress: WorkProgress) => void,
): Promise<T>;
export function postFile(
  call: string,
  file: Blob,
  name: string,
  onProgress?: (fraction: number) => void,
  onWork?: (progress: WorkProgress) => void,
): Promise<unknown> {
  const { Authorization, Locale, Source } = headers() as Record<string, string>;
  const form = new FormData();
  form.append("file", file, name);
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", `/merchant/${call}`);
    for (const [key, value] of Object.entries({ Locale, Source, Authorization }))
      if (value) request.setRequestHeader(key, value);
    if (onWork) request.setRequestHeader("Accept", "application/x-ndjson, application/json");
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress?.(event.loaded / event.total);
    };
    // Each complete progress line as it arrives.
    let heard = 0;
    request.onprogress = () => {
      if (!onWork) return;
      const text = request.responseText;
      const end = text.lastIndexOf("\n");
      if (end < heard) return;
      for (const line of text.slice(heard, end).split("\n")) {
        try {
          const parsed = JSON.parse(line) as { progress?: WorkProgress };
          if (parsed.progress) onWork(parsed.progress);
        } catch {
          // not a progress line
        }
      }
      heard = end + 1;
    };
    request.onerror = () => {
      reportReached(false);
      reject(new ApiError(0, i18n.t("common:messages.networkError")));
    };
    request.onload = () => {
      reportReached(true);
      type Envelope = { code?: number; message?: string; data?: { errors?: FieldError[] } };
      let envelope: Envelope | null;
      try {
        // The envelope is the answer, or the last of its lines.
        const lines = request.responseText.trim().split("\n");
        envelope = JSON.parse(lines[lines.length - 1]) as Envelope;
      } catch {
        envelope = null;
      }
      if (request.status === 200 && envelope?.code === 200) resolve(envelope.data);
      else
        reject(
          new ApiError(
            request.status === 200 && envelope?.code ? envelope.code : request.status,
            envelope?.message ?? i18n.t("common:messages.networkError"),
            envelope?.data?.errors ?? [],
            envelope?.data,
          ),
        );
    };
    request.send(form);
  });
}

/** Uploads one file for an entity's field (POST /merchant/upload, multipart); answers its url. */
export async function uploadFile(entity: string, field: string, file: Blob, name: string): Promise<string> {
  const form = new FormData();
  form.append("file", file, name);
  const { Authorization, Locale, Source } = headers() as Record<string, string>;
  let response: Response;
  try {
    response = await fetch(`/merchant/upload${queryString({ entity, field })}`, {
      method: "POST",
      headers: { Locale, Source, ...(Authorization ? { Authorization } : {}) },
      body: form,
    });
  } catch (error) {
    reportReached(false);
    console.warn("upload failed", error);
    throw new ApiError(0, i18n.t("common:messages.networkError"));
  }
  reportReached(true);
  if (!response.ok) throw await failure(response);
  return ((await response.json()) as { data: { url: string } }).data.url;
}
