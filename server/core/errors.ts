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
export const conflict = (key = "staleVersion") => new HttpError(409, key);
export const forbidden = () => new HttpError(403, "forbidden");
export const unauthorized = (key = "unauthorized") => new HttpError(401, key);
