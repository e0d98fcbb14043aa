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

  it("app/ and the web layer import the domain", async () => {
    expect(
      await refusals("app/components/example.tsx", 'import { a } from "#domain/pricing";\nexport const c = a;\n'),
    ).toEqual([]);
    expect(
      await refusals("server/http/example.server.ts", 'import { a } from "#domain/pricing";\nexport const c = a;\n'),
    ).toEqual([]);
  });
});
