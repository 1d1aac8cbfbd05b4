// The one client of the /merchant API (DESIGN §4): JSON in, the { code, message, data } envelope
// out, the headers every call carries, and one error type for everything that is not a 200.
import i18n from "i18next";
import { token } from "./session.ts";

export interface FieldError {
  /** Path of the field, e.g. "title" or "packages/0/fee". */
  field: string;
  keyword: string;
  message: string;
}

/** A failed call. `statusCode` is what Refine's notification and auth hooks read. */
export class ApiError extends Error {
  readonly statusCode: number;
  /** The server's per-field errors of a 400 (Refine's own `errors` has another shape). */
  readonly fieldErrors: FieldError[];
  constructor(status: number, message: string, fieldErrors: FieldError[] = []) {
    super(message);
    this.name = "ApiError";
    this.statusCode = status;
    this.fieldErrors = fieldErrors;
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
}

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
  const { method = "GET", query, body, base = "/merchant", signal } = options;
  // Signed out (or another tab signed out): answer 401 here rather than ask the server in vain.
  if (!token() && !PUBLIC_CALLS.has(call)) throw new ApiError(401, i18n.t("errors:unauthorized"));
  try {
    return await fetch(`${base}/${call}${queryString(query)}`, {
      method,
      headers: headers(),
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if ((error as Error).name === "AbortError") throw error;
    console.warn(`${method} ${call} failed`, error);
    throw new ApiError(0, i18n.t("common:messages.networkError"));
  }
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
  );
}

/** Calls the API and answers the envelope's data; throws ApiError otherwise. */
/** HTTP 402: the system's licence has expired (SPEC §4); the shell shows the expired page. */
const EXPIRED = 402;

export async function api<T>(call: string, options: CallOptions = {}): Promise<T> {
  const response = await send(call, options);
  if (response.status === EXPIRED) window.dispatchEvent(new Event("system-expired"));
  if (!response.ok) throw await failure(response);
  const envelope = (await response.json()) as { code: number; message: string; data: T };
  if (envelope.code !== 200) throw new ApiError(envelope.code, envelope.message);
  return envelope.data;
}

/** Calls an export and saves the file it answers under the server's name. */
export async function download(call: string, query: Query): Promise<void> {
  const response = await send(call, { query });
  if (!response.ok) throw await failure(response);
  const disposition = response.headers.get("content-disposition") ?? "";
  const name = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? `${call}.csv`;
  const url = URL.createObjectURL(await response.blob());
  const link = Object.assign(document.createElement("a"), { href: url, download: name });
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
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
    console.warn("upload failed", error);
    throw new ApiError(0, i18n.t("common:messages.networkError"));
  }
  if (!response.ok) throw await failure(response);
  return ((await response.json()) as { data: { url: string } }).data.url;
}
