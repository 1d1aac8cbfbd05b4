// File uploads for the fields whose schema carries x-upload. POST /merchant/upload checks that the caller
// may write the entity, the size against the field's maxBytes and the content by its magic bytes (the
// client's file name and type are never trusted), and stores the file under a random name. Public files
// are served from /uploads/ with headers that keep an uploaded SVG or HTML from running script; private
// ones (certificates) live outside that folder and are never served. The demo seed's images point at
// /uploads/demo/...: a generated placeholder answers for each one that does not exist.
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { fileTypeFromFile } from "file-type";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { constants } from "node:fs";
import { copyFile, link, mkdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { JsonSchemaNode, XUpload } from "../../../src/schema/types.ts";
import type { Db } from "../../db/db.ts";
import { can, sqlOf, type Ctx, type Principal } from "../../entities/context.ts";
import { models, modelOf, resolveNode, type EntityModel } from "../../model/model.ts";
import { badRequest, forbidden, HttpError } from "../../core/errors.ts";
import { languageOf, translate, type Language } from "../../core/i18n.ts";
import { defineArea, type Area, type FileLimit, type ReceivedFile } from "../area.ts";
import {
  daysLeft,
  describeCertificate,
  NotACertificate,
  type CertificateFormat,
  type CertificateInfo,
} from "./certificates.ts";
import { paymentSettingHooks } from "./payment-settings.ts";
import * as uploadStore from "./uploads-store.ts";
import { RESERVED } from "./uploads-store.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** Sweeps the uploads no record points to now, as the timer does (for operators and tests). */
    sweepUploads(): Promise<string[]>;
  }
}

/** The upload rules of a property: its own x-upload, or its items' (a list of images). */
function uploadOf(node: JsonSchemaNode): XUpload | undefined {
  const resolved = resolveNode(node);
  if (resolved["x-upload"]) return resolved["x-upload"];
  const items = resolved.items;
  if (!items) return undefined;
  // An item defined in defs.json points at its sibling definitions with a local $ref.
  return resolveNode(items.$ref?.startsWith("#/definitions/") ? { ...items, $ref: `defs${items.$ref}` } : items)[
    "x-upload"
  ];
}

/** entity -> top-level field -> its upload rules, for every stored entity. */
const UPLOAD_FIELDS: ReadonlyMap<string, ReadonlyMap<string, XUpload>> = new Map(
  [...models.values()].map((model) => [
    model.name,
    new Map(
      Object.entries(model.schema.properties).flatMap(([name, node]) => {
        const upload = uploadOf(node);
        return upload ? [[name, upload] as const] : [];
      }),
    ),
  ]),
);

/** The multipart limit: the largest file any field takes. Each upload is then held to its own field's. */
export const MAX_UPLOAD_BYTES = Math.max(
  ...[...UPLOAD_FIELDS.values()].flatMap((fields) => [...fields.values()].map((u) => u.maxBytes)),
);

/**
 * What one agent (its operators included) may upload in any 24 hours. Counted and recorded in one
 * statement under a per-agent lock, so concurrent uploads cannot pass it. Tests lower the figures.
 */
export const UPLOAD_QUOTA = { bytesPerDay: 200 * 1024 * 1024, filesPerDay: 1000 };

/**
 * Files no record points to are removed once they are a day old (a form may stay open that long before
 * it is saved): at start and every SWEEP.everyHours, by each server (removing twice is harmless). Records
 * in the recycle bin still point to theirs; a record destroyed for good lets its files go.
 */
export const SWEEP = { olderThanHours: 24, everyHours: 6 };

/**
 * Whose quota an upload counts against: the level-1 agent at the top of the uploader's branch (the
 * platform admin's own for the admin), so that sub-agents and operators share their branch's quota and
 * creating sub-agents does not multiply it. Paths run from the root: /<admin>/<level 1>/<level 2>/...
 */
