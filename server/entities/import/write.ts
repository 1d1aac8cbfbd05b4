// A confirmed import's writes (the generic engine's): checked records in
// the confirm's transaction, 1,000 a statement, each audited as created "by import". What the engine's
// add does for one record is done for each (defaults, a password hashed, the owner, the entity's hooks
// before and after), but the rows go in together. A row the database or a hook refuses (a record added by
// hand meanwhile, under a unique index) is a problem of its row, never a failed call.
import type { TxCtx } from "../context.ts";
import type { EntityModel } from "../../model/model.ts";
import type { Row } from "../repository.ts";
import { HttpError } from "../../core/errors.ts";
import { hashPassword } from "../../core/passwords.ts";
import { uniqueIndexName } from "../../db/migrate.ts";
import * as store from "./store.ts";

/** Rows one insert statement takes. */
const CHUNK = 1_000;

/** A record the write refused: its place among the records, the field at fault and why. */
export interface Refusal {
  index: number;
  field: string;
  /** The translated reason a hook gave; none for a unique value taken meanwhile. */
  message?: string;
}

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === "23505";

/** The field a unique violation names (the last of the entity's unique set whose index refused it). */
function takenField(model: EntityModel, error: unknown, fallback: string): string {
  const { constraint } = error as { constraint?: string };
  const set = (model.x.unique ?? []).find((s) => uniqueIndexName(model, s) === constraint);
  return set ? set[set.length - 1] : fallback;
}

/** Runs a statement under a savepoint: a refused one leaves the transaction usable. */
async function guarded<T>(ctx: TxCtx, write: () => Promise<T>): Promise<T> {
  await ctx.tx.query("savepoint import_rows");
  try {
    const result = await write();
    await ctx.tx.query("release savepoint import_rows");
    return result;
  } catch (error) {
    await ctx.tx.query("rollback to savepoint import_rows");
    throw error;
  }
}

/**
 * Inserts the checked records (their values by field) and audits each; answers the new ids, or, when the
 * database or a hook refused any, the refusals (and the caller rolls the transaction back). `keyField` is
 * the field a refusal names when the database does not say which.
 */
export async function writeRecords(
  ctx: TxCtx,
  model: EntityModel,
  records: { values: Record<string, unknown> }[],
  keyField: string,
): Promise<{ ids: number[]; refused: Refusal[] }> {
  const hooks = ctx.domain.hooks.get(model.name) ?? {};
  const defaults = Object.fromEntries(
    [...model.fields.values()].filter((f) => f.node.default !== undefined).map((f) => [f.name, f.node.default]),
  );
  const refused: Refusal[] = [];
  const rows: Row[] = [];
  for (const [index, { values }] of records.entries()) {
    const row: Row = { ...defaults };
    for (const [name, value] of Object.entries(values)) {
      const field = model.fields.get(name);
      if (!field?.stored) continue;
      row[name] = model.hashed.has(name) && typeof value === "string" ? await hashPassword(value) : value;
    }
    if (model.scoped) Object.assign(row, { agent_id: ctx.principal.agentId, agent_path: ctx.principal.agentPath });
    if (model.owned) Object.assign(row, { owner_kind: ctx.principal.kind, owner_id: ctx.principal.id });
    try {
      await hooks.beforeWrite?.(ctx, ctx.tx, row);
    } catch (error) {
      // A hook's refusal of this record (an account another agent holds): its fields' messages.
      const errors = (error as HttpError).data as { errors?: { field: string; message: string }[] } | null;
      if (!(error instanceof HttpError) || error.status !== 400 || !errors?.errors) throw error;
      for (const e of errors.errors) refused.push({ index, field: e.field.split("/")[0], message: e.message });
    }
    rows.push(row);
  }
  if (refused.length) return { ids: [], refused };

  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const after = hooks.afterInsert || hooks.afterWrite;
  const ids: number[] = [];
  for (let start = 0; start < rows.length; start += CHUNK) {
    const chunk = rows.slice(start, start + CHUNK);
    let inserted: Row[];
    try {
      inserted = await guarded(ctx, () => store.insertRows(ctx.tx, model.name, columns, chunk, Boolean(after)));
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // Which rows: each tried alone and undone, the refused ones named (nothing is kept: the caller rolls back).
      for (const [offset, row] of chunk.entries()) {
        await ctx.tx.query("savepoint import_row");
        try {
          await store.insertRows(ctx.tx, model.name, columns, [row]);
        } catch (e) {
          if (!isUniqueViolation(e)) throw e;
          refused.push({ index: start + offset, field: takenField(model, e, keyField) });
        } finally {
          await ctx.tx.query("rollback to savepoint import_row");
        }
      }
      return { ids: [], refused };
    }
    for (let row of inserted) {
      if (hooks.afterInsert) row = await hooks.afterInsert(ctx, ctx.tx, row);
      await hooks.afterWrite?.(ctx, ctx.tx, row);
    }
    const chunkIds = inserted.map((r) => Number(r.id));
    await store.auditCreated(
      ctx.tx,
      ctx.principal,
      model.name,
      chunkIds.map((id, i) => ({ id, changes: { ...redacted(model, records[start + i].values), source: "import" } })),
    );
    ids.push(...chunkIds);
  }
  return { ids, refused };
}

/** A record's values as history keeps them: a password never. */
const redacted = (model: EntityModel, values: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(values).map(([f, v]) => [f, model.writeOnly.has(f) ? "[redacted]" : v]));
