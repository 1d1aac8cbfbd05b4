// The page layout editor (/page/add and /page/edit/:id, SPEC §2 "page scheme list and layout editor"):
// a palette of modules dragged onto the page (or added with a click or the keyboard), reordered by
// dragging (dnd-kit, keyboard included), each module's settings beside it with SPEC §9's image ratios, a
// live phone-sized preview, undo (the button or Ctrl+Z), and the page's own fields below. The layout is
// checked by schemas/page-layout.json here and again by the server, which also refuses a second
// three-grid module; leaving with unsaved changes asks first. Here the screen with its palette, settings
// and preview columns; the modules' column is modules-card.tsx, the modules with their undo history
// use-module-history.ts, dragging use-module-drag.ts and saving use-page-save.ts.
import { HolderOutlined, PlusOutlined } from "@ant-design/icons";
import { DndContext, useDraggable } from "@dnd-kit/core";
import { CSS } from "@dnd-kit/utilities";
import { useQuery } from "@tanstack/react-query";
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  ColorPicker,
  Form,
  Input,
  InputNumber,
  Result,
  Row,
  Segmented,
  Select,
  Skeleton,
  Space,
  Switch,
  Typography,
} from "antd";
import { useMemo, useState } from "react";
import i18n, { type TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router";
import { api, type ApiError } from "../../app/api.ts";
import { allowed } from "../../app/providers/access-control.ts";
import { editableData } from "../../crud/form-screen.tsx";
import { useScreen } from "../../crud/resource.ts";
import { formSchema, SchemaForm } from "../../crud/schema-form.tsx";
import type { ExtensionProps } from "../index.ts";
import {
  BACKGROUND_RATIO,
  BANNER_RATIO,
  layoutProblems,
  MODULE_TYPES,
  type LayoutProblem,
  newModule,
  RATIO_BY_COLUMNS,
  styleTaken,
  type LayoutModule,
  type ModuleType,
} from "./layout.ts";
import { ModulesCard } from "./modules-card.tsx";
import { ModulePreview } from "./preview.tsx";
import { PALETTE, useModuleDrag } from "./use-module-drag.ts";
import { useModuleHistory } from "./use-module-history.ts";
import { usePageSave } from "./use-page-save.ts";
import { documentFieldKey } from "../../schema/keys.ts";

type Data = Record<string, unknown>;
const CELL_RATIOS = ["2:1", "15:16", "4:5", "4:1", "2:5", "6:7", "4:3"];

export function LayoutEditor({ route }: ExtensionProps) {
  const { id } = useParams();
  const editing = route?.action === "edit";
  const record = useQuery({
    queryKey: ["renovation-detail", id],
    queryFn: () => api<Data>("renovation-detail", { query: { id } }),
    enabled: editing && Boolean(id),
    gcTime: 0,
  });
  if (!allowed(editing ? "page.update" : "page.add")) return <Result status="403" title="403" />;
  if (editing && (record.isLoading || !record.data))
    return record.error ? (
      <Alert type="error" showIcon message={(record.error as ApiError).message} />
    ) : (
      <Skeleton active />
    );
  return <Editor key={id ?? "new"} routeId={route?.resource.identifier ?? "page_list"} record={record.data} />;
}

function Editor({ routeId, record }: { routeId: string; record?: Data }) {
  const { t } = useTranslation(["page", "common", "errors", "validation"]);
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const screen = useScreen(routeId);
  const { view } = screen;
  const initialModules = ((record?.layout as { modules?: LayoutModule[] } | undefined)?.modules ??
    []) as LayoutModule[];
  const { modules, past, commit, undo } = useModuleHistory(initialModules);
  const [selected, setSelected] = useState<string | undefined>(initialModules[0]?.id);
  // The layout's problems as it stands: shown on the module's settings at once, listed once a save tried.
  const problems = useMemo(() => layoutProblems({ modules }), [modules]);
  const { save, serverErrors, triedSave } = usePageSave(record, modules, problems);
  const palette = useQuery({
    queryKey: ["renovation-home-type"],
    queryFn: () => api("renovation-home-type"),
  });
  const labelOf = (type: string) =>
    palette.data?.find((p) => p.type === type)?.label ?? t(`common:layoutModules.${type}`);
  /** A problem in words: the rule's message with the setting's label (or the page's, for its own shape). */
  const problemText = (p: LayoutProblem) => {
    const field = p.field ? settingLabel(t, p.field) : t("common:layoutEditor.modules");
    const key = `validation:${p.keyword}`;
    return i18n.exists(key) ? t(key, { field, limit: p.limit }) : t("common:layoutEditor.invalid");
  };

  // The page's own fields: its schema's form (the layout is a hidden field there; the editor's modules
  // replace it when saving).
  const schema = useMemo(() => formSchema(view, record ? "edit" : "create"), [view, record]);

  const add = (type: ModuleType, at = modules.length) => {
    const module = newModule(type);
    commit([...modules.slice(0, at), module, ...modules.slice(at)]);
    setSelected(module.id);
  };
  const change = (next: LayoutModule) => {
    if (next.type === "grid" && styleTaken(modules, next.style, next.id)) {
      void message.error(t("errors:threeGridOnce"));
      return;
    }
    commit(modules.map((m) => (m.id === next.id ? next : m)));
  };
  const remove = (moduleId: string) =>
    modal.confirm({
      title: t("common:layoutEditor.removeTitle", { module: labelOf(modules.find((m) => m.id === moduleId)!.type) }),
      okButtonProps: { danger: true },
      okText: t("common:actions.delete"),
      cancelText: t("common:actions.cancel"),
      onOk: () => commit(modules.filter((m) => m.id !== moduleId)),
    });
  const drag = useModuleDrag(modules, add, commit);

  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }} data-testid="layout-editor">
      <DndContext {...drag.context}>
        <Row gutter={[16, 16]}>
          <Col xs={24} lg={5}>
            <PaletteCard labelOf={labelOf} onAdd={add} />
          </Col>
          <Col xs={24} lg={7}>
            <ModulesCard
              modules={modules}
              selected={selected}
              fromPalette={drag.fromPalette}
              canUndo={past.length > 0}
              onUndo={undo}
              layoutError={serverErrors?.find((e) => e.field.startsWith("layout"))?.message}
              problems={triedSave ? problems : []}
              labelOf={labelOf}
              problemText={problemText}
              onSelect={setSelected}
              onRemove={remove}
            />
          </Col>
          <Col xs={24} lg={6}>
            <SettingsCard
              module={modules.find((m) => m.id === selected)}
              modules={modules}
              problems={problems}
              problemText={problemText}
              onChange={change}
            />
          </Col>
          <Col xs={24} lg={6}>
            <PreviewCard modules={modules} labelOf={labelOf} />
          </Col>
        </Row>
      </DndContext>
      <Card className="screen-card form-card" variant="borderless" title={t("common:layoutEditor.page")}>
        <Typography.Paragraph type="secondary">
          {t("common:layoutEditor.backgroundRatio", { ratio: BACKGROUND_RATIO })}
        </Typography.Paragraph>
        <SchemaForm
          view={view}
          schema={schema}
          mode={record ? "edit" : "create"}
          initial={record ? editableData(view, record) : { layout: { modules: [] } }}
          serverErrors={serverErrors}
          onCancel={() => navigate(screen.listPath)}
          onSubmit={save}
        />
      </Card>
    </Space>
  );
}

