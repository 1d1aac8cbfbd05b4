// The filters an entity's x-ui declares, as one inline form above the list (on a phone, a search box and a
// sheet of filters): text for `like`, a select for `eq` and `in` on enums and relations, two bounds for
// `range`.
import { Button, DatePicker, Drawer, Form, Grid, Input, InputNumber, Select, Space } from "antd";
import { DownOutlined, FilterOutlined, ReloadOutlined, SearchOutlined, UpOutlined } from "@ant-design/icons";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { TFunction } from "i18next";
import dayjs, { type Dayjs } from "dayjs";
import { DATE_PRESETS } from "../schema/constants.ts";
import type { EntityView, FieldView } from "./model.ts";
import type { FilterValues } from "./filters.ts";
import { businessToday } from "./time-zone.ts";
import { RelationSelect } from "../widgets/relation-select.tsx";
import { keyboardOf, keypadOf } from "../widgets/keyboard.ts";

interface Props {
  /**
   * The form's name, which starts its fields' ids: unique per list, since a list left for another tab
   * stays in the page (src/app/layout/kept-pages.tsx) and an id must name one field.
   */
  name: string;
  view: EntityView;
  values: FilterValues;
  /** Fields fixed by the route (e.g. a recycle bin of one plan type): not shown. */
  fixed: string[];
  onChange: (values: FilterValues) => void;
}

/** Form.Item hands its control id, value and onChange: they must reach the input itself. */
interface Control {
  id?: string;
  value?: unknown;
  onChange?: (value: unknown) => void;
}

function FilterInput({ field, label, ...control }: { field: FieldView; label: string } & Control) {
  const { t } = useTranslation();
  const multiple = field.ui.filter === "in";
  const { id, value, onChange } = control;
  if (field.enum) {
    return (
      <Select
        id={id}
        value={value}
        onChange={onChange}
        allowClear
        mode={multiple ? "multiple" : undefined}
        placeholder={label}
        maxTagCount="responsive"
        style={{ minWidth: 160 }}
        options={field.enum.map((value) => ({ value, label: t(field.enumKey!(value)) }))}
      />
    );
  }
  if (field.relation)
    return (
      <RelationSelect
        id={id}
        entity={field.relation}
        placeholder={label}
        multiple={multiple}
        value={value as number | number[] | undefined}
        onChange={onChange}
      />
    );
  if (field.ui.filter === "range") {
    if (field.kind === "datetime" || field.kind === "date")
      return (
        <DatePicker.RangePicker id={id} allowEmpty={[true, true]} presets={datePresets(t)} {...(control as object)} />
      );
    return (
      <RangeInput
        label={label}
        money={field.kind === "money"}
        pad={field.kind === "money" ? "decimal" : (keypadOf(field.node.type) ?? "decimal")}
        value={value as [number?, number?] | undefined}
        onChange={onChange}
      />
    );
  }
  if (field.kind === "integer" || field.kind === "number")
    return (
      <InputNumber
        id={id}
        placeholder={label}
        style={{ width: 140 }}
        inputMode={keypadOf(field.node.type)}
        value={value as number}
        onChange={onChange}
      />
    );
  return (
    <Input
      id={id}
      allowClear
      // Enter searches: a phone's keyboard says so on its key (and is a phone pad for a phone number).
      enterKeyHint="search"
      inputMode={keyboardOf(field).inputMode}
      placeholder={label}
      style={{ width: 180 }}
      value={value as string | undefined}
      onChange={(event) => onChange?.(event.target.value)}
    />
  );
}

/** SPEC §9's presets, each a range of whole days ending today (the business's today, time-zone.ts). */
export function datePresets(t: TFunction): { label: string; value: [Dayjs, Dayjs] }[] {
  const today = dayjs(businessToday());
  return DATE_PRESETS.map(({ key, amount, unit }) => ({
    label: t(`filters.presets.${key}`),
    value: [today.subtract(amount, unit).add(1, "day").startOf("day"), today.endOf("day")],
  }));
}

function RangeInput({
  value,
  onChange,
  label,
  money,
  pad,
}: {
  value?: [number?, number?];
  onChange?: (value: [number?, number?]) => void;
  label: string;
  money: boolean;
  /** A phone's keypad: digits, or digits and a point. */
  pad: "numeric" | "decimal";
}) {
  const { t } = useTranslation();
  const [from, to] = value ?? [];
  const step = money ? 0.01 : 1;
  return (
    <Space.Compact>
      <InputNumber
        aria-label={`${label} ${t("filters.from")}`}
        inputMode={pad}
        placeholder={t("filters.from")}
        value={from}
        min={0}
        step={step}
        precision={money ? 2 : undefined}
        onChange={(v) => onChange?.([v ?? undefined, to])}
      />
      <InputNumber
        aria-label={`${label} ${t("filters.to")}`}
        inputMode={pad}
        placeholder={t("filters.to")}
        value={to}
        min={0}
        step={step}
        precision={money ? 2 : undefined}
        onChange={(v) => onChange?.([from, v ?? undefined])}
      />
    </Space.Compact>
  );
}

