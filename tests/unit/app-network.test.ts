// @vitest-environment jsdom
// src/app/network.ts and the API client's use of it (src/app/api.ts): offline from the browser's events or
// a call the network failed, online again with the `online` event or the next answer; every write sent with
// an Idempotency-Key, the same one for the same write sent again after the network failed it (and after a
// gateway's 5xx), a new one once it was answered; the writes kept by their forms, offered again in turn.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { api, ApiError, notSent } from "../../src/app/api.ts";
import {
  isOnline,
  keepWrite,
  keyFor,
  newIdempotencyKey,
  reportReached,
  resendKept,
  settleKey,
} from "../../src/app/network.ts";
import { clearSession } from "../../src/app/session.ts";
import { IDEMPOTENCY_KEY_FORMAT as KEY_FORMAT } from "../../src/schema/idempotency.ts";
import { setupI18n, signIn } from "./dom-setup.ts";

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
}

let sent: Sent[] = [];
/** What the stubbed network does with the next requests: answer with a status, or fail. */
let network: { fail: false; status: number } | { fail: true } = { fail: false, status: 200 };

beforeAll(async () => {
  await setupI18n(["common"]);
});

beforeEach(() => {
  signIn();
  sent = [];
  network = { fail: false, status: 200 };
  reportReached(true);
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit = {}) => {
      sent.push({ url, method: init.method ?? "GET", headers: init.headers as Record<string, string> });
      if (network.fail) throw new TypeError("Failed to fetch");
      const { status } = network;
      const body = status === 200 ? { code: 200, message: "ok", data: { id: 1 } } : { code: status, message: "x" };
      return new Response(JSON.stringify(body), { status });
    }),
  );
});

afterAll(() => clearSession());

const keyOf = (request: Sent) => request.headers["Idempotency-Key"];
const restock = (quantity: number) =>
  api("machine-replenishment-goods", { method: "POST", body: { id: 7, lanes: [{ channel_id: 3, quantity }] } });

describe("online and offline", () => {
  it("follows the browser's events", () => {
    window.dispatchEvent(new Event("offline"));
    expect(isOnline()).toBe(false);
    window.dispatchEvent(new Event("online"));
    expect(isOnline()).toBe(true);
  });

  it("is offline once a call fails for the network, and online with the next answer", async () => {
    network = { fail: true };
    const failure = await api("goods-list").catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).statusCode).toBe(0);
    expect(notSent(failure)).toBe(true);
    expect(isOnline()).toBe(false);
    network = { fail: false, status: 404 };
    const refused = await api("goods-list").catch((error: unknown) => error);
    expect(notSent(refused)).toBe(false);
    expect(isOnline()).toBe(true);
  });
});

describe("Idempotency-Key", () => {
  it("is sent with every write, a new one for each write answered, never with a read", async () => {
    await restock(2);
    await restock(2);
    await api("goods-list");
    await api("machine-replenishment-check", { method: "POST", body: { id: 7 }, reads: true });
    const [first, second, list, check] = sent;
    expect(keyOf(first)).toMatch(KEY_FORMAT);
    expect(keyOf(second)).toMatch(KEY_FORMAT);
    expect(keyOf(second)).not.toBe(keyOf(first));
    expect(keyOf(list)).toBeUndefined();
    expect(keyOf(check)).toBeUndefined();
  });

  it("is the same when the same write is sent again after the network failed it, until it is answered", async () => {
    network = { fail: true };
    await expect(restock(2)).rejects.toThrow(ApiError);
    await expect(restock(2)).rejects.toThrow(ApiError);
    // Another write meanwhile (another quantity) is another request: its own key.
    await expect(restock(3)).rejects.toThrow(ApiError);
    network = { fail: false, status: 200 };
    await restock(2);
    await restock(2);
    const keys = sent.map(keyOf);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
    expect(keys[3]).toBe(keys[0]);
    // Answered: the same restock again is a new one.
    expect(keys[4]).not.toBe(keys[0]);
  });

  it("stays after a gateway's 5xx (the server may have answered), goes after a refusal", async () => {
    network = { fail: false, status: 504 };
    await expect(restock(4)).rejects.toThrow(ApiError);
    network = { fail: false, status: 400 };
    await expect(restock(4)).rejects.toThrow(ApiError);
    network = { fail: false, status: 200 };
    await restock(4);
    const keys = sent.map(keyOf);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
  });

  it("is not sent by a signed-out sign-in", async () => {
    clearSession();
    await api("login", { method: "POST", body: { account: "a", password: "b" } });
    expect(keyOf(sent[0])).toBeUndefined();
  });

  it("kept for a day at most, and for the last hundred writes", () => {
    const now = Date.UTC(2026, 10, 30);
    settleKey("write A", "key-of-write-A-000000", false, now);
    expect(keyFor("write A", now + 22 * 3600_000)).toBe("key-of-write-A-000000");
    expect(keyFor("write A", now + 24 * 3600_000)).not.toBe("key-of-write-A-000000");
    for (let i = 0; i < 100; i++) settleKey(`other write ${i}`, `key-${i}`, false, now);
    expect(keyFor("write A", now)).not.toBe("key-of-write-A-000000");
    expect(keyFor("other write 99", now)).toBe("key-99");
    settleKey("other write 99", "key-99", true, now);
    expect(keyFor("other write 99", now)).not.toBe("key-99");
  });

  it("is 128 random bits the server takes", () => {
    const keys = new Set(Array.from({ length: 50 }, newIdempotencyKey));
    expect(keys.size).toBe(50);
    for (const key of keys) {
      expect(key).toMatch(KEY_FORMAT);
      expect(key).toHaveLength(22);
    }
  });
});

describe("kept writes", () => {
  it("are sent again in turn, and forgotten once their forms let go", async () => {
    const order: string[] = [];
    const dropA = keepWrite(async () => {
      await Promise.resolve();
      order.push("A");
    });
    const dropB = keepWrite(() => order.push("B"));
    await resendKept();
    expect(order).toEqual(["A", "B"]);
    dropA();
    dropA();
    await resendKept();
    expect(order).toEqual(["A", "B", "B"]);
    dropB();
    await resendKept();
    expect(order).toEqual(["A", "B", "B"]);
  });
});
