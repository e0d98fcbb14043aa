import type Forge from "node-forge";

/**
 * pdf-lib, node-forge and @signpdf (about 1.5 MB of code that took some 200 ms to load) load with
 * the first document a process makes, not at every start of the server (issue 42.4's cold start):
 * each by `import()`, split into its own chunk by the build. They are CommonJS packages: Node's
 * loader puts their exports on the namespace, the bundle's interop under `default`; both are read.
 */
async function commonJs<T extends object>(loaded: Promise<T>, probe: string): Promise<T> {
  const m = await loaded;
  return probe in m ? m : (m as unknown as { default: T }).default;
}

export const pdfLib = () => commonJs(import("pdf-lib"), "PDFDocument");

export async function signPdfLibs() {
  const [placeholder, signer, signpdf] = await Promise.all([
    commonJs(import("@signpdf/placeholder-pdf-lib"), "pdflibAddPlaceholder"),
    commonJs(import("@signpdf/signer-p12"), "P12Signer"),
    commonJs(import("@signpdf/signpdf"), "SignPdf"),
  ]);
  return {
    pdflibAddPlaceholder: placeholder.pdflibAddPlaceholder,
    P12Signer: signer.P12Signer,
    SignPdf: signpdf.SignPdf,
  };
}

export async function forgeLib(): Promise<typeof Forge> {
  const m = (await import("node-forge")) as unknown as { default?: typeof Forge };
  return m.default ?? (m as unknown as typeof Forge);
}
