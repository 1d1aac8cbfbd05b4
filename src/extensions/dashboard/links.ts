// Where each to-do item leads: its list, already filtered to what waits (the list screen reads its filters
// from the address). Paths come from the generated resources, never written twice.
import { resources } from "../../generated/resources.ts";
import type { StatisticsDealtAnswer } from "../../generated/types.ts";

const listOf = (identifier: string): string => resources.find((r) => r.identifier === identifier)!.list!;

/** A list filtered to one value of a field, in the address format the list screens read. */
const filtered = (identifier: string, field: string, value: string) =>
  `${listOf(identifier)}?${new URLSearchParams({
    "filters[0][field]": field,
    "filters[0][operator]": "in",
    "filters[0][value][0]": value,
  })}`;

export const WITHDRAWAL_QUEUE = listOf("data_withdrawal_review");

/** One per count statistics-dealt answers (its answer schema): a count added there needs its link here. */
export const TODO_LINKS = {
  refund_requests: filtered("order_application_list", "pay_status", "refund_requested"),
  work_orders: filtered("order_service_list", "status", "pending"),
  // A device with an empty lane, whether it reports now or not (its lanes are what it last said).
  out_of_stock: filtered("machine_list", "stock_status", "out_of_stock"),
  withdrawals: WITHDRAWAL_QUEUE,
} as const satisfies Record<keyof StatisticsDealtAnswer, string>;