export function quotaOwner(principal: Principal): number {
  const path = principal.agentPath.split("/").filter(Boolean).map(Number);
  return path[1] ?? path[0] ?? principal.agentId;
}

const quotaFull = () =>
  new HttpError(429, "uploadQuota", { limit: sizeText(UPLOAD_QUOTA.bytesPerDay), files: UPLOAD_QUOTA.filesPerDay });

/**
 * Sets room aside in the branch's daily quota for a file about to arrive, before a byte of it is read, and
 * one file: the bytes its request announces (at most the field's cap), or, for a body that announces none
 * (chunked), what is left up to the cap. Counted and recorded in one statement under the branch's lock and
 * committed at once, so uploads arriving together cannot pass the quota together (ten 95 MB uploads
 * against 200 MB: two are read, eight refused at once). Past it, 429. Answers the row's path and its bytes.
 */
async function reserve(
  db: Db,
  principal: Principal,
  bytes: number,
  announced: boolean,
  isPrivateFile: boolean,
): Promise<{ path: string; bytes: number }> {
  const owner = quotaOwner(principal);
  const path = `${RESERVED}${randomBytes(8).toString("hex")}`;
  const reservation = { path, agentId: principal.agentId, quotaId: owner, bytes, announced, isPrivate: isPrivateFile };
  const reserved = await db.transaction((tx) => uploadStore.reserve(tx, reservation, UPLOAD_QUOTA));
  if (reserved === undefined) throw quotaFull();
  return { path, bytes: reserved };
}

/** Every stored column that may hold an upload's address (a field with x-upload, or a list of them). */
const UPLOAD_COLUMNS = [...UPLOAD_FIELDS].flatMap(([entity, fields]) => {
  const model = modelOf(entity);
  return [...fields.keys()].filter((f) => model.fields.get(f)?.stored).map((f) => [model.table, f] as const);
});
/** A stored upload's path inside a field's value: "/uploads/<path>" or "private:<path>", alone or in a list. */
const UPLOAD_REF = /(?:\/uploads\/|private:)([a-z0-9_]+\/\d{4}-\d{2}\/[0-9a-f]{16}\.[a-z0-9]+)/g;

/**
 * Removes the recorded uploads older than the grace period that no record points to; answers their paths.
 * One pass over the upload columns gathers every path still pointed to (records in the recycle bin
 * included), then the rest are deleted, row first, so that two servers sweeping at once remove each once.
 */
export async function sweepUploads(db: Db, dirs: Dirs, olderThanHours = SWEEP.olderThanHours): Promise<string[]> {
  // Room set aside for an upload that never ended (a server stopped mid-upload) is given back after an hour.
  await uploadStore.dropStaleReservations(db);
  const candidates = await uploadStore.sweepCandidates(db, olderThanHours);
  if (candidates.length === 0) return [];
  const pointed = new Set<string>();
  for (const [table, column] of UPLOAD_COLUMNS) {
    const values = await uploadStore.columnValues(db, table, column);
    for (const v of values) for (const match of v.matchAll(UPLOAD_REF)) pointed.add(match[1]);
  }
  const removed: string[] = [];
  for (const path of candidates) {
    if (pointed.has(path)) continue;
    const gone = await uploadStore.removeRecord(db, path, olderThanHours);
    if (!gone) continue; // another server swept it
    await rm(join(gone.private ? dirs.privateDir : dirs.publicDir, path), { force: true });
    removed.push(path);
  }
  return removed;
}

/** Whoever may create or change the entity's records may upload its files. */
const WRITE_OPERATIONS = ["add", "update", "set"];

/** Headers of everything under /uploads/: the browser takes the type as sent and runs nothing. */
const SAFE_HEADERS = {
  "x-content-type-options": "nosniff",
  "content-security-policy": "default-src 'none'; sandbox",
};

const isPrivate = (upload: XUpload) => upload.private === true || upload.kind === "certificate";

