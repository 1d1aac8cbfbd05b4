// Devices at work in the console: an admin gives a device to a sub-agent from the device list (and the
// sub-agent then has it); a bulk binding with nothing selected says so; the operator restocks a lane
// from the grid on a 390 × 844 phone, is refused more than the lane's free space in SPEC §8's words,
// then loads what fits and sees the lane full. Screenshots of the grid (phone) and of a device's detail
// (1440 px) in the five languages.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { join } from "node:path";
import {
  type Console,
  detailTab,
  filterField,
  locale,
  openPage,
  SHOTS,
  signIn,
  startConsole,
  tableRows,
} from "./harness.ts";

const machine = locale("en", "machine");
const common = locale("en", "common");

let c: Console;

beforeAll(async () => {
  c = await startConsole();
});
afterAll(async () => {
  await c?.close();
});

const dialog = (page: Page) => page.locator(".ant-modal:visible");

async function search(page: Page, text: string) {
  await page.goto(`${c.url}/machine/list`);
  await page.locator(".ant-table").waitFor();
  await filterField(page, "/machine/list", "mac_name").fill(text);
  const answered = page.waitForResponse((r) => [...new URL(r.url()).searchParams.values()].includes(text));
  await page.locator(".filter-bar button[type=submit]").click();
  await answered;
  await page.locator(".ant-spin-spinning").first().waitFor({ state: "detached" });
}

/** A vending device of operator_a's with a shelved lane that has room and goods in stock. */
async function operatorLane() {
  const { rows } = await c.db.query<{
    machine_id: number;
    channel_number: number;
    left: number;
    count: number;
    goods_id: number;
  }>(
    `select c.machine_id::int, c.channel_number, c."left"::int, c.count::int, c.goods_id::int
       from machine_channel c
       join operator_binding b on b.machine_id = c.machine_id
       join operator o on o.id = b.operator_id and o.account = 'operator_a'
       join goods g on g.id = c.goods_id
      where c.shelf_status = 1 and c.count - c."left" >= 2 and g.stock >= c.count
      order by c.machine_id, c.channel_number limit 1`,
  );
  expect(rows[0], "a lane of operator_a's with room for two").toBeDefined();
  return rows[0];
}

describe("binding a device to an agent", () => {
  it("as admin, from the device list: the sub-agent has the device afterwards", async () => {
    const { rows } = await c.db.query<{ id: number; mac_name: string; owner: string }>(
      `select m.id::int, m.mac_name, a.nickname as owner from machine m join agent a on a.id = m.agent_id
        where a.account = 'agent_a' and m.deleted_at is null order by m.id limit 1`,
    );
    const device = rows[0];
    const sub = (
      await c.db.query<{ id: number; nickname: string }>(
        `select id::int, nickname from agent where account = 'agent_a1'`,
      )
    ).rows[0];
    const admin = await openPage(c);
    const { page } = admin;
    try {
      await signIn(c, page, "admin");
      await search(page, device.mac_name);
      await expect.poll(() => tableRows(page).count()).toBe(1);
      // Nothing ticked yet: the binding says so instead of opening.
      await page.getByRole("button", { name: machine.operations["machine-bind-manage"].name, exact: true }).click();
      await page.locator(".ant-message", { hasText: common.messages.noDevice }).waitFor();
      await tableRows(page).first().locator(".ant-checkbox-input").check();
      await page.getByRole("button", { name: machine.operations["machine-bind-manage"].name, exact: true }).click();
      const modal = dialog(page);
      // The dialog names the device and its agent, then the agent chosen.
      const words = modal.locator(".operation-confirm");
      await expect
        .poll(() => words.innerText())
        .toBe(`Move ${device.mac_name} from ${device.owner} to the agent chosen below.`);
      await modal.locator("#root_agent_id").click();
      await page.keyboard.type(sub.nickname);
      await page.locator(".ant-select-item-option", { hasText: sub.nickname }).click();
      await expect
        .poll(() => words.innerText())
        .toBe(`Move ${device.mac_name} from ${device.owner} to ${sub.nickname}?`);
      await modal.locator("button[type=submit]").click();
      await modal.waitFor({ state: "hidden" });
      await page
        .locator(".ant-message")
        .getByText(`Moved ${device.mac_name} to ${sub.nickname}`, { exact: true })
        .waitFor();
      await expect
        .poll(
          async () =>
            (await c.db.query(`select agent_id::int from machine where id = $1`, [device.id])).rows[0].agent_id,
        )
        .toBe(sub.id);
      expect(admin.errors).toEqual([]);
    } finally {
      await admin.context.close();
    }
    const agent = await openPage(c);
    try {
      await signIn(c, agent.page, "agent_a1");
      await search(agent.page, device.mac_name);
      await expect.poll(() => tableRows(agent.page).count()).toBe(1);
      expect(await tableRows(agent.page).first().innerText()).toContain(device.mac_name);
    } finally {
      await agent.context.close();
    }
  });
});