/** Filters shown before "More filters" is opened (on a phone, all are in a sheet). */
export const FIRST_FILTERS = 4;

export function FilterBar(props: Props) {
  const phone = Grid.useBreakpoint().md === false;
  return phone ? <PhoneFilters {...props} /> : <InlineFilters {...props} />;
}

/** One form item a filter, labelled in the user's language. */
function FilterItems({ fields }: { fields: FieldView[] }) {
  const { t } = useTranslation();
  return fields.map((field) => {
    const label = t(field.label);
    return (
      <Form.Item key={field.name} name={field.name} label={label}>
        <FilterInput field={field} label={label} />
      </Form.Item>
    );
  });
}

/** The filters shown, the state filters first (the state can always be filtered at a glance). */
function filtersOf(view: EntityView, fixed: string[]): FieldView[] {
  const shown = view.filters.filter((f) => !fixed.includes(f.name));
  return [...shown.filter((f) => view.states.has(f.name)), ...shown.filter((f) => !view.states.has(f.name))];
}

/**
 * On a phone: a search box for the record's name (its title's text filter) and a Filters button, naming how
 * many are in use, that opens every filter in a sheet from the bottom; searching or resetting closes it.
 */
function PhoneFilters({ name, view, values, fixed, onChange }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FilterValues>();
  const [open, setOpen] = useState(false);
  const all = filtersOf(view, fixed);
  const search =
    all.find((f) => f.name === view.titleField && f.ui.filter === "like") ?? all.find((f) => f.ui.filter === "like");
  const inUse = all.filter((f) => f !== search && values[f.name] !== undefined).length;
  const [text, setText] = useState(String(values[search?.name ?? ""] ?? ""));
  useEffect(() => setText(String(values[search?.name ?? ""] ?? "")), [values, search]);
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(values as Parameters<typeof form.setFieldsValue>[0]);
  }, [form, values, open]);
  if (all.length === 0) return null;
  const sheet = all.filter((f) => f !== search);
  return (
    <div className="filter-bar filter-bar-phone">
      {search && (
        <Input.Search
          id={`${name}_${search.name}`}
          allowClear
          enterButton
          enterKeyHint="search"
          value={text}
          placeholder={t(search.label)}
          aria-label={t(search.label)}
          onChange={(event) => setText(event.target.value)}
          onSearch={(value) => onChange({ ...values, [search.name]: value.trim() || undefined })}
        />
      )}
      {sheet.length > 0 && (
        <Button icon={<FilterOutlined />} onClick={() => setOpen(true)} className="filter-sheet-open">
          {inUse ? t("filters.titleInUse", { count: inUse }) : t("filters.title")}
        </Button>
      )}
      <Drawer
        placement="bottom"
        open={open}
        onClose={() => setOpen(false)}
        title={t("filters.title")}
        height="85%"
        className="filter-sheet"
        footer={
          <div className="filter-sheet-actions">
            <Button
              size="large"
              icon={<ReloadOutlined />}
              onClick={() => {
                form.resetFields();
                setOpen(false);
                onChange(search && values[search.name] !== undefined ? { [search.name]: values[search.name] } : {});
              }}
            >
              {t("actions.reset")}
            </Button>
            <Button size="large" type="primary" icon={<SearchOutlined />} onClick={() => form.submit()}>
              {t("actions.search")}
            </Button>
          </div>
        }
      >
        <Form
          form={form}
          name={name}
          layout="vertical"
          onFinish={(chosen) => {
            setOpen(false);
            onChange({ ...chosen, ...(search ? { [search.name]: values[search.name] } : {}) });
          }}
        >
          <FilterItems fields={sheet} />
        </Form>
      </Drawer>
    </div>
  );
}

function InlineFilters({ name, view, values, fixed, onChange }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FilterValues>();
  const first = FIRST_FILTERS;
  const all = filtersOf(view, fixed);
  // A filter in use stays in sight: the bar opens when one beyond the first few has a value.
  const inUse = all.slice(first).some((f) => values[f.name] !== undefined);
  const [expanded, setExpanded] = useState(inUse);
  const fields = expanded || inUse ? all : all.slice(0, first);
  useEffect(() => {
    form.resetFields();
    form.setFieldsValue(values as Parameters<typeof form.setFieldsValue>[0]);
  }, [form, values]);
  if (all.length === 0) return null;
  return (
    <Form form={form} name={name} layout="inline" className="filter-bar" onFinish={onChange}>
      <FilterItems fields={fields} />
      <Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
            {t("actions.search")}
          </Button>
          <Button
            icon={<ReloadOutlined />}
            onClick={() => {
              form.resetFields();
              onChange({});
            }}
          >
            {t("actions.reset")}
          </Button>
          {all.length > first && (
            <Button
              type="link"
              icon={expanded ? <UpOutlined /> : <DownOutlined />}
              iconPosition="end"
              onClick={() => setExpanded(!expanded)}
            >
              {t(expanded ? "filters.less" : "filters.more")}
            </Button>
          )}
        </Space>
      </Form.Item>
    </Form>
  );
}