const uploadError = (lng: Language, field: "entity" | "field" | "file", key: string, params = {}) =>
  badRequest([{ field, keyword: key, message: translate(lng, `errors:${key}`, params) }]);

const sizeText = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${+(bytes / 1024 / 1024).toFixed(1)} MB` : `${+(bytes / 1024).toFixed(1)} KB`;

/** What a person calls a type: PNG, MP3, P12; a certificate's plain bytes are DER. */
function typeLabel(mime: string, upload: XUpload): string {
  const labels: Record<string, string> = {
    "audio/mpeg": "MP3",
    "application/x-pkcs12": "P12",
    "application/x-pem-file": "PEM",
    "application/octet-stream": upload.kind === "certificate" ? "DER" : "BIN",
  };
  return labels[mime] ?? mime.replace(/^.*\/(x-)?/, "").toUpperCase();
}

interface FileType {
  mime: string;
  ext: string;
}

/**
 * A certificate by its content, since file-type knows neither PEM nor PKCS#12: PEM is ASCII text
 * opening with -----BEGIN, DER (a .p12, .cer or .key) is an ASN.1 SEQUENCE, first byte 0x30; a PKCS#12
 * file's SEQUENCE then opens with its version, the INTEGER 3.
 */
function certificateType(data: Buffer): FileType | undefined {
  const text = data.every((b) => b === 9 || b === 10 || b === 13 || (b >= 32 && b < 127));
  if (text && /^\s*-----BEGIN [A-Z0-9 ]+-----/.test(data.toString("latin1")))
    return { mime: "application/x-pem-file", ext: "pem" };
  if (data[0] !== 0x30 || data.length < 4) return undefined;
  const lengthBytes = data[1] & 0x80 ? data[1] & 0x7f : 0;
  const version = data.subarray(2 + lengthBytes, 5 + lengthBytes);
  if (version.equals(Buffer.from([0x02, 0x01, 0x03]))) return { mime: "application/x-pkcs12", ext: "p12" };
  return { mime: "application/octet-stream", ext: "der" };
}

/** The file's type by its content: a certificate's whole bytes (a few KB at most), any other file's head. */
async function detect(file: ReceivedFile, upload: XUpload): Promise<FileType | undefined> {
  if (upload.kind === "certificate") return certificateType(await readFile(file.path));
  // Bytes nothing recognises are accepted only where application/octet-stream is.
  return (await fileTypeFromFile(file.path)) ?? { mime: "application/octet-stream", ext: "bin" };
}

/** The passwords a wallet's PKCS#12 bundle may be locked with: its merchant id, as the wallets issue them. */
async function walletPasswords(ctx: Ctx): Promise<string[]> {
  const id = await uploadStore.walletMerchantId(sqlOf(ctx));
  return id ? [id] : [];
}

/** The file described as the field's kind of certificate, or a translated 400 saying what it should be. */
async function certificateOf(ctx: Ctx, data: Buffer, format: CertificateFormat): Promise<CertificateInfo> {
  try {
    return describeCertificate(data, format, await walletPasswords(ctx));
  } catch (error) {
    if (!(error instanceof NotACertificate)) throw error;
    throw uploadError(ctx.lng, "file", "certificateKind", {
      kind: translate(ctx.lng, `errors:certificateKinds.${format}`),
    });
  }
}

/** The entity and the upload rules of a field the caller may upload for, or the error saying why not. */
function uploadTarget(ctx: Ctx, entity: string, field: string): { model: EntityModel; upload: XUpload } {
  const model = models.get(entity);
  if (!model) throw uploadError(ctx.lng, "entity", "uploadEntity");
  if (!WRITE_OPERATIONS.some((op) => can(ctx.principal, `${model.name}.${op}`))) throw forbidden();
  const upload = UPLOAD_FIELDS.get(model.name)?.get(field);
  if (!upload) throw uploadError(ctx.lng, "field", "uploadField");
  return { model, upload };
}

/** Moves an arrived file to where it is kept (copied when the two folders are on different disks). */
async function keep(from: string, to: string): Promise<void> {
  try {
    await link(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
    await copyFile(from, to, constants.COPYFILE_EXCL);
  }
}

/** A string hash (FNV-1a), to pick a placeholder's colour and shape from its path. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function hsl(h: number, s: number, l: number): string {
  const a = (s / 100) * Math.min(l / 100, 1 - l / 100);
  const channel = (n: number) => {
    const k = (n + h / 30) % 12;
    const value = l / 100 - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(value * 255)
      .toString(16)
      .padStart(2, "0");
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}

const escapeXml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);

const SHAPES = [
  // a box
  '<rect x="115" y="95" width="170" height="200" rx="26"/>',
  // a bottle
  '<path d="M172 62h56v44c30 13 46 36 46 66v106a22 22 0 0 1-22 22H148a22 22 0 0 1-22-22V172c0-30 16-53 46-66z"/>',
  // a round tin, from above
  '<circle cx="200" cy="190" r="104"/>',
];

/**
 * A product-photo-like stand-in for a missing demo image: a soft colour and a shape chosen from the path,
 * the initials on the shape and the file's name under it. Same path, same picture.
 */
function placeholderSvg(path: string): string {
  let name = path.split("/").pop() ?? "";
  try {
    name = decodeURIComponent(name);
  } catch {
    // left as it came
  }
  const words = name
    .replace(/\.[^.]*$/, "")
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  // Letters as a reader sees them (a Thai vowel mark stays on its consonant).
  const graphemes = (word = "") => [...new Intl.Segmenter().segment(word)].map((g) => g.segment);
  const named = words.filter((w) => /^\p{L}/u.test(w));
  const initials = (
    named.length > 1
      ? graphemes(named[0])[0] + graphemes(named[1])[0]
      : graphemes(named[0] ?? words[0] ?? "?")
          .slice(0, 2)
          .join("")
  ).toUpperCase();
  let caption = words.join(" ");
  caption = caption.length > 26 ? `${caption.slice(0, 25)}…` : caption;
  caption = caption.charAt(0).toUpperCase() + caption.slice(1);
  const h = hash(path);
  const hue = h % 360;
  const font = `font-family="'Noto Sans', 'Helvetica Neue', Arial, sans-serif"`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400" viewBox="0 0 400 400" role="img" aria-label="${escapeXml(caption)}">` +
    `<rect width="400" height="400" fill="${hsl(hue, 60, 94)}"/>` +
    `<ellipse cx="200" cy="318" rx="112" ry="13" fill="${hsl(hue, 25, 84)}"/>` +
    `<g fill="${hsl(hue, 52, 78)}">${SHAPES[(h >>> 9) % SHAPES.length]}</g>` +
    `<text x="200" y="192" text-anchor="middle" dominant-baseline="central" ${font} font-size="60" font-weight="700" fill="${hsl(hue, 40, 32)}">${escapeXml(initials)}</text>` +
    `<text x="200" y="364" text-anchor="middle" ${font} font-size="22" fill="${hsl(hue, 22, 36)}">${escapeXml(caption)}</text>` +
    `</svg>`
  );
}

