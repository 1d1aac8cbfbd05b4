// The imports area: the calls of every entity that declares x-import (codegen/imports.ts declares
// <entity>-import-template, -check and -confirm), all served by the generic engine (server/entities/import/).
// A check and a confirm answer with their progress first when the console asks (server/entities/progress.ts).
// Devices are imported this way too (machine-import-*, SPEC §7), from x-import of schemas/machine.json.
import { defineArea, type FileIntake, type FileIntakes, type Handlers, type OperationRun } from "../area.ts";
import { inTransaction, sqlOf, type Ctx } from "../../entities/context.ts";
import { HttpError } from "../../core/errors.ts";
import { translate } from "../../core/i18n.ts";
import { modelOf } from "../../model/model.ts";
import { entitySchemas } from "../../../src/generated/schemas.ts";
import type { JsonSchemaEntity } from "../../../src/schema/types.ts";
import { entityNameKey } from "../../../src/schema/keys.ts";
import { importCalls, importingEntities } from "../../../src/schema/imports.ts";
import { check, fileError, NS, screen, type Checked, type ImportRecord } from "../../entities/import/check.ts";
import { IMPORT_LIMITS, quoted, type Problem } from "../../entities/import/file.ts";
import { importLock } from "../../entities/import/store.ts";
import { mappingFor, rememberMapping } from "../../entities/import/mapping.ts";
import { columnLabel, importColumns } from "../../entities/import/columns.ts";
import { writeRecords, type Refusal } from "../../entities/import/write.ts";
import { withProgress } from "../../entities/progress.ts";
import { templateWorkbook } from "../../entities/import/template.ts";

const answer = (checked: Checked) => ({
  rows: checked.rows,
  headers: checked.headers,
  created: checked.created,
  skipped: checked.skipped,
  problem_count: checked.problemCount,
  problems: checked.problems,
});

const inputMapping = (input: unknown) => (input as { mapping?: string }).mapping;

/** The three calls of one entity's import: their file intakes and handlers. */
function entityImport(entity: string): { files: FileIntakes; handlers: Handlers } {
  const model = modelOf(entity);
  const calls = importCalls(entity);
  const fields = importColumns(model).map((column) => column.field);
  // Both take the file the same way: up to IMPORT_LIMITS.bytes, read through once before their turn at the
  // database (a hostile file is refused there), then read again, a batch at a time, while it is checked.
  const intake: FileIntake<unknown> = {
    limit: async (ctx) => ({
      bytes: IMPORT_LIMITS.bytes,
      tooLarge: () => fileError(ctx.lng, "tooLarge", { limit: `${IMPORT_LIMITS.bytes / 1024 / 1024} MB` }),
      missing: () => fileError(ctx.lng, "missing"),
    }),
    prepare: (ctx, file) => screen(file.path, ctx.lng),
  };
  const problemOf = (ctx: Ctx, record: ImportRecord, refusal: Refusal): Problem => {
    const column = importColumns(model).find((c) => c.field === refusal.field) ?? importColumns(model)[0];
    const value = quoted(String(record.values[column.field] ?? ""));
    return {
      row: record.row,
      column: columnLabel(model, ctx.lng, column),
      field: column.field,
      message: refusal.message ?? translate(ctx.lng, `${NS}:problems.duplicateLive`, { value }),
    };
  };
  const handlers: Record<string, (run: OperationRun<unknown>) => Promise<unknown>> = {
    [calls.template]: async ({ ctx, reply }) => {
      // The sample names the caller's own related records, so it passes the check as it is.
      const file = await templateWorkbook(model, ctx.lng, { db: sqlOf(ctx), ctx });
      const name = `${translate(ctx.lng, `${NS}:template.fileName`, { entity: translate(ctx.lng, entityNameKey(entity)) })}.xlsx`;
      return reply
        .header("content-type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
        .header(
          "content-disposition",
          `attachment; filename="${calls.template}.xlsx"; filename*=UTF-8''${encodeURIComponent(name)}`,
        )
        .send(Buffer.from(file));
    },
    [calls.check]: async ({ ctx, file, input, request, reply }) => {
      const mapping = await mappingFor(sqlOf(ctx), ctx, entity, fields, inputMapping(input));
      return withProgress(request, reply, ctx.lng, async (progress) =>
        answer(await check(sqlOf(ctx), ctx, model, file!.path, { mapping, progress })),
      );
    },
    [calls.confirm]: async ({ ctx, file, input, request, reply }) =>
      withProgress(request, reply, ctx.lng, (progress) =>
        inTransaction(ctx, async (ctx) => {
          // One import of the entity at a time: two confirms of one file cannot both find its records absent.
          await importLock(ctx.tx, entity);
          const mapping = await mappingFor(ctx.tx, ctx, entity, fields, inputMapping(input));
          const key = model.schema["x-import"]!.key[0];
          // Each batch is written once checked; a problem met later rolls the whole back.
          const write = async (records: ImportRecord[]) => {
            const { ids, refused } = await writeRecords(ctx, model, records, key);
            return { created: ids.length, problems: refused.map((r) => problemOf(ctx, records[r.index], r)) };
          };
          const checked = await check(ctx.tx, ctx, model, file!.path, { mapping, progress, write });
          if (checked.problemCount)
            throw new HttpError(400, `${NS}:errors.problems`, { count: checked.problemCount }, answer(checked));
          // What the user chose this time is remembered (one read from memory is there already).
          if (inputMapping(input) !== undefined) await rememberMapping(ctx.tx, ctx.principal, entity, mapping);
          return answer(checked);
        }),
      ),
  };
  return { files: { [calls.check]: intake, [calls.confirm]: intake }, handlers: handlers as unknown as Handlers };
}

const all = importingEntities(entitySchemas as unknown as Record<string, JsonSchemaEntity>).map(entityImport);

export const imports = defineArea({
  name: "imports",
  files: Object.assign({}, ...all.map((a) => a.files)) as FileIntakes,
  handlers: Object.assign({}, ...all.map((a) => a.handlers)) as Handlers,
});