/** The module types, each dragged onto the page or added last with its +. */
function PaletteCard({ labelOf, onAdd }: { labelOf: (type: string) => string; onAdd: (type: ModuleType) => void }) {
  const { t } = useTranslation("common");
  return (
    <Card className="screen-card" variant="borderless" title={t("common:layoutEditor.palette")} size="small">
      <Space direction="vertical" style={{ width: "100%" }} data-testid="layout-palette">
        {MODULE_TYPES.map((type) => (
          <PaletteItem key={type} type={type} label={labelOf(type)} onAdd={() => onAdd(type)} />
        ))}
      </Space>
    </Card>
  );
}

function PaletteItem({ type, label, onAdd }: { type: ModuleType; label: string; onAdd: () => void }) {
  const { attributes, listeners, setNodeRef, transform } = useDraggable({ id: `${PALETTE}${type}` });
  return (
    <div
      ref={setNodeRef}
      className="palette-item"
      data-testid={`palette-${type}`}
      style={{ transform: CSS.Translate.toString(transform) }}
    >
      <span className="drag-handle" {...attributes} {...listeners}>
        <HolderOutlined /> {label}
      </span>
      <Button size="small" type="text" icon={<PlusOutlined />} aria-label={label} onClick={onAdd} />
    </div>
  );
}

/** The page as the customer's phone shows it, roughly, as it is edited. */
function PreviewCard({ modules, labelOf }: { modules: LayoutModule[]; labelOf: (type: string) => string }) {
  const { t } = useTranslation("common");
  return (
    <Card className="screen-card" variant="borderless" size="small" title={t("common:layoutEditor.preview")}>
      <div className="phone-preview" data-testid="layout-preview">
        {modules.map((m) => (
          <ModulePreview key={m.id} module={m} label={labelOf(m.type)} />
        ))}
      </div>
    </Card>
  );
}

interface SettingsCardProps {
  /** The selected module, if any. */
  module?: LayoutModule;
  modules: LayoutModule[];
  /** The whole layout's: the selected module's are shown on its settings. */
  problems: LayoutProblem[];
  problemText: (problem: LayoutProblem) => string;
  onChange: (next: LayoutModule) => void;
}

