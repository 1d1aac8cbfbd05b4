// Whether an operation's handler runs inside a transaction the route opens for the call: as its
// declaration says (x-operation.transaction), else every call but a GET. The route loop (server/http/
// routes.ts) opens it; the generated TransactionalCall type gives those handlers a context that has it.
import type { XOperation } from "./types.ts";

export const runsInTransaction = (x: Pick<XOperation, "method" | "transaction">): boolean =>
  x.transaction ? x.transaction === "call" : x.method !== "GET";
