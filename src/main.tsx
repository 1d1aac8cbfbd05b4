// Entry of the console. The login page is light (React, the router, i18next, no UI library) so it
// opens fast; everything behind it (Refine, antd, the screens) loads on demand after sign-in.
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter, Navigate, Route, Routes } from "react-router";
import "./app/history-guard.ts";
import "./app/fonts.css";
import "./app/login.css";
import { initI18n } from "./app/i18n.ts";
import { Console } from "./app/console-screen.tsx";
import { LoginPage } from "./app/pages/login-page.tsx";
import { currentSession } from "./app/session.ts";
import { registerServiceWorker } from "./app/web-app.ts";

/** Without a session any address opens the login page at once, before the console's code is fetched. */
function SignedIn() {
  return currentSession() ? <Console /> : <Navigate to="/login" replace />;
}

await initI18n(["common", "operations"]);
// Only a production build has a worker (the development server serves its modules fresh).
if (import.meta.env.PROD) registerServiceWorker();

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <BrowserRouter>
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route path="*" element={<SignedIn />} />
      </Routes>
    </BrowserRouter>
  </StrictMode>,
);
