// History's outlets, pages and applications (x-relation.history with a titleCopy, as for goods and
// devices): an order, a profit record or a scan record keeps the outlet's, page's and application's names
// it was written with, so an outlet only history names can be destroyed and the order list, detail and
// export still read its name. A live reference (a device's outlet) still refuses, naming the device, in
// every language; an agent its money rows name is never destroyed, and the refusal says why. An operator
// only clean records name (issue 31) is destroyed the same way, and the clean record list still reads its
// name; its device binding, a live reference, still refuses.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type Client, type TestApp } from "./helper.ts";
import { Fixtures, type ListData, type Row } from "./fixtures.ts";
import { post as postLedger } from "../../server/domain/money/ledger.ts";
import { migrate } from "../../server/db/migrate.ts";

let t: TestApp;
let fx: Fixtures;
let admin: Client;
let agentA: Client;
let agentA1: Client;
let agentB: Client;

beforeAll(async () => {
  t = await createTestApp();
  fx = new Fixtures(t);
  [admin, agentA, agentA1, agentB] = await Promise.all([
    fx.client("admin"),
    fx.client("agent_a"),
    fx.client("agent_a1"),
    fx.client("agent_b"),
  ]);
}, 60_000);
afterAll(() => t?.close());

const exists = async (table: string, id: unknown) =>
  (await t.db.query(`select 1 from "${table}" where id = $1`, [id])).rows.length === 1;

type Titled = ListData & { titles: Record<string, Record<number, string>> };

const order = (shop: Row, orderNo: string) => {
  const now = new Date().toISOString();
  return fx.insertRecord("order", "agent_a", {
    order_no: orderNo,
    shop_id: shop.id,
    order_time: now,
    pay_time: now,
    pay_status: "paid",
    money: 450,
    refund_money: 0,
    quantity: 1,
    delivered_quantity: 1,
  });
};

describe("an outlet only history names", () => {
  it("is destroyed, and the order list, detail and export still read its name", async () => {
    const shop = await fx.createRecord("shop", "agent_a", { name: "Riverside Kiosk" });
    const written = await order(shop, "HNAME-0001");
    expect(written.shop_name).toBe("Riverside Kiosk");
    expect((await agentA.del(`/merchant/shop-delete?id=${shop.id as number}`)).status).toBe(200);
    const gone = await agentA.del(`/merchant/shop-recycle-destroy?id=${shop.id as number}`);
    expect(gone.status, gone.raw).toBe(200);
    expect(await exists("shop", shop.id)).toBe(false);

    const list = await agentA.get<Titled>(`/merchant/order-list?order_no_like=HNAME-0001`);
    expect(list.status, list.raw).toBe(200);
    expect(list.body.data.list.map((r) => [r.id, r.shop_id, r.money])).toEqual([[written.id, shop.id, 450]]);
    expect(list.body.data.titles.shop[shop.id as number]).toBe("Riverside Kiosk");
    const detail = await agentA.get<Row>(`/merchant/order-detail?id=${written.id as number}`);
    expect(detail.status, detail.raw).toBe(200);
    expect(detail.body.data.shop_name).toBe("Riverside Kiosk");
    const sheet = await agentA.get(`/merchant/order-export?format=csv&order_no_like=HNAME-0001`);
    expect(sheet.status).toBe(200);
    expect(sheet.raw).toContain("Riverside Kiosk");
    expect(sheet.raw).not.toMatch(new RegExp(`#${shop.id as number}\\b`));
  });

  it("keeps the name the order was written with while the outlet's own name shows", async () => {
    const shop = await fx.createRecord("shop", "agent_a", { name: "Old Corner" });
    await order(shop, "HNAME-0002");
    await t.db.query(`update shop set name = 'New Corner' where id = $1`, [shop.id]);
    const list = await agentA.get<Titled>(`/merchant/order-list?order_no_like=HNAME-0002`);
    expect(list.body.data.titles.shop[shop.id as number]).toBe("New Corner");
    expect(list.body.data.list[0].shop_name).toBe("Old Corner");
  });

  it("is not destroyed by another agent (404) or a role without the permission (403)", async () => {
    const shop = await fx.createRecord("shop", "agent_a", { name: "Guarded Kiosk" });
    await order(shop, "HNAME-0003");
    expect((await agentA.del(`/merchant/shop-delete?id=${shop.id as number}`)).status).toBe(200);
    expect((await agentB.del(`/merchant/shop-recycle-destroy?id=${shop.id as number}`)).status).toBe(404);
    expect((await agentA1.del(`/merchant/shop-recycle-destroy?id=${shop.id as number}`)).status).toBe(403);
    expect(await exists("shop", shop.id)).toBe(true);
  });
});

