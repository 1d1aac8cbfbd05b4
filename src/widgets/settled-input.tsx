// Typing stays in its field until it settles. rjsf answers every change with a copy of the whole form's
// data, its whole state worked out again and every field rendered again: tens of milliseconds a keystroke
// on the larger forms (npm run bench, "typing in ..."). So a text field keeps what is typed itself, and
// hands it to the form after a pause of TEXT_SETTLE_MS, when it loses focus, or as the form is submitted
// (rjsf queues a submit behind the changes handed to it in the same event, so nothing typed is left out).
import type { BaseInputTemplateProps } from "@rjsf/utils";
import { createContext, useContext, useEffect, useEffectEvent, useRef, useState, type ComponentType } from "react";
import { Templates } from "@rjsf/antd";
import { useTranslation } from "react-i18next";
import { unitAffixes } from "../crud/format.ts";
import type { XUi } from "../schema/types.ts";
import { Affixed } from "./affixed.tsx";
import type { Keyboard } from "./keyboard.ts";

/** How long typing may pause before the form sees it. */
export const TEXT_SETTLE_MS = 250;

/** A form's fields holding text it has not seen yet, each with the function that hands it over. */
export class PendingInputs {
  private readonly handOvers = new Set<() => void>();

  /** `onTyping` is told of every keystroke at once (the form counts as changed before its data does). */
  constructor(private readonly onTyping: () => void = () => {}) {}

  /** A field was typed in. */
  typing(): void {
    this.onTyping();
  }

  /** Adds a field's hand-over; returns what removes it. */
  add(handOver: () => void): () => void {
    this.handOvers.add(handOver);
    return () => this.handOvers.delete(handOver);
  }

  /** Hands every field's pending text to the form, now. */
  flush(): void {
    for (const handOver of [...this.handOvers]) handOver();
  }
}

/** The form's pending inputs; outside a form that provides it, every change is handed over at once. */
export const PendingInputsContext = createContext<PendingInputs | undefined>(undefined);

/**
 * A field's value as typed, handed to `onChange` once typing settles, on `flush()` (call it on blur), or
 * when the form flushes its pending inputs. A value that changes from outside (a reset, loaded data) is
 * shown at once and drops what was pending.
 */
export function useSettledValue<V>(value: V, onChange: (value: V) => void) {
  const pending = useContext(PendingInputsContext);
  const [shown, setShown] = useState(value);
  // The last value the form and this field agreed on, and the text typed since.
  const agreed = useRef(value);
  const typed = useRef(value);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const handOver = useEffectEvent(() => {
    timer.current = undefined;
    agreed.current = typed.current;
    onChange(typed.current);
  });
  const flush = useEffectEvent(() => {
    if (timer.current === undefined) return;
    clearTimeout(timer.current);
    handOver();
  });

  useEffect(() => {
    if (Object.is(value, agreed.current)) return;
    clearTimeout(timer.current);
    timer.current = undefined;
    agreed.current = typed.current = value;
    setShown(value);
  }, [value]);

  // Registered with the form for its submit; what is pending when the field goes is handed over.
  useEffect(() => {
    const remove = pending?.add(() => flush());
    return () => {
      remove?.();
      flush();
    };
  }, [pending]);

  const change = (next: V) => {
    typed.current = next;
    setShown(next);
    if (!pending) return handOver();
    pending.typing();
    clearTimeout(timer.current);
    timer.current = setTimeout(() => handOver(), TEXT_SETTLE_MS);
  };

  return { value: shown, change, flush: () => flush() };
}

const AntdInput = Templates.BaseInputTemplate as ComponentType<BaseInputTemplateProps>;

/**
 * rjsf antd's input (text, e-mail, address, password and number fields), its value settled as above, with
 * the field's unit beside it (x-ui.unit: "days", "min"). A widget that brings its own change handler
 * (onChangeOverride) is left as it is.
 */
export function SettledBaseInputTemplate(props: BaseInputTemplateProps) {
  const settled = useSettledValue<unknown>(props.value, props.onChange);
  // The language is read for the unit's words (and its plural, after the number typed).
  useTranslation();
  // A phone's keyboard for the field (src/widgets/keyboard.ts, in ui:options): rjsf's input sets its type,
  // autocomplete and autocapitalize, but no inputmode nor spellcheck of its own.
  const box = useRef<HTMLSpanElement>(null);
  const { inputMode, verbatim } = props.options as Keyboard;
  useEffect(() => {
    const input = box.current?.querySelector("input");
    if (inputMode) input?.setAttribute("inputmode", inputMode);
    if (verbatim) {
      input?.setAttribute("spellcheck", "false");
      input?.setAttribute("autocorrect", "off");
    }
  }, [inputMode, verbatim]);
  if (props.onChangeOverride) return <AntdInput {...props} />;
  const unit = props.options.unit as XUi["unit"];
  const count = typeof settled.value === "number" ? settled.value : undefined;
  return (
    <span ref={box} className="input-pad">
      <Affixed affixes={unit ? unitAffixes(unit, count) : { before: "", after: "" }}>
        <AntdInput
          {...props}
          value={settled.value}
          onChange={settled.change}
          onBlur={(id, value) => {
            settled.flush();
            props.onBlur(id, value);
          }}
        />
      </Affixed>
    </span>
  );
}
