// A role's permissions: every permission key the server knows (manage-role-permission), grouped by
// entity, each operation a checkbox with its translated name; a group can be ticked at once.
import type { WidgetProps } from "@rjsf/utils";
import { Checkbox, Input, Spin } from "antd";
import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../app/api.ts";
import { entitySchemas } from "../generated/schemas.ts";
import type { ManageRolePermissionAnswer } from "../generated/types.ts";
import { actionKey, entityNameKey } from "../schema/keys.ts";

const ENTITIES = Object.keys(entitySchemas);

type PermissionKey = ManageRolePermissionAnswer[number];

export function PermissionsWidget({ id, value, onChange, disabled, readonly }: WidgetProps) {
  // Every entity's name labels a group: load all their namespaces (suspends until loaded).
  const { t, i18n } = useTranslation(ENTITIES);
  const [search, setSearch] = useState("");
  const keys = useQuery({
    queryKey: ["manage-role-permission"],
    queryFn: () => api("manage-role-permission"),
    staleTime: Infinity,
  });
  const chosen = new Set((value as string[] | undefined) ?? []);
  const operationLabel = (p: PermissionKey) =>
    i18n.exists(`permissions:${p.operation}`)
      ? t(`permissions:${p.operation}`)
      : i18n.exists(actionKey(p.entity, p.operation))
        ? t(actionKey(p.entity, p.operation))
        : p.operation;
  const groups = useMemo(() => {
    const byEntity = new Map<string, PermissionKey[]>();
    for (const p of keys.data ?? []) byEntity.set(p.entity, [...(byEntity.get(p.entity) ?? []), p]);
    return [...byEntity].map(([entity, list]) => ({ entity, label: t(entityNameKey(entity)), list }));
  }, [keys.data, t]);
  if (keys.isLoading) return <Spin />;
  const locked = disabled || readonly;
  const set = (next: Set<string>) => onChange([...next].sort());
  const shown = groups.filter((g) => !search || g.label.toLowerCase().includes(search.toLowerCase()));
  return (
    <div id={id} className="permissions-widget">
      <Input.Search
        allowClear
        placeholder={t("common:actions.search")}
        aria-label={t("common:actions.search")}
        enterKeyHint="search"
        onChange={(e) => setSearch(e.target.value)}
        style={{ maxWidth: 280 }}
      />
      {shown.map((group) => {
        const count = group.list.filter((p) => chosen.has(p.key)).length;
        return (
          <div key={group.entity} className="permissions-group">
            <Checkbox
              checked={count === group.list.length}
              indeterminate={count > 0 && count < group.list.length}
              disabled={locked}
              onChange={(e) => {
                const next = new Set(chosen);
                for (const p of group.list) {
                  if (e.target.checked) next.add(p.key);
                  else next.delete(p.key);
                }
                set(next);
              }}
            >
              <strong>{group.label}</strong>
            </Checkbox>
            <Checkbox.Group
              disabled={locked}
              value={group.list.filter((p) => chosen.has(p.key)).map((p) => p.key)}
              options={group.list.map((p) => ({ value: p.key, label: operationLabel(p) }))}
              onChange={(checked) => {
                const next = new Set([...chosen].filter((k) => !group.list.some((p) => p.key === k)));
                for (const key of checked) next.add(String(key));
                set(next);
              }}
            />
          </div>
        );
      })}
    </div>
  );
}