describe("a device's outlet, a live reference", () => {
  const said: Record<string, RegExp> = {
    en: /^“Kiosk With Device” is still used \(Device 1\); change or remove those first$/,
    zh: /^“Kiosk With Device”仍在使用中（设备 1），请先修改或删除它们$/,
    tw: /^「Kiosk With Device」仍在使用中（[^）]+ 1），請先修改或刪除它們$/,
    km: /^“Kiosk With Device” នៅតែកំពុងប្រើ \([^)]+ 1\); សូមកែ ឬលុបវាជាមុនសិន$/,
    th: /^“Kiosk With Device” ยังถูกใช้งานอยู่ \([^)]+ 1\) กรุณาแก้ไขหรือลบรายการเหล่านั้นก่อน$/,
  };
  it("still refuses with the 409 naming the device, in five languages", async () => {
    const shop = await fx.createRecord("shop", "agent_a", { name: "Kiosk With Device" });
    await order(shop, "HNAME-0004");
    await fx.createRecord("machine", "agent_a", { kind: "vending", mac_name: "VM-HNAME-01", shop_id: shop.id });
    expect((await agentA.del(`/merchant/shop-delete?id=${shop.id as number}`)).status).toBe(200);
    for (const [lng, words] of Object.entries(said)) {
      const destroy = await (
        await fx.clientIn("agent_a", lng)
      ).del(`/merchant/shop-recycle-destroy?id=${shop.id as number}`);
      expect(destroy.status, lng).toBe(409);
      expect(destroy.body.message, lng).toMatch(words);
      expect(destroy.body.message, lng).not.toMatch(/#\d|\w+\.\w+\.\w+/);
    }
    expect(await exists("shop", shop.id)).toBe(true);
  });
});

