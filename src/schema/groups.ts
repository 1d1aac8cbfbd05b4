// The named value groups an entity schema declares on an enum field (x-groups): the one place a set of
// states that several rules share is written (an order's pay states that brought money in, those still
// refundable). A group no schema declares throws when its reader loads, so a misspelt name fails at once.
import { entitySchemas } from "../generated/schemas.ts";
import type { EntityName } from "../generated/types.ts";

export function valueGroup(entity: EntityName, field: string, group: string): readonly string[] {
  const values = entitySchemas[entity].properties[field]?.["x-groups"]?.[group];
  if (!values) throw new Error(`${entity}.${field} declares no value group "${group}" (x-groups)`);
  return values;
}

/** An order's pay states that brought money in: paid, and refunded or refund requested since. */
export const PAID_STATES = valueGroup("order", "pay_status", "paid");

/** An order's pay states that can still be refunded (a fully refunded order has nothing left to give back). */
export const REFUNDABLE_STATES = valueGroup("order", "pay_status", "refundable");
