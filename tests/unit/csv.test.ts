import { describe, expect, it } from "vitest";
import { csvCell, csvLine } from "../../server/admin/export.server";

describe("CSV cells (RFC 4180, formulas neutralised)", () => {
  it("quotes a cell holding a comma, a quote or a line break, doubling quotes", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell("Acme, Inc.")).toBe('"Acme, Inc."');
    expect(csvCell('The "best" studio')).toBe('"The ""best"" studio"');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell(null)).toBe("");
    expect(csvCell(12.5)).toBe("12.5");
  });

  it("prefixes a cell a spreadsheet would run as a formula with '", () => {
    for (const formula of ['=HYPERLINK("http://evil.example")', "+1", "-2+3", "@SUM(A1)", "\t=1", "\r=1"]) {
      expect(csvCell(formula).replace(/^"/, "")).toMatch(/^'/);
    }
    expect(csvCell("=1,2")).toBe(`"'=1,2"`);
    expect(csvCell("a=b")).toBe("a=b");
  });

  it("also a line break first, spaces before a formula sign, and the full-width signs (issue 40.5)", () => {
    for (const formula of [
      "\n=1+1",
      "\ncmd",
      " =1+1",
      "\u00a0@SUM(A1)",
      "\uff1d1+1",
      "\uff0b1",
      "\uff0d1",
      "\uff20SUM(A1)",
    ]) {
      expect(csvCell(formula).replace(/^"/, ""), JSON.stringify(formula)).toMatch(/^'/);
    }
    expect(csvCell("  plain words")).toBe("  plain words");
    expect(csvCell("a=b")).toBe("a=b");
  });

  it("ends each line with CRLF", () => {
    expect(csvLine(["a", "b,c", "=x"])).toBe(`a,"b,c",'=x\r\n`);
  });
});
