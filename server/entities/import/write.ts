// A confirmed import's writes, shared by the device import and the generic engine: every checked record
// in the confirm's transaction, 1,000 a statement, each audited as created "by import".
import type { TxCtx } from "../context.ts";
import type { EntityModel } from "../../model/model.ts";
import * as engine from "../engine.ts";
import * as store from "./store.ts";

/** Inserts the checked records (their values by field) and audits each; answers the new ids. */
export async function insertAll(
  ctx: TxCtx,
  model: EntityModel,
  records: { values: Record<string, unknown> }[],
): Promise<number[]> {
  // An entity hook (a check or a derived column another area adds) sees each row, and a password is
  // hashed: then the engine's own add writes them, one by one, in this transaction.
  const hooks = ctx.domain.hooks.get(model.name);
  if (hooks?.beforeWrite || hooks?.afterInsert || model.hashed.size) {
    const ids: number[] = [];
    for (const { values } of records) ids.push((await engine.add(ctx, model, values)).id as number);
    return ids;
  }
  const defaults = Object.fromEntries(
    [...model.fields.values()].filter((f) => f.node.default !== undefined).map((f) => [f.name, f.node.default]),
  );
  const filled = new Set(records.flatMap((r) => Object.keys(r.values)));
  const owner = model.scoped ? ["agent_id", "agent_path"] : [];
  const columns = [...new Set([...Object.keys(defaults), ...filled, ...owner])];
  const ids: number[] = [];
  for (let start = 0; start < records.length; start += 1000) {
    const chunk = records.slice(start, start + 1000);
    const rows = chunk.map(({ values }) => ({
      ...defaults,
      ...values,
      ...(model.scoped ? { agent_id: ctx.principal.agentId, agent_path: ctx.principal.agentPath } : {}),
    }));
    const chunkIds = await store.insertRows(ctx.tx, model.name, columns, rows);
    await store.auditCreated(
      ctx.tx,
      ctx.principal,
      model.name,
      chunkIds.map((id, i) => ({ id, changes: { ...chunk[i].values, source: "import" } })),
    );
    ids.push(...chunkIds);
  }
  return ids;
}
