// Daily roll-ups behind the home statistics, so that no dashboard figure has to read a million orders.
// They are kept exact by triggers in the same transaction as the change that moves them (an order
// placed, paid, refunded or moved; a ledger entry written), and can be rebuilt from the source tables
// in one statement each (the demo seed loads in bulk with the triggers off, then rebuilds). Days are
// the business's calendar days, in BUSINESS_TIME_ZONE.
import { PAID_STATES, REFUNDABLE_STATES } from "../../src/schema/groups.ts";
import { textList } from "../core/sql.ts";

/** The time zone whose calendar days the statistics count (the business runs on Indochina time). */
export const BUSINESS_TIME_ZONE = "Asia/Bangkok";

/** A timestamp's business day, in SQL. */
export const businessDay = (column: string): string => `(${column} at time zone '${BUSINESS_TIME_ZONE}')::date`;

/** Orders that brought money in: paid, and refunded or refund requested since (order.json x-groups). */
export const PAID_LIKE_SQL = textList(PAID_STATES);

export interface RollupTable {
  name: string;
  columns: [string, string][];
  indexes: { name: string; sql: string }[];
}

const PAID = (row: string) => `${row}.pay_status in ${PAID_LIKE_SQL}`;

export const ROLLUP_TABLES: RollupTable[] = [
  {
    // Orders by the day they were placed: how many, the turnover of the paid ones and their refunds
    // (the dashboard's periods and trend). One row per agent and day.
    name: "stat_order_day",
    columns: [
      ["day", "date not null"],
      ["agent_id", "bigint not null"],
      ["agent_path", "text not null"],
      ["orders", "bigint not null default 0"],
      ["turnover", "bigint not null default 0"],
      ["refunds", "bigint not null default 0"],
    ],
    indexes: [
      { name: "stat_order_day_key", sql: `create unique index stat_order_day_key on stat_order_day (day, agent_id)` },
      {
        name: "stat_order_day_path_idx",
        sql: `create index stat_order_day_path_idx on stat_order_day (agent_path text_pattern_ops, day)`,
      },
    ],
  },
  {
    // The order mix: orders and turnover by device kind, pay type and pay status (one row per value).
    name: "stat_order_mix",
    columns: [
      ["day", "date not null"],
      ["agent_id", "bigint not null"],
      ["agent_path", "text not null"],
      ["dimension", "text not null"],
      ["key", "text not null"],
      ["orders", "bigint not null default 0"],
      ["turnover", "bigint not null default 0"],
    ],
    indexes: [
      {
        name: "stat_order_mix_key",
        sql: `create unique index stat_order_mix_key on stat_order_mix (day, agent_id, dimension, key)`,
      },
      {
        name: "stat_order_mix_path_idx",
        sql: `create index stat_order_mix_path_idx on stat_order_mix (agent_path text_pattern_ops, day)`,
      },
    ],
  },
  {
    // A device's takings by the day they were paid: its paid orders (refunds requested or partial
    // included, fully refunded ones not) and their money less refunds. One row per device and day: the
    // device list's takings, machine-statistics and statistics-machine all sum these rows.
    name: "stat_machine_day",
    columns: [
      ["day", "date not null"],
      ["machine_id", "bigint not null"],
      ["orders", "bigint not null default 0"],
      ["takings", "bigint not null default 0"],
    ],
    indexes: [
      {
        name: "stat_machine_day_key",
        sql: `create unique index stat_machine_day_key on stat_machine_day (machine_id, day)`,
      },
    ],
  },
  {
    // The ledger's revenue by day and agent (income less refunds and reversals, delivery income).
    name: "stat_revenue_day",
    columns: [
      ["day", "date not null"],
      ["agent_id", "bigint not null"],
      ["agent_path", "text not null"],
      ["revenue", "bigint not null default 0"],
    ],
    indexes: [
      {
        name: "stat_revenue_day_key",
        sql: `create unique index stat_revenue_day_key on stat_revenue_day (day, agent_id)`,
      },
      {
        name: "stat_revenue_day_path_idx",
        sql: `create index stat_revenue_day_path_idx on stat_revenue_day (agent_path text_pattern_ops, day)`,
      },
    ],
  },
];

