// One API server in a process of its own, on the PostgreSQL schema a test prepared (DATABASE_URL,
// TEST_SCHEMA): tests/api/multi-process.test.ts runs two of these on one database. Prints its base URL.
import { openPostgres } from "../../server/db/db.ts";
import { createPublicKey } from "node:crypto";
import { buildApp } from "../../server/app.ts";

const url = process.env.DATABASE_URL;
const schema = process.env.TEST_SCHEMA;
if (!url || !schema) throw new Error("DATABASE_URL and TEST_SCHEMA are needed");
const db = await openPostgres(url, schema);
// A vendor key of the test's own (TEST_LICENCE_KEY, a public key's PEM) for the licence's serial numbers.
const licenceKey = process.env.TEST_LICENCE_KEY;
const app = await buildApp({ db, ...(licenceKey ? { licenceKeys: [createPublicKey(licenceKey)] } : {}) });
await app.listen({ port: 0, host: "127.0.0.1" });
const address = app.server.address();
if (!address || typeof address === "string") throw new Error("not listening on a port");
console.log(JSON.stringify({ base: `http://127.0.0.1:${address.port}` }));
process.on("SIGTERM", () => {
  void app.close().then(() => db.close().then(() => process.exit(0)));
});
