// Spreadsheet files built by the tests, hostile ones included: an XLSX is a ZIP of XML parts, and these
// writers take each part as raw XML, so a test builds exactly the part it means. Small files are zipped
// by fflate's zipSync; a part of hundreds of megabytes is written to disk without ever being held, as one
// deflated block repeated (each block flushed so it stands alone: the repeats form one valid deflate
// stream), in a ZIP container written here.
import { zipSync, strToU8 } from "fflate";
import { open } from "node:fs/promises";
import { constants, crc32, deflateRawSync } from "node:zlib";

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG = "http://schemas.openxmlformats.org/package/2006/relationships";

/** A worksheet part: the rows inside <sheetData>, and what comes before and after it. */
export function sheetXml(rows: string, around: { before?: string; after?: string } = {}): string {
  return `${XML}<worksheet xmlns="${MAIN}" xmlns:r="${REL}">${around.before ?? ""}<sheetData>${rows}</sheetData>${around.after ?? ""}</worksheet>`;
}

/** A shared strings part of the given <si> contents (raw XML each). */
export function sharedStringsXml(items: string[]): string {
  return `${XML}<sst xmlns="${MAIN}" count="${items.length}" uniqueCount="${items.length}">${items.map((i) => `<si>${i}</si>`).join("")}</sst>`;
}

/** A styles part: custom number formats, and cell formats (s="0", s="1", ...) by number format id. */
export function stylesXml(numFmts: Record<number, string>, cellFormats: number[]): string {
  const fmts = Object.entries(numFmts)
    .map(([id, code]) => `<numFmt numFmtId="${id}" formatCode="${code.replace(/"/g, "&quot;")}"/>`)
    .join("");
  const xfs = cellFormats.map((id) => `<xf numFmtId="${id}" fontId="0" fillId="0" borderId="0" xfId="0"/>`).join("");
  return `${XML}<styleSheet xmlns="${MAIN}"><numFmts count="${Object.keys(numFmts).length}">${fmts}</numFmts><fonts count="1"><font/></fonts><fills count="1"><fill/></fills><borders count="1"><border/></borders><cellStyleXfs count="1"><xf numFmtId="0"/></cellStyleXfs><cellXfs count="${cellFormats.length}">${xfs}</cellXfs></styleSheet>`;
}

/**
 * The parts of a workbook whose sheets are the given worksheet parts, in order (the first one is
 * "xl/worksheets/sheet1.xml" unless `names` says otherwise); `extra` adds or replaces parts.
 */
