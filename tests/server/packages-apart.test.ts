/**
 * The packages read apart (server/packages-apart.ts, decision 042): the built server's script holds
 * none of their code, and each group's file gives the exports the server reads from it. The paths
 * through them are exercised elsewhere on the build (mail.test.ts sends by SMTP, proposal-http.test.ts
 * signs a PDF; the browser suite pays through Stripe's fake and syncs a CalDAV calendar).
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const build = (...p: string[]) => path.join(root, "build", ...p);

it("keeps Stripe, nodemailer, SendGrid, tsdav and the PDF packages out of the server's script", () => {
  const script = fs.readFileSync(build("server.cjs"), "utf8");
  // Names each package's own code carries (kept by the bundle's keepNames), none of them the app's.
  const own = ["PDFPageLeaf", "StripeResource", "SMTPConnection", "MailService", "calendarMultiGet"];
  expect(own.filter((name) => script.includes(name))).toEqual([]);
  const apart = fs.readdirSync(build("apart")).map((f) => fs.readFileSync(build("apart", f), "utf8"));
  expect(own.filter((name) => !apart.some((file) => file.includes(name)))).toEqual([]);
  expect(fs.statSync(build("server.cjs")).size).toBeLessThan(3.6e6);
});

it("gives each package's exports from its group's file, as the server reads them", () => {
  const load = createRequire(import.meta.url);
  const group = (name: string) => load(build("apart", `${name}.cjs`)) as Record<string, Record<string, unknown>>;
  const documents = group("documents");
  expect(typeof documents["pdf-lib"].PDFDocument).toBe("function");
  expect(typeof (documents["node-forge"].pki as Record<string, unknown>).createCertificate).toBe("function");
  expect(typeof documents["@signpdf/placeholder-pdf-lib"].pdflibAddPlaceholder).toBe("function");
  expect(typeof documents["@signpdf/signer-p12"].P12Signer).toBe("function");
  expect(typeof documents["@signpdf/signpdf"].SignPdf).toBe("function");
  expect(typeof group("stripe").stripe).toBe("function");
  expect(typeof group("smtp").nodemailer.createTransport).toBe("function");
  expect(typeof group("sendgrid")["@sendgrid/client"].Client).toBe("function");
  expect(typeof group("sendgrid")["@sendgrid/mail"].send).toBe("function");
  expect(typeof group("caldav").tsdav.calendarQuery).toBe("function");
});