/** Stock consumption (schemas/stock-consumption.json): an entity whose rows only these triggers write. */
const STOCK = `"stock_consumption"`;

/** Pay states whose orders count as a device's takings: those still refundable (a fully refunded order takes nothing). */
export const TAKING_SQL = textList(REFUNDABLE_STATES);
const TAKING = (row: string) => `${row}.pay_status in ${TAKING_SQL}`;

/** What one order adds to (or, with "-", takes from) the roll-ups, in a trigger. */
const orderDelta = (row: "old" | "new", sign: "+" | "-") => {
  const day = businessDay(`${row}.order_time`);
  const turnover = `case when ${PAID(row)} then ${row}.money else 0 end`;
  const mix = (dimension: string, key: string) => `
    insert into stat_order_mix as s (day, agent_id, agent_path, dimension, key, orders, turnover)
    values (${day}, ${row}.agent_id, ${row}.agent_path, '${dimension}', ${key}, ${sign}1, ${sign}(${turnover}))
    on conflict (day, agent_id, dimension, key) do update
       set orders = s.orders + excluded.orders, turnover = s.turnover + excluded.turnover;`;
  const machine = `
    if ${TAKING(row)} and ${row}.machine_id is not null then
      insert into stat_machine_day as s (day, machine_id, orders, takings)
      values (${businessDay(`coalesce(${row}.pay_time, ${row}.order_time)`)}, ${row}.machine_id, ${sign}1,
              ${sign}(${row}.money - coalesce(${row}.refund_money, 0)))
      on conflict (machine_id, day) do update
         set orders = s.orders + excluded.orders, takings = s.takings + excluded.takings;
    end if;`;
  return `${machine}
    insert into stat_order_day as s (day, agent_id, agent_path, orders, turnover, refunds)
    values (${day}, ${row}.agent_id, ${row}.agent_path, ${sign}1, ${sign}(${turnover}),
            ${sign}(case when ${PAID(row)} then coalesce(${row}.refund_money, 0) else 0 end))
    on conflict (day, agent_id) do update
       set orders = s.orders + excluded.orders, turnover = s.turnover + excluded.turnover,
           refunds = s.refunds + excluded.refunds;${mix("kind", `coalesce(${row}.device_kind, '')`)}${mix(
             "pay_type",
             `coalesce(${row}.pay_type, 0)::text`,
           )}${mix("status", `${row}.pay_status`)}`;
};

/**
 * What one order adds to (or takes from) stock consumption: the goods its lane held when it was placed
 * (order.goods_id), delivered items as sold and its takings, on the business day it was paid. The row
 * belongs to the device's owner, as its restock records do (and moves with the device).
 */
const stockDelta = (row: "old" | "new", sign: "+" | "-") => `
  if ${row}.goods_id is not null and ${row}.machine_id is not null
     and (coalesce(${row}.delivered_quantity, 0) <> 0 or ${TAKING(row)}) then
    insert into ${STOCK} as s (machine_id, goods_id, "date", agent_id, agent_path, quantity, money, restocked,
                               goods_name, mac_name)
    select m.id, ${row}.goods_id, ${businessDay(`coalesce(${row}.pay_time, ${row}.order_time)`)}, m.agent_id, m.agent_path,
           ${sign}coalesce(${row}.delivered_quantity, 0),
           ${sign}(case when ${TAKING(row)} then ${row}.money - coalesce(${row}.refund_money, 0) else 0 end), 0,
           coalesce((select g.title from "goods" g where g.id = ${row}.goods_id), ${row}.goods_name), m.mac_name
      from "machine" m where m.id = ${row}.machine_id
    on conflict (machine_id, goods_id, "date") do update
       set quantity = s.quantity + excluded.quantity, money = s.money + excluded.money, updated_at = now();
  end if;`;

