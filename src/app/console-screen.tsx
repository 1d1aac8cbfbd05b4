// The console behind the login page (Refine, antd, the shell and its screens), loaded on demand:
// main.tsx shows it once there is a session, and sign-in's wait before home starts its code (the login
// page), so home opens without the loading fallback.
import { lazyScreen } from "./lazy-screen.tsx";

export const Console = lazyScreen(() => import("./app.tsx").then((m) => m.ConsoleApp));