export function workbookParts(
  sheets: string[],
  extra: Record<string, string> = {},
  options: { names?: string[]; date1904?: boolean } = {},
): Record<string, string> {
  const names = options.names ?? sheets.map((_, i) => `worksheets/sheet${i + 1}.xml`);
  const parts: Record<string, string> = {
    "[Content_Types].xml": `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/></Types>`,
    "_rels/.rels": `${XML}<Relationships xmlns="${PKG}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    "xl/workbook.xml": `${XML}<workbook xmlns="${MAIN}" xmlns:r="${REL}">${options.date1904 ? '<workbookPr date1904="1"/>' : ""}<sheets>${sheets.map((_, i) => `<sheet name="Sheet${i + 1}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join("")}</sheets></workbook>`,
    "xl/_rels/workbook.xml.rels": `${XML}<Relationships xmlns="${PKG}">${names.map((name, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="${name}"/>`).join("")}<Relationship Id="rIdS" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="rIdY" Type="${REL}/styles" Target="styles.xml"/></Relationships>`,
  };
  sheets.forEach((sheet, i) => (parts[`xl/${names[i]}`] = sheet));
  return { ...parts, ...extra };
}

/** An XLSX (a ZIP) of the parts as they are. */
export function xlsx(parts: Record<string, string | Uint8Array>): Buffer {
  const files = Object.fromEntries(
    Object.entries(parts).map(([name, data]) => [name, typeof data === "string" ? strToU8(data) : data]),
  );
  return Buffer.from(zipSync(files));
}

/** Rewrites the uncompressed size a ZIP declares for one entry, in its central directory and local header. */
export function withDeclaredSize(zip: Buffer, name: string, size: number): Buffer {
  const out = Buffer.from(zip);
  const end = out.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let at = out.readUInt32LE(end + 16);
  for (let i = 0; i < out.readUInt16LE(end + 10); i++) {
    const nameLength = out.readUInt16LE(at + 28);
    const entryName = out.toString("utf8", at + 46, at + 46 + nameLength);
    if (entryName === name) {
      out.writeUInt32LE(size, at + 24);
      out.writeUInt32LE(size, out.readUInt32LE(at + 42) + 22);
      return out;
    }
    at += 46 + nameLength + out.readUInt16LE(at + 30) + out.readUInt16LE(at + 32);
  }
  throw new Error(`no entry ${name}`);
}

/** A part written as its head, then `repeat` `times` times, then its tail. */
export interface RepeatedPart {
  name: string;
  head: string;
  repeat: string;
  times: number;
  tail: string;
}

/**
 * Writes an XLSX of the small parts and one large part to a file, deflating the large part's repeated
 * text once (about 1 MB of it, flushed) and writing that block again and again: a part of gigabytes is
 * written in a second and never held. Answers the file's size and the large part's inflated size.
 */
export async function writeRepeatedXlsx(
  file: string,
  parts: Record<string, string>,
  big: RepeatedPart,
): Promise<{ fileBytes: number; partBytes: number }> {
  const handle = await open(file, "w");
  const central: Buffer[] = [];
  let offset = 0;
  const write = async (data: Buffer) => {
    await handle.write(data);
    offset += data.length;
  };
  const entry = async (name: string, size: number, crc: number, blocks: () => AsyncIterable<Buffer> | Buffer[]) => {
    const nameBytes = Buffer.from(name, "utf8");
    const start = offset;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflated
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    await write(local);
    await write(nameBytes);
    let compressed = 0;
    for await (const block of blocks()) {
      await write(block);
      compressed += block.length;
    }
    // The compressed size is known only now: written into the local header afterwards.
    const size32 = Buffer.alloc(4);
    size32.writeUInt32LE(compressed);
    await handle.write(size32, 0, 4, start + 18);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(0x0800, 8);
    header.writeUInt16LE(8, 10);
    header.writeUInt32LE(crc, 16);
    header.writeUInt32LE(compressed, 20);
    header.writeUInt32LE(size, 24);
    header.writeUInt16LE(nameBytes.length, 28);
    header.writeUInt32LE(start, 42);
    central.push(header, nameBytes);
  };
  try {
    for (const [name, text] of Object.entries(parts)) {
      const data = Buffer.from(text, "utf8");
      await entry(name, data.length, crc32(data), () => [deflateRawSync(data)]);
    }
    const head = Buffer.from(big.head, "utf8");
    const tail = Buffer.from(big.tail, "utf8");
    const perBlock = Math.max(1, Math.floor((1024 * 1024) / Buffer.byteLength(big.repeat)));
    const block = Buffer.from(big.repeat.repeat(Math.min(perBlock, big.times)), "utf8");
    const blocks = Math.floor(big.times / Math.min(perBlock, big.times));
    const rest = Buffer.from(big.repeat.repeat(big.times - blocks * Math.min(perBlock, big.times)), "utf8");
    const flushed = (data: Buffer) => deflateRawSync(data, { finishFlush: constants.Z_FULL_FLUSH });
    let crc = crc32(head);
    for (let i = 0; i < blocks; i++) crc = crc32(block, crc);
    crc = crc32(tail, crc32(rest, crc));
    const size = head.length + block.length * blocks + rest.length + tail.length;
    if (size > 0xffffffff) throw new Error("a part of 4 GB or more needs ZIP64");
    const deflatedBlock = flushed(block);
    await entry(big.name, size, crc, async function* () {
      yield flushed(head);
      for (let i = 0; i < blocks; i++) yield deflatedBlock;
      yield flushed(rest);
      yield deflateRawSync(tail);
    });
    const directory = Buffer.concat(central);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(central.length / 2, 8);
    end.writeUInt16LE(central.length / 2, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(offset, 16);
    await write(directory);
    await write(end);
    return { fileBytes: offset, partBytes: size };
  } finally {
    await handle.close();
  }
}

/** A file of `head`, then `repeat` until the file holds about `bytes`, then `tail`, written in 1 MB pieces. */
export async function writeRepeatedText(
  file: string,
  head: string,
  repeat: string,
  bytes: number,
  tail: string,
): Promise<void> {
  const handle = await open(file, "w");
  try {
    await handle.write(head);
    const piece = Buffer.from(repeat.repeat(Math.ceil((1024 * 1024) / repeat.length)));
    for (let written = 0; written < bytes; written += piece.length) await handle.write(piece);
    await handle.write(tail);
  } finally {
    await handle.close();
  }
}