describe("the operator restocks at the machine, on a phone", () => {
  it("from sign-in to a loaded lane in four taps: home lists its devices, Restock opens the lanes", async () => {
    const lane = await operatorLane();
    const { rows: devices } = await c.db.query<{ mac_name: string; shop: string; room_number: string | null }>(
      `select m.mac_name, s.name as shop, m.room_number from machine m join shop s on s.id = m.shop_id
        where m.id = $1`,
      [lane.machine_id],
    );
    const device = devices[0];
    const tab = await openPage(c);
    const { page } = tab;
    let taps = 0;
    const tap = async (target: import("playwright-core").Locator) => {
      await target.click();
      taps++;
    };
    try {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${c.url}/login`);
      await page.locator("#account").fill("operator_a");
      await page.locator("#password").fill("demo123");
      await tap(page.locator("button[type=submit]"));
      // Home: the operator's devices, each with its outlet and room, its stock state and Restock.
      const card = page.locator(`.my-device[data-device="${device.mac_name}"]`);
      await card.waitFor();
      const text = await card.innerText();
      expect(text).toContain(device.shop);
      if (device.room_number) expect(text).toContain(device.room_number);
      expect(text).not.toMatch(/#\d/);
      await tap(card.getByRole("button", { name: common.restock.load }));
      // The device opens on its lanes: the first lane is on the first screen, no field of the device before it.
      const tile = page.locator(`.lane-tile[data-lane="${lane.channel_number}"]`);
      await tile.waitFor();
      const first = await page.locator(".lane-tile").first().boundingBox();
      expect(first!.y + first!.height).toBeLessThanOrEqual(844);
      expect(await page.locator(".detail-descriptions").count()).toBe(0);
      await tile.scrollIntoViewIfNeeded();
      await tap(tile);
      const modal = dialog(page);
      // The quantity brings up a number pad, and has the focus.
      const quantity = modal.locator(".lane-quantity input");
      expect(await quantity.getAttribute("inputmode")).toBe("numeric");
      await expect.poll(() => quantity.evaluate((input) => input === document.activeElement)).toBe(true);
      await tap(
        modal.getByRole("button", {
          name: common.restock.fillLane.replace("{{count}}", String(lane.count - lane.left)),
        }),
      );
      await modal.waitFor({ state: "hidden" });
      await expect.poll(() => tile.locator(".lane-left").innerText()).toBe(`${lane.count} / ${lane.count}`);
      // A full lane says so.
      expect(await tile.getAttribute("class")).toContain("lane-full");
      expect(await tile.locator(".lane-free").innerText()).toBe(common.restock.full);
      expect(taps).toBeLessThanOrEqual(4);
      const { rows } = await c.db.query<{ left: number }>(
        `select "left"::int from machine_channel where machine_id = $1 and channel_number = $2`,
        [lane.machine_id, lane.channel_number],
      );
      expect(rows[0].left).toBe(lane.count);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.context.close();
    }
  });

  it("is refused more than the lane's free space, then fills it, without sideways scrolling", async () => {
    const lane = await operatorLane();
    const free = lane.count - lane.left;
    const tab = await openPage(c);
    const { page } = tab;
    try {
      await page.setViewportSize({ width: 390, height: 844 });
      await signIn(c, page, "operator_a");
      await page.goto(`${c.url}/machine/channel?machine_id=${lane.machine_id}`);
      const tile = page.locator(`.lane-tile[data-lane="${lane.channel_number}"]`);
      await tile.waitFor();
      expect(await tile.locator(".lane-left").innerText()).toBe(`${lane.left} / ${lane.count}`);
      await tile.click();
      const modal = dialog(page);
      await modal.locator(".lane-quantity input").fill(String(free + 1));
      await modal.getByTestId("lane-load").click();
      await expect
        .poll(() => modal.locator("[role=alert]").innerText())
        .toBe(`Current lane ${lane.channel_number} has ${free} left, so at most ${free} can be added`);
      // Nothing was loaded, and what was typed is still there to correct.
      expect(await modal.locator(".lane-quantity input").inputValue()).toBe(String(free + 1));
      await modal.locator(".lane-quantity input").fill(String(free));
      await modal.getByTestId("lane-load").click();
      await modal.waitFor({ state: "hidden" });
      await expect.poll(() => tile.locator(".lane-left").innerText()).toBe(`${lane.count} / ${lane.count}`);
      const { rows } = await c.db.query<{ quantity: number; actor_kind: string }>(
        `select quantity::int, actor_kind from machine_restock
          where machine_id = $1 and channel_number = $2 order by id desc limit 1`,
        [lane.machine_id, lane.channel_number],
      );
      expect(rows[0]).toEqual({ quantity: free, actor_kind: "operator" });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      // The refusal is a 400 answer, which the browser logs; nothing else went wrong.
      expect(tab.errors.filter((e) => !/\b400\b/.test(e))).toEqual([]);
    } finally {
      await tab.context.close();
    }
  });
});

describe("device screens in every language", () => {
  it.each(["en", "zh", "km", "th", "tw"])(
    "%s: the lane grid on a phone and a device's detail (screenshots kept)",
    async (lng) => {
      const lane = await operatorLane().catch(async () => {
        const { rows } = await c.db.query<{ machine_id: number }>(
          `select b.machine_id::int from operator_binding b join operator o on o.id = b.operator_id
             join machine m on m.id = b.machine_id and m.kind = 'vending' where o.account = 'operator_a' limit 1`,
        );
        return rows[0];
      });
      const phone = await openPage(c, { lang: lng });
      try {
        await phone.page.setViewportSize({ width: 390, height: 844 });
        await signIn(c, phone.page, "operator_a");
        await phone.page.goto(`${c.url}/machine/channel?machine_id=${lane.machine_id}`);
        await phone.page.locator(".lane-tile").first().waitFor();
        await phone.page.screenshot({
          path: join(SHOTS, `restock-grid-390-${lng}.png`),
          fullPage: true,
          animations: "disabled",
        });
        const text = await phone.page.locator(".restock-grid").innerText();
        expect(text).not.toMatch(/restock\.|undefined|\{\{/);
        expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
        expect(phone.errors).toEqual([]);
      } finally {
        await phone.context.close();
      }
      const desk = await openPage(c, { lang: lng });
      try {
        await signIn(c, desk.page, "admin");
        await desk.page.goto(`${c.url}/machine/list/show/${lane.machine_id}`);
        await desk.page.locator(".lane-tile").first().waitFor();
        await desk.page.screenshot({ path: join(SHOTS, `device-detail-${lng}.png`), animations: "disabled" });
        const information = await detailTab(desk.page, "information");
        const fields = await information.locator(".detail-descriptions").innerText();
        expect(fields).not.toMatch(/enum\.|fields\.|undefined/);
        // A vending device's own fields, none of another kind's.
        const m = locale(lng, "machine");
        expect(fields).toContain(m.fields.maxnumber.label);
        expect(fields).toContain(m.fields.channel_plan_id.label);
        for (const other of ["bake_time", "towel_mode", "charge_plan_id", "dry_plan_id", "car_wash_plan_id"])
          expect(fields).not.toContain(m.fields[other].label);
        await desk.page.screenshot({ path: join(SHOTS, `device-information-${lng}.png`), animations: "disabled" });
        const records = await detailTab(desk.page, "records");
        await records.locator(".related-list .ant-table-row").first().waitFor();
        expect(desk.errors).toEqual([]);
      } finally {
        await desk.context.close();
      }
    },
  );
});
