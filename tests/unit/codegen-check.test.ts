// The drift check on a scratch copy of the project: clean as committed, and red (naming the file and
// what to do) for each drift a product owner can cause.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { check, write } from "../../codegen/cli.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const COPIED = ["schemas", "resources", "locales", "src/generated", "tsconfig.json", ".prettierrc.json"];

let dir: string;
const readJson = (file: string) => JSON.parse(readFileSync(join(dir, file), "utf8"));
const writeJson = (file: string, value: unknown) =>
  writeFileSync(join(dir, file), `${JSON.stringify(value, null, 2)}\n`);
const messages = (problems: { file: string; path: string; message: string }[]) =>
  problems.map((p) => `${p.file} ${p.path}: ${p.message}`);

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "codegen-check-"));
  for (const path of COPIED) cpSync(join(ROOT, path), join(dir, path), { recursive: true });
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("codegen:check", () => {
  it("passes on the project as committed", async () => {
    const result = await check(dir);
    expect(messages(result.problems)).toEqual([]);
    expect(result.stale).toEqual([]);
  });

  it("catches a new property whose types were not regenerated", async () => {
    const goods = readJson("schemas/goods.json");
    goods.properties.barcode = { type: "string", maxLength: 32 };
    writeJson("schemas/goods.json", goods);
    const result = await check(dir);
    expect(result.stale).toEqual(expect.arrayContaining(["src/generated/types.ts", "src/generated/openapi.json"]));
    // ...and its label is missing in every language.
    for (const lng of ["en", "zh", "km", "th", "tw"]) {
      expect(messages(result.problems)).toContain(`locales/${lng}/goods.json fields.barcode.label: missing key`);
    }
  });

  it("types an operation's answer from its schema, so that server and console share the change", async () => {
    const checksn = readJson("schemas/operations/checksn.json");
    checksn["x-operation"].answer.properties.seats = { type: "integer", minimum: 1 };
    checksn["x-operation"].answer.required.push("seats");
    writeJson("schemas/operations/checksn.json", checksn);
    expect((await check(dir)).stale).toContain("src/generated/types.ts");
    await write(dir);
    const types = readFileSync(join(dir, "src/generated/types.ts"), "utf8");
    const answer = /export interface ChecksnAnswer \{[^}]*\}/.exec(types)?.[0];
    expect(answer).toMatch(/\n {2}seats: number;/);
    expect(types).toMatch(/export interface OperationAnswers \{[^}]*\n {2}checksn: ChecksnAnswer;/);
  });

  it("catches a translation key missing in one language", async () => {
    const thai = readJson("locales/th/order.json");
    delete thai.enum.pay_status.paid;
    writeJson("locales/th/order.json", thai);
    const result = await check(dir);
    expect(messages(result.problems)).toEqual(["locales/th/order.json enum.pay_status.paid: missing key"]);
  });

  it("catches an English copy left in a translation", async () => {
    const khmer = readJson("locales/km/goods.json");
    khmer.fields.title.label = "Title";
    writeJson("locales/km/goods.json", khmer);
    expect(messages((await check(dir)).problems)).toEqual([
      'locales/km/goods.json fields.title.label: not translated: "Title"',
    ]);
  });

  it("catches an unknown x- keyword with its file and path", async () => {
    const goods = readJson("schemas/goods.json");
    goods.properties.title["x-uii"] = { column: true };
    writeJson("schemas/goods.json", goods);
    const result = await check(dir);
    expect(messages(result.problems)).toContain('schemas/goods.json /properties/title: unknown x- keyword "x-uii"');
  });

  it("catches a misspelt keyword inside x-ui", async () => {
    const goods = readJson("schemas/goods.json");
    goods.properties.title["x-ui"].colum = true;
    writeJson("schemas/goods.json", goods);
    expect(messages((await check(dir)).problems)).toContain(
      'schemas/goods.json /properties/title/x-ui: unknown keyword "colum"',
    );
  });

  it("catches a search keyword misspelt, or put on what the search box cannot read", async () => {
    const goods = readJson("schemas/goods.json");
    goods.properties.title["x-ui"].serach = true;
    goods.properties.pic_url["x-ui"].search = "yes";
    writeJson("schemas/goods.json", goods);
    const typos = messages((await check(dir)).problems);
    expect(typos).toContain('schemas/goods.json /properties/title/x-ui: unknown keyword "serach"');
    expect(typos).toContain("schemas/goods.json /properties/pic_url/x-ui/search: must be true");
    delete goods.properties.title["x-ui"].serach;
    goods.properties.pic_url["x-ui"].search = true;
    goods.properties.unit_price["x-ui"].search = true;
    writeJson("schemas/goods.json", goods);
    expect(messages((await check(dir)).problems)).toEqual([
      'schemas/goods.json /properties/pic_url/x-ui/search: the search box finds stored text; "pic_url" is not',
      'schemas/goods.json /properties/unit_price/x-ui/search: the search box finds stored text; "unit_price" is not',
    ]);
  });

  it("a searched field a product owner adds is indexed by the migration, with no code", async () => {
    const shop = readJson("schemas/shop.json");
    expect(shop.properties.phone["x-ui"].search).toBeUndefined();
    const { buildModel } = await import("../../server/model/model.ts");
    shop.properties.phone["x-ui"].search = true;
    expect(buildModel(shop).searched).toEqual(["name", "phone", "address"]);
  });

  it("catches a resource pointing at a missing entity or field", async () => {
    const manifest = readJson("resources/routes.json");
    const index = manifest.routes.findIndex((r: { id: string }) => r.id === "goods_list");
    manifest.routes[index].entity = "goodz";
    const shop = manifest.routes.findIndex((r: { id: string }) => r.id === "shop_list");
    manifest.routes[shop].filter = { no_such_field: 1 };
    writeJson("resources/routes.json", manifest);
    const result = messages((await check(dir)).problems);
    expect(result).toContain(`resources/routes.json /routes/${index}/entity: no entity "goodz" (schemas/goodz.json)`);
    expect(result).toContain(
      `resources/routes.json /routes/${shop}/filter/no_such_field: entity "shop" has no field "no_such_field"`,
    );
  });

  it("catches an import screen for an entity that declares no import", async () => {
    const manifest = readJson("resources/routes.json");
    const index = manifest.routes.findIndex((r: { id: string }) => r.id === "machine_import");
    manifest.routes[index].entity = "wifi";
    writeJson("resources/routes.json", manifest);
    expect(messages((await check(dir)).problems)).toContain(
      `resources/routes.json /routes/${index}/screen: entity "wifi" declares no x-import for an import screen`,
    );
  });

  it("catches a relation or state machine naming what does not exist", async () => {
    const order = readJson("schemas/order.json");
    order.properties.shop_id["x-relation"].entity = "outlet";
    order["x-states"].use_status.transitions[0].to = "finished";
    // History keeps the title of what it names, in a field the row has.
    delete order.properties.goods_id["x-relation"].titleCopy;
    order.properties.machine_id["x-relation"].titleCopy = "machine_label";
    writeJson("schemas/order.json", order);
    const result = messages((await check(dir)).problems);
    expect(result).toContain('schemas/order.json /properties/shop_id/x-relation/entity: no entity "outlet"');
    expect(result).toContain(
      'schemas/order.json /x-states/use_status/transitions/0/to: "finished" is not a value of "use_status"',
    );
    expect(result).toContain(
      "schemas/order.json /properties/goods_id/x-relation: history of a titled record keeps its title: name the field in titleCopy",
    );
    expect(result).toContain(
      'schemas/order.json /properties/machine_id/x-relation/titleCopy: "machine_label" is not a text or number property',
    );
  });

  it("follows the README walk-through: add a field, codegen, translate, green", async () => {
    const goods = readJson("schemas/goods.json");
    goods.properties.barcode = { type: "string", maxLength: 32, "x-ui": { column: true, filter: "eq", order: 9 } };
    writeJson("schemas/goods.json", goods);

    const written = await write(dir);
    expect(written.written).toEqual(
      expect.arrayContaining(["src/generated/types.ts", "locales/en/goods.json", "locales/zh/goods.json"]),
    );
    // What is left is exactly the five labels to write.
    expect(messages(written.problems).sort()).toEqual(
      ["en", "km", "th", "tw", "zh"].map((lng) => `locales/${lng}/goods.json fields.barcode.label: empty translation`),
    );
    expect(readFileSync(join(dir, "src/generated/types.ts"), "utf8")).toMatch(/barcode\?: string;/);

    const labels: Record<string, string> = { en: "Barcode", zh: "条形码", km: "បាកូដ", th: "บาร์โค้ด", tw: "條碼" };
    for (const [lng, label] of Object.entries(labels)) {
      const file = `locales/${lng}/goods.json`;
      const locale = readJson(file);
      locale.fields.barcode.label = label;
      writeJson(file, locale);
    }
    const result = await check(dir);
    expect(messages(result.problems)).toEqual([]);
    expect(result.stale).toEqual([]);
  });
});
