/**
 * The studio's seal on signed documents (issue 44): a PKCS#7 detached signature over the whole PDF
 * with the studio's own self-signed key, so any later change to the file shows in a PDF reader
 * ("Digest Mismatch" in pdfsig). It proves the file is the one the studio sealed, not who the
 * studio is: the certificate is not issued by a trusted authority.
 */
import { forgeLib, pdfLib, signPdfLibs } from "./packages";
import { createHash, generateKeyPairSync, randomBytes } from "node:crypto";
import type forgeTypes from "node-forge";
import { winAnsiSafe } from "./pdf-text";

/** Serialisable: the caller stores `p12` as base64 beside its passphrase. */
export type SealKey = { p12: Buffer; passphrase: string; certificatePem: string };

const TEN_YEARS_MS = 10 * 365.25 * 24 * 3600 * 1000;

/**
 * A new RSA-2048 key (node:crypto: forge's pure-JS key generation takes seconds) and a self-signed
 * certificate for ten years, packed as PKCS#12 under a random passphrase.
 */
export async function makeSealKey(commonName: string): Promise<SealKey> {
  const forge = await forgeLib();
  const { privateKey: pem } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  });
  const key = forge.pki.privateKeyFromPem(pem) as forgeTypes.pki.rsa.PrivateKey;
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  // A positive serial: a leading 01 keeps the top bit clear.
  cert.serialNumber = `01${randomBytes(15).toString("hex")}`;
  const now = new Date();
  cert.validity.notBefore = new Date(now.getTime() - 60_000);
  cert.validity.notAfter = new Date(now.getTime() + TEN_YEARS_MS);
  // UTF-8 rather than forge's default PrintableString, which cannot hold "&". ASCII only: forge
  // encodes a parsed non-ASCII name twice when it signs, and the signature then names an issuer
  // that is not the certificate's (pdfsig: "Unknown Validation Failure").
  const utf8 = forge.asn1.Type.UTF8 as unknown as forgeTypes.asn1.Class;
  const ascii = asciiText(commonName).slice(0, 64) || "Studio";
  const name = [
    { name: "commonName", value: ascii, valueTagClass: utf8 },
    { name: "organizationName", value: ascii, valueTagClass: utf8 },
  ];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.setExtensions([
    { name: "basicConstraints", cA: false },
    { name: "keyUsage", digitalSignature: true, nonRepudiation: true },
    { name: "extKeyUsage", emailProtection: true },
    { name: "subjectKeyIdentifier" },
  ]);
  cert.sign(key, forge.md.sha256.create());
  const passphrase = randomBytes(24).toString("base64url");
  const p12 = forge.pkcs12.toPkcs12Asn1(key, [cert], passphrase, { algorithm: "aes256", friendlyName: ascii });
  return {
    p12: Buffer.from(forge.asn1.toDer(p12).getBytes(), "binary"),
    passphrase,
    certificatePem: forge.pki.certificateToPem(cert),
  };
}

const ASCII_LETTERS: Record<string, string> = {
  ß: "ss",
  Æ: "AE",
  æ: "ae",
  Ø: "O",
  ø: "o",
  Œ: "OE",
  œ: "oe",
  "\u2026": "...",
};

/** Printable ASCII on one line: accents dropped, typographic quotes and dashes plain, anything else "?". */
function asciiText(text: string): string {
  return winAnsiSafe(text)
    .replace(/\s+/g, " ")
    .replace(/[\u00DF\u00C6\u00E6\u00D8\u00F8\u0152\u0153\u2026]/g, (c) => ASCII_LETTERS[c])
    .replace(/[\u2018\u2019\u201A\u2039\u203A]/g, "'")
    .replace(/[\u201C\u201D\u201E]/g, '"')
    .replace(/[\u2013\u2014]/g, "-")
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/[^\x20-\x7e]/g, "?")
    .trim();
}

/**
 * A string for the signature dictionary: pdf-lib writes it as a literal string byte for byte,
 * without escaping, so it is kept to printable ASCII and its parentheses and backslashes escaped.
 */
const literal = (text: string) => asciiText(text).replace(/[\\()]/g, (c) => `\\${c}`);

/**
 * Adds an invisible signature field and signs the whole file with `key` at `signingTime`. The
 * placeholder holds 8 KB, several times what an RSA-2048 signature with its certificate takes.
 */
export async function sealPdf(
  pdf: Uint8Array,
  key: SealKey,
  info: { reason: string; name: string; location: string; contactInfo: string; signingTime: Date },
): Promise<Buffer> {
  const [{ PDFDocument }, { pdflibAddPlaceholder, P12Signer, SignPdf }] = await Promise.all([pdfLib(), signPdfLibs()]);
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  pdflibAddPlaceholder({
    pdfDoc: doc,
    reason: literal(info.reason),
    name: literal(info.name),
    location: literal(info.location),
    contactInfo: literal(info.contactInfo),
    signingTime: info.signingTime,
    appName: "Studio",
  });
  // Without object streams, so the signature dictionary sits in the file where signpdf finds it.
  const prepared = Buffer.from(await doc.save({ useObjectStreams: false }));
  const signer = new P12Signer(key.p12, { passphrase: key.passphrase });
  return new SignPdf().sign(prepared, signer, info.signingTime);
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}
