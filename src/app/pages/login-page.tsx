// Sign in (SPEC §2): account and password, both required; success stores the session and opens home
// 300 ms later. Deliberately free of the UI library so the first page stays small (DESIGN §8).
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useNavigate } from "react-router";
import { notSent } from "../api.ts";
import { Console } from "../console-screen.tsx";
import { LANGUAGE_NAMES, LANGUAGES, type Language } from "../i18n.ts";
import { OfflineNotice } from "../offline-notice.tsx";
import { authProvider } from "../providers/auth-provider.ts";
import { currentSession } from "../session.ts";
import { useSite } from "../site.ts";

/** SPEC §2: home opens 300 ms after a successful sign-in, once the success message is seen. */
const HOME_DELAY_MS = 300;
/**
 * Past those 300 ms home waits for its code and words, up to this long, so that it opens whole: a part
 * that suspends shows a fallback, and React holds a shown fallback for 300 ms however soon the code comes.
 */
const HOME_READY_MAX_MS = 3000;

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let warming: Promise<unknown> | undefined;
/**
 * The console's code and words for after sign-in (app.tsx warmUp), started once the user turns to the
 * form (a tap or a click on it, a character typed: not the account field's own focus on opening, so the
 * page alone stays as small as it was): they arrive while the account and password are typed and checked. Code the user is about to
 * need, not a guess at the next screen, so a phone fetches it too (fetch-ahead.ts); offline it waits for
 * the submit, which starts it again.
 */
function warmUp(): void {
  warming ??= Console.preload()
    .then(() => import("../app.tsx"))
    .then((m) => m.warmUp())
    .catch(() => (warming = undefined));
}

type Problems = Partial<Record<"account" | "password" | "form", string>>;

export function LoginPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const site = useSite();
  const [problems, setProblems] = useState<Problems>({});
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  if (currentSession() && !done) return <Navigate to="/" replace />;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const account = String(form.get("account") ?? "").trim();
    const password = String(form.get("password") ?? "");
    const found: Problems = {};
    if (!account) found.account = t("messages.accountEmpty");
    if (!password) found.password = t("messages.passwordEmpty");
    setProblems(found);
    if (found.account || found.password) return;
    setBusy(true);
    warmUp();
    const result = await authProvider.login({ account, password });
    setBusy(false);
    if (!result.success) {
      // Without a network the sign-in says so, not that something went wrong; what was typed stays.
      setProblems({ form: notSent(result.error) ? t("offline.signIn") : result.error?.message });
      return;
    }
    setDone(true);
    // What home needs loads during the wait.
    const ready = Promise.all([Console.preload(), import("../app.tsx").then((m) => m.preloadHome())]);
    await Promise.all([delay(HOME_DELAY_MS), Promise.race([ready.catch(() => undefined), delay(HOME_READY_MAX_MS)])]);
    navigate("/", { replace: true });
  };

  return (
    <main className="login-page">
      <OfflineNotice />
      <label className="login-language">
        <span className="visually-hidden">{t("language.label")}</span>
        <select value={i18n.resolvedLanguage} onChange={(e) => void i18n.changeLanguage(e.target.value as Language)}>
          {LANGUAGES.map((lng) => (
            <option key={lng} value={lng}>
              {LANGUAGE_NAMES[lng]}
            </option>
          ))}
        </select>
      </label>
      <form className="login-card" onSubmit={submit} onInput={warmUp} onPointerDown={warmUp} noValidate>
        <div className="login-brand">
          {site?.logo ? <img src={site.logo} alt="" className="login-logo" /> : <span className="login-mark">M</span>}
          <h1>{site?.site_name || t("app.title")}</h1>
          <p>{t("app.subtitle")}</p>
        </div>
        {problems.form && (
          <div className="login-alert" role="alert">
            {problems.form}
          </div>
        )}
        {done && (
          <div className="login-success" role="status">
            {t("messages.loginSuccess")}
          </div>
        )}
        <Field
          name="account"
          label={t("operations:login.fields.account.label")}
          problem={problems.account}
          autoComplete="username"
        />
        <Field
          name="password"
          type="password"
          label={t("operations:login.fields.password.label")}
          problem={problems.password}
          autoComplete="current-password"
        />
        <button type="submit" className="login-submit" disabled={busy || done}>
          {busy && <span className="login-spinner" aria-hidden />}
          {t("actions.login")}
        </button>
      </form>
    </main>
  );
}

function Field(props: { name: string; label: string; problem?: string; type?: string; autoComplete: string }) {
  const { name, label, problem, type = "text", autoComplete } = props;
  const account = name === "account";
  return (
    <div className={`login-field${problem ? " has-error" : ""}`}>
      <label htmlFor={name}>{label}</label>
      <input
        id={name}
        name={name}
        type={type}
        autoComplete={autoComplete}
        // A phone's keyboard: an account as typed (no capital first letter, no correction); the
        // password's Enter key signs in.
        autoCapitalize={account ? "none" : undefined}
        autoCorrect={account ? "off" : undefined}
        spellCheck={account ? false : undefined}
        enterKeyHint={account ? undefined : "go"}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${name}-problem` : undefined}
        autoFocus={account}
      />
      {problem && (
        <div id={`${name}-problem`} className="login-problem">
          {problem}
        </div>
      )}
    </div>
  );
}
