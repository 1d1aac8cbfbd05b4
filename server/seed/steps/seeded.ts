// What the steps of the demo seed made that later steps build on: each step answers its part, demo.ts
// hands the parts on, and a step takes only those it reads (a Pick of Seeded).
import type { NetworkType } from "../../../src/generated/types.ts";
import type { AgentSpec, GoodsSpec, Kind, ModelSpec } from "../data.ts";
import type { Rows } from "./rows.ts";

export interface SeededAgent {
  spec: AgentSpec;
  id: number;
  path: string;
  children: SeededAgent[];
  parent?: SeededAgent;
}

export interface AgentTree {
  byKey: Map<string, SeededAgent>;
  root: SeededAgent;
  /** Every agent but the root, in the order of AGENTS. */
  field: SeededAgent[];
  levelOne: SeededAgent[];
}

/** The scope columns of a row the agent owns. */
export const owner = (a: SeededAgent): { agent_id: number; agent_path: string } => ({
  agent_id: a.id,
  agent_path: a.path,
});

export interface Roles {
  /** The role of an agent of this level (0 the platform admin). */
  roleOf: (level: number) => number;
  adminGroupIds: number[];
}

export interface Hardware {
  protocolIds: Map<string, number>;
  specIds: Map<string, number>;
  modelIds: Map<ModelSpec, number>;
  appIds: number[];
  /** The application a device of this kind runs. */
  appOfKind: Record<Kind, number>;
}

/** An agent's outlets, in the order of SHOPS; index is the outlet's place among the agent's SHOPS. */
export type Outlets = Map<string, { id: number; index: number }[]>;

export interface CatalogItem {
  id: number;
  spec: GoodsSpec;
  price: number;
  downPrice: number;
  /** What the goods cost the agent (its superior's wholesale price, or the buying price). */
  cost: number;
}

/** Each agent's goods, by agent key (goods are scoped: an agent stocks from its own catalogue). */
export type Catalogues = Map<string, CatalogItem[]>;

export interface Plans {
  channel: Map<
    string,
    { id: number; channels: { channel_number: number; goods_id: number; count: number; price: number }[] }
  >;
  charge?: { id: number; packages: { minutes: number; fee: number }[] };
  pile?: { id: number; electricity: number; service: number; maxHours: number };
  dryer: { id: number; packages: { minutes: number; fee: number }[] }[];
  carWash?: { id: number; packages: { minutes: number; fee: number }[] };
}

export interface SeededMachine {
  id: number;
  kind: Kind;
  agent: SeededAgent;
  shopId: number;
  macName: string;
  macId: string;
  /** The share of the orders it takes (0 when inactive). */
  weight: number;
  /** What an order can buy: lane, price and the goods' cost, or a package fee. */
  items: { channel: number; price: number; cost?: number; minutes?: number; goods?: number }[];
  planId: number;
  network: NetworkType;
  active: boolean;
  /** Reported minutes ago: it keeps reporting while the server runs (server/seed/devices.ts). */
  online: boolean;
}

export interface Operators {
  bindings: Rows["operator_binding"][];
  /** The machines bound to an operator. */
  bound: Set<number>;
}

export interface Seeded {
  roles: Roles;
  agents: AgentTree;
  hardware: Hardware;
  outlets: Outlets;
  catalogues: Catalogues;
  plans: Map<string, Plans>;
  machines: SeededMachine[];
  operators: Operators;
  /** The page of an agent's application: `${agentId}:${applicationId}`. */
  pages: Map<string, number>;
}