const DEMO_IMAGE = /^\/uploads\/demo\/.+\.(png|jpe?g|gif|webp|svg)$/i;

/** Nothing at that path: a placeholder for a demo image, 404 for anything else. */
function missingUpload(request: FastifyRequest, reply: FastifyReply) {
  const path = request.url.split("?")[0];
  if ((request.method === "GET" || request.method === "HEAD") && DEMO_IMAGE.test(path)) {
    return reply
      .headers({
        ...SAFE_HEADERS,
        "content-type": "image/svg+xml; charset=utf-8",
        "cache-control": "public, max-age=86400",
      })
      .send(placeholderSvg(path));
  }
  const lng = languageOf(request.headers.locale);
  return reply.status(404).send({ code: 404, message: translate(lng, "errors:fileNotFound"), data: null });
}

/**
 * POST /merchant/upload and GET /uploads/*. Public files go to uploadDir, private ones to its sibling
 * private/. Without an uploadDir (tests, in-memory database) both live in a fresh temporary folder,
 * removed when the app closes.
 */
/** Where stored files live: public ones (served at /uploads/) and private ones (never served). */
interface Dirs {
  publicDir: string;
  privateDir: string;
}

/** Stores one arrived file for an entity's field (intake: the caller, the field and the size checked). */
async function store(dirs: Dirs, ctx: Ctx, file: ReceivedFile | undefined, entity: string, field: string) {
  const { model, upload } = uploadTarget(ctx, entity, field);
  if (!file) throw uploadError(ctx.lng, "file", "uploadMissing");
  const type = await detect(file, upload);
  if (!type || !upload.accept.includes(type.mime)) {
    const accept = [...new Set(upload.accept.map((mime) => typeLabel(mime, upload)))].join(", ");
    throw uploadError(ctx.lng, "file", "uploadFormat", { accept });
  }
  // A certificate field takes only its own kind of file (a key where a key belongs), read from its bytes.
  const format = model.schema.properties[field]?.["x-certificate"];
  const certificate = format ? await certificateOf(ctx, await readFile(file.path), format) : undefined;
  const month = new Date().toISOString().slice(0, 7);
  const path = `${model.name}/${month}/${randomBytes(8).toString("hex")}.${type.ext}`;
  const root = isPrivate(upload) ? dirs.privateDir : dirs.publicDir;
  // A reservation is kept until its call is over (and swept an hour after a crash): never gone before.
  if (!(await uploadStore.takeReservation(sqlOf(ctx), file.reserved ?? "", path, file.size))) throw quotaFull();
  await mkdir(join(root, model.name, month), { recursive: true });
  await keep(file.path, join(root, path));
  const url = isPrivate(upload) ? `private:${path}` : `/uploads/${path}`;
  const days_left = certificate?.valid_to ? daysLeft(certificate.valid_to) : null;
  return {
    url,
    size: file.size,
    mime: type.mime,
    ...(certificate ? { certificate: { ...certificate, days_left } } : {}),
  };
}

