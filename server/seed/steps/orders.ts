// Orders in bulk, made inside the database, `ORDER_BATCH` rows per statement: row number g drives a hash
// (hashint8extended(g, k)) for each random choice, looked up in small tables passed as arrays: which
// machine (weighted by popularity), which lane or package, which day (a growing business, busier
// weekends), which hour (the daily rhythm), which pay status and pay type (regional habits). No draws from
// the PRNG, so the bench can scale the same generator to millions of orders.
import { q } from "../../core/sql.ts";
import { REGION_UTC_OFFSET_HOURS } from "../data.ts";
import { localDayStart, ORDER_DAYS, type Seed } from "./kit.ts";
import type { Seeded } from "./seeded.ts";

const ORDER_BATCH = 100_000;
/** From this many orders on, the order table's indexes are built after the load instead of during it. */
const BULK_INDEX_THRESHOLD = 200_000;
/** The sizes of the lookup tables of machines and of days. */
const MACHINE_PICKS = 8192;
const DAY_PICKS = 2000;

export async function seedOrders(seed: Seed, inputs: Pick<Seeded, "machines" | "hardware" | "pages">): Promise<void> {
  const { tx, orders: count, log } = seed;
  if (count === 0) return;
  const params = orderParams(seed, inputs);
  // A big load goes faster without index upkeep: the order table's secondary indexes are set aside
  // and built again, from their own definitions, once the rows are in (same transaction).
  const deferIndexes = count >= BULK_INDEX_THRESHOLD;
  const indexes = deferIndexes
    ? (
        await tx.query<{ name: string; def: string }>(
          `select indexname as name, indexdef as def from pg_indexes where schemaname = current_schema() and tablename = 'order' and indexname not in (select conname from pg_constraint)`,
        )
      ).rows
    : [];
  for (const index of indexes) await tx.query(`drop index ${q(index.name)}`);
  for (let start = 1; start <= count; start += ORDER_BATCH) {
    const end = Math.min(count, start + ORDER_BATCH - 1);
    const t0 = Date.now();
    await tx.query(ORDER_SQL, [start, end, ...params]);
    log(`orders ${end.toLocaleString("en-US")} / ${count.toLocaleString("en-US")} (${Date.now() - t0} ms)`);
  }
  if (indexes.length) {
    const t0 = Date.now();
    for (const index of indexes) await tx.query(index.def);
    log(`order indexes rebuilt: ${indexes.length} (${Date.now() - t0} ms)`);
  }
  await tx.query(`analyze ${q("order")}`);
}

/** Expands weights into a lookup table of `size` entries: table[random index] samples the weights. */
function lookupTable(weights: number[], size: number): number[] {
  const total = weights.reduce((s, w) => s + w, 0);
  const table: number[] = [];
  let acc = 0;
  weights.forEach((w, i) => {
    acc += w;
    const upto = Math.round((acc / total) * size);
    while (table.length < upto) table.push(i);
  });
  while (table.length < size) table.push(weights.length - 1);
  return table;
}

