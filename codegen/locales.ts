// Keeps the five locale folders in step with the schemas. `codegen write` adds every key a schema
// demands to every language (empty, to be translated) and drops keys nothing demands any more;
// `codegen check` reports keys that are missing, empty, stale or left in English.
import type { Project } from "./model.ts";
import { LANGUAGES } from "./load.ts";
import { flatten, isOptionalKey, requiredKeys } from "./keys.ts";
import type { Problem } from "./lint.ts";

/** Characters of each language's script; a translation must use its script (acronyms aside). */
const SCRIPT: Record<string, RegExp> = {
  zh: /[\u4e00-\u9fff]/,
  tw: /[\u4e00-\u9fff]/,
  km: /[\u1780-\u17ff]/,
  th: /[\u0e00-\u0e7f]/,
};

/** The keys each namespace must hold: derived ones from the schemas, English's for free-form text. */
function expectedKeys(project: Project): Map<string, { keys: Set<string>; derived: boolean }> {
  const expected = new Map<string, { keys: Set<string>; derived: boolean }>();
  for (const [ns, keys] of requiredKeys(project)) expected.set(ns, { keys, derived: true });
  for (const [ns, content] of Object.entries(project.locales.en ?? {})) {
    if (!expected.has(ns)) expected.set(ns, { keys: new Set(flatten(content).keys()), derived: false });
  }
  return expected;
}

const file = (lng: string, ns: string) => `locales/${lng}/${ns}.json`;

export function localeProblems(project: Project): Problem[] {
  const problems: Problem[] = [];
  for (const [ns, { keys, derived }] of expectedKeys(project)) {
    const english = flatten(project.locales.en?.[ns] ?? {});
    for (const lng of LANGUAGES) {
      const content = project.locales[lng]?.[ns];
      if (content === undefined) {
        problems.push({ file: file(lng, ns), path: "/", message: `missing file (${keys.size} keys)` });
        continue;
      }
      const present = flatten(content);
      for (const key of keys) {
        const value = present.get(key);
        if (typeof value !== "string" || value.trim() === "") {
          problems.push({
            file: file(lng, ns),
            path: key,
            message: value === undefined ? "missing key" : "empty translation",
          });
        } else if (
          lng !== "en" &&
          SCRIPT[lng] &&
          !SCRIPT[lng].test(value) &&
          /[a-z]{3,}/.test(value.replace(/\{\{[^}]*\}\}/g, ""))
        ) {
          problems.push({ file: file(lng, ns), path: key, message: `not translated: "${value}"` });
        }
      }
      for (const key of present.keys()) {
        const allowed = keys.has(key) || (derived && isOptionalKey(key, keys) && (lng === "en" || english.has(key)));
        if (!allowed)
          problems.push({
            file: file(lng, ns),
            path: key,
            message: "stale key: nothing uses it (npm run codegen removes it)",
          });
      }
    }
  }
  return problems;
}

function setPath(target: Record<string, unknown>, key: string, value: unknown) {
  const parts = key.split(".");
  let node = target;
  for (const part of parts.slice(0, -1)) {
    if (!node[part] || typeof node[part] !== "object") node[part] = {};
    node = node[part] as Record<string, unknown>;
  }
  node[parts[parts.length - 1]] = value;
}

/** The locale files as `codegen write` leaves them: every expected key present, stale ones gone. */
export function syncedLocales(project: Project): Map<string, string> {
  const out = new Map<string, string>();
  for (const [ns, { keys, derived }] of expectedKeys(project)) {
    const english = flatten(project.locales.en?.[ns] ?? {});
    for (const lng of LANGUAGES) {
      const present = flatten(project.locales[lng]?.[ns] ?? {});
      const result: Record<string, unknown> = {};
      // Existing keys keep their order; new ones follow in schema order.
      for (const [key, value] of present) {
        const keep = keys.has(key) || (derived && isOptionalKey(key, keys) && (lng === "en" || english.has(key)));
        if (keep) setPath(result, key, value);
      }
      for (const key of keys) if (!present.has(key)) setPath(result, key, "");
      if (derived && lng !== "en") {
        for (const key of english.keys()) if (isOptionalKey(key, keys) && !present.has(key)) setPath(result, key, "");
      }
      out.set(file(lng, ns), `${JSON.stringify(result, null, 2)}\n`);
    }
  }
  return out;
}
