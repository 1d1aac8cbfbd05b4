// Entry of the console. Until the Refine shell lands, it shows the route catalogue generated from
// resources/routes.json, translated, so the schema backbone can be seen working in all five languages.
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import "./app/fonts.css";
import { initI18n } from "./app/i18n.ts";
import { RouteCatalogue } from "./app/route-catalogue.tsx";

await initI18n(["common", "menu"]);

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <RouteCatalogue />
  </StrictMode>,
);