/** ORDER_SQL's parameters from $3 on: the clock, the machines and their items, the lookup tables. */
function orderParams(
  seed: Seed,
  { machines, hardware, pages }: Pick<Seeded, "machines" | "hardware" | "pages">,
): unknown[] {
  const nowSec = Math.floor(seed.now.getTime() / 1000);
  const todayUtcMidnight = localDayStart(seed.now);
  const { appOfKind } = hardware;
  const machinePick = lookupTable(
    machines.map((m) => m.weight),
    MACHINE_PICKS,
  ).map((i) => i + 1);
  const itemChannel: number[] = [];
  const itemPrice: number[] = [];
  const itemCost: number[] = [];
  const itemGoods: (number | null)[] = [];
  const itemOffset: number[] = [];
  for (const m of machines) {
    itemOffset.push(itemChannel.length);
    for (const it of m.items) {
      itemChannel.push(it.channel);
      itemPrice.push(it.price);
      itemCost.push(it.cost ?? 0);
      itemGoods.push(it.goods ?? null);
    }
  }
  // Local hours: quiet nights, a morning peak, lunch, and the evening.
  const hourWeights = [1, 0.5, 0.3, 0.2, 0.3, 0.8, 2, 4, 5, 4.5, 4, 5, 7, 6, 4.5, 4.5, 5, 6.5, 7, 6.5, 5.5, 4.5, 3, 2];
  const hourPick = lookupTable(hourWeights, 1000);
  // Day offsets back from today: the business grows ~60 % over the quarter; weekends are busier.
  const dayWeights = Array.from({ length: ORDER_DAYS }, (_, d) => {
    const weekday = new Date((todayUtcMidnight - d * 86400) * 1000).getUTCDay();
    return (1 + (0.6 * (ORDER_DAYS - 1 - d)) / (ORDER_DAYS - 1)) * (weekday === 0 || weekday === 6 ? 1.25 : 1);
  });
  const dayPick = lookupTable(dayWeights, DAY_PICKS);
  // Pay types 1..9 by region: Cambodia (KHQR-style bank payment first), Thailand, China (wallets).
  const payWeights = [
    [15, 10, 10, 2, 4, 5, 4, 10, 40],
    [10, 20, 10, 2, 6, 5, 30, 15, 2],
    [55, 3, 35, 1, 1, 4, 1, 0, 0],
  ];
  const payPick = payWeights.flatMap((w) => lookupTable(w, 100).map((i) => i + 1));
  // 0 paid, 1 pending, 2 cancelled, 3 refund_requested, 4 refund_success, 5 partial_refund
  const statusPick = lookupTable([880, 30, 30, 15, 25, 20], 1000);

  return [
    todayUtcMidnight,
    nowSec,
    machines.map((m) => m.id),
    machines.map((m) => m.agent.id),
    machines.map((m) => m.agent.path),
    machines.map((m) => m.shopId),
    machines.map((m) => m.macName),
    machines.map((m) => appOfKind[m.kind]),
    machines.map((m) => (m.kind === "vending" ? 1 : 0)),
    machines.map((m) => m.agent.spec.region),
    machines.map((m) => REGION_UTC_OFFSET_HOURS[m.agent.spec.region] * 3600),
    machines.map((m) => m.items.length),
    itemOffset,
    machinePick,
    itemChannel,
    itemPrice,
    hourPick,
    dayPick,
    payPick,
    statusPick,
    machines.map((m) => m.kind),
    // The mini-program page a machine's orders come through.
    machines.map((m) => pages.get(`${m.agent.id}:${appOfKind[m.kind]}`) ?? null),
    itemCost,
    itemGoods,
  ];
}

