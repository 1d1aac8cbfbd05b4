// The live views: entities whose figures are worked out from their sources at the moment they are read
// (x-entity.live), so that they can be filtered and sorted like stored columns and never drift. Each view
// is the table's own columns plus the derived fields (x-store: derived), one definition each; list and
// detail read through it (server/entities/repository.ts), writes go to the table. A view is dropped and
// made again when its text changes, and its text names the table's columns, so a new column changes it.
import { modelOf, type EntityModel } from "../model/model.ts";
import { BUSINESS_TIME_ZONE } from "./rollups.ts";
import { q } from "../core/sql.ts";

/** A device that has not reported for this long is offline. */
export const ONLINE_WINDOW_MINUTES = 10;
/** A device reporting a battery level below this is low on battery. */
export const LOW_BATTERY_PERCENT = 20;

/** The relation an entity's reads go through: its live view, or its table. */
export const readRelation = (model: EntityModel): string => (model.x.live ? `${model.table}_live` : model.table);

const TODAY = `(now() at time zone '${BUSINESS_TIME_ZONE}')::date`;

/**
 * A device's live state, in this order: inactive (no hardware bound, or it never reported), offline (no
 * report within the online window), out of stock (a shelved lane with goods is empty), low battery, near
 * expiry, online. Near expiry: the device's own expiry date, or the goods in a shelved lane, expire within
 * the near-expiry days (the owner's goods settings' expire_day, else the system's near_expiry_days). The
 * goods in a lane expire their shelf life after the oldest of them was loaded: the goods' own valid_days,
 * else the owner's goods settings' goods_days, else the system's goods_valid_days (0 is none: no expiry).
 * The oldest loaded is found from the lane's restock records of its goods, first in first out: going back
 * from the newest, the restock at which the records reach what is left (the earliest one when they never
 * do, as when stock was put in before records were kept). Its stock state: out_of_stock
 * when a shelved lane with goods is empty, low_stock when one is at or below the stock alert quantity of
 * the settings, else in_stock. Its takings: the stat_machine_day roll-up (paid orders less refunds, by the
 * business day they were paid): today, the last 7 and 30 days counting today, and in all.
 */
const machine = (columns: string) => `
select ${columns},
       coalesce(t.total_money, 0)::bigint as total_money,
       coalesce(t.total_number, 0)::bigint as total_number,
       coalesce(t.month_money, 0)::bigint as month_money,
       coalesce(t.week_money, 0)::bigint as week_money,
       coalesce(t.day_money, 0)::bigint as day_money,
       case when l.empty > 0 then 'out_of_stock' when l.low > 0 then 'low_stock' else 'in_stock' end as stock_status,
       case when m.last_report_at >= now() - interval '${ONLINE_WINDOW_MINUTES} minutes' then 'online' else 'offline' end
         as online_status,
       case when m.mac_id is null or m.last_report_at is null then 'inactive'
            when m.last_report_at < now() - interval '${ONLINE_WINDOW_MINUTES} minutes' then 'offline'
            when l.empty > 0 then 'out_of_stock'
            when m.battery_level < ${LOW_BATTERY_PERCENT} then 'low_battery'
            when m.expiry_date <= ${TODAY} + coalesce(nullif(gs.expire_day, 0), st.near_days)::int then 'near_expiry'
            when l.expires_on <= ${TODAY} + coalesce(nullif(gs.expire_day, 0), st.near_days)::int then 'near_expiry'
            else 'online' end as status
  from "machine" m
  cross join (select coalesce(max(stock_alert_quantity), 0) as alert, coalesce(max(near_expiry_days), 0)::int as near_days,
                     max(nullif(goods_valid_days, 0)) as valid_days
                from "system_setting") st
  left join "goods_setting" gs on gs.singleton_key = m.agent_path
  left join lateral (
        select sum(d.takings) as total_money, sum(d.orders) as total_number,
               sum(d.takings) filter (where d.day > ${TODAY} - 30) as month_money,
               sum(d.takings) filter (where d.day > ${TODAY} - 7) as week_money,
               sum(d.takings) filter (where d.day = ${TODAY}) as day_money
          from stat_machine_day d where d.machine_id = m.id) t on true
  left join lateral (
        select count(*) filter (where c."left" = 0) as empty, count(*) filter (where c."left" <= st.alert) as low,
               min((lo.at at time zone '${BUSINESS_TIME_ZONE}')::date
                   + coalesce(g.valid_days, nullif(gs.goods_days, 0), st.valid_days)::int) as expires_on
          from "machine_channel" c
          left join "goods" g on g.id = c.goods_id
          left join lateral (
                select coalesce(
                         (select r.restocked_at
                            from (select restocked_at, sum(quantity) over (order by restocked_at desc, id desc) as upto
                                    from "machine_restock" where channel_id = c.id and goods_id = c.goods_id) r
                           where r.upto >= c."left" order by r.upto limit 1),
                         (select min(restocked_at) from "machine_restock" where channel_id = c.id and goods_id = c.goods_id))
                       as at) lo on c."left" > 0
         where c.machine_id = m.id and c.shelf_status = 1 and c.goods_id is not null) l on true`;

/** An outlet's live devices, and the operators bound to them (its team). */
const shop = (columns: string) => `
select ${columns},
       (select count(*) from "machine" m where m.shop_id = s.id and m.deleted_at is null)::bigint as device_count,
       (select count(distinct b.operator_id) from "operator_binding" b
          join "machine" m on m.id = b.machine_id and m.deleted_at is null
          join "operator" o on o.id = b.operator_id and o.deleted_at is null
         where m.shop_id = s.id)::bigint as team_count
  from "shop" s`;

/** An agent's team: every live agent below it in the tree. */
const agent = (columns: string) => `
select ${columns},
       (select count(*) from "agent" d
         where d.agent_path like a.agent_path || '_%' and d.deleted_at is null)::bigint as team_count
  from "agent" a`;

const DEFINITIONS: Record<string, { alias: string; sql: (columns: string) => string }> = {
  machine: { alias: "m", sql: machine },
  shop: { alias: "s", sql: shop },
  agent: { alias: "a", sql: agent },
};

/** The live views' statements, named like the roll-up routines, given each table's columns. */
export function liveViews(tableColumns: (model: EntityModel) => string[]): { name: string; statements: string[] }[] {
  return Object.entries(DEFINITIONS).map(([entity, { alias, sql }]) => {
    const model = modelOf(entity);
    if (!model.x.live) throw new Error(`${entity}: a live view is defined, but the schema does not say x-entity.live`);
    const view = readRelation(model);
    const columns = tableColumns(model)
      .map((c) => `${alias}.${q(c)}`)
      .join(", ");
    return {
      name: `view:${view}`,
      statements: [`drop view if exists ${q(view)}`, `create view ${q(view)} as${sql(columns)}`],
    };
  });
}

/** Every entity that says x-entity.live has its view here (the server refuses to start otherwise). */
export function checkLiveViews(models: EntityModel[]): void {
  for (const model of models)
    if (model.x.live && !DEFINITIONS[model.name])
      throw new Error(`${model.name}: x-entity.live, but no view in server/db/live.ts`);
}
