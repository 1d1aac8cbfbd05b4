// The envelopes of the API (DESIGN §4): success { code: 200, message: "ok", data }, and an error's
// { code: status, message, data } in the caller's language.
import { HttpError } from "./errors.ts";
import { translate, type Language } from "./i18n.ts";

export const ok = (data: unknown) => ({ code: 200, message: "ok", data });

/** A refusal's envelope: its status, its message in the caller's language and its data. */
export function errorEnvelope(error: HttpError, lng: Language): { code: number; message: string; data: unknown } {
  const message = translate(lng, error.key.includes(":") ? error.key : `errors:${error.key}`, error.params);
  return { code: error.status, message, data: error.data };
}
