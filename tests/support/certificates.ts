// Real certificates and keys made in the test (node-forge): a self-signed X.509 certificate valid for a
// given number of days, its RSA key, and both in a PKCS#12 bundle locked with a password.
import forge from "node-forge";

export interface TestCertificate {
  certPem: string;
  keyPem: string;
  /** The certificate's DER bytes (what its SHA-256 fingerprint is taken over). */
  certDer: Buffer;
  p12(password: string): Buffer;
}

export function makeCertificate(commonName: string, days: number): TestCertificate {
  const keys = forge.pki.rsa.generateKeyPair(2048);
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = "01";
  cert.validity.notBefore = new Date(Date.now() - 86_400_000);
  cert.validity.notAfter = new Date(Date.now() + days * 86_400_000);
  const attrs = [
    { name: "commonName", value: commonName },
    { name: "organizationName", value: "Mekong Test Pay" },
  ];
  cert.setSubject(attrs);
  cert.setIssuer(attrs);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  return {
    certPem: forge.pki.certificateToPem(cert),
    keyPem: forge.pki.privateKeyToPem(keys.privateKey),
    certDer: Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), "binary"),
    p12: (password) =>
      Buffer.from(
        forge.asn1
          .toDer(forge.pkcs12.toPkcs12Asn1(keys.privateKey, [cert], password, { algorithm: "3des" }))
          .getBytes(),
        "binary",
      ),
  };
}