/**
 * Before a byte is read: the caller may write the entity, the field takes files, and the branch's quota
 * has room for what the request announces (set aside now, given back when the call is over unless the
 * file was stored).
 */
const intake = (entity: (input: { entity?: string }) => string) => ({
  async limit(ctx: Ctx, input: { entity?: string; field: string }, request: FastifyRequest): Promise<FileLimit> {
    const { upload } = uploadTarget(ctx, entity(input), input.field);
    // The whole body's length bounds the file's (a chunked body announces none).
    const length = Number(request.headers["content-length"]);
    const announced = Number.isSafeInteger(length) && length > 0;
    const wanted = announced ? Math.min(length, upload.maxBytes) : upload.maxBytes;
    const { path, bytes } = await reserve(ctx.db, ctx.principal, wanted, announced, isPrivate(upload));
    return {
      bytes,
      reserved: path,
      // Past the room set aside: the field's cap, or (a chunked body) what was left of the quota.
      tooLarge: () =>
        bytes < upload.maxBytes && !announced
          ? quotaFull()
          : uploadError(ctx.lng, "file", "uploadSize", { limit: sizeText(upload.maxBytes) }),
      release: () => uploadStore.release(ctx.db, path),
    };
  },
});

/** What each stored payment certificate holds, and how many days it has left (pay-setting-certificates). */
async function storedCertificates(ctx: Ctx, privateDir: string) {
  const model = modelOf("payment_setting");
  const row: Record<string, unknown> = { ...(await uploadStore.paymentSettings(sqlOf(ctx))) };
  const passwords = typeof row.social_wallet_mch_id === "string" ? [row.social_wallet_mch_id] : [];
  const answer = [];
  for (const [field, node] of Object.entries(model.schema.properties)) {
    const format = node["x-certificate"];
    if (!format) continue;
    const stored = typeof row[field] === "string" ? (row[field] as string) : "";
    const path = stored.startsWith("private:") ? [...stored.matchAll(UPLOAD_REF)][0]?.[1] : undefined;
    let info: CertificateInfo | null = null;
    let problem: "ok" | "missing" | "unreadable" = stored ? "ok" : "missing";
    if (stored && !path) problem = "unreadable";
    if (path) {
      const data = await readFile(join(privateDir, path)).catch(() => undefined);
      if (!data) problem = "unreadable";
      else {
        try {
          info = describeCertificate(data, format, passwords);
        } catch {
          problem = "unreadable";
        }
      }
    }
    answer.push({
      field,
      format,
      set: stored !== "",
      problem,
      info,
      days_left: info?.valid_to ? daysLeft(info.valid_to) : null,
    });
  }
  return answer;
}

