import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { fromJson, listFromJson, stringList } from "../../server/db/json";
import { paymentEntrySchema } from "../../server/db/json-columns";
import { log as serverLog } from "../../server/log.server";
import { emptyFormState, formStateSchema } from "#domain/booking-state";

describe("JSON columns are read through their schemas (issue 20.2)", () => {
  it("gives the fallback for empty, corrupt or wrongly shaped text, and the value when it matches", () => {
    const warn = vi.spyOn(serverLog, "warn").mockImplementation(() => {});
    const schema = z.object({ a: z.number() });
    expect(fromJson(null, schema, { a: 0 })).toEqual({ a: 0 });
    expect(fromJson("{not json", schema, { a: 0 })).toEqual({ a: 0 });
    expect(fromJson('{"a":"1"}', schema, { a: 0 })).toEqual({ a: 0 });
    expect(fromJson('{"a":1}', schema, { a: 0 })).toEqual({ a: 1 });
    warn.mockRestore();
  });

  it("keeps the list items of the right shape and drops the others", () => {
    const warn = vi.spyOn(serverLog, "warn").mockImplementation(() => {});
    const history = listFromJson(
      JSON.stringify([
        { amount: 500, date: "2026-11-20T10:00:00.000Z", note: "Deposit" },
        { amount: "lots" },
        null,
        { amount: 100, date: "2026-11-21" },
      ]),
      paymentEntrySchema,
    );
    expect(history).toEqual([
      { amount: 500, date: "2026-11-20T10:00:00.000Z", note: "Deposit" },
      { amount: 100, date: "2026-11-21" },
    ]);
    expect(listFromJson('{"not":"a list"}', paymentEntrySchema)).toEqual([]);
    expect(stringList('["a", 1, "b", null]')).toEqual(["a", "b"]);
    warn.mockRestore();
  });

  it("reads a stored draft's state field by field: a wrong field is its empty value, the rest is kept", () => {
    const state = formStateSchema.parse({
      selectedPackage: "gold",
      name: "Ada",
      email: 42,
      isNewSite: "yes",
      timelineFlexibility: "rush",
      selectedAddOns: ["blog-setup", 3],
      addOnQuantities: { "additional-page": 2, x: "many" },
      unknownField: "dropped",
    });
    expect(state).toEqual({
      ...emptyFormState(),
      name: "Ada",
      timelineFlexibility: "rush",
    });
    expect(emptyFormState().selectedPackage).toBe("");
    expect(
      formStateSchema.parse({ selectedPackage: "growth", addOnQuantities: { "additional-page": 2 } }),
    ).toMatchObject({
      selectedPackage: "growth",
      addOnQuantities: { "additional-page": 2 },
    });
  });
});
