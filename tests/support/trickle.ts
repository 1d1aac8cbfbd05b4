// Clients that send slowly or read slowly, over raw sockets (inject cannot hold a request open): a
// multipart upload that announces a body and sends only its start, and a download that stops reading.
import { connect, type Socket } from "node:net";

export interface RawAnswer {
  status: number;
  body: { code: number; message: string; data: unknown };
}

/** The status and JSON body of a raw HTTP answer (content-length framed, as Fastify sends JSON). */
export function parseAnswer(raw: string): RawAnswer | undefined {
  const end = raw.indexOf("\r\n\r\n");
  if (end < 0) return undefined;
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1]);
  const length = Number(/\r\ncontent-length: (\d+)/i.exec(raw.slice(0, end))?.[1] ?? NaN);
  const body = raw.slice(end + 4);
  if (!Number.isFinite(length) || Buffer.byteLength(body) < length) return undefined;
  return { status, body: JSON.parse(body) as RawAnswer["body"] };
}

export interface HeldRequest {
  socket: Socket;
  /** The answer, once it has come whole (while the rest of the body is still unsent). */
  answer: Promise<RawAnswer>;
  close(): void;
}

const BOUNDARY = "----trickle7MA4YWxkTrZu0gW";

/**
 * Starts a multipart POST of one file part that announces `announce` bytes of file and sends only the
 * first `send` (a PNG signature, then zeros), then holds the connection open without sending more.
 */
export function holdUpload(
  base: string,
  token: string,
  options: { path?: string; announce: number; send: number; lng?: string; filename?: string },
): HeldRequest {
  const { port } = new URL(base);
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${options.filename ?? "a.png"}"\r\n` +
      `Content-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  const length = head.length + options.announce + tail.length;
  const socket = connect(Number(port), "127.0.0.1");
  let raw = "";
  const answer = new Promise<RawAnswer>((resolve, reject) => {
    socket.on("data", (chunk: Buffer) => {
      raw += chunk.toString("utf8");
      const parsed = parseAnswer(raw);
      if (parsed) resolve(parsed);
    });
    socket.on("error", reject);
    socket.on("close", () => reject(new Error(`closed without a whole answer: ${raw.slice(0, 300)}`)));
  });
  answer.catch(() => undefined); // a held request closed by the test is not a failure
  socket.on("connect", () => {
    socket.write(
      `POST ${options.path ?? "/merchant/upload?entity=goods&field=pic_url"} HTTP/1.1\r\nhost: 127.0.0.1\r\n` +
        `authorization: Bearer ${token}\r\nlocale: ${options.lng ?? "en"}\r\n` +
        `content-type: multipart/form-data; boundary=${BOUNDARY}\r\ncontent-length: ${length}\r\n\r\n`,
    );
    const start = Buffer.alloc(Math.min(options.send, options.announce));
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(start);
    socket.write(Buffer.concat([head, start]));
  });
  return { socket, answer, close: () => socket.destroy() };
}

/** An upload that sends only its start and waits for the server's answer (which must not need the rest). */
export async function trickleUpload(
  base: string,
  token: string,
  options: { path?: string; announce: number; send: number; lng?: string },
): Promise<RawAnswer> {
  const held = holdUpload(base, token, options);
  try {
    return await held.answer;
  } finally {
    held.close();
  }
}

/**
 * Starts a GET whose client stops reading once the answer's first bytes have come: the server can send
 * only what the socket buffers hold. Resolves with the status once the headers are in.
 */
export function stallDownload(base: string, path: string, token: string): Promise<{ status: number; socket: Socket }> {
  const { port } = new URL(base);
  const socket = connect(Number(port), "127.0.0.1");
  return new Promise((resolve, reject) => {
    let raw = "";
    const onData = (chunk: Buffer) => {
      raw += chunk.toString("latin1");
      if (!raw.includes("\r\n\r\n")) return;
      socket.off("data", onData);
      socket.pause();
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1]), socket });
    };
    socket.on("data", onData);
    socket.on("error", reject);
    socket.on("connect", () =>
      socket.write(`GET ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${token}\r\nlocale: en\r\n\r\n`),
    );
  });
}
