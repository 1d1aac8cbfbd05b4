// The route manifest (resources/routes.json) checked against the schemas and turned into the
// console's resource definitions and menu: one declaration per route, nothing written twice.
import { Ajv } from "ajv";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { readJson } from "./load.ts";
import type { EntitySchema, Project, RouteEntry } from "./model.ts";
import type { Problem } from "./lint.ts";
import { routePermission, SCREEN_CALL } from "./permissions.ts";

const FILE = "resources/routes.json";

export function manifestProblems(project: Project): Problem[] {
  const problems: Problem[] = [];
  // The manifest's own schema first: a misspelt key or an unknown extension name names its path.
  const schemaFile = join(project.root, "resources", "manifest.schema.json");
  if (existsSync(schemaFile)) {
    const ajv = new Ajv({ allErrors: true, strict: false });
    const validate = ajv.compile(readJson<object>(schemaFile));
    if (!validate(project.manifest)) {
      for (const error of validate.errors ?? [])
        problems.push({ file: FILE, path: error.instancePath || "/", message: error.message ?? error.keyword });
      return problems;
    }
  }
  const entities = new Map(project.entities.map((e) => [e.$id, e]));
  const groups = new Set(project.manifest.groups.map((g) => g.id));
  const ids = new Set<string>();
  const paths = new Set<string>();
  project.manifest.routes.forEach((route, i) => {
    const add = (key: string, message: string) => problems.push({ file: FILE, path: `/routes/${i}/${key}`, message });
    if (ids.has(route.id)) add("id", `duplicate route id "${route.id}"`);
    ids.add(route.id);
    if (paths.has(route.path)) add("path", `path ${route.path} is declared twice`);
    paths.add(route.path);
    if (!groups.has(route.group)) add("group", `no menu group "${route.group}"`);
    const schema = entities.get(route.entity);
    if (!schema) {
      add("entity", `no entity "${route.entity}" (schemas/${route.entity.replaceAll("_", "-")}.json)`);
      return;
    }
    const calls = schema["x-entity"].calls;
    if (route.screen === "import") {
      if (!schema["x-import"]) add("screen", `entity "${route.entity}" declares no x-import for an import screen`);
    } else {
      const needs = SCREEN_CALL[route.screen];
      if (!calls[needs]) add("screen", `entity "${route.entity}" has no "${needs}" call for a ${route.screen} screen`);
    }
    for (const [field, value] of Object.entries(route.filter ?? {})) {
      if (!schema.properties[field]) add(`filter/${field}`, `entity "${route.entity}" has no field "${field}"`);
      else if (Array.isArray(value) && schema.properties[field]["x-ui"]?.filter !== "in")
        add(`filter/${field}`, `several values need the field's filter to be "in"`);
    }
    (route.sort ?? []).forEach((key, k) => {
      if (key.field !== "id" && !schema.properties[key.field]?.["x-ui"]?.sortable)
        add(`sort/${k}/field`, `entity "${route.entity}" cannot sort on "${key.field}"`);
    });
  });
  return problems;
}

const quote = (value: unknown) => JSON.stringify(value);

function resourceOf(route: RouteEntry, schema: EntitySchema, routes: RouteEntry[]) {
  const calls = schema["x-entity"].calls;
  const base = route.path;
  const meta: Record<string, unknown> = {
    label: `menu:routes.${route.id}`,
    parent: route.group,
    entity: route.entity,
    screen: route.screen,
    permission: routePermission(route),
  };
  if (route.extension) meta.extension = route.extension;
  if (route.listCall) meta.listCall = route.listCall;
  if (route.filter) meta.filter = route.filter;
  if (route.sort) meta.sort = route.sort;
  if (route.menu === false) meta.hide = true;
  if (route.tab === false) meta.tab = false;
  if (route.screen === "list" && calls.delete) meta.canDelete = true;
  const resource: Record<string, unknown> = { name: route.entity, identifier: route.id };
  if (route.screen === "list") {
    resource.list = base;
    // An entity's own create/edit routes (e.g. /page/add) serve its list; otherwise they nest under it.
    const own = (screen: RouteEntry["screen"]) =>
      routes.find((r) => r.entity === route.entity && r.screen === screen && r.listAdd !== false);
    if (calls.add) resource.create = own("create")?.path ?? `${base}/create`;
    if (calls.update) resource.edit = `${own("edit")?.path ?? `${base}/edit`}/:id`;
    if (calls.detail) resource.show = `${base}/show/:id`;
  } else if (route.screen === "create") resource.create = base;
  else if (route.screen === "edit") resource.edit = `${base}/:id`;
  else resource.list = base;
  resource.meta = meta;
  return resource;
}

export function generateResources(project: Project, banner: string): string {
  const entities = new Map(project.entities.map((e) => [e.$id, e]));
  const resources = project.manifest.routes.map((route) =>
    resourceOf(route, entities.get(route.entity)!, project.manifest.routes),
  );
  const menu = project.manifest.groups
    .map((group) => ({
      id: group.id,
      icon: group.icon,
      label: `menu:groups.${group.id}`,
      routes: project.manifest.routes
        .filter((r) => r.group === group.id && r.menu !== false)
        .map((r) => ({ id: r.id, path: r.path, label: `menu:routes.${r.id}`, permission: routePermission(r) })),
    }))
    .filter((g) => g.routes.length > 0);
  return `${banner}
import type { EntityName } from "./types.ts";

export type Screen = "list" | "recycle" | "settings" | "create" | "edit" | "statistics" | "import";
export type ExtensionName = ${project.manifest.routes
    .map((r) => r.extension)
    .concat(project.manifest.home.extension)
    .filter((e, i, all) => e && all.indexOf(e) === i)
    .map((e) => JSON.stringify(e))
    .join(" | ")};

/** A Refine resource definition: one per route of the manifest, identified by the route id. */
export interface GeneratedResource {
  name: EntityName;
  identifier: string;
  list?: string;
  create?: string;
  edit?: string;
  show?: string;
  meta: {
    label: string;
    parent: string;
    entity: EntityName;
    screen: Screen;
    permission: string;
    extension?: ExtensionName;
    listCall?: string;
    filter?: Record<string, string | number | (string | number)[]>;
    sort?: { field: string; order: "asc" | "desc" }[];
    hide?: boolean;
    tab?: boolean;
    canDelete?: boolean;
  };
}

export interface MenuGroup {
  id: string;
  icon: string;
  label: string;
  routes: { id: string; path: string; label: string; permission: string }[];
}

export const resources: GeneratedResource[] = ${quote(resources)};

export const menu: MenuGroup[] = ${quote(menu)};

/** What / shows after sign-in. */
export const home: { extension: ExtensionName } = ${quote(project.manifest.home)};
`;
}
