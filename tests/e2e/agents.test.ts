// The agent tree in the console: as the platform admin, reset agent_a1's password from the agent list
// after a danger-styled confirmation that names the agent, then sign in as agent_a1 with SPEC §9's
// default; an agent's detail shows its chain of superiors (view superior) and its direct subordinates.
// Screenshots of the confirmation and of the detail panel in the five languages.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { RESET_PASSWORD } from "../../src/schema/constants.ts";
import {
  type Console,
  filterField,
  inLanguage,
  LANGUAGES,
  locale,
  openPage,
  shot,
  signIn,
  startConsole,
  type Tab,
  tableRows,
  WIDTHS,
} from "./harness.ts";

let c: Console;
interface AgentRow {
  id: number;
  nickname: string;
  account: string;
}
let a1: AgentRow;
let a: AgentRow;
let root: AgentRow;

beforeAll(async () => {
  c = await startConsole();
  const byAccount = async (account: string) =>
    (await c.db.query<AgentRow>(`select id::int, nickname, account from agent where account = $1`, [account])).rows[0];
  [a1, a, root] = await Promise.all(["agent_a1", "agent_a", "admin"].map(byAccount));
});
afterAll(async () => {
  await c?.close();
});

/** Opens the reset confirmation on agent_a1's row of the agent list; answers the confirmation. */
async function openResetConfirmation(page: Page, lng: string) {
  const texts = locale(lng, "agent");
  const action = texts.operations["manage-reset-password"].name as string;
  await page.goto(`${c.url}/manage/list`);
  await page.locator(".ant-table").waitFor();
  await filterField(page, "/manage/list", "account").fill(a1.account);
  const answered = page.waitForResponse((r) => new URL(r.url()).searchParams.get("account_like") === a1.account);
  await page.locator(".filter-bar button[type=submit]").click();
  await answered;
  await page.locator(".ant-spin-spinning").first().waitFor({ state: "detached" });
  const row = tableRows(page).filter({ hasText: a1.account }).first();
  const direct = row.getByRole("button", { name: action });
  if (await direct.count()) await direct.click();
  else {
    await row.getByRole("button", { name: locale(lng, "common").actions.more }).click();
    await page.getByRole("menuitem", { name: action }).click();
  }
  const confirmation = page.locator(".ant-modal-confirm:visible");
  await confirmation.waitFor();
  return { confirmation, action };
}

describe("resetting an agent's password", () => {
  it("as admin, after the confirmation naming the agent; agent_a1 then signs in with the default", async () => {
    const before = (await c.db.query<{ password: string }>(`select password from agent where id = $1`, [a1.id]))
      .rows[0];
    const tab = await openPage(c);
    try {
      await signIn(c, tab.page, "admin");
      const { confirmation, action } = await openResetConfirmation(tab.page, "en");
      expect(await confirmation.innerText()).toContain(
        `Reset the password of ${a1.nickname} (${a1.account}) to the default? Every session of this agent ends.`,
      );
      const ok = confirmation.getByRole("button", { name: action });
      expect(await ok.getAttribute("class")).toMatch(/ant-btn-dangerous/);
      // Nothing changes until the confirmation is accepted.
      const { rows } = await c.db.query<{ password: string }>(`select password from agent where id = $1`, [a1.id]);
      expect(rows[0].password).toBe(before.password);
      const reset = tab.page.waitForResponse((r) => r.url().endsWith("/merchant/manage-reset-password"));
      await ok.click();
      expect((await reset).status()).toBe(200);
      await tab.page.locator(".ant-message").getByText("Password reset to the default").waitFor();
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.context.close();
    }
    const agent = await openPage(c);
    try {
      await agent.page.goto(`${c.url}/login`);
      await agent.page.locator("#account").fill(a1.account);
      await agent.page.locator("#password").fill(RESET_PASSWORD);
      await agent.page.locator("button[type=submit]").click();
      await agent.page.waitForURL(`${c.url}/`);
      await agent.page.locator(".shell-header").waitFor();
      expect(agent.errors).toEqual([]);
    } finally {
      await agent.context.close();
    }
  });
});

describe("an agent's detail", () => {
  it("shows its chain of superiors, nearest first, and its direct subordinates", async () => {
    const tab = await openPage(c);
    try {
      await signIn(c, tab.page, "admin");
      await tab.page.goto(`${c.url}/manage/list/show/${a1.id}`);
      const superiors = tab.page.locator("[data-testid=agent-superiors] .ant-list-item");
      await superiors.nth(1).waitFor();
      expect(await superiors.count()).toBe(2);
      expect(await superiors.nth(0).innerText()).toContain(a.nickname);
      expect(await superiors.nth(1).innerText()).toContain(root.nickname);
      // The nearest superior links to its own detail, whose subordinates include agent_a1.
      await superiors.nth(0).getByRole("link", { name: a.nickname }).click();
      await tab.page.waitForURL(`${c.url}/manage/list/show/${a.id}`);
      await tab.page.locator("[data-testid=agent-subordinates]").getByRole("link", { name: a1.nickname }).waitFor();
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.context.close();
    }
  });
});

describe("agent screens in every language", () => {
  it.each(LANGUAGES)("%s: the reset confirmation and the detail's tree panel (screenshots kept)", async (lng) => {
    const look = async ({ page }: Tab) => {
      const { confirmation } = await openResetConfirmation(page, lng);
      const text = await confirmation.innerText();
      expect(text).toContain(a1.nickname);
      expect(text).not.toMatch(/operations\.|undefined|\{\{/);
      await shot(page, `agent-reset-confirm-${lng}`);
      // antd spaces out two-character CJK labels ("取 消"): the cancel button is the one not danger-styled.
      const cancel = confirmation.locator(".ant-modal-confirm-btns button:not(.ant-btn-dangerous)");
      expect((await cancel.innerText()).replace(/\s/g, "")).toBe(
        locale(lng, "common").actions.cancel.replace(/\s/g, ""),
      );
      await cancel.click();
      await confirmation.waitFor({ state: "detached" });
      await page.goto(`${c.url}/manage/list/show/${a.id}`);
      await page.locator("[data-testid=agent-superiors] .ant-list-item").first().waitFor();
      await page.locator("[data-testid=agent-subordinates] .ant-list-item").first().waitFor();
      const panel = await page.locator("[data-testid=agent-tree]").innerText();
      expect(panel).toContain(locale(lng, "agent").operations["manage-up"].name);
      expect(panel).not.toMatch(/agentTree\.|operations\.|undefined|\{\{/);
      await shot(page, `agent-detail-${lng}`, { fullPage: true });
    };
    await inLanguage(c, lng, "admin", look, { widths: [WIDTHS[0]] });
  });
});