/** The selected module's settings, the layout's problems in them shown on each (or a word to pick one). */
function SettingsCard({ module, modules, problems, problemText, onChange }: SettingsCardProps) {
  const { t } = useTranslation("common");
  return (
    <Card className="screen-card" variant="borderless" size="small" title={t("common:layoutEditor.settings")}>
      {module ? (
        <ModuleSettings
          key={module.id}
          module={module}
          onChange={onChange}
          errors={Object.fromEntries(
            problems
              .filter((p) => p.field && p.index === modules.indexOf(module))
              .map((p) => [p.field!, problemText(p)]),
          )}
        />
      ) : (
        <Typography.Text type="secondary">{t("common:layoutEditor.pick")}</Typography.Text>
      )}
    </Card>
  );
}

interface SettingsProps {
  module: LayoutModule;
  onChange: (next: LayoutModule) => void;
  /** The schema's refusals of this module's settings, by setting, in words. */
  errors: Record<string, string>;
}

/** A module setting's label; a name without one (a grid cell's label) is shown as it is. */
const settingLabel = (t: TFunction, name: string) => {
  const key = documentFieldKey("page_layout", name)!;
  return i18n.exists(key) ? t(key) : name;
};

/**
 * One module's settings, as its part of the layout document allows. A value out of range stays as typed
 * and is refused on its setting, never clamped.
 */
function ModuleSettings({ module, onChange, errors }: SettingsProps) {
  const { t } = useTranslation("common");
  const item = (name: string, child: React.ReactNode, help?: string) => (
    <Form.Item
      label={settingLabel(t, name)}
      help={errors[name] ?? help}
      validateStatus={errors[name] ? "error" : undefined}
      style={{ marginBottom: 12 }}
    >
      {child}
    </Form.Item>
  );
  const set = (patch: Partial<LayoutModule>) => onChange({ ...module, ...patch } as LayoutModule);
  switch (module.type) {
    case "banner":
      return (
        <Form layout="vertical" data-testid="module-settings">
          {item(
            "count",
            <InputNumber inputMode="numeric" value={module.count} onChange={(v) => v !== null && set({ count: v })} />,
            t("layoutEditor.ratio", { ratio: BANNER_RATIO }),
          )}
          {item(
            "interval",
            <InputNumber
              inputMode="numeric"
              step={500}
              value={module.interval}
              onChange={(v) => v !== null && set({ interval: v })}
            />,
          )}
        </Form>
      );
    case "grid":
      return (
        <Form layout="vertical" data-testid="module-settings">
          {item(
            "columns",
            <Segmented
              options={[1, 2, 3, 4, 5]}
              value={module.columns}
              onChange={(v) => set({ columns: Number(v), ratio: RATIO_BY_COLUMNS[Number(v) - 1] })}
            />,
          )}
          {item(
            "style",
            <Select
              id="grid-style"
              value={module.style}
              onChange={(style) => set({ style })}
              options={["plain", "card", "three_grid"].map((s) => ({ value: s, label: t(`layoutEditor.styles.${s}`) }))}
            />,
          )}
          {item(
            "ratio",
            <Select
              value={module.ratio}
              onChange={(ratio) => set({ ratio })}
              options={CELL_RATIOS.map((r) => ({ value: r, label: r }))}
            />,
            t("layoutEditor.ratio", { ratio: RATIO_BY_COLUMNS[module.columns - 1] }),
          )}
          {item(
            "items",
            <InputNumber
              inputMode="numeric"
              min={1}
              max={20}
              value={module.items.length}
              onChange={(n) =>
                n && set({ items: Array.from({ length: n }, (_, i) => module.items[i] ?? { image: "" }) })
              }
            />,
          )}
        </Form>
      );
    case "goods":
      return (
        <Form layout="vertical" data-testid="module-settings">
          {item(
            "columns",
            <Segmented options={[1, 2, 3]} value={module.columns} onChange={(v) => set({ columns: Number(v) })} />,
          )}
          {item("showPrice", <Switch checked={module.showPrice} onChange={(showPrice) => set({ showPrice })} />)}
        </Form>
      );
    case "notice":
      return (
        <Form layout="vertical" data-testid="module-settings">
          {item(
            "color",
            <ColorPicker
              value={module.color}
              disabledAlpha
              onChangeComplete={(c) => set({ color: c.toHexString().slice(0, 7) })}
            />,
          )}
        </Form>
      );
    case "image":
      return (
        <Form layout="vertical" data-testid="module-settings">
          {item(
            "image",
            <Input
              inputMode="url"
              autoCapitalize="none"
              spellCheck={false}
              value={module.image}
              maxLength={1024}
              onChange={(e) => set({ image: e.target.value })}
            />,
          )}
          {item(
            "link",
            <Input
              inputMode="url"
              autoCapitalize="none"
              spellCheck={false}
              value={module.link ?? ""}
              maxLength={1024}
              onChange={(e) => set({ link: e.target.value || undefined })}
            />,
          )}
        </Form>
      );
    case "spacer":
      return (
        <Form layout="vertical" data-testid="module-settings">
          {item(
            "height",
            <InputNumber
              inputMode="numeric"
              value={module.height}
              onChange={(v) => v !== null && set({ height: v })}
            />,
          )}
        </Form>
      );
  }
}
