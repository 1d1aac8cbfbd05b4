// src/app/routes.ts: every route of the manifest resolves to its screen; own create/edit routes win.
import { describe, expect, it } from "vitest";
import manifest from "../../resources/routes.json" with { type: "json" };
import { routeOf, screenRoutes } from "../../src/app/routes.ts";
import { screenContext } from "../../src/crud/resource.ts";

const ACTION = {
  list: "list",
  recycle: "list",
  settings: "list",
  statistics: "list",
  import: "list",
  create: "create",
  edit: "edit",
} as const;

describe("routeOf", () => {
  it.each(manifest.routes.map((r) => [r.id, r] as const))("resolves route %s", (id, route) => {
    const path = route.screen === "edit" ? `${route.path}/7` : route.path;
    const found = routeOf(path);
    expect(found?.routeId).toBe(id);
    expect(found?.action).toBe(ACTION[route.screen as keyof typeof ACTION]);
    expect(found?.resource.meta.entity).toBe(route.entity);
    if (route.screen === "edit") expect(found?.id).toBe("7");
  });

  it("gives a statistics screen its extension and no record routes under its path (no Add, Bind or Delete)", () => {
    for (const path of ["/machine/statistics", "/goods/stock"]) {
      const route = routeOf(path);
      expect(route?.resource.meta.screen).toBe("statistics");
      expect(route?.resource.meta.extension).toMatch(/-statistics$/);
      expect([
        route?.resource.create,
        route?.resource.edit,
        route?.resource.show,
        route?.resource.meta.canDelete,
      ]).toEqual([undefined, undefined, undefined, undefined]);
      expect(screenRoutes.filter((r) => r.path.startsWith(`${path}/`))).toEqual([]);
    }
  });

  it("gives an import screen the entity's import permission and no record routes under its path", () => {
    const route = routeOf("/machine/import");
    expect(route?.resource.meta).toMatchObject({ screen: "import", entity: "machine", permission: "machine.import" });
    expect(route?.resource.meta.extension).toBeUndefined();
    // Its way back is the device list, not its own path.
    expect(screenContext("machine_import").listPath).toBe("/machine/list");
    expect([route?.resource.create, route?.resource.edit, route?.resource.show]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("fills :id for a list's edit and show routes", () => {
    expect(routeOf("/goods/list/edit/42")).toMatchObject({ routeId: "goods_list", action: "edit", id: "42" });
    expect(routeOf("/goods/list/show/42")).toMatchObject({ routeId: "goods_list", action: "show", id: "42" });
    expect(routeOf("/goods/list")).toMatchObject({ routeId: "goods_list", action: "list", id: undefined });
  });

  it("gives /page/add to its own route, not to the page list that also creates there", () => {
    expect(screenRoutes.filter((r) => r.path === "/page/add")).toHaveLength(1);
    expect(routeOf("/page/add")).toMatchObject({ routeId: "page_add", action: "create" });
    expect(routeOf("/page/add")?.resource.identifier).toBe("page_add");
    expect(routeOf("/page/edit/3")).toMatchObject({ routeId: "page_edit", action: "edit", id: "3" });
  });

  it("gives nothing for unknown paths", () => {
    expect(routeOf("/nowhere")).toBeUndefined();
    expect(routeOf("/goods/list/extra/1")).toBeUndefined();
    expect(routeOf("/page/edit")).toBeUndefined();
    expect(routeOf("/")).toBeUndefined();
  });

  it("has each path once", () => {
    const paths = screenRoutes.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
  });
});