/** Functions and triggers, by name: created when missing, replaced when their text changes. */
export const ROLLUP_ROUTINES: { name: string; statements: string[] }[] = [
  {
    name: "stat_order_change",
    statements: [
      `create or replace function stat_order_change() returns trigger language plpgsql as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then${orderDelta("old", "-")}
  end if;
  if tg_op in ('INSERT', 'UPDATE') then${orderDelta("new", "+")}
  end if;
  return null;
end $$`,
      `drop trigger if exists stat_order_write on "order"`,
      `create trigger stat_order_write after insert or delete on "order" for each row execute function stat_order_change()`,
      `drop trigger if exists stat_order_update on "order"`,
      `create trigger stat_order_update after update on "order" for each row
         when (old.order_time is distinct from new.order_time or old.agent_id is distinct from new.agent_id
            or old.agent_path is distinct from new.agent_path or old.device_kind is distinct from new.device_kind
            or old.pay_status is distinct from new.pay_status or old.pay_type is distinct from new.pay_type
            or old.money is distinct from new.money or old.refund_money is distinct from new.refund_money
            or old.machine_id is distinct from new.machine_id or old.pay_time is distinct from new.pay_time)
         execute function stat_order_change()`,
    ],
  },
  {
    name: "stat_revenue_change",
    statements: [
      `create or replace function stat_revenue_change() returns trigger language plpgsql as $$
begin
  insert into stat_revenue_day as s (day, agent_id, agent_path, revenue)
  values (${businessDay("new.paid_at")}, new.agent_id, new.agent_path, new.revenue_change)
  on conflict (day, agent_id) do update set revenue = s.revenue + excluded.revenue;
  return null;
end $$`,
      `drop trigger if exists stat_revenue_write on "payment_record"`,
      `create trigger stat_revenue_write after insert on "payment_record" for each row
         when (new.revenue_change <> 0) execute function stat_revenue_change()`,
    ],
  },
  {
    // An order names the goods its lane holds when it is placed, unless the caller said which.
    name: "order_goods",
    statements: [
      `create or replace function order_goods() returns trigger language plpgsql as $$
begin
  if new.goods_id is null and new.channel_number is not null and new.machine_id is not null then
    new.goods_id := (select goods_id from "machine_channel"
                      where machine_id = new.machine_id and channel_number = new.channel_number);
  end if;
  return new;
end $$`,
      `drop trigger if exists order_goods on "order"`,
      `create trigger order_goods before insert on "order" for each row execute function order_goods()`,
    ],
  },
  {
    name: "stat_stock_change",
    statements: [
      `create or replace function stat_stock_change() returns trigger language plpgsql as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then${stockDelta("old", "-")}
  end if;
  if tg_op in ('INSERT', 'UPDATE') then${stockDelta("new", "+")}
  end if;
  return null;
end $$`,
      `drop trigger if exists stat_stock_write on "order"`,
      `create trigger stat_stock_write after insert or delete on "order" for each row execute function stat_stock_change()`,
      `drop trigger if exists stat_stock_update on "order"`,
      `create trigger stat_stock_update after update on "order" for each row
         when (old.goods_id is distinct from new.goods_id or old.machine_id is distinct from new.machine_id
            or old.delivered_quantity is distinct from new.delivered_quantity or old.pay_status is distinct from new.pay_status
            or old.money is distinct from new.money or old.refund_money is distinct from new.refund_money
            or old.pay_time is distinct from new.pay_time or old.order_time is distinct from new.order_time)
         execute function stat_stock_change()`,
    ],
  },
  {
    // A restock adds what was loaded into the device's lanes, on the business day it was loaded (stock
    // taken out when a plan is rebound is recorded with a negative quantity, and is not a load).
    name: "stat_restock_change",
    statements: [
      `create or replace function stat_restock_change() returns trigger language plpgsql as $$
begin
  if new.goods_id is not null and new.quantity > 0 then
    insert into ${STOCK} as s (machine_id, goods_id, "date", agent_id, agent_path, quantity, money, restocked,
                               goods_name, mac_name)
    values (new.machine_id, new.goods_id, ${businessDay("new.restocked_at")}, new.agent_id, new.agent_path, 0, 0, new.quantity,
            new.goods_name, new.mac_name)
    on conflict (machine_id, goods_id, "date") do update
       set restocked = s.restocked + excluded.restocked, updated_at = now();
  end if;
  return null;
end $$`,
      `drop trigger if exists stat_restock_write on "machine_restock"`,
      `create trigger stat_restock_write after insert on "machine_restock" for each row execute function stat_restock_change()`,
    ],
  },
];

