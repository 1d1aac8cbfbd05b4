// The rows the demo seed inserts, table by table: the generated entity types (src/generated/types.ts) as a
// stored row has them, with the system columns the seed sets, timestamps it writes as Dates, and without
// the fields no column holds (x-store "none" or "derived": a confirmation, a figure worked out on reading).
import type { EntityMap } from "../../../src/generated/types.ts";

type Table = keyof EntityMap;

/** A moment as the seed writes it: a Date (stored as ISO 8601) or its ISO text. */
type Moment = Date | string;

/** The system columns (SYSTEM_COLUMNS) the seed sets; id and version take their defaults. */
interface SystemColumns {
  created_at?: Moment;
  updated_at?: Moment;
  deleted_at?: Moment;
  deleted_by?: number;
  agent_id?: number;
  agent_path?: string;
  singleton_key?: string;
}

/** A stored row of T: its `Moments` written as Dates, its `Unstored` fields left out. */
type Stored<
  T extends Table,
  Moments extends keyof EntityMap[T] = never,
  Unstored extends keyof EntityMap[T] = never,
> = Omit<{ [K in keyof EntityMap[T]]: K extends Moments ? Moment : EntityMap[T][K] }, Unstored> & SystemColumns;

type DerivedMachineFields =
  | "status"
  | "online_status"
  | "stock_status"
  | "total_money"
  | "total_number"
  | "month_money"
  | "week_money"
  | "day_money";

export interface Rows {
  role: Stored<"role">;
  admin_group: Stored<"admin_group">;
  /** The root agent has no superior: its pid is NULL. */
  agent: Stored<"agent", never, "confirm_password" | "team_count" | "pid"> & { pid: number | null };
  machine_protocol: Stored<"machine_protocol">;
  machine_spec: Stored<"machine_spec">;
  machine_model: Stored<"machine_model">;
  application: Stored<"application">;
  plugin: Stored<"plugin">;
  shop_group: Stored<"shop_group">;
  shop: Stored<"shop", never, "team_count" | "device_count">;
  goods_category: Stored<"goods_category">;
  goods: Stored<"goods">;
  goods_sku: Stored<"goods_sku">;
  channel_plan: Stored<"channel_plan">;
  deposit_plan: Stored<"deposit_plan">;
  charge_plan: Stored<"charge_plan">;
  charge_pile_plan: Stored<"charge_pile_plan">;
  dryer_plan: Stored<"dryer_plan">;
  car_wash_plan: Stored<"car_wash_plan">;
  machine: Stored<"machine", "last_report_at", DerivedMachineFields>;
  machine_channel: Stored<"machine_channel">;
  operator: Stored<"operator", never, "confirm_password">;
  operator_binding: Stored<"operator_binding">;
  shop_manager: Stored<"shop_manager", never, "confirm_password">;
  page: Stored<"page">;
  banner: Stored<"banner">;
  notice: Stored<"notice">;
  service_entry: Stored<"service_entry">;
  mini_page_url: Stored<"mini_page_url">;
  version: Stored<"version", "upgrade_time">;
  system_setting: Stored<"system_setting">;
  goods_setting: Stored<"goods_setting">;
  plugin_setting: Stored<"plugin_setting">;
  machine_ad: Stored<"machine_ad">;
  machine_replacement: Stored<"machine_replacement", "replaced_at">;
  wifi: Stored<"wifi">;
  profit_setting: Stored<"profit_setting">;
  profit_record: Stored<"profit_record">;
  charge_log: Stored<"charge_log", "start_time" | "end_time">;
  scan_record: Stored<"scan_record", "scanned_at">;
  clean_record: Stored<"clean_record", "cleaned_at">;
  machine_restock: Stored<"machine_restock", "restocked_at">;
  service_order: Stored<"service_order">;
  delivery_order: Stored<"delivery_order", "delivery_time">;
}
