// Checks on raw input that hold for every call, before any schema sees it: how deep a JSON body nests,
// and whether its text can be stored at all. Both are linear in the size of the input.

/** Deeper bodies are refused (400): no schema of ours nests half as deep. */
export const MAX_JSON_DEPTH = 32;

/** The deepest nesting of arrays and objects in a JSON text, strings skipped: one pass, no recursion. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > deepest) deepest = depth;
    } else if (c === 93 || c === 125) depth--;
  }
  return deepest;
}

/** A NUL (PostgreSQL stores none in text or JSON) or a lone surrogate (not Unicode; UTF-8 cannot carry it). */
// eslint-disable-next-line no-control-regex
const BAD_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The path ("lanes/2/name") of the first string, or key, that cannot be stored; undefined when all can. */
export function badTextIn(value: unknown, path: string[]): string | undefined {
  if (typeof value === "string") return BAD_TEXT.test(value) ? path.join("/") : undefined;
  if (value === null || typeof value !== "object" || path.length > MAX_JSON_DEPTH) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const bad = badTextIn(value[i], [...path, String(i)]);
      if (bad !== undefined) return bad;
    }
    return undefined;
  }
  for (const [key, child] of Object.entries(value)) {
    if (BAD_TEXT.test(key)) return [...path, key.replace(BAD_TEXT, "\ufffd")].join("/");
    const bad = badTextIn(child, [...path, key]);
    if (bad !== undefined) return bad;
  }
  return undefined;
}