/** The roll-ups computed afresh from their sources (after a bulk load with the triggers off). */
export const REBUILD_ROLLUPS: string[] = [
  `delete from stat_order_day`,
  `insert into stat_order_day (day, agent_id, agent_path, orders, turnover, refunds)
   select ${businessDay("o.order_time")}, o.agent_id, min(o.agent_path), count(*),
          coalesce(sum(o.money) filter (where ${PAID("o")}), 0),
          coalesce(sum(coalesce(o.refund_money, 0)) filter (where ${PAID("o")}), 0)
     from "order" o group by 1, 2`,
  `delete from stat_order_mix`,
  `insert into stat_order_mix (day, agent_id, agent_path, dimension, key, orders, turnover)
   select ${businessDay("o.order_time")}, o.agent_id, min(o.agent_path), m.dimension, m.key, count(*),
          coalesce(sum(o.money) filter (where ${PAID("o")}), 0)
     from "order" o
     cross join lateral (values ('kind', coalesce(o.device_kind, '')), ('pay_type', coalesce(o.pay_type, 0)::text),
                                ('status', o.pay_status)) as m(dimension, key)
    group by 1, 2, 4, 5`,
  `delete from stat_machine_day`,
  `insert into stat_machine_day (day, machine_id, orders, takings)
   select ${businessDay("coalesce(o.pay_time, o.order_time)")}, o.machine_id, count(*),
          sum(o.money - coalesce(o.refund_money, 0))
     from "order" o where ${TAKING("o")} and o.machine_id is not null group by 1, 2`,
  `delete from stat_revenue_day`,
  `insert into stat_revenue_day (day, agent_id, agent_path, revenue)
   select ${businessDay("paid_at")}, agent_id, min(agent_path), sum(revenue_change)
     from "payment_record" where revenue_change <> 0 group by 1, 2`,
  `delete from ${STOCK}`,
  `insert into ${STOCK} (machine_id, goods_id, "date", agent_id, agent_path, quantity, money, restocked, goods_name, mac_name)
   select s.machine_id, s.goods_id, s.day, m.agent_id, m.agent_path, sum(s.sold), sum(s.money), sum(s.restocked),
          max(coalesce(g.title, s.goods_name)), max(m.mac_name)
     from (select o.machine_id, o.goods_id, ${businessDay("coalesce(o.pay_time, o.order_time)")} as day,
                  coalesce(o.delivered_quantity, 0) as sold,
                  case when ${TAKING("o")} then o.money - coalesce(o.refund_money, 0) else 0 end as money, 0 as restocked,
                  o.goods_name
             from "order" o
            where o.goods_id is not null and o.machine_id is not null
              and (coalesce(o.delivered_quantity, 0) <> 0 or ${TAKING("o")})
           union all
           select r.machine_id, r.goods_id, ${businessDay("r.restocked_at")}, 0, 0, r.quantity, r.goods_name
             from "machine_restock" r where r.goods_id is not null and r.quantity > 0) s
     join "machine" m on m.id = s.machine_id
     left join "goods" g on g.id = s.goods_id
    group by 1, 2, 3, 4, 5`,
];

/** The triggers a bulk load sets aside (and puts back), by table. */
export const ROLLUP_TRIGGERS: Record<string, string[]> = {
  order: ["stat_order_write", "stat_order_update", "stat_stock_write", "stat_stock_update"],
  machine_restock: ["stat_restock_write"],
  payment_record: ["stat_revenue_write"],
};

type Sql = { query(sql: string): Promise<unknown> };

/** Sets the roll-up triggers aside for a bulk load (one statement per row would cost more than the load). */
export async function setRollupTriggers(tx: Sql, enabled: boolean): Promise<void> {
  for (const [table, triggers] of Object.entries(ROLLUP_TRIGGERS))
    for (const trigger of triggers)
      await tx.query(`alter table "${table}" ${enabled ? "enable" : "disable"} trigger ${trigger}`);
}

/** Computes the roll-ups afresh from their sources, after a bulk load. */
export async function rebuildRollups(tx: Sql): Promise<void> {
  for (const statement of REBUILD_ROLLUPS) await tx.query(statement);
}
