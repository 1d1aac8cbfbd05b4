// machine-qrcode: the scan QR code of devices, made by the qrcode library. One device answers its PNG
// (or SVG); several answer a ZIP (fflate) holding one file per device, named by its device code. The
// code holds the device's scan address: the system setting's full domain (else this server's own
// address) + /scan?mac=<device code>. Only devices in the caller's scope: any other id is a 404.
import type { FastifyRequest } from "fastify";
import { zipSync } from "fflate";
import QRCode from "qrcode";
import type { Queryable } from "../../db/db.ts";
import { scopeOf, sqlOf } from "../../entities/context.ts";
import { notFound } from "../../core/errors.ts";
import type { Handlers } from "../area.ts";
import * as devices from "./machine-store.ts";
import * as settings from "./settings-store.ts";

/** The address a device's QR code holds. */
export const scanUrl = (domain: string, macName: string): string =>
  `${domain.replace(/\/+$/, "")}/scan?mac=${encodeURIComponent(macName)}`;

/** The full domain of the system settings, or the address this request came to. */
async function domainOf(db: Queryable, request: FastifyRequest): Promise<string> {
  return (await settings.fullDomain(db)) || `${request.protocol}://${request.host}`;
}

/** A file name safe in a ZIP and a Content-Disposition header: the device code's own characters. */
const fileName = (macName: string, id: number, ext: string) =>
  `${macName.replace(/[^A-Za-z0-9_-]/g, "_") || `device-${id}`}.${ext}`;

const QR_OPTIONS = { errorCorrectionLevel: "M" as const, margin: 2, width: 512 };

export const qrcodeHandlers: Handlers = {
  "machine-qrcode": async ({ ctx, input, request, reply }) => {
    const ids = [...new Set(input.id)];
    const rows = await devices.names(sqlOf(ctx), scopeOf(ctx.principal), ids);
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
