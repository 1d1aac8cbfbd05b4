// The header's search box (issue 33): Ctrl+K / ⌘K or the header's button opens it; what is typed is searched
// (GET /merchant/search) once the typing pauses, and Enter or a click opens the chosen record's detail.
// Enter pressed before the answer arrives opens the best match of what was typed once it does.
import { Input, Modal, Spin, Typography, type InputRef } from "antd";
import { SearchOutlined } from "@ant-design/icons";
import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { api } from "../api.ts";
import { resources } from "../../generated/resources.ts";
import type { SearchAnswer } from "../../generated/types.ts";

/** How long typing must pause before a search is sent. */
export const SEARCH_DEBOUNCE_MS = 200;

type Group = SearchAnswer[number];
type Item = Group["items"][number] & { entity: string };

/** Where a record of the kind opens: its main list's detail route (not a filtered view of it). */
export function detailPath(entity: string, id: number): string | undefined {
  const candidates = resources.filter((r) => r.meta.entity === entity && r.show);
  const main = candidates.find((r) => r.meta.screen === "list" && !r.meta.listCall && !r.meta.filter) ?? candidates[0];
  return main?.show?.replace(":id", String(id));
}

/** The text with each case-insensitive occurrence of `words` marked. */
export function Marked({ text, words }: { text: string; words: string }): ReactNode {
  const needle = words.toLowerCase();
  if (!needle) return text;
  const parts: ReactNode[] = [];
  const lower = text.toLowerCase();
  let from = 0;
  // Lower-casing keeps the length of the scripts we serve, so positions in `lower` are positions in `text`.
  for (let at = lower.indexOf(needle); at >= 0 && lower.length === text.length; at = lower.indexOf(needle, from)) {
    if (at > from) parts.push(text.slice(from, at));
    parts.push(<mark key={at}>{text.slice(at, at + needle.length)}</mark>);
    from = at + needle.length;
  }
  if (from < text.length) parts.push(text.slice(from));
  return <>{parts}</>;
}

const isMac = () => typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform);

export function SearchBox({ compact }: { compact: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === "k") {
        event.preventDefault();
        setOpen(true);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  const shortcut = isMac() ? "⌘K" : "Ctrl K";
  return (
    <>
      <button
        type="button"
        className={compact ? "search-trigger search-trigger-compact" : "search-trigger"}
        onClick={() => setOpen(true)}
        aria-label={t("search.open")}
        aria-keyshortcuts="Control+K Meta+K"
        aria-haspopup="dialog"
      >
        <SearchOutlined />
        {!compact && (
          <>
            <span className="search-trigger-text">{t("search.open")}</span>
            <kbd>{shortcut}</kbd>
          </>
        )}
      </button>
      {open && <SearchDialog onClose={() => setOpen(false)} />}
    </>
  );
}

function SearchDialog({ onClose }: { onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const listId = useId();
  const [text, setText] = useState("");
  /** The answer and the words it answers. */
  const [answer, setAnswer] = useState<{ words: string; groups: Group[] }>();
  const [failed, setFailed] = useState(false);
  const [active, setActive] = useState(0);
  /** Enter was pressed for these words before their answer came: open its best match when it does. */
  const enterFor = useRef<string | undefined>(undefined);
  const sent = useRef<AbortController | undefined>(undefined);
  const input = useRef<InputRef>(null);
  const words = text.trim();
  // The dialog moves the focus to itself as it opens, after the field's autoFocus: the caret goes back to the field.
  const focusField = () => input.current?.focus();
  useEffect(() => {
    const frame = requestAnimationFrame(focusField);
    return () => cancelAnimationFrame(frame);
  }, []);

  const go = useCallback(
    (item: Item) => {
      const path = detailPath(item.entity, item.id);
      if (!path) return;
      onClose();
      navigate(path);
    },
    [navigate, onClose],
  );

  const send = useCallback(
    (asked: string) => {
      sent.current?.abort();
      const controller = new AbortController();
      sent.current = controller;
      setFailed(false);
      api("search", { query: { q: asked }, signal: controller.signal })
        .then((groups) => {
          if (controller.signal.aborted) return;
          setAnswer({ words: asked, groups });
          setActive(0);
          if (enterFor.current === asked) {
            enterFor.current = undefined;
            const first = groups[0]?.items[0];
            if (first) go({ ...first, entity: groups[0].entity });
          }
        })
        .catch(() => {
          if (!controller.signal.aborted) setFailed(true);
        });
    },
    [go],
  );

  // Sent once typing pauses; the language is part of the answer (kinds and labels), so a switch asks again.
  useEffect(() => {
    if (!words) {
      sent.current?.abort();
      setAnswer(undefined);
      return;
    }
    const timer = setTimeout(() => send(words), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [words, send, i18n.resolvedLanguage]);
  useEffect(() => () => sent.current?.abort(), []);

  const current = answer?.words === words ? answer.groups : undefined;
  const items: Item[] = (current ?? []).flatMap((g) => g.items.map((item) => ({ ...item, entity: g.entity })));
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (items.length) setActive((active + (event.key === "ArrowDown" ? 1 : items.length - 1)) % items.length);
    } else if (event.key === "Enter" && words) {
      event.preventDefault();
      if (current) {
        if (items[active]) go(items[active]);
      } else {
        enterFor.current = words;
        send(words);
      }
    }
  };

  const optionId = (index: number) => `${listId}-${index}`;
  let index = -1;
  return (
    <Modal
      open
      onCancel={onClose}
      footer={null}
      closable={false}
      className="search-dialog"
      width={640}
      title={null}
      destroyOnHidden
      afterOpenChange={(opened) => opened && focusField()}
    >
      <Input
        ref={input}
        size="large"
        autoFocus
        allowClear
        prefix={<SearchOutlined />}
        suffix={current === undefined && words && !failed ? <Spin size="small" /> : undefined}
        placeholder={t("search.placeholder")}
        value={text}
        maxLength={100}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        role="combobox"
        aria-label={t("search.open")}
        aria-expanded={items.length > 0}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={items.length ? optionId(active) : undefined}
      />
      <div className="search-results" id={listId} role="listbox" aria-label={t("search.results")}>
        {!words && <Typography.Text type="secondary">{t("search.hint")}</Typography.Text>}
        {failed && <Typography.Text type="danger">{t("search.failed")}</Typography.Text>}
        {current?.length === 0 && <Typography.Text type="secondary">{t("search.none", { words })}</Typography.Text>}
        {current?.map((group) => (
          <div key={group.entity} className="search-group" role="group" aria-label={group.label}>
            <div className="search-group-label">{group.label}</div>
            {group.items.map((item) => {
              index += 1;
              const at = index;
              return (
                <div
                  key={item.id}
                  id={optionId(at)}
                  role="option"
                  aria-selected={at === active}
                  className={at === active ? "search-item search-item-active" : "search-item"}
                  onMouseMove={() => at !== active && setActive(at)}
                  onClick={() => go({ ...item, entity: group.entity })}
                >
                  <div className="search-item-title">
                    <Marked text={item.title} words={words} />
                  </div>
                  {item.context.length > 0 && (
                    <div className="search-item-context">
                      {item.context.map((c, i) => (
                        <span key={c.field}>
                          {i > 0 && " · "}
                          {c.label}: <Marked text={c.value} words={words} />
                        </span>
                      ))}
                    </div>
                  )}
                </div>
              );
            })}
          </div>
        ))}
      </div>
    </Modal>
  );
}
