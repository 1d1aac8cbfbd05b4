// The columns a user mapped by hand, remembered per user and entity (sys_import_mapping): a file whose
// headers are in words of its own (an accounting system's export) checks the next time without asking.
import type { Queryable } from "../../db/db.ts";
import type { Ctx, Principal } from "../context.ts";
import type { Mapping } from "./check.ts";
import { badRequest } from "../../core/errors.ts";
import { translate } from "../../core/i18n.ts";
import { normal } from "./columns.ts";

const keyOf = (principal: Principal, entity: string) => `${principal.kind}:${principal.id}:${entity}`;

/** The mapping the user last confirmed an import of the entity with ({} when none). */
export async function rememberedMapping(sql: Queryable, principal: Principal, entity: string): Promise<Mapping> {
  const { rows } = await sql.query<{ mapping: Mapping }>(`select mapping from sys_import_mapping where key = $1`, [
    keyOf(principal, entity),
  ]);
  return rows[0]?.mapping ?? {};
}

/** Remembers a confirmed import's mapping, added to what was remembered (a header's latest choice wins). */
export async function rememberMapping(
  sql: Queryable,
  principal: Principal,
  entity: string,
  mapping: Mapping,
): Promise<void> {
  if (Object.keys(mapping).length === 0) return;
  await sql.query(
    `insert into sys_import_mapping (key, mapping) values ($1, $2::jsonb)
       on conflict (key) do update set mapping = sys_import_mapping.mapping || excluded.mapping, updated_at = now()`,
    [keyOf(principal, entity), JSON.stringify(mapping)],
  );
}

/**
 * The mapping a call sends (JSON, header -> field), headers normalised by the caller's engine; undefined
 * when it is not an object of texts.
 */
export function mappingOf(text: string, normal: (s: string) => string): Mapping | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return undefined;
  const entries = Object.entries(parsed as Record<string, unknown>);
  if (entries.some(([, field]) => typeof field !== "string")) return undefined;
  return Object.fromEntries(entries.map(([header, field]) => [normal(header), field as string]));
}

/**
 * The mapping a call sends (`text`: a 400 for one that is not an object of headers to the import's
 * fields), else the one the caller last confirmed an import of the entity with.
 */
export async function mappingFor(
  sql: Queryable,
  ctx: Ctx,
  entity: string,
  fields: string[],
  text: string | undefined,
): Promise<Mapping> {
  if (text === undefined) return rememberedMapping(sql, ctx.principal, entity);
  const mapping = mappingOf(text, normal);
  if (mapping && Object.values(mapping).every((field) => fields.includes(field))) return mapping;
  throw badRequest([
    {
      field: "mapping",
      keyword: "badMapping",
      message: translate(ctx.lng, "entity_import:errors.badMapping", { fields: fields.join(", ") }),
    },
  ]);
}
