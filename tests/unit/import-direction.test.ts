import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// Decision 023: imports go one way, app/ -> server/ -> server/domain. The lint rule is what keeps
// it so; this proves the rule refuses each wrong direction (and lets the right ones through).
const eslint = new ESLint();

async function refusals(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId?.endsWith("no-restricted-imports")).map((m) => m.message);
}

describe("imports go one way", () => {
  it("server/ never imports app/, by alias or by path", async () => {
    const found = await refusals(
      "server/shop/example.server.ts",
      'import { a } from "~/lib/seo";\nimport { b } from "../../app/lib/seo";\nexport const c = [a, b];\n',
    );
    expect(found).toHaveLength(2);
    expect(found[0]).toContain("server/ imports nothing from app/");
  });

  it("services never import the web layer or Remix", async () => {
    const found = await refusals(
      "server/booking/example.server.ts",
      'import { a } from "../http/domain-errors";\nimport { redirect } from "@remix-run/node";\nexport const c = [a, redirect];\n',
    );
    expect(found).toHaveLength(2);
  });

  it("the domain imports only itself and zod", async () => {
    const found = await refusals(
      "server/domain/example.ts",
      'import fs from "node:fs";\nimport { db } from "../db/db.server";\nimport { z } from "zod";\nimport { cents } from "./money";\nexport const c = [fs, db, z, cents];\n',
    );
    expect(found).toHaveLength(2);
    expect(found[0]).toContain("server/domain imports only itself and zod");
  });

  it("the server's rooms form layers: no import runs back up (issue 41.2)", async () => {
    // Each line an import that runs up a layer, or across between shop and booking.
    const upward: [string, string][] = [
      ["server/db/example.server.ts", "../booking/draft.server"],
      ["server/db/example.server.ts", "../shop/purchases.server"],
      ["server/email/example.server.ts", "../auth/magic-link-email"],
      ["server/studio/example.server.ts", "../auth/users.server"],
      ["server/auth/example.server.ts", "../payments/ledger.server"],
      ["server/payments/example.server.ts", "../shop/purchases.server"],
      ["server/calendar/example.server.ts", "../booking/booking.server"],
      ["server/shop/example.server.ts", "../booking/booking.server"],
      ["server/booking/example.server.ts", "../shop/checkout.server"],
      ["server/admin/example.server.ts", "../http/uploads.server"],
      ["server/http/example.server.ts", "../trpc/trpc"],
      ["server/env.server.ts", "./email/mailer.server"],
      ["server/storage/example.server.ts", "../db/db.server"],
      ["server/booking/example.server.ts", "../boot.server"],
    ];
    for (const [file, spec] of upward) {
      const found = await refusals(file, `import { a } from "${spec}";\nexport const c = a;\n`);
      expect(found, `${file} -> ${spec}`).toHaveLength(1);
      expect(found[0]).toContain("imports only the layers below it");
    }
  });

  it("and every import down a layer, or inside a room, goes through", async () => {
    const downward: [string, string][] = [
      ["server/db/example.server.ts", "./db.server"],
      ["server/db/example.server.ts", "../storage/storage.server"],
      ["server/studio/example.server.ts", "../db/catalogue-version.server"],
      ["server/auth/example.server.ts", "../studio/studio.server"],
      ["server/payments/example.server.ts", "../email/mailer.server"],
      ["server/shop/example.server.ts", "../payments/ledger.server"],
      ["server/booking/example.server.ts", "../payments/plan.server"],
      ["server/booking/example.server.ts", "../calendar/slots.server"],
      ["server/calendar/example.server.ts", "../studio/studio.server"],
      ["server/admin/example.server.ts", "../booking/booking.server"],
      ["server/http/example.server.ts", "../admin/uploads.server"],
      ["server/trpc/routers/example.ts", "../../http/domain-errors"],
      ["server/index.ts", "./boot.server"],
    ];
    for (const [file, spec] of downward) {
      expect(await refusals(file, `import { a } from "${spec}";\nexport const c = a;\n`), `${file} -> ${spec}`).toEqual(
        [],
      );
    }
  });

  it("app/ and the web layer import the domain", async () => {
    expect(
      await refusals("app/components/example.tsx", 'import { a } from "#domain/pricing";\nexport const c = a;\n'),
    ).toEqual([]);
    expect(
      await refusals("server/http/example.server.ts", 'import { a } from "#domain/pricing";\nexport const c = a;\n'),
    ).toEqual([]);
  });
});
