// One error type for the API. Handlers throw an HttpError with a message key; the app's error
// handler turns it into the { code, message, data } envelope in the caller's language.
import type { FieldError } from "../../src/schema/types.ts";

export type { FieldError };

export class HttpError extends Error {
  constructor(
    readonly status: number,
    /** Key in the errors namespace (or a full ns:key). */
    readonly key: string,
    readonly params: Record<string, unknown> = {},
    readonly data: unknown = null,
  ) {
    super(key);
  }
}

export const badRequest = (errors: FieldError[]) =>
  new HttpError(400, "validation", { count: errors.length }, { errors });
export const notFound = () => new HttpError(404, "notFound");
/**
 * A race lost: the record changed since the caller read it (`staleVersion`), or its state no longer allows
 * the transition (`stateConflict`). The answer's data names which, so a client can say what happened
 * (the console compares the versions, or tells who moved the record on) rather than repeat the message.
 */
export const conflict = (key: "staleVersion" | "stateConflict" = "staleVersion") =>
  new HttpError(409, key, {}, { conflict: key });
export const forbidden = () => new HttpError(403, "forbidden");
export const unauthorized = (key = "unauthorized") => new HttpError(401, key);