const h = (k: number) => `(hashint8extended(g, ${k}) & 9223372036854775807)`;
const ORDER_SQL = `
  insert into ${q("order")} (order_no, mac_name, machine_id, application_id, agent_id, agent_path, shop_id, order_time, pay_time, pay_type,
                             pay_status, money, refund_money, refund_request_time, refund_time, channel_number, goods_id, goods_name, quantity, delivered_quantity,
                             is_shipped, is_profit, is_drop, use_status, device_kind, page_id, cost_money, created_at, updated_at,
                             shop_name, page_name, application_name)
  with m as (
    -- Each machine with the names its orders keep (history's title copies), read once per machine.
    select u.*, sh.name as shop_name, pg.name as page_name, ap.name as application_name
      from unnest($5::bigint[], $6::bigint[], $7::text[], $8::bigint[], $9::text[], $10::bigint[], $11::int[], $12::int[], $13::int[], $14::int[], $15::int[], $23::text[], $24::bigint[])
           with ordinality as u(id, agent_id, agent_path, shop_id, mac_name, app_id, vend, region, tz, n_items, item_off, kind, page_id, idx)
      left join ${q("shop")} sh on sh.id = u.shop_id
      left join ${q("page")} pg on pg.id = u.page_id
      left join ${q("application")} ap on ap.id = u.app_id
  ), it as (
    select u.*, gd.title as goods_title
      from unnest($17::int[], $18::int[], $25::int[], $26::bigint[]) with ordinality as u(channel, price, cost, goods, idx)
      left join ${q("goods")} gd on gd.id = u.goods
  ), r as (
    select g,
           ($16::int[])[1 + ${h(1)} % ${MACHINE_PICKS}] as midx,
           ($20::int[])[1 + ${h(2)} % ${DAY_PICKS}] as dd,
           ($19::int[])[1 + ${h(3)} % 1000] as hh,
           ${h(4)} % 3600 as sec,
           ${h(5)} as h5, ${h(6)} as h6, ${h(7)} as h7, ${h(8)} as h8
      from generate_series($1::bigint, $2::bigint) g
  ), t as (
    select r.*, m.id as machine_id, m.agent_id, m.agent_path, m.shop_id, m.mac_name, m.app_id, m.vend, m.region,
           m.kind, m.page_id, m.shop_name, m.page_name, m.application_name, it.channel, it.price, it.cost, it.goods, it.goods_title,
           to_timestamp($3::float8 - r.dd * 86400 + r.hh * 3600 + r.sec - m.tz) as t0
      from r join m on m.idx = r.midx join it on it.idx = m.item_off + 1 + r.h5 % m.n_items
  ), s as (
    select t.*,
           case when t0 > to_timestamp($4::float8) then t0 - interval '1 day' else t0 end as ot,
           case when vend = 1 then case when h6 % 100 < 85 then 1 when h6 % 100 < 97 then 2 else 3 end else 1 end as qty,
           ($22::int[])[1 + h7 % 1000] as st0
      from t
  ), u as (
    select s.*,
           case when st0 = 1 and ot < to_timestamp($4::float8) - interval '1 day' then 2 else st0 end as st,
           price * qty as amount
      from s
  ), v as (
    select u.*,
           (array['paid','pending','cancelled','refund_requested','refund_success','partial_refund'])[st + 1] as status,
           st in (0, 3, 4, 5) as paid,
           vend = 1 and st in (0, 3, 4, 5) and (h6 / 100) % 1000 < 6 as dropped,
           least(ot + (3 + h8 % 50) * interval '1 second', to_timestamp($4::float8)) as pt,
           case when st in (3, 4, 5) then least(ot + (600 + h8 % 172800) * interval '1 second', to_timestamp($4::float8)) end as rq
      from u
  ), w as (
    select v.*,
           case when st in (4, 5) then least(rq + (3600 + (h7 / 1000) % 86400) * interval '1 second', to_timestamp($4::float8)) end as rt,
           case when st = 4 then amount when st = 5 then greatest(1, amount * (20 + (h8 / 1000) % 60) / 100) else 0 end as refund
      from v
  )
  select to_char((ot at time zone 'UTC') + interval '7 hours', 'YYYYMMDDHH24MISS') || lpad((g % 10000000)::text, 7, '0'),
         mac_name, machine_id, app_id, agent_id, agent_path, shop_id, ot,
         case when paid then pt end,
         case when paid then ($21::int[])[1 + region * 100 + (h6 / 100000) % 100] end,
         status, amount, refund, rq, rt,
         case when vend = 1 then channel end,
         case when vend = 1 then goods end,
         case when vend = 1 then goods_title end,
         qty,
         case when paid and not dropped then qty else 0 end,
         case when paid and not dropped then 1 else 0 end,
         0,
         case when dropped then 1 else 0 end,
         case when vend = 1 or not paid then 'none'
              when st = 0 and ot > to_timestamp($4::float8) - interval '90 minutes' then 'in_use' else 'ended' end,
         kind, page_id, cost * qty,
         ot,
         coalesce(rt, rq, case when paid then pt end, ot),
         shop_name, page_name, application_name
    from w`;
