// What the payment settings need before they are saved, beyond what each field's schema says alone:
//   - a provider in use (its switch on, x-needs) has every field it needs: a secret kept from before
//     counts as set, a field emptied does not; a provider switched off needs nothing;
//   - a certificate field given a new value holds a file uploaded for payment settings that is of the
//     field's own kind (x-certificate), read again from its bytes: an address typed by hand, a file gone
//     or a key where a certificate belongs is refused on that field, in words.
// Checked in the save's transaction, against the row as it will be stored (pay-setting-set).
import type { Ctx } from "../../entities/context.ts";
import type { EntityHooks } from "../../entities/domain.ts";
import type { Row } from "../../entities/repository.ts";
import { modelOf } from "../../model/model.ts";
import { badRequest, type FieldError } from "../../core/errors.ts";
import { translate } from "../../core/i18n.ts";
import { entityKeyBase, fieldLabelKey } from "../../../src/schema/keys.ts";
import { describeCertificate, NotACertificate } from "./certificates.ts";

/** The bytes of a stored private upload of payment settings, or undefined (not such an address, or gone). */
export type ReadPrivate = (value: string) => Promise<Buffer | undefined>;

const isSet = (value: unknown) => value !== undefined && value !== null && value !== "";

/**
 * The fields a switch on leaves missing: those of `all`, and, when no `anyOf` set is complete, those of
 * the set the user has begun (most of its fields given; then the fewest missing; then the first).
 */
export function missingFields(needs: { all: string[]; anyOf?: string[][] }, has: (field: string) => boolean): string[] {
  const missing = needs.all.filter((f) => !has(f));
  if (needs.anyOf) {
    const sets = needs.anyOf.map((set) => ({ given: set.filter(has).length, gap: set.filter((f) => !has(f)) }));
    if (!sets.some((s) => s.gap.length === 0)) {
      const closer = (a: (typeof sets)[number], b: (typeof sets)[number]) =>
        a.given !== b.given ? a.given > b.given : a.gap.length < b.gap.length;
      missing.push(...sets.reduce((best, s) => (closer(s, best) ? s : best)).gap);
    }
  }
  return missing;
}

export function paymentSettingHooks(readPrivate: ReadPrivate): EntityHooks {
  return {
    async beforeWrite(ctx: Ctx, _tx, values: Row, existing?: Row) {
      const model = modelOf("payment_setting");
      const label = (field: string) => translate(ctx.lng, fieldLabelKey(entityKeyBase("payment_setting"), field));
      const valueOf = (field: string) => (field in values ? values[field] : existing?.[field]);
      const errors: FieldError[] = [];
      const refused = new Set<string>();

      // A new certificate value: a file uploaded here, of the field's kind.
      for (const [field, node] of Object.entries(model.schema.properties)) {
        const format = node["x-certificate"];
        const value = values[field];
        if (!format || !isSet(value) || value === existing?.[field]) continue;
        const data = await readPrivate(String(value));
        let fits = data !== undefined;
        if (data) {
          const merchant = valueOf("social_wallet_mch_id");
          try {
            describeCertificate(data, format, typeof merchant === "string" && merchant ? [merchant] : []);
          } catch (error) {
            if (!(error instanceof NotACertificate)) throw error;
            fits = false;
          }
        }
        if (fits) continue;
        refused.add(field);
        errors.push({
          field,
          keyword: "x-certificate",
          message: translate(ctx.lng, "errors:certificateField", {
            field: label(field),
            kind: translate(ctx.lng, `errors:certificateKinds.${format}`),
          }),
        });
      }

      // Each provider in use: what it needs.
      for (const [name, node] of Object.entries(model.schema.properties)) {
        const needs = node["x-needs"];
        if (!needs || Number(valueOf(name)) !== 1) continue;
        for (const field of missingFields(needs, (f) => isSet(valueOf(f)))) {
          if (refused.has(field)) continue;
          refused.add(field);
          errors.push({
            field,
            keyword: "x-needs",
            message: translate(ctx.lng, "errors:providerNeeds", { field: label(field), provider: label(name) }),
          });
        }
      }
      if (errors.length) throw badRequest(errors);
    },
  };
}
