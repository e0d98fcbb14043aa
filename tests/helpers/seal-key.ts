import { makeSealKey, type SealKey } from "../../server/documents/seal.server";
import type { DB } from "../../server/db/db.server";

/**
 * A studio's sealing key made once per test file and written into each fresh database that signs:
 * an RSA key takes about half a second here, which a file of signing tests would otherwise spend
 * per test. A studio makes its own on first use (tests/server/proposal-http.test.ts signs on a data folder without one;
 * documents-pdf.test.ts makes keys itself).
 */
let kept: SealKey | null = null;

export async function withSealKey(db: DB): Promise<void> {
  kept ??= await makeSealKey("Studio Rowan");
  await db
    .insertInto("studio_flags")
    .values({
      key: "document_seal_key",
      value: JSON.stringify({
        p12: kept.p12.toString("base64"),
        passphrase: kept.passphrase,
        certificatePem: kept.certificatePem,
      }),
    })
    .onConflict((oc) => oc.column("key").doNothing())
    .execute();
}