describe("an agent its money rows name", () => {
  it("is never destroyed: the 409 says the ledger keeps it, in five languages", async () => {
    const keeper = await fx.createRecord("agent", "admin", { nickname: "Ledger Keeper" });
    const id = keeper.id as number;
    await t.db.transaction((tx) =>
      postLedger(tx, [{ agentId: id, kind: "order_income", amount: 100, balance: 100, revenue: 100 }]),
    );
    expect((await admin.del(`/merchant/manage-delete?id=${id}`)).status).toBe(200);
    for (const lng of ["en", "zh", "tw", "km", "th"]) {
      const destroy = await (await fx.clientIn("admin", lng)).del(`/merchant/manage-recycle-destroy?id=${id}`);
      expect(destroy.status, lng).toBe(409);
      expect(destroy.body.message, lng).toContain("Ledger Keeper");
      expect(destroy.body.message, lng).not.toMatch(/#\d|agentKeepsLedger|errors\./);
    }
    const en = await admin.del(`/merchant/manage-recycle-destroy?id=${id}`);
    expect(en.body.message).toMatch(
      /^“Ledger Keeper” has money records \(Payment record 1\): the ledger is never changed/,
    );
    expect(await exists("agent", id)).toBe(true);
  });
});

describe("an operator only clean records name", () => {
  const operator = async (nickname: string) => {
    const made = await agentA.post<Row>("/merchant/operator-add", {
      nickname,
      account: nickname.toLowerCase().replace(/\W+/g, "_"),
      password: "restock-2026",
      confirm_password: "restock-2026",
    });
    expect(made.status, made.raw).toBe(200);
    return Number(made.body.data.id);
  };
  const cleaned = (operatorId: number, remark: string) =>
    fx.insertRecord("clean_record", "agent_a", { operator_id: operatorId, remark });

  it("is destroyed, and the clean record list still reads its name", async () => {
    const id = await operator("Sweeper Gone");
    const written = await cleaned(id, "HNAME-CLEAN-1");
    expect(written.operator_name).toBe("Sweeper Gone");
    expect((await agentA.del(`/merchant/operator-delete?id=${id}`)).status).toBe(200);
    const gone = await agentA.del(`/merchant/operator-recycle-destroy?id=${id}`);
    expect(gone.status, gone.raw).toBe(200);
    expect(await exists("operator", id)).toBe(false);

    const list = await agentA.get<Titled>(`/merchant/machine-clean-log-list?operator_id=${id}`);
    expect(list.status, list.raw).toBe(200);
    expect(list.body.data.list.map((r) => [r.id, r.operator_id, r.operator_name, r.remark])).toEqual([
      [written.id, id, "Sweeper Gone", "HNAME-CLEAN-1"],
    ]);
    expect(list.body.data.titles.operator[id]).toBe("Sweeper Gone");
  });

  it("keeps the name the record was written with while the operator's own name shows", async () => {
    const id = await operator("Sweeper Old");
    await cleaned(id, "HNAME-CLEAN-2");
    await t.db.query(`update operator set nickname = 'Sweeper New' where id = $1`, [id]);
    const list = await agentA.get<Titled>(`/merchant/machine-clean-log-list?operator_id=${id}`);
    expect(list.body.data.titles.operator[id]).toBe("Sweeper New");
    expect(list.body.data.list.map((r) => r.operator_name)).toEqual(["Sweeper Old"]);
  });

  it("is not destroyed by another agent (404)", async () => {
    const id = await operator("Sweeper Guarded");
    await cleaned(id, "HNAME-CLEAN-3");
    expect((await agentA.del(`/merchant/operator-delete?id=${id}`)).status).toBe(200);
    expect((await agentB.del(`/merchant/operator-recycle-destroy?id=${id}`)).status).toBe(404);
    expect(await exists("operator", id)).toBe(true);
  });

  it("bound to a device still refuses with the 409 naming the binding", async () => {
    const id = await operator("Sweeper Bound");
    await cleaned(id, "HNAME-CLEAN-4");
    await fx.createRecord("operator_binding", "agent_a", { operator_id: id });
    expect((await agentA.del(`/merchant/operator-delete?id=${id}`)).status).toBe(200);
    const destroy = await agentA.del(`/merchant/operator-recycle-destroy?id=${id}`);
    expect(destroy.status, destroy.raw).toBe(409);
    expect(destroy.body.message).toMatch(
      /^“Sweeper Bound” is still used \(Operator device 1\); change or remove those first$/,
    );
    expect(await exists("operator", id)).toBe(true);
  });

  it("gets its column added by the migration, nullable, with the name each operator has now", async () => {
    const id = await operator("Sweeper Migrated");
    const kept = await cleaned(id, "HNAME-CLEAN-5");
    await t.db.query(`alter table clean_record drop column operator_name`);
    expect((await migrate(t.db)).statements).toEqual([
      `alter table "clean_record" add column "operator_name" text`,
      `update "clean_record" r set "operator_name" = t."nickname" from "operator" t
          where r."operator_name" is null and t.id = r."operator_id"`,
    ]);
    const { rows } = await t.db.query<Row>(`select operator_name from clean_record where id = $1`, [kept.id]);
    expect(rows.map((r) => r.operator_name)).toEqual(["Sweeper Migrated"]);
  });
});
