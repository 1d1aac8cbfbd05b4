// The generated menu as a catalogue: every group and route of the manifest with its translated title.
import { useTranslation } from "react-i18next";
import { menu } from "../generated/resources.ts";
import { LANGUAGES, LANGUAGE_NAMES, type Language } from "./i18n.ts";

export function RouteCatalogue() {
  const { t, i18n } = useTranslation(["common", "menu"]);
  return (
    <main style={{ maxWidth: 960, margin: "32px auto", padding: "0 16px" }}>
      <header style={{ display: "flex", justifyContent: "space-between", alignItems: "center" }}>
        <div>
          <h1 style={{ margin: 0 }}>{t("app.title")}</h1>
          <p style={{ color: "#666" }}>{t("app.subtitle")}</p>
        </div>
        <label>
          {t("language.label")}{" "}
          <select value={i18n.resolvedLanguage} onChange={(e) => void i18n.changeLanguage(e.target.value as Language)}>
            {LANGUAGES.map((lng) => (
              <option key={lng} value={lng}>
                {LANGUAGE_NAMES[lng]}
              </option>
            ))}
          </select>
        </label>
      </header>
      <div style={{ display: "grid", gridTemplateColumns: "repeat(auto-fill, minmax(260px, 1fr))", gap: 16 }}>
        {menu.map((group) => (
          <section key={group.id} style={{ border: "1px solid #e5e5e5", borderRadius: 8, padding: 12 }}>
            <h2 style={{ fontSize: 16, margin: "0 0 8px" }}>{t(group.label)}</h2>
            <ul style={{ margin: 0, paddingLeft: 18 }}>
              {group.routes.map((route) => (
                <li key={route.id}>
                  <span>{t(route.label)}</span> <code style={{ color: "#888" }}>{route.path}</code>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </main>
  );
}
