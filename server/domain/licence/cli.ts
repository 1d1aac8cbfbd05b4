// The vendor's tool, run on the vendor's machine with the vendor's private key (never in this repository):
//   npm run licence -- --private-key <pem file> --installation <id> --key <secret key> --until <YYYY-MM-DD> [--to <licensee>]
//     prints a serial number (VMS2) for the installation whose id the customer sent (checksn, the licence
//     screen or the expired page shows it) and the secret key issued with the system, licensed until the
//     end of that day (UTC);
//   npm run licence -- --new-key-pair <dir>
//     makes a vendor key pair in <dir> (outside the repository): licence-private-key.pem (mode 600) and
//     licence-public-key.pem, whose text goes into vendor-key.ts.
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { parseArgs } from "node:util";
import { ROOT } from "../../core/root.ts";
import { issueSerial, keyFingerprint, publicKeys } from "./serial.ts";
import { VENDOR_PUBLIC_KEYS } from "./vendor-key.ts";

const USAGE = `usage: npm run licence -- --private-key <pem file> --installation <id> --key <secret key> --until <YYYY-MM-DD> [--to <licensee>]
       npm run licence -- --new-key-pair <dir>`;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

const { values } = parseArgs({
  options: {
    "private-key": { type: "string" },
    installation: { type: "string" },
    key: { type: "string" },
    until: { type: "string" },
    to: { type: "string", default: "Licensee" },
    "new-key-pair": { type: "string" },
  },
});

/** Where a path leads, symbolic links followed, though its last folders are not made yet. */
function realPath(path: string): string {
  if (existsSync(path)) return realpathSync(path);
  const parent = dirname(path);
  return parent === path ? path : join(realPath(parent), basename(path));
}

/** A private key kept inside the project's folder would end up in a commit: refused, before anything is made. */
function outsideTheRepository(dir: string): string {
  const within = relative(realpathSync(ROOT), realPath(resolve(dir)));
  if (!(within === ".." || within.startsWith(`..${sep}`) || isAbsolute(within)))
    fail(`${dir} is inside the project's folder: keep the vendor's private key out of the repository`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return realpathSync(dir);
}

const pem = (key: KeyObject) => key.export({ type: key.type === "private" ? "pkcs8" : "spki", format: "pem" });

if (values["new-key-pair"] !== undefined) {
  const dir = outsideTheRepository(values["new-key-pair"]);
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const [privateFile, publicFile] = [join(dir, "licence-private-key.pem"), join(dir, "licence-public-key.pem")];
  // An existing key pair is never overwritten.
  for (const file of [privateFile, publicFile])
    if (existsSync(file)) fail(`${file} exists: a key pair is never overwritten`);
  writeFileSync(privateFile, pem(privateKey), { mode: 0o600, flag: "wx" });
  writeFileSync(publicFile, pem(publicKey), { flag: "wx" });
  console.log(`private key: ${privateFile} (keep it secret, outside any repository)`);
  console.log(`public key (for server/domain/licence/vendor-key.ts):\n${String(pem(publicKey))}`);
  process.exit(0);
}

const { installation, key, to } = values;
if (!values["private-key"] || !installation || !key || !values.until) fail(USAGE);
if (!/^\d{4}-\d{2}-\d{2}$/.test(values.until)) fail(`--until: a day as YYYY-MM-DD, got "${values.until}"`);
const until = Date.parse(`${values.until}T23:59:59Z`);
if (Number.isNaN(until)) fail(`--until: not a day: "${values.until}"`);
if (until <= Date.now()) fail(`--until: ${values.until} has passed`);
// As saveSecretKey takes it (schemas/operations/saveSecretKey.json): a key it refuses could never be saved.
if (!/^\S{16,200}$/.test(key)) fail("--key: the secret key is 16 to 200 characters without spaces");

let privateKey: KeyObject;
try {
  privateKey = createPrivateKey(readFileSync(values["private-key"]));
} catch (error) {
  fail(
    `--private-key: no private key in ${values["private-key"]} (${error instanceof Error ? error.message : String(error)})`,
  );
}
if (privateKey.asymmetricKeyType !== "ed25519") fail("--private-key: not an Ed25519 private key");
const own = createPublicKey(privateKey).export({ type: "spki", format: "der" });
if (!publicKeys(VENDOR_PUBLIC_KEYS).some((k) => k.export({ type: "spki", format: "der" }).equals(own)))
  console.error("warning: this private key's public half is not built into this version: it will refuse the serial");

console.log(
  issueSerial(privateKey, {
    licensee: to!,
    valid_until: new Date(until).toISOString(),
    installation,
    key_sha256: keyFingerprint(key),
  }),
);
