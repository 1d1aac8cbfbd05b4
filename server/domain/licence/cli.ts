// npm run licence -- --key <secret key> --until <YYYY-MM-DD> [--to <licensee>]
// The vendor's side of the serial service: prints a serial number signed with the key, for the licence
// screen (System upgrade) or the expired page. The demo's key is DEMO_SECRET_KEY (DESIGN.md section 6).
import { parseArgs } from "node:util";
import { issueSerial } from "./serial.ts";

const { values } = parseArgs({
  options: { key: { type: "string" }, until: { type: "string" }, to: { type: "string", default: "Licensee" } },
});
const until = values.until ? Date.parse(`${values.until}T23:59:59Z`) : NaN;
if (!values.key || Number.isNaN(until)) {
  console.error("usage: npm run licence -- --key <secret key> --until <YYYY-MM-DD> [--to <licensee>]");
  process.exit(2);
}
console.log(issueSerial(values.key, { licensee: values.to!, valid_until: new Date(until).toISOString() }));
