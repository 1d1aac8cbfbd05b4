// An API server in a process of its own for the bench's file figures (files.ts): a fresh in-memory
// database with the test accounts, listening on a free loopback port. Prints its base URL and tokens.
import { createTestApp } from "../api/helper.ts";

process.env.SCRYPT_N ??= "1024";
const t = await createTestApp();
await t.app.listen({ port: 0, host: "127.0.0.1" });
const address = t.app.server.address();
if (!address || typeof address === "string") throw new Error("not listening on a port");
const tokens: Record<string, string> = {};
for (const account of ["admin", "agent_a", "agent_b"]) tokens[account] = (await t.as(account)).token;
console.log(JSON.stringify({ base: `http://127.0.0.1:${address.port}`, tokens }));
process.on("SIGTERM", () => void t.close().then(() => process.exit(0)));
