// A mobile network between the browser and the server, as a TCP proxy: every byte each way waits its turn
// on a link of the given speed (one link shared by all of the browser's connections, as a phone's radio
// is) and then half the round trip. What it counts is what crossed the network: request and answer bytes
// with their headers, compressed as the server sent them, whoever asked (the page or its service worker;
// DevTools' throttling sees only the page's own requests, and not its worker's).
import { createServer, connect, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

export interface LinkProfile {
  /** Round trip, ms. */
  rttMs: number;
  /** Bytes per second towards the browser. */
  down: number;
  /** Bytes per second towards the server. */
  up: number;
}

/** DevTools' slow 4G, as issue 30 sets it: 150 ms, 1.6 Mbit/s down, 750 kbit/s up. */
export const SLOW_4G: LinkProfile = { rttMs: 150, down: 1_600_000 / 8, up: 750_000 / 8 };

/** One direction of the link: bytes leave in order, no faster than `rate`, and arrive `delay` ms later. */
class Direction {
  private freeAt = 0;
  bytes = 0;
  constructor(
    private readonly rate: number,
    private readonly delay: number,
  ) {}

  /** When a chunk sent now arrives at the far end (ms, performance.now()'s clock). */
  arrival(size: number): number {
    const now = performance.now();
    this.freeAt = Math.max(this.freeAt, now) + (size * 1000) / this.rate;
    this.bytes += size;
    return this.freeAt + this.delay;
  }
}

/**
 * A socket's bytes handed to the other side in order, each chunk at its arrival time; the first one a
 * round trip later still (`handshake`: the TCP handshake the local connection did not wait for).
 */
function carry(from: Socket, to: Socket, direction: Direction, handshake = 0): void {
  const queue: { at: number; chunk: Buffer }[] = [];
  let extra = handshake;
  let timer: NodeJS.Timeout | undefined;
  let ended = false;
  const pump = () => {
    timer = undefined;
    const now = performance.now();
    while (queue.length && queue[0].at <= now + 1) to.write(queue.shift()!.chunk);
    if (queue.length) timer = setTimeout(pump, queue[0].at - now);
    else if (ended) to.end();
  };
  from.on("data", (chunk: Buffer) => {
    queue.push({ at: direction.arrival(chunk.length) + extra, chunk });
    extra = 0;
    if (!timer) timer = setTimeout(pump, queue[0].at - performance.now());
  });
  from.on("end", () => {
    ended = true;
    if (!timer && !queue.length) to.end();
  });
  from.on("error", () => to.destroy());
  from.on("close", () => {
    if (!queue.length) to.destroy();
  });
}

export interface SlowLink {
  url: string;
  /** Bytes that crossed the link since the last reset: towards the browser, towards the server. */
  counted(): { down: number; up: number };
  reset(): void;
  close(): Promise<void>;
}

/** A proxy on a free port of 127.0.0.1 to `target` (host:port) over a link of `profile`. */
export async function slowLink(target: { host: string; port: number }, profile = SLOW_4G): Promise<SlowLink> {
  const down = new Direction(profile.down, profile.rttMs / 2);
  const up = new Direction(profile.up, profile.rttMs / 2);
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.setNoDelay(true);
    }
    carry(client, upstream, up, profile.rttMs);
    carry(upstream, client, down);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  let base = { down: 0, up: 0 };
  return {
    url: `http://127.0.0.1:${port}`,
    counted: () => ({ down: down.bytes - base.down, up: up.bytes - base.up }),
    reset: () => (base = { down: down.bytes, up: up.bytes }),
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
