/**
 * Issue 40.2: the studio's names are text, never replacement patterns. `{studio}`, `{designer}`,
 * `{email}`, `{percent}` and `{package}` insert their value literally, and a page's size is
 * bounded by what was saved (the saved text plus one value per placeholder), not multiplied by it.
 */
import { afterEach, describe, expect, it } from "vitest";
import { sampleIdentity } from "#domain/sample/site";
import { fillPlaceholders } from "#domain/placeholders";
import { promotionText } from "#domain/promotions";
import { getStudio, legalPage, saveSection } from "../../server/studio/studio.server";
import { freshDb, type TestDb } from "../helpers/db";

let t: TestDb | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe("fillPlaceholders", () => {
  it("inserts `$` patterns as they are written", () => {
    for (const value of ["Ca$$h $& Co", "$'", "$`", "$1", "$<name>", "$$"])
      expect(fillPlaceholders("Hello {studio}!", { studio: value })).toBe(`Hello ${value}!`);
  });

  it("fills once: a value holding another placeholder is not filled again", () => {
    expect(fillPlaceholders("{studio} by {designer}", { studio: "Ca$h {designer} Co", designer: "Ines" })).toBe(
      "Ca$h {designer} Co by Ines",
    );
  });

  it("leaves names it was not given as written", () => {
    expect(fillPlaceholders("{studio} {unknown} {}", { studio: "A" })).toBe("A {unknown} {}");
    expect(fillPlaceholders("{constructor} {toString}", {})).toBe("{constructor} {toString}");
  });

  it("promotion texts: `{percent}` and `{package}` literally", () => {
    expect(promotionText("Save {percent}% on {package}", 40, "$& $' Pack")).toBe("Save 40% on $& $' Pack");
  });
});

describe("the legal pages", () => {
  it("show a studio called `Ca$$h $& Co` as it was saved", async () => {
    t = await freshDb();
    await saveSection(t.db, "studio", { ...sampleIdentity, name: "Ca$$h $& Co", designer: "Ca$$h $& Co" }, "o@x.test");
    await saveSection(t.db, "legal", { terms: "{studio} and {designer}.", privacy: "{studio}" }, "o@x.test");
    const page = legalPage(await getStudio(t.db), "terms");
    expect(JSON.stringify(page)).toContain("Ca$$h $& Co and Ca$$h $& Co.");
    expect(JSON.stringify(page)).not.toContain("{designer}");
  });

  it("a designer named `$'` many times, used often in the terms, grows the page by the value per use only", async () => {
    t = await freshDb();
    const designer = "$'".repeat(40);
    const terms = `${"{designer} ".repeat(3000)}\n\n## Payments\n\n${"x".repeat(4000)}`;
    await saveSection(t.db, "studio", { ...sampleIdentity, designer }, "o@x.test");
    await saveSection(t.db, "legal", { terms, privacy: "{designer}" }, "o@x.test");
    const page = legalPage(await getStudio(t.db), "terms");
    const size = JSON.stringify(page).length;
    // The saved text plus the designer's name once per placeholder (and the JSON around it).
    expect(size).toBeLessThan(terms.length + 3000 * designer.length + 2000);
    expect(JSON.stringify(page)).toContain(`${designer} ${designer}`);
  });
});