export function uploads(uploadDir?: string): Area {
  let publicDir = uploadDir;
  let temporary: string | undefined;
  if (!publicDir) {
    temporary = mkdtempSync(join(tmpdir(), "merchant-uploads-"));
    publicDir = join(temporary, "uploads");
  }
  const dirs: Dirs = { publicDir, privateDir: join(dirname(publicDir), "private") };
  mkdirSync(dirs.publicDir, { recursive: true });
  mkdirSync(dirs.privateDir, { recursive: true });

  /** A private upload of payment settings by its stored address ("private:payment_setting/..."), or undefined. */
  const readPrivate = async (value: string): Promise<Buffer | undefined> => {
    const path = /^private:(payment_setting\/\d{4}-\d{2}\/[0-9a-f]{16}\.[a-z0-9]+)$/.exec(value)?.[1];
    return path ? readFile(join(dirs.privateDir, path)).catch(() => undefined) : undefined;
  };

  return defineArea({
    name: "uploads",
    hooks: { payment_setting: paymentSettingHooks(readPrivate) },
    files: {
      upload: intake((input) => input.entity ?? ""),
      "goods-image": intake(() => "goods"),
    },
    handlers: {
      upload: ({ ctx, input, file }) => store(dirs, ctx, file, input.entity, input.field),
      // The goods screens' own upload: the same rules, for goods' image fields only.
      "goods-image": ({ ctx, input, file }) => store(dirs, ctx, file, "goods", input.field),
      "pay-setting-certificates": ({ ctx }) => storedCertificates(ctx, dirs.privateDir),
    },
    setup(app: FastifyInstance, db: Db) {
      const sweep = () =>
        void sweepUploads(db, dirs).catch((error: unknown) => app.log.error(error, "sweeping uploads"));
      app.decorate("sweepUploads", () => sweepUploads(db, dirs));
      let timer: NodeJS.Timeout | undefined;
      app.addHook("onReady", async () => {
        sweep();
        timer = setInterval(sweep, SWEEP.everyHours * 3_600_000).unref();
      });
      app.addHook("onClose", async () => clearInterval(timer));
      if (temporary) {
        const folder = temporary;
        app.addHook("onClose", async () => rmSync(folder, { recursive: true, force: true }));
      }
      // Its own prefix, so that its not-found handler (placeholders, 404) owns every miss under /uploads.
      app.register(
        async (scope) => {
          await scope.register(fastifyStatic, {
            root: publicDir,
            prefix: "/",
            decorateReply: false,
            index: false,
            dotfiles: "ignore",
            // Names are random and never reused.
            maxAge: 365 * 86_400_000,
            immutable: true,
            setHeaders: (reply) => reply.headers(SAFE_HEADERS),
          });
          scope.setNotFoundHandler(missingUpload);
        },
        { prefix: "/uploads" },
      );
    },
  });
}
