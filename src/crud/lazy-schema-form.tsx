// The record form, loaded when a dialog first shows it: screens that only offer state actions and
// operations (lists, details, the dashboard's withdrawal panel) do not load rjsf and its validator.
import { Skeleton } from "antd";
import { lazy, Suspense, type ComponentProps } from "react";
import type { SchemaForm as Eager } from "./schema-form.tsx";

const Form = lazy(() => import("./schema-form.tsx").then((m) => ({ default: m.SchemaForm })));

export function LazySchemaForm(props: ComponentProps<typeof Eager>) {
  return (
    <Suspense fallback={<Skeleton active paragraph={{ rows: 3 }} />}>
      <Form {...props} />
    </Suspense>
  );
}
