// A fresh app per test file: in-memory PGlite (a copy of the run's migrated database, tests/api/database.ts),
// or, when DATABASE_URL is set, a throwaway schema in that PostgreSQL (the same tests, unchanged). Accounts
// follow DESIGN.md section 6, with fast hashes.
import { randomBytes } from "node:crypto";
import { request as httpRequest } from "node:http";
import type { FastifyInstance, InjectOptions } from "fastify";
import { openPostgres, type Db } from "../../server/db/db.ts";
import { migrate } from "../../server/db/migrate.ts";
import { buildApp, type AppOptions } from "../../server/app.ts";
import { hashPassword } from "../../server/core/passwords.ts";
import { permissionKeys } from "../../src/generated/schemas.ts";
import { openDatabase } from "../support/template-db.ts";

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  ids: Record<"admin" | "agent_a" | "agent_a1" | "agent_b" | "operator_a" | "roleAgent" | "roleNarrow", number>;
  /** Signs in and returns a client that sends the token, Locale and Source headers. */
  as(account: string, password?: string): Promise<Client>;
  close(): Promise<void>;
}

export interface Reply<T = unknown> {
  status: number;
  body: { code: number; message: string; data: T };
  headers: Record<string, unknown>;
  raw: string;
}

export interface Client {
  token: string;
  get<T = unknown>(url: string): Promise<Reply<T>>;
  post<T = unknown>(url: string, payload?: unknown): Promise<Reply<T>>;
  del<T = unknown>(url: string, payload?: unknown): Promise<Reply<T>>;
  lng: string;
}

export async function call<T>(app: FastifyInstance, options: InjectOptions): Promise<Reply<T>> {
  const response = await app.inject(options);
  let body: Reply<T>["body"];
  try {
    body = response.json();
  } catch {
    body = { code: response.statusCode, message: "", data: undefined as T };
  }
  return { status: response.statusCode, body, headers: response.headers, raw: response.body };
}

export function client(app: FastifyInstance, token: string, lng = "en"): Client {
  const headers = { authorization: `Bearer ${token}`, locale: lng, source: "pc" };
  return {
    token,
    lng,
    get: (url) => call(app, { method: "GET", url, headers }),
    post: (url, payload) => call(app, { method: "POST", url, headers, payload: payload as never }),
    del: (url, payload) =>
      call(app, { method: "DELETE", url, headers, ...(payload ? { payload: payload as never } : {}) }),
  };
}

/** Permissions of a level-1 agent in the tests: everything but platform administration. */
const PLATFORM_ONLY = /^(role|version|application|plugin|payment_setting|system_setting)\./;

/** A migrated database of the caller's own, and how to remove it. */
export async function openTestDb(): Promise<{ db: Db; drop: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const db = await openDatabase();
    return { db, drop: () => db.close() };
  }
  const schema = `test_${randomBytes(6).toString("hex")}`;
  const db = await openPostgres(url, schema);
  await migrate(db);
  return {
    db,
    drop: async () => {
      await db.query(`drop schema ${schema} cascade`);
      await db.close();
    },
  };
}

/** `options`: what buildApp takes beside the database (the licence test trusts a key pair of its own). */
export async function createTestApp(options: Pick<AppOptions, "licenceKeys"> = {}): Promise<TestApp> {
  process.env.SCRYPT_N ??= "1024";
  const { db, drop } = await openTestDb();
  // As in the demo seed: level-1 agents pick roles for their sub-agents (role.all), never manage them.
  const agentPermissions = permissionKeys.filter((p) => !PLATFORM_ONLY.test(p) || p === "role.all");
  const narrow = ["goods.list", "goods.detail", "order.list", "machine.list"];
  const role = async (name: string, level: number, permissions: string[]) =>
    (
      await db.query<{ id: number }>(`insert into "role" (name, level, permissions) values ($1, $2, $3) returning id`, [
        name,
        level,
        JSON.stringify(permissions),
      ])
    ).rows[0].id;
  const roleAdmin = await role("Platform admin", 0, [...permissionKeys]);
  const roleAgent = await role("Level-1 agent", 1, agentPermissions);
  const roleNarrow = await role("Viewer", 2, narrow);
  const admin123 = await hashPassword("admin123");
  const demo123 = await hashPassword("demo123");
  const agent = async (account: string, password: string, roleId: number, parent?: { id: number; path: string }) => {
    const { rows } = await db.query<{ id: number }>(
      `insert into "agent" (nickname, account, password, phone, role_id, parent_role_id, pid) values ($1, $2, $3, '+85512000000', $4, $4, $5) returning id`,
      [account.replace("_", " "), account, password, roleId, parent?.id ?? null],
    );
    const id = rows[0].id;
    const path = `${parent?.path ?? "/"}${id}/`;
    await db.query(`update "agent" set agent_path = $1, agent_id = $2 where id = $2`, [path, id]);
    return { id, path };
  };
  const admin = await agent("admin", admin123, roleAdmin);
  const a = await agent("agent_a", demo123, roleAgent, admin);
  const a1 = await agent("agent_a1", demo123, roleNarrow, a);
  const b = await agent("agent_b", demo123, roleAgent, admin);
  const { rows } = await db.query<{ id: number }>(
    `insert into "operator" (nickname, account, password, refill, agent_id, agent_path) values ('Operator A', 'operator_a', $1, 1, $2, $3) returning id`,
    [demo123, a.id, a.path],
  );
  const app = await buildApp({ db, checkAnswers: true, ...options });
  const passwords: Record<string, string> = { admin: "admin123" };
  return {
    app,
    db,
    ids: {
      admin: admin.id,
      agent_a: a.id,
      agent_a1: a1.id,
      agent_b: b.id,
      operator_a: rows[0].id,
      roleAgent,
      roleNarrow,
    },
    async as(account, password = passwords[account] ?? "demo123") {
      const reply = await call<{ token: string }>(app, {
        method: "POST",
        url: "/merchant/login",
        payload: { account, password },
      });
      if (reply.status !== 200) throw new Error(`login ${account}: ${reply.status} ${reply.raw}`);
      return client(app, reply.body.data.token);
    },
    async close() {
      await app.close();
      await drop();
    },
  };
}

/**
 * One request over a real socket to a listening server, from the given local address (any 127.0.0.x on
 * Linux): what the server sees as the client's address, unlike inject's remoteAddress, goes through
 * Fastify's own socket handling.
 */
export function send<T = unknown>(
  base: string,
  options: { method?: string; path: string; body?: unknown; headers?: Record<string, string>; localAddress?: string },
): Promise<Reply<T>> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${base}${options.path}`,
      {
        method: options.method ?? (payload ? "POST" : "GET"),
        agent: false,
        localAddress: options.localAddress,
        headers: { ...(payload ? { "content-type": "application/json" } : {}), ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const raw = Buffer.concat(chunks).toString("utf8");
          let body: Reply<T>["body"];
          try {
            body = JSON.parse(raw) as Reply<T>["body"];
          } catch {
            body = { code: res.statusCode ?? 0, message: "", data: undefined as T };
          }
          resolve({ status: res.statusCode ?? 0, body, headers: res.headers, raw });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

/** Starts the app on a free loopback port and answers its base URL. */
export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  if (!address || typeof address === "string") throw new Error("not listening on a port");
  return `http://127.0.0.1:${address.port}`;
}
