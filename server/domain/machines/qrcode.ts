// machine-qrcode: the scan QR code of devices, made by the qrcode library. One device answers its PNG
// (or SVG); several answer a ZIP (fflate) holding one file per device, named by its device code. The
// code holds the device's scan address: the system setting's full domain (else this server's own
// address) + /scan?mac=<device code>. Only devices in the caller's scope: any other id is a 404.
import type { FastifyRequest } from "fastify";
import { zipSync } from "fflate";
import QRCode from "qrcode";
import type { Queryable } from "../../db/db.ts";
import { q } from "../../core/sql.ts";
import { scopeOf, sqlOf } from "../../entities/context.ts";
import { modelOf } from "../../model/model.ts";
import { scopeClause } from "../../entities/repository.ts";
import { notFound } from "../../core/errors.ts";
import type { Handlers } from "../area.ts";

/** The address a device's QR code holds. */
export const scanUrl = (domain: string, macName: string): string =>
  `${domain.replace(/\/+$/, "")}/scan?mac=${encodeURIComponent(macName)}`;

/** The full domain of the system settings, or the address this request came to. */
async function domainOf(db: Queryable, request: FastifyRequest): Promise<string> {
  const setting = modelOf("system_setting");
  const { rows } = await db.query<{ full_domain: string | null }>(
    `select full_domain from ${q(setting.table)} where singleton_key = 'global'`,
  );
  return rows[0]?.full_domain || `${request.protocol}://${request.host}`;
}

/** A file name safe in a ZIP and a Content-Disposition header: the device code's own characters. */
const fileName = (macName: string, id: number, ext: string) =>
  `${macName.replace(/[^A-Za-z0-9_-]/g, "_") || `device-${id}`}.${ext}`;

const QR_OPTIONS = { errorCorrectionLevel: "M" as const, margin: 2, width: 512 };

export const qrcodeHandlers: Handlers = {
  "machine-qrcode": async ({ ctx, input, request, reply }) => {
    const model = modelOf("machine");
    const ids = [...new Set(input.id)];
    const scope = scopeClause(model, scopeOf(ctx.principal), 1);
    const { rows } = await sqlOf(ctx).query<{ id: number; mac_name: string }>(
      `select id, mac_name from ${q(model.table)} where id = any($1) and deleted_at is null${scope.sql} order by id`,
      [ids, ...scope.values],
    );
    if (rows.length !== ids.length) throw notFound();
    const domain = await domainOf(sqlOf(ctx), request);
    const format = input.format ?? "png";
    const render = async (macName: string): Promise<Uint8Array> =>
      format === "svg"
        ? new TextEncoder().encode(await QRCode.toString(scanUrl(domain, macName), { ...QR_OPTIONS, type: "svg" }))
        : new Uint8Array(await QRCode.toBuffer(scanUrl(domain, macName), { ...QR_OPTIONS, type: "png" }));
    if (rows.length === 1) {
      const [{ id, mac_name }] = rows;
      return reply
        .header("content-type", format === "svg" ? "image/svg+xml" : "image/png")
        .header("content-disposition", `attachment; filename="${fileName(mac_name, Number(id), format)}"`)
        .send(Buffer.from(await render(mac_name)));
    }
    const files: Record<string, Uint8Array> = {};
    for (const { id, mac_name } of rows) {
      let name = fileName(mac_name, Number(id), format);
      if (files[name]) name = fileName(`${mac_name}-${id}`, Number(id), format);
      files[name] = await render(mac_name);
    }
    // PNGs are compressed already: stored, not deflated again.
    const zip = zipSync(files, { level: format === "svg" ? 6 : 0 });
    return reply
      .header("content-type", "application/zip")
      .header("content-disposition", `attachment; filename="qrcodes-${new Date().toISOString().slice(0, 10)}.zip"`)
      .send(Buffer.from(zip));
  },
};
