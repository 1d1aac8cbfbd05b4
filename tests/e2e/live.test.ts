// Live screens (issue 32) in the browser: two people signed in to agent_a's business in two browser
// contexts. What one changes appears on the other's open list (in place), detail and edit form (said, not
// refreshed under the hands); a new row is announced above the rows being read and shown on a click; a row
// deleted elsewhere is marked where it was. Screenshots of the announcement and the marks in five languages
// at 1440 and 390 px. The second person writes through the API with its own session, as its console does.
// A third, the platform admin, opens the same edit form: each is told that the other edits it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import {
  expectFits,
  go,
  inLanguage,
  LANGUAGES,
  locale,
  onPage,
  openPage,
  shot,
  signIn,
  startConsole,
  type Console,
  type Tab,
} from "./harness.ts";

let c: Console;
let reader: Tab;
let writer: Tab;

beforeAll(async () => {
  c = await startConsole();
  [reader, writer] = await Promise.all([openPage(c), openPage(c)]);
  await signIn(c, reader.page, "agent_a");
  await signIn(c, writer.page, "agent_a");
}, 120_000);
afterAll(async () => {
  await c?.close();
});

/** A call as the writer's console sends it (its token, its language). */
async function write(page: Page, call: string, body: unknown, method = "POST") {
  const answer = await page.evaluate(
    async ({ call, body, method }) => {
      const response = await fetch(`/merchant/${call}`, {
        method,
        headers: {
          "content-type": "application/json",
          authorization: `Bearer ${localStorage.getItem("merchant_token")}`,
          locale: "en",
        },
        body: method === "DELETE" ? undefined : JSON.stringify(body),
      });
      return (await response.json()) as { code: number; data: Record<string, unknown> };
    },
    { call, body, method },
  );
  expect(answer.code, JSON.stringify(answer)).toBe(200);
  return answer.data;
}

/** agent_a's outlets, newest first, as its list shows them. */
const outlets = async () =>
  (
    await c.db.query<{ id: number; name: string; version: number }>(
      `select id, name, version from shop where agent_id = (select id from agent where account = 'agent_a')
          and deleted_at is null order by id desc`,
    )
  ).rows;

const NEW_OUTLET = {
  phone: "0123456789",
  province: "Phnom Penh",
  city: "Phnom Penh",
  district: "Daun Penh",
  address: "Street 1",
  longitude: 104.92,
  latitude: 11.56,
};

