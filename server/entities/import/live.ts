// The caller's own live records a file's rows may repeat, found by the import's key (x-import.key) in one
// statement: those the caller's rows would sit beside (its agent's, for a scoped entity), or everyone's for
// a key no two records may share.
import { q } from "../../core/sql.ts";
import type { Queryable } from "../../db/db.ts";
import { scopeOf, type Ctx } from "../context.ts";
import type { EntityModel } from "../../model/model.ts";
import { scopeClause, type Row } from "../repository.ts";

/** The key of a record's values as the check compares them: numbers as numbers, whatever the column read. */
export const keyText = (key: string[], values: Record<string, unknown>, like: Record<string, unknown>): string =>
  JSON.stringify(
    key.map((f) => {
      const value = values[f] ?? null;
      return typeof like[f] === "number" && value !== null ? Number(value) : value;
    }),
  );

/** A live record as the check meets it: `seen` when the caller may see it (always, for its own). */
export type LiveRecord = Row & { import_seen: boolean };

/**
 * The live records whose key one of the candidates holds, by their key text: the caller's own (its agent's,
 * for a scoped entity), or with `everyone` (a key no two records may share) everyone's, each saying
 * whether the caller sees it.
 */
export async function liveByKey(
  sql: Queryable,
  ctx: Ctx,
  model: EntityModel,
  key: string[],
  candidates: { values: Record<string, unknown> }[],
  everyone = false,
): Promise<Map<string, LiveRecord>> {
  const found = new Map<string, LiveRecord>();
  const firsts = [...new Set(candidates.map((c) => c.values[key[0]]).filter((v) => v !== undefined))];
  if (firsts.length === 0) return found;
  const values: unknown[] = [firsts.map(String)];
  let where = `${q(key[0])}::text = any($1)`;
  if (model.recycle) where += " and deleted_at is null";
  let seen = "true";
  if (everyone) {
    const scope = scopeClause(model, scopeOf(ctx.principal), 1);
    seen = `true${scope.sql}`;
    values.push(...scope.values);
  } else if (model.scoped) {
    values.push(ctx.principal.agentId);
    where += ` and agent_id = $2`;
  }
  const { rows } = await sql.query<LiveRecord>(
    `select *, (${seen}) as import_seen from ${q(model.table)} where ${where}`,
    values,
  );
  const like = candidates[0].values;
  for (const row of rows) found.set(keyText(key, row, like), row);
  return found;
}
