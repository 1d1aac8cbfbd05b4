// Device calls beyond CRUD. machine-statistics: the device list (its paging, sort and filters) with
// each device's takings worked out from its orders: today, the last 7 and 30 days, and in all.
// Takings are paid orders less their refunds; refunded and unpaid orders do not count.
import { q } from "../../db/migrate.ts";
import { sqlOf } from "../../entities/context.ts";
import { listRecords } from "../../entities/engine.ts";
import { modelOf } from "../../entities/model.ts";
import { defineArea } from "../area.ts";
import { importHandlers } from "./import.ts";
import { qrcodeHandlers } from "./qrcode.ts";

const TAKING = `pay_status in ('paid', 'refund_requested', 'partial_refund')`;
const NET = `money - coalesce(refund_money, 0)`;

export const machines = defineArea({
  name: "machines",
  handlers: {
    ...importHandlers,
    ...qrcodeHandlers,
    "machine-statistics": async ({ ctx, list }) => {
      const page = await listRecords(ctx, modelOf("machine"), list, false);
      const ids = page.list.map((m) => m.id as number);
      if (ids.length === 0) return page;
      const { rows } = await sqlOf(ctx).query<Record<string, number>>(
        `select machine_id,
              count(*)::int as total_number,
              coalesce(sum(${NET}), 0)::bigint as total_money,
              coalesce(sum(${NET}) filter (where pay_time >= now() - interval '30 days'), 0)::bigint as month_money,
              coalesce(sum(${NET}) filter (where pay_time >= now() - interval '7 days'), 0)::bigint as week_money,
              coalesce(sum(${NET}) filter (where pay_time >= date_trunc('day', now())), 0)::bigint as day_money
         from ${q("order")}
        where machine_id = any($1) and ${TAKING}
        group by machine_id`,
        [ids],
      );
      const byMachine = new Map(rows.map((r) => [Number(r.machine_id), r]));
      const zero = { total_number: 0, total_money: 0, month_money: 0, week_money: 0, day_money: 0 };
      return {
        ...page,
        list: page.list.map((machine) => {
          const { machine_id: _id, ...figures } = byMachine.get(machine.id as number) ?? { machine_id: 0, ...zero };
          return { ...machine, ...Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, Number(v)])) };
        }),
      };
    },
  },
});
