// The console's rjsf widgets by name (src/widgets/choose.ts decides which field gets which).
import type { RegistryWidgetsType } from "@rjsf/utils";
import { CoordinatesWidget } from "./coordinates-widget.tsx";
import { DateTimeWidget } from "./datetime-widget.tsx";
import { CountWidget } from "./count-widget.tsx";
import { EnumWidget } from "./enum-widget.tsx";
import { FractionWidget } from "./fraction-widget.tsx";
import { MoneyWidget } from "./money-widget.tsx";
import { PasswordWidget } from "./password-widget.tsx";
import { PermissionsWidget } from "./permissions-widget.tsx";
import { RegionWidget } from "./region-widget.tsx";
import { RelationWidget } from "./relation-widget.tsx";
import { SwitchWidget } from "./switch-widget.tsx";
import { TagsWidget } from "./tags-widget.tsx";
import { RichTextWidget, TextareaWidget } from "./textarea-widget.tsx";
import { UploadWidget } from "./upload-widget.tsx";

export const widgets: RegistryWidgetsType = {
  upload: UploadWidget,
  uploads: UploadWidget,
  enum: EnumWidget,
  money: MoneyWidget,
  fraction: FractionWidget,
  relation: RelationWidget,
  relations: RelationWidget,
  switch: SwitchWidget,
  password: PasswordWidget,
  textarea: TextareaWidget,
  richtext: RichTextWidget,
  region: RegionWidget,
  permissions: PermissionsWidget,
  coordinates: CoordinatesWidget,
  // rjsf's own name for it: a date-time field takes the business's clock.
  datetime: DateTimeWidget,
  DateTimeWidget,
  tags: TagsWidget,
  count: CountWidget,
};
