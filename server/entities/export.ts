// Export calls: the list's filters, every matching row (up to a limit), the list columns, as CSV with
// a BOM so spreadsheet programs read UTF-8 (Khmer, Thai, Chinese) correctly.
import type { Ctx } from "./context.ts";
import { scopeOf, sqlOf } from "./context.ts";
import { derive } from "./engine.ts";
import type { EntityModel } from "./model.ts";
import * as repo from "./repository.ts";
import type { ListQuery } from "./repository.ts";
import { translate } from "../http/i18n.ts";

export const EXPORT_LIMIT = 50_000;

const cell = (value: unknown): string => {
  if (value === null || value === undefined) return "";
  const text = typeof value === "object" ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

export async function exportCsv(ctx: Ctx, model: EntityModel, query: ListQuery): Promise<string> {
  const columns = [...model.fields.values()]
    .filter((f) => model.schema.properties[f.name]["x-ui"]?.column && !model.writeOnly.has(f.name))
    .sort(
      (a, b) =>
        (model.schema.properties[a.name]["x-ui"]?.order ?? 0) - (model.schema.properties[b.name]["x-ui"]?.order ?? 0),
    );
  const header = ["ID", ...columns.map((f) => translate(ctx.lng, `${model.name}:fields.${f.name}.label`))];
  const lines = [header.map(cell).join(",")];
  let page = 1;
  let written = 0;
  while (written < EXPORT_LIMIT) {
    const result = await repo.list(sqlOf(ctx), model, scopeOf(ctx.principal), { ...query, page, limit: 1000 });
    await derive(ctx, model, result.list);
    for (const row of result.list) {
      lines.push([row.id, ...columns.map((f) => format(ctx, model, f.name, row[f.name]))].map(cell).join(","));
    }
    written += result.list.length;
    if (result.list.length < 1000) break;
    page++;
  }
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}

function format(ctx: Ctx, model: EntityModel, name: string, value: unknown): unknown {
  if (value === null || value === undefined) return "";
  const field = model.fields.get(name)!;
  if (field.node["x-money"]) return (Number(value) / 100).toFixed(2);
  if (field.node["x-fraction"]) return `${(Number(value) * 100).toFixed(2)}%`;
  if (field.node.enum) {
    const def = model.schema.properties[name].$ref?.startsWith("defs#")
      ? model.schema.properties[name].$ref!.slice(18)
      : undefined;
    return translate(ctx.lng, def ? `defs:enum.${def}.${value}` : `${model.name}:enum.${name}.${value}`);
  }
  return value;
}
