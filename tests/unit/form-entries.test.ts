import { describe, expect, it } from "vitest";
import { listEntries, MAX_LIST_INDEX, plainEntries } from "#domain/form-entries";
import { parseSection } from "#domain/studio-settings";

function form(entries: [string, string][]): FormData {
  const f = new FormData();
  for (const [k, v] of entries) f.append(k, v);
  return f;
}

describe("form indexes are bounded (issue 40.5)", () => {
  it("a Settings post naming row 5,000,000 builds no such list: the row is dropped", () => {
    const submission = parseSection(
      form([
        ["items[0].quote", "Lovely work"],
        ["items[0].name", "Ana"],
        ["items[5000000].quote", "x"],
      ]),
      "testimonials",
    );
    const items = (submission.payload as { items?: unknown[] }).items ?? [];
    expect(items).toHaveLength(1);
    expect(submission.status).toBe("success");
  });

  it("keeps indexes up to the bound, drops those past it, deep paths and odd names", () => {
    const kept = [
      ...listEntries(
        form([
          [`items[${MAX_LIST_INDEX}].quote`, "a"],
          [`items[${MAX_LIST_INDEX + 1}].quote`, "b"],
          ["tiers[1].addOns[19].price", "c"],
          ["a.b.c.d.e.f", "d"],
          ["__proto__[0]", "e"],
          ["items[-1].quote", "f"],
          ["items[1e9].quote", "g"],
        ]),
      ).keys(),
    ];
    expect(kept).toEqual([`items[${MAX_LIST_INDEX}].quote`, "tiers[1].addOns[19].price"]);
  });

  it("conform's intent and state: kept when JSON within bounds, dropped otherwise (bad JSON never throws)", () => {
    const intent = (payload: unknown) => JSON.stringify({ type: "remove", payload });
    const kept = [
      ...listEntries(
        form([
          ["__intent__", intent({ name: "items", index: 2 })],
          ["__intent__", intent({ name: "items", index: 99_999_999 })],
          ["__intent__", intent({ name: "items[99999999].x", index: 0 })],
          ["__intent__", "{bad"],
          ["__state__", "{bad"],
          ["__state__", "[1,2]"],
        ]),
      ).values(),
    ];
    expect(kept).toEqual([intent({ name: "items", index: 2 })]);
    expect(() => parseSection(form([["__intent__", "{bad"]]), "testimonials")).not.toThrow();
  });

  it("plain forms (booking, setup) keep plain names only", () => {
    expect([
      ...plainEntries(
        form([
          ["name", "a"],
          ["a.b", "b"],
          ["x[0]", "c"],
          ["__intent__", "{}"],
        ]),
        false,
      ).keys(),
    ]).toEqual(["name", "a.b"]);
  });
});
