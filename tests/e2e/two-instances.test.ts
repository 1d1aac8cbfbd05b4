// Two server instances on one PostgreSQL schema (issue 32), each with its own connections, change hub and
// presence board, as two processes behind a load balancer have: agent_a reads through the first, the other
// person's console talks to the second. A change made through the second appears on the first's list (in
// place, a new row announced), detail, dashboard and device map; two people on one record's form, one on
// each instance, are told of each other, and the second to save meets the comparison and lands both
// people's changes.
// Runs where DATABASE_URL names a PostgreSQL (.ci/run's pass on PostgreSQL); the embedded database is one
// process's, so there it is skipped.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { randomBytes } from "node:crypto";
import { openPostgres } from "../../server/db/db.ts";
import { migrate } from "../../server/db/migrate.ts";
import { seedConsole } from "./demo-data.ts";
import {
  go,
  locale,
  onPage,
  openPage,
  serveConsole,
  shot,
  signIn,
  startConsole,
  type Console,
  type Tab,
} from "./harness.ts";

const url = process.env.DATABASE_URL;
const common = locale("en", "common");
const conflict = common.conflict;

describe.runIf(url)("two instances on one PostgreSQL", () => {
  const schema = `e2e_${randomBytes(6).toString("hex")}`;
  /** The first instance, and the browser. */
  let first: Console;
  /** The second: its own database connections and server, the first's browser. */
  let second: Console;
  let reader: Tab;
  let writer: Tab;

  beforeAll(async () => {
    const db = await openPostgres(url!, schema);
    await migrate(db);
    await seedConsole(db);
    first = await startConsole(db);
    const otherDb = await openPostgres(url!, schema);
    const served = await serveConsole(otherDb);
    second = {
      ...served,
      db: otherDb,
      browser: first.browser,
      async close() {
        await served.app.close();
        await otherDb.close();
      },
    };
    [reader, writer] = await Promise.all([openPage(first), openPage(second)]);
    await signIn(first, reader.page, "agent_a");
    await signIn(second, writer.page, "agent_a");
  }, 300_000);
  afterAll(async () => {
    // The pages first: an open change stream holds its server's close.
    await Promise.all([reader, writer].map((tab) => tab?.context.close()));
    await second?.close();
    if (first) {
      await first.db.query(`drop schema ${schema} cascade`);
      await first.close();
    }
  });

  /** agent_a's outlets, newest first, as its list shows them. */
  const outlets = async () =>
    (
      await first.db.query<{ id: number; name: string }>(
        `select id, name from shop where agent_id = (select id from agent where account = 'agent_a')
            and deleted_at is null order by id desc`,
      )
    ).rows;

  it("shows a change made through the other instance on the list, the detail, the dashboard and the map", async () => {
    const { page } = reader;
    await go(page, "/shop/list");
    const rows = () => onPage(page, "/shop/list", ".ant-table-tbody tr.ant-table-row");
    await rows().first().waitFor();
    const [top] = await outlets();

    await call(writer.page, "shop-update", { ...(await detail(writer.page, top.id)), name: "Renamed on the other" });
    await expect.poll(() => rows().first().textContent()).toContain("Renamed on the other");

    await call(writer.page, "shop-add", {
      name: "Added on the other",
      phone: "0123456789",
      province: "Phnom Penh",
      city: "Phnom Penh",
      district: "Daun Penh",
      address: "Street 1",
      longitude: 104.92,
      latitude: 11.56,
    });
    const notice = onPage(page, "/shop/list", ".live-fresh");
    await notice.waitFor();
    expect(await notice.textContent()).toContain("Outlet: 1 new since the list was shown");
    expect(await rows().first().textContent()).toContain("Renamed on the other");

    await go(page, `/shop/list/show/${top.id}`);
    const shown = onPage(page, `/shop/list/show/${top.id}`, ".ant-descriptions");
    await expect.poll(() => shown.textContent()).toContain("Renamed on the other");
    await call(writer.page, "shop-update", { ...(await detail(writer.page, top.id)), name: "Seen on the detail" });
    await expect.poll(() => shown.textContent()).toContain("Seen on the detail");

    // The dashboard: an order of an earlier day moved into today by a statement on the second's connections.
    await go(page, "/");
    const todays = page
      .locator(".ant-card", { has: page.locator(`.ant-card-head-title:text-is("${common.home.periods.today}")`) })
      .locator(".ant-statistic", { has: page.locator(`.ant-statistic-title:text-is("${common.home.orders}")`) })
      .locator(".ant-statistic-content-value");
    await expect.poll(() => todays.innerText()).toBe(String(await todayOrders()));
    const { rows: moved } = await second.db.query(
      `update "order" set order_time = now(), version = version + 1
        where id = (select id from "order" where agent_path like (select agent_path || '%' from agent
                                                                    where account = 'agent_a')
                       and (order_time at time zone 'Asia/Bangkok')::date < (now() at time zone 'Asia/Bangkok')::date
                     order by id limit 1)
        returning id`,
    );
    expect(moved).toHaveLength(1);
    await expect.poll(() => todays.innerText()).toBe(String(await todayOrders()));

    // The map: an offline device of an outlet on it reports in, through the second's connections.
    await page.waitForFunction(() => performance.getEntriesByName("device-map-rendered").length > 0, null, {
      timeout: 30_000,
    });
    const offline = locale("en", "machine").enum.status.offline as string;
    const drawn = () =>
      page.evaluate((name) => {
        const box = document.querySelector(".device-map") as HTMLDivElement & {
          chart: { getOption(): { series: { name: string; data: Float64Array }[] } };
        };
        const series = box.chart.getOption().series.find((s) => s.name === name);
        return series ? series.data.length / 2 : 0;
      }, offline);
    const offlineBefore = await drawn();
    expect(offlineBefore).toBeGreaterThan(0);
    const { rows: reported } = await second.db.query(
      `update "machine" set last_report_at = now(), version = version + 1
        where id = (select m.id from "machine" m join "shop" s on s.id = m.shop_id
                     where m.deleted_at is null and s.longitude is not null and m.mac_id is not null
                       and m.agent_path like (select agent_path || '%' from agent where account = 'agent_a')
                       and m.last_report_at < now() - interval '1 day'
                     order by m.id limit 1)
        returning id`,
    );
    expect(reported).toHaveLength(1);
    await expect.poll(() => drawn()).toBe(offlineBefore - 1);
    expect(reader.errors).toEqual([]);
    expect(writer.errors).toEqual([]);
  });

  it("tells two people on one form, one on each instance, of each other; the second to save lands both", async () => {
    const [target] = await outlets();
    await first.db.query(`update shop set phone = '+855 12 000 001', address = '1 Norodom Blvd' where id = $1`, [
      target.id,
    ]);
    const editPath = `/shop/list/edit/${target.id}`;
    const admin = await openPage(second);
    try {
      await signIn(second, admin.page, "admin");
      const nickname = async (account: string) =>
        (await first.db.query<{ nickname: string }>(`select nickname from agent where account = $1`, [account])).rows[0]
          .nickname;
      await go(admin.page, editPath);
      const { page } = reader;
      await go(page, editPath);
      await onPage(page, editPath, ".schema-form").waitFor();

      await expect.poll(() => onPage(page, editPath, ".also-editing").textContent()).toContain(await nickname("admin"));
      await expect
        .poll(() => onPage(admin.page, editPath, ".also-editing").textContent())
        .toContain(await nickname("agent_a"));
      await shot(page, "two-instances-also-editing-en-1440");

      // The admin saves a new address through the second; agent_a, on the first, a new phone.
      const field = (p: Page, name: string) => onPage(p, editPath, `.schema-form #root_${name}`);
      await field(admin.page, "address").fill("2 Norodom Blvd");
      await onPage(admin.page, editPath, ".schema-form button[type=submit]").click();
      await admin.page.waitForURL(/\/shop\/list(\?.*)?$/);
      await field(page, "phone").fill("+855 12 000 002");
      await onPage(page, editPath, ".schema-form button[type=submit]").click();
      const dialog = page.locator(".conflict-dialog");
      await dialog.locator(".conflict-field").first().waitFor();
      await dialog.getByRole("button", { name: conflict.saveAgain }).click();
      await page.waitForURL(/\/shop\/list(\?.*)?$/);
      const { rows } = await second.db.query(`select phone, address from shop where id = $1`, [target.id]);
      expect(rows[0]).toEqual({ phone: "+855 12 000 002", address: "2 Norodom Blvd" });
      expect(admin.errors).toEqual([]);
      // The 409 agent_a's first save was answered is the only error its page may have seen.
      expect(reader.errors.filter((e) => !/409/.test(e))).toEqual([]);
    } finally {
      await admin.context.close();
    }
  });

  async function todayOrders(): Promise<number> {
    const { rows } = await first.db.query<{ n: number }>(
      `select count(*)::int as n from "order"
        where agent_path like (select agent_path || '%' from agent where account = 'agent_a')
          and (order_time at time zone 'Asia/Bangkok')::date = (now() at time zone 'Asia/Bangkok')::date`,
    );
    return rows[0].n;
  }
});

/** A call as the page's console sends it (its token). */
async function call(page: Page, name: string, body: unknown): Promise<Record<string, unknown>> {
  const answer = await page.evaluate(
    async ({ name, body }) => {
      const response = await fetch(`/merchant/${name}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          authorization: `Bearer ${localStorage.getItem("merchant_token")}`,
        },
        body: JSON.stringify(body),
      });
      return (await response.json()) as { code: number; data: Record<string, unknown> };
    },
    { name, body },
  );
  expect(answer.code, JSON.stringify(answer)).toBe(200);
  return answer.data;
}

/** The record as its detail answers it (what an update sends back, with its version). */
async function detail(page: Page, id: number): Promise<Record<string, unknown>> {
  return page.evaluate(async (id) => {
    const response = await fetch(`/merchant/shop-detail?id=${id}`, {
      headers: { authorization: `Bearer ${localStorage.getItem("merchant_token")}` },
    });
    return ((await response.json()) as { data: Record<string, unknown> }).data;
  }, id);
}
