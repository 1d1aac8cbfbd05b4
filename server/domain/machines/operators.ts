// Operators bound to devices (operator_binding): operator-bind-machine is the entity's add call, with the
// hook below; operator-unbind-machine (POST, as SPEC §7 lists it) removes bindings.
//   - the operator and the device are in the caller's scope (the engine checks both relations), and the
//     device is one the operator's own agent sees: an operator restocks only its agent's devices;
//   - the binding belongs to the operator's agent, so that agent sees and removes it;
//   - one binding per operator and device (x-entity.unique, a unique index; checked first under the
//     device's lock, to say so in words that fit);
//   - the percent shares of one device add up to at most 100 %: the device's row is locked (for no key
//     update: binds wait for each other, not for the key-share lock a write pointing at the device holds,
//     which its own relation check has taken) before the shares are summed, so concurrent binds to one
//     device are taken one at a time and each sees the shares committed before it.
import type { Queryable } from "../../db/db.ts";
import { q } from "../../core/sql.ts";
import { audit } from "../../entities/audit.ts";
import { scopeOf, type Ctx } from "../../entities/context.ts";
import type { EntityHooks } from "../../entities/domain.ts";
import { modelOf } from "../../model/model.ts";
import { scopeClause, type Row } from "../../entities/repository.ts";
import { badRequest, notFound } from "../../core/errors.ts";
import { translate } from "../../core/i18n.ts";
import { paramError } from "../../entities/validation.ts";
import type { Handlers } from "../area.ts";

const refusal = (ctx: Ctx, field: string, keyword: string, params: Record<string, unknown> = {}, key = keyword) =>
  badRequest([{ field, keyword, message: translate(ctx.lng, `errors:${key}`, params) }]);

/** The shares of the device's percent bindings and a new one, over 100 %? (Sums in numeric: 0.1 + 0.2 is 0.3.) */
async function percentLeft(tx: Queryable, machineId: number, adding: number): Promise<{ over: boolean; left: number }> {
  const { rows } = await tx.query<{ over: boolean; left: string | number }>(
    `select coalesce(sum(profit_percent::numeric), 0) + $2::numeric > 1 as over,
            greatest(1 - coalesce(sum(profit_percent::numeric), 0), 0) as left
       from ${q("operator_binding")} where machine_id = $1 and profit_type = 'percent'`,
    [machineId, adding],
  );
  return { over: rows[0].over, left: Number(rows[0].left) };
}

const percentText = (fraction: number) => `${Math.round(fraction * 10000) / 100} %`;

export const operatorHooks: Record<string, EntityHooks> = {
  operator_binding: {
    async beforeWrite(ctx, tx, values, existing) {
      if (existing) return;
      // The device's row, locked until the binding's transaction ends: binds to one device queue here.
      const { rows: devices } = await tx.query<{ agent_path: string }>(
        `select agent_path from ${q("machine")} where id = $1 and deleted_at is null for no key update`,
        [values.machine_id],
      );
      const { rows: operators } = await tx.query<{ agent_id: number; agent_path: string }>(
        `select agent_id, agent_path from ${q("operator")} where id = $1 and deleted_at is null`,
        [values.operator_id],
      );
      const device = devices[0];
      const operator = operators[0];
      if (!device || !operator) throw notFound();
      if (!device.agent_path.startsWith(operator.agent_path)) throw refusal(ctx, "machine_id", "operatorOtherAgent");
      // Said in words that fit a binding; the unique index stays the guarantee.
      const { rows: twice } = await tx.query(
        `select 1 from ${q("operator_binding")} where operator_id = $1 and machine_id = $2`,
        [values.operator_id, values.machine_id],
      );
      if (twice.length) throw refusal(ctx, "machine_id", "unique", {}, "operatorAlreadyBound");
      values.agent_id = operator.agent_id;
      values.agent_path = operator.agent_path;
      if (values.profit_type === "percent") {
        const { over, left } = await percentLeft(tx, values.machine_id as number, Number(values.profit_percent));
        if (over) throw refusal(ctx, "profit_percent", "sharesOver100", { left: percentText(left) });
      } else values.profit_percent = null;
      if (values.profit_type !== "fixed") values.profit_amount = null;
    },
  },
};

export const operatorHandlers: Handlers = {
  "operator-unbind-machine": async ({ ctx, input }) => {
    const tx = ctx.tx;
    const model = modelOf("operator_binding");
    const ids = input.id === undefined ? undefined : [...new Set(Array.isArray(input.id) ? input.id : [input.id])];
    if (!ids) {
      const missing = (["operator_id", "machine_id"] as const).filter((f) => input[f] === undefined);
      if (missing.length) throw badRequest(missing.map((f) => paramError(f, "required", ctx.lng)));
    }
    const [target, params] = ids
      ? [`id = any($1::bigint[])`, [ids]]
      : [`operator_id = $1 and machine_id = $2`, [input.operator_id, input.machine_id]];
    const scope = scopeClause(model, scopeOf(ctx.principal), params.length);
    const { rows } = await tx.query<Row>(
      `delete from ${q("operator_binding")} where ${target}${scope.sql} returning *`,
      [...params, ...scope.values],
    );
    // All or nothing: a binding missing from the caller's scope undoes the whole call.
    if (rows.length === 0 || (ids && rows.length !== ids.length)) throw notFound();
    for (const row of rows)
      await audit(tx, ctx, "operator_binding", Number(row.id), "operator-unbind-machine", {
        operator_id: row.operator_id,
        machine_id: row.machine_id,
      });
    return { count: rows.length };
  },
};
