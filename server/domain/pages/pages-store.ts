// The pages area's statements (issue 28, step 4: a handler reads validate → store → answer): how many of
// the caller's pages each show type has, an application's charge, and its upgrade to the newest published
// version (the rule that it is newer is part of the statement, so nothing changes when it is not).
import type { ApplicationChargeGetAnswer, EntityRecord } from "../../../src/generated/types.ts";
import { q } from "../../core/sql.ts";
import type { Queryable } from "../../db/db.ts";
import { scopeClause, type Scope } from "../../entities/repository.ts";
import { modelOf } from "../../model/model.ts";

/** A version's release numbers, for comparing in SQL (a pre-release label is not compared). */
const release = (column: string) => `string_to_array(split_part(${column}, '-', 1), '.')::int[]`;

/** Installs an application's newest published version when it is newer than the installed one; answers it, or nothing. */
export async function upgradeToLatest(tx: Queryable, id: number): Promise<EntityRecord<"application"> | undefined> {
  const { rows } = await tx.query<EntityRecord<"application">>(
    `update ${q("application")} set version_number = latest_version
      where id = $1 and latest_version is not null and ${release("latest_version")} > ${release("version_number")}
      returning *`,
    [id],
  );
  return rows[0];
}

/** How many pages in scope (not deleted) each show type has; a type no page has is absent. */
export async function pagesByShowType(db: Queryable, scope: Scope): Promise<{ show_type: string; pages: number }[]> {
  const where = scopeClause(modelOf("page"), scope, 0);
  const { rows } = await db.query<{ show_type: string; pages: number }>(
    `select show_type, count(*)::int as pages from ${q("page")}
          where deleted_at is null${where.sql} group by show_type`,
    where.values,
  );
  return rows;
}

/** An application's charge, or nothing when there is no such application. */
export async function chargeOf(db: Queryable, id: number): Promise<ApplicationChargeGetAnswer | undefined> {
  const { rows } = await db.query<ApplicationChargeGetAnswer>(
    `select id, name, charge_type, charge_amount from ${q("application")} where id = $1`,
    [id],
  );
  return rows[0];
}

/** Sets an application's charge, a new version when it changes; answers whether it did. */
export async function setCharge(tx: Queryable, id: number, chargeType: string, amount: number): Promise<boolean> {
  const { rows } = await tx.query(
    `update ${q("application")} set charge_type = $2, charge_amount = $3, version = version + 1, updated_at = now()
          where id = $1 and (charge_type is distinct from $2 or charge_amount is distinct from $3) returning id`,
    [id, chargeType, amount],
  );
  return rows.length > 0;
}
