// What an uploaded payment certificate or key is, read from its bytes: the field's x-certificate says which
// kind it must be (an X.509 certificate, a private key, a PKCS#12 bundle), and a file of another kind is
// refused. The description (subject, issuer, SHA-256 fingerprint, validity) is what the payment settings
// screen shows; the file itself never leaves the server.
import { createHash, createPrivateKey, createPublicKey, X509Certificate } from "node:crypto";
import forge from "node-forge";
import type { PaySettingCertificatesAnswer } from "../../../src/generated/types.ts";

/** What the payment settings screen shows of a certificate or key: pay-setting-certificates' answer declares it. */
export type CertificateInfo = NonNullable<PaySettingCertificatesAnswer[number]["info"]>;
export type CertificateFormat = CertificateInfo["format"];

/** Thrown when the bytes are not of the expected kind. */
export class NotACertificate extends Error {}

const colonHex = (digest: Buffer) => [...digest].map((b) => b.toString(16).padStart(2, "0").toUpperCase()).join(":");

function describeX509(cert: X509Certificate): CertificateInfo {
  return {
    format: "x509",
    subject: cert.subject,
    issuer: cert.issuer,
    fingerprint: cert.fingerprint256,
    valid_from: new Date(cert.validFrom).toISOString(),
    valid_to: new Date(cert.validTo).toISOString(),
  };
}

function describeKey(data: Buffer): CertificateInfo {
  const key = createPrivateKey(
    data.toString("latin1").includes("-----BEGIN") ? data : { key: data, format: "der", type: "pkcs8" },
  );
  const spki = createPublicKey(key).export({ type: "spki", format: "der" });
  const details = key.asymmetricKeyDetails;
  const size = details?.modulusLength ?? details?.namedCurve;
  return {
    format: "private-key",
    fingerprint: colonHex(createHash("sha256").update(spki).digest()),
    key: [key.asymmetricKeyType?.toUpperCase(), size].filter(Boolean).join(" "),
  };
}

/** A PKCS#12 bundle, opened with each password given in turn (the merchant id is the wallets' default). */
function describePkcs12(data: Buffer, passwords: string[]): CertificateInfo {
  let asn1: forge.asn1.Asn1;
  try {
    asn1 = forge.asn1.fromDer(forge.util.createBuffer(data.toString("binary")));
  } catch {
    throw new NotACertificate();
  }
  for (const password of passwords) {
    try {
      const p12 = forge.pkcs12.pkcs12FromAsn1(asn1, password);
      const bag = p12.getBags({ bagType: forge.pki.oids.certBag })[forge.pki.oids.certBag]?.[0];
      if (!bag?.cert) continue;
      const der = Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(bag.cert)).getBytes(), "binary");
      return { ...describeX509(new X509Certificate(der)), format: "pkcs12" };
    } catch {
      // Not this password (or not a bundle at all: decided below).
    }
  }
  // Still a PKCS#12 bundle when it has the PFX shape (version 3, content info), only locked.
  const [version] = (asn1.value as forge.asn1.Asn1[]) ?? [];
  if (asn1.tagClass === forge.asn1.Class.UNIVERSAL && version && forge.asn1.derToInteger(version.value as string) === 3)
    return { format: "pkcs12", fingerprint: colonHex(createHash("sha256").update(data).digest()), locked: true };
  throw new NotACertificate();
}

/** Describes the bytes as the expected kind, or throws NotACertificate. */
export function describeCertificate(
  data: Buffer,
  format: CertificateFormat,
  passwords: string[] = [],
): CertificateInfo {
  try {
    if (format === "x509") return describeX509(new X509Certificate(data));
    if (format === "private-key") return describeKey(data);
    return describePkcs12(data, ["", ...passwords]);
  } catch (error) {
    if (error instanceof NotACertificate) throw error;
    throw new NotACertificate((error as Error).message);
  }
}

/** Whole days from now until the certificate expires (negative once it has). */
export const daysLeft = (validTo: string, now = Date.now()): number =>
  Math.floor((Date.parse(validTo) - now) / 86_400_000);
