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
// operator-earnings answers an operator's earnings (its shares of its devices' orders, through the ledger:
// server/domain/money/orders.ts) to itself, or to an agent or the admin that sees it.
// The statements are in operator-store.ts.
import { audit } from "../../entities/audit.ts";
import { scopeOf, sqlOf, type Ctx } from "../../entities/context.ts";
import type { EntityHooks } from "../../entities/domain.ts";
import { badRequest, notFound } from "../../core/errors.ts";
import { translate } from "../../core/i18n.ts";
import { fieldError, operationLabels } from "../../entities/validation.ts";
import { operationSchemas } from "../../../src/generated/operations.ts";
import type { Handlers } from "../area.ts";
import * as store from "./operator-store.ts";

const refusal = (ctx: Ctx, field: string, keyword: string, params: Record<string, unknown> = {}, key = keyword) =>
  badRequest([{ field, keyword, message: translate(ctx.lng, `errors:${key}`, params) }]);

const percentText = (fraction: number) => `${Math.round(fraction * 10000) / 100} %`;

export const operatorHooks: Record<string, EntityHooks> = {
  operator_binding: {
    async beforeWrite(ctx, tx, values, existing) {
      if (existing) return;
      // The device's row, locked until the binding's transaction ends: binds to one device queue here.
      const device = await store.lockDevice(tx, values.machine_id);
      const operator = await store.operatorOf(tx, values.operator_id);
      if (!device || !operator) throw notFound();
      if (!device.agent_path.startsWith(operator.agent_path)) throw refusal(ctx, "machine_id", "operatorOtherAgent");
      // Said in words that fit a binding; the unique index stays the guarantee.
      if (await store.isBound(tx, values.operator_id, values.machine_id))
        throw refusal(ctx, "machine_id", "unique", {}, "operatorAlreadyBound");
      values.agent_id = operator.agent_id;
      values.agent_path = operator.agent_path;
      if (values.profit_type === "percent") {
        const { over, left } = await store.percentLeft(tx, values.machine_id as number, Number(values.profit_percent));
        if (over) throw refusal(ctx, "profit_percent", "sharesOver100", { left: percentText(left) });
      } else values.profit_percent = null;
      if (values.profit_type !== "fixed") values.profit_amount = null;
    },
  },
};

export const operatorHandlers: Handlers = {
  "operator-earnings": async ({ ctx, input }) => {
    const { principal } = ctx;
    const id = input.operator_id ?? (principal.kind === "operator" ? principal.id : undefined);
    if (id === undefined) {
      const labels = operationLabels(operationSchemas["operator-earnings"]);
      throw badRequest([fieldError(labels, "operator_id", "required", ctx.lng)]);
    }
    const found = await store.earningsOf(sqlOf(ctx), scopeOf(principal), id, input.limit ?? 10);
    if (!found) throw notFound();
    return found;
  },
  "operator-unbind-machine": async ({ ctx, input }) => {
    const tx = ctx.tx;
    const ids = input.id === undefined ? undefined : [...new Set(Array.isArray(input.id) ? input.id : [input.id])];
    if (!ids) {
      const missing = (["operator_id", "machine_id"] as const).filter((f) => input[f] === undefined);
      const labels = operationLabels(operationSchemas["operator-unbind-machine"]);
      if (missing.length) throw badRequest(missing.map((f) => fieldError(labels, f, "required", ctx.lng)));
    }
    const target = ids ? { ids } : { operator_id: input.operator_id, machine_id: input.machine_id };
    const rows = await store.unbind(tx, scopeOf(ctx.principal), target);
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
