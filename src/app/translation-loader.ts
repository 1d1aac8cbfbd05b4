// How the console's translations reach i18next: each language's namespace is a JSON file fetched on demand,
// and one that failed to arrive (a network blip) is fetched again, so raw keys never stay on screen until a
// reload. Fetched rather than import()ed: browsers keep a failed dynamic import failed for the page's life
// (whatwg/html#6768), so an import could never be retried.
import type { BackendModule, i18n as I18n, ReadCallback } from "i18next";

/** The translations of one language's namespace. */
export type Translations = Record<string, unknown>;

/** Fetches a URL (the window's fetch, or a test's). */
export type Fetch = (url: string) => Promise<Response>;

/** The files' addresses by "<lng>/<ns>" (Vite gives each its built asset's address). */
export type TranslationUrls = Record<string, string>;

/** The event i18next emits when namespaces that had failed arrive; react-i18next re-renders on it. */
export const TRANSLATIONS_ARRIVED = "translationsArrived";

/** A namespace that has no file (a mistyped name) is not worth asking for again. */
class MissingTranslations extends Error {}

/**
 * An i18next backend over fetch. A failed fetch is reported as worth retrying (i18next retries it a few
 * times, further apart each time: maxRetries, retryTimeout); a namespace with no file is not.
 */
export function translationBackend(urls: TranslationUrls, get: Fetch): BackendModule {
  return {
    type: "backend",
    init() {},
    read(lng: string, ns: string, callback: ReadCallback) {
      const url = urls[`${lng}/${ns}`];
      if (!url) {
        callback(new MissingTranslations(`no translations for ${lng}/${ns}`), false);
        return;
      }
      get(url)
        .then(async (response) => {
          if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
          return (await response.json()) as Translations;
        })
        // `true` as the data asks i18next to retry.
        .then(
          (data) => callback(null, data),
          (error: Error) => callback(error, true),
        );
    },
    // Declares read(language, namespace, callback) to i18next.
    ...{ callbackApi: true },
  } as BackendModule;
}

/**
 * Keeps track of namespaces that failed for good (after i18next's own retries) and fetches them again on
 * `retry()`: when the browser is back online, and whenever a call to the server succeeds (the network is
 * there again). When they arrive, TRANSLATIONS_ARRIVED re-renders the screens that showed their keys.
 */
export function failedTranslations(i18n: I18n) {
  const failed = new Map<string, [string, string]>();
  i18n.on("failedLoading", (lng: string, ns: string, error: unknown) => {
    if (!(error instanceof MissingTranslations)) failed.set(`${lng}|${ns}`, [lng, ns]);
  });
  const retry = (): void => {
    if (!failed.size) return;
    const pending = [...failed.values()];
    failed.clear();
    void Promise.all(pending.map(([lng, ns]) => i18n.reloadResources([lng], [ns]))).then(() => {
      const arrived = pending.filter(([lng, ns]) => i18n.hasResourceBundle(lng, ns));
      if (arrived.length) i18n.emit(TRANSLATIONS_ARRIVED, arrived);
    });
  };
  return { retry, count: () => failed.size };
}
