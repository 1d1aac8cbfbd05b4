// The layout editor's middle column: the page's modules in their order (each selected by a click, removed
// by its button, moved by its handle: dnd-kit's sortable list), with undo, the server's refusal of the
// layout and, once a save was tried, the layout's problems by module. The page itself takes a drop only
// from the palette.
import { DeleteOutlined, HolderOutlined, UndoOutlined } from "@ant-design/icons";
import { useDroppable } from "@dnd-kit/core";
import { SortableContext, useSortable, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { Alert, Button, Card, Empty } from "antd";
import { useTranslation } from "react-i18next";
import type { LayoutModule, LayoutProblem } from "./layout.ts";

interface ModulesCardProps {
  modules: LayoutModule[];
  /** The id of the module whose settings are shown. */
  selected?: string;
  /** Whether a module from the palette is being dragged (the page takes it). */
  fromPalette: boolean;
  canUndo: boolean;
  onUndo: () => void;
  /** The server's refusal of the layout, in words. */
  layoutError?: string;
  /** The layout's problems to list: none until a save was tried. */
  problems: LayoutProblem[];
  labelOf: (type: string) => string;
  problemText: (problem: LayoutProblem) => string;
  onSelect: (moduleId: string) => void;
  onRemove: (moduleId: string) => void;
}

export function ModulesCard({
  modules,
  selected,
  fromPalette,
  canUndo,
  onUndo,
  layoutError,
  problems,
  labelOf,
  problemText,
  onSelect,
  onRemove,
}: ModulesCardProps) {
  const { t } = useTranslation("common");
  return (
    <Card
      className="screen-card"
      variant="borderless"
      size="small"
      title={t("common:layoutEditor.modules")}
      extra={
        <Button icon={<UndoOutlined />} disabled={!canUndo} onClick={onUndo} data-testid="layout-undo">
          {t("common:layoutEditor.undo")}
        </Button>
      }
    >
      {layoutError && <Alert type="error" showIcon message={layoutError} style={{ marginBottom: 8 }} />}
      {problems.length > 0 && (
        <Alert
          type="error"
          showIcon
          message={t("common:layoutEditor.invalid")}
          description={
            <ul className="layout-problems">
              {problems.map((p, i) => (
                <li key={i}>
                  {p.index !== undefined && `${labelOf(modules[p.index].type)} ${p.index + 1}: `}
                  {problemText(p)}
                </li>
              ))}
            </ul>
          }
          style={{ marginBottom: 8 }}
        />
      )}
      <Canvas accepts={fromPalette}>
        <SortableContext items={modules.map((m) => m.id)} strategy={verticalListSortingStrategy}>
          {modules.length === 0 ? (
            <Empty description={t("common:layoutEditor.empty")} />
          ) : (
            modules.map((m) => (
              <SortableModule
                key={m.id}
                module={m}
                label={labelOf(m.type)}
                selected={m.id === selected}
                onSelect={() => onSelect(m.id)}
                onRemove={() => onRemove(m.id)}
              />
            ))
          )}
        </SortableContext>
      </Canvas>
    </Card>
  );
}

function Canvas({ accepts, children }: { accepts: boolean; children: React.ReactNode }) {
  const { setNodeRef, isOver } = useDroppable({ id: "canvas", disabled: !accepts });
  return (
    <div ref={setNodeRef} className={`layout-canvas${isOver ? " over" : ""}`} data-testid="layout-canvas">
      {children}
    </div>
  );
}

interface SortableModuleProps {
  module: LayoutModule;
  label: string;
  selected: boolean;
  onSelect: () => void;
  onRemove: () => void;
}

function SortableModule({ module, label, selected, onSelect, onRemove }: SortableModuleProps) {
  const { t } = useTranslation("common");
  const { attributes, listeners, setNodeRef, transform, transition } = useSortable({ id: module.id });
  return (
    <div
      ref={setNodeRef}
      className={`layout-module${selected ? " selected" : ""}`}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      data-testid="layout-module"
      data-type={module.type}
      onClick={onSelect}
    >
      <span
        className="drag-handle"
        {...attributes}
        {...listeners}
        aria-label={t("layoutEditor.move", { module: label })}
      >
        <HolderOutlined />
      </span>
      <span className="module-label">{label}</span>
      <Button
        size="small"
        type="text"
        danger
        icon={<DeleteOutlined />}
        aria-label={t("actions.delete")}
        onClick={(event) => {
          event.stopPropagation();
          onRemove();
        }}
      />
    </div>
  );
}