describe("live screens", () => {
  it("updates a row in place, announces a new one, marks one deleted elsewhere", async () => {
    const { page } = reader;
    await go(page, "/shop/list");
    const rows = () => onPage(page, "/shop/list", ".ant-table-tbody tr.ant-table-row");
    await rows().first().waitFor();
    const shown = await outlets();
    const firstId = shown[0].id;
    const before = await rows().allTextContents();

    // Renamed elsewhere: the row shows the new name where it was.
    await write(writer.page, "shop-update", { ...(await detail(firstId)), name: "Renamed while you read" });
    await expect.poll(() => rows().first().textContent(), { timeout: 15_000 }).toContain("Renamed while you read");
    expect(await rows().count()).toBe(before.length);

    // Added elsewhere: announced above the rows, which stay as they were.
    const added = await write(writer.page, "shop-add", { ...NEW_OUTLET, name: "Opened a minute ago" });
    const notice = onPage(page, "/shop/list", ".live-fresh");
    await notice.waitFor({ timeout: 15_000 });
    expect(await notice.textContent()).toContain("Outlet: 1 new since the list was shown");
    expect(await rows().first().textContent()).toContain("Renamed while you read");
    expect(await rows().allTextContents()).not.toContain(expect.stringContaining("Opened a minute ago"));
    await notice.getByRole("button").click();
    await expect.poll(() => rows().first().textContent()).toContain("Opened a minute ago");
    await notice.waitFor({ state: "detached" });

    // Deleted elsewhere: marked where it was, its actions gone, not yanked away.
    await write(writer.page, `shop-delete?id=${firstId}`, undefined, "DELETE");
    const gone = onPage(page, "/shop/list", "tr.row-gone");
    await gone.waitFor({ timeout: 15_000 });
    expect(await gone.getAttribute("data-row-key")).toBe(String(firstId));
    expect(await gone.textContent()).toContain("No longer in this list");
    expect(await rows().nth(1).getAttribute("data-row-key")).toBe(String(firstId));
    // Asked for again by the reader: the page as it is.
    await page
      .getByRole("button", { name: /refresh/i })
      .first()
      .click();
    await expect.poll(() => gone.count()).toBe(0);
    expect(Number(added.id)).toBeGreaterThan(0);
  });

  it("says so in five languages, at 1440 and 390 px", async () => {
    for (const lng of LANGUAGES) {
      const words = locale(lng, "common").live;
      await inLanguage(c, lng, "agent_a", async ({ page }, viewport) => {
        const rows = onPage(page, "/shop/list", ".ant-table-tbody tr.ant-table-row, .list-cards .ant-list-item");
        if (viewport.width > 500) {
          await go(page, "/shop/list");
          await rows.first().waitFor();
          const [shownFirst] = await outlets();
          await write(writer.page, "shop-add", { ...NEW_OUTLET, name: `New in ${lng}` });
          await write(writer.page, `shop-delete?id=${shownFirst.id}`, undefined, "DELETE");
        }
        const notice = onPage(page, "/shop/list", ".live-fresh");
        await notice.waitFor({ timeout: 15_000 });
        expect(await notice.textContent()).toContain(words.showFresh);
        const gone = onPage(page, "/shop/list", ".row-gone");
        await gone.first().waitFor({ timeout: 15_000 });
        expect(await gone.first().textContent()).toContain(words.gone);
        await expectFits(page, viewport.width);
        await shot(page, `live-list-${lng}-${viewport.width}`);
      });
    }
  }, 300_000);

  it("updates an open detail, and says on an edit form that the record changed without touching its input", async () => {
    const { page } = reader;
    const [target] = await outlets();
    await go(page, `/shop/list/show/${target.id}`);
    const shownName = onPage(page, `/shop/list/show/${target.id}`, ".ant-descriptions");
    await shownName.waitFor();
    await write(writer.page, "shop-update", { ...(await detail(target.id)), name: "Seen on the detail" });
    await expect.poll(() => shownName.textContent(), { timeout: 15_000 }).toContain("Seen on the detail");

    await go(page, `/shop/list/edit/${target.id}`);
    const form = onPage(page, `/shop/list/edit/${target.id}`, ".schema-form");
    await form.waitFor();
    const name = form.locator("input#root_name");
    await name.fill("My own words");
    await write(writer.page, "shop-update", { ...(await detail(target.id)), address: "Moved next door" });
    const said = onPage(page, `/shop/list/edit/${target.id}`, ".changed-elsewhere");
    await said.waitFor({ timeout: 15_000 });
    await expect.poll(() => said.textContent()).toContain("Changed by");
    expect(await name.inputValue()).toBe("My own words");
    expect(await form.locator("input#root_address").inputValue()).not.toBe("Moved next door");
    await shot(page, "live-form-changed-en");
  });

  it("says who else has the same record's form open, as long as they have it, in five languages", async () => {
    // The platform admin opens agent_a's outlet's form in a third browser, and keeps it open.
    const [target] = await outlets();
    const editPath = `/shop/list/edit/${target.id}`;
    const admin = await openPage(c);
    try {
      await signIn(c, admin.page, "admin");
      const adminName = (await c.db.query<{ nickname: string }>(`select nickname from agent where account = 'admin'`))
        .rows[0].nickname;
      const agentName = (await c.db.query<{ nickname: string }>(`select nickname from agent where account = 'agent_a'`))
        .rows[0].nickname;
      await go(admin.page, editPath);
      const adminForm = onPage(admin.page, editPath, ".schema-form");
      await adminForm.waitFor();

      // agent_a opens it: told that the admin edits it; the admin is told of agent_a.
      const { page } = reader;
      await go(page, editPath);
      const said = onPage(page, editPath, ".also-editing");
      await said.waitFor({ timeout: 15_000 });
      expect(await said.textContent()).toContain(adminName);
      const adminSaid = onPage(admin.page, editPath, ".also-editing");
      await expect.poll(() => adminSaid.textContent(), { timeout: 15_000 }).toContain(agentName);

      // In every language, at both widths, the words fit.
      for (const lng of LANGUAGES) {
        const words = locale(lng, "common").live.alsoEditing.split("{{names}}");
        await inLanguage(c, lng, "agent_a", async (tab, viewport) => {
          await go(tab.page, editPath);
          const alert = onPage(tab.page, editPath, ".also-editing");
          await alert.waitFor({ timeout: 15_000 });
          const text = (await alert.textContent()) ?? "";
          expect(text).toContain(adminName);
          for (const part of words) expect(text).toContain(part.trim());
          await expectFits(tab.page, viewport.width);
          await shot(tab.page, `live-also-editing-${lng}-${viewport.width}`);
        });
      }

      // The admin leaves the form: agent_a's notice goes.
      await go(admin.page, "/shop/list");
      await said.waitFor({ state: "detached", timeout: 15_000 });
    } finally {
      await admin.context.close();
    }
  }, 300_000);
});

/** The record as its detail answers it (what an update sends back, with its version). */
async function detail(id: number): Promise<Record<string, unknown>> {
  return writer.page.evaluate(async (id) => {
    const response = await fetch(`/merchant/shop-detail?id=${id}`, {
      headers: { authorization: `Bearer ${localStorage.getItem("merchant_token")}` },
    });
    return ((await response.json()) as { data: Record<string, unknown> }).data;
  }, id);
}
