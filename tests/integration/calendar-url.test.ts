/**
 * A calendar link saved before links were checked as URLs (`http://localhost:1@evil.example/x`
 * passed the old pattern) is not used: the pages, the mails and the CSP fall back to CALENDLY_URL.
 */
import { afterEach, describe, expect, it } from "vitest";
import { sampleIdentity } from "#domain/sample/site";
import { sqliteOf } from "../../server/db/db.server";
import { parseEnv } from "../../server/env.server";
import { contentSecurityPolicy } from "../../server/http/security.server";
import { calendarEnvReader } from "../../server/studio/calendar.server";
import { getStudio, saveSection } from "../../server/studio/studio.server";
import { freshDb, type TestDb } from "../helpers/db";

let t: TestDb | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe("a calendar link saved before the check", () => {
  it("is read as none, so CALENDLY_URL is embedded and only its origin is allowed", async () => {
    t = await freshDb();
    const e = parseEnv({ DATA_DIR: t.dataDir, CALENDLY_URL: "https://calendly.com/studio/intro" });
    const reader = calendarEnvReader(sqliteOf(t.db)!, e);
    // As an earlier version saved it (the form's old pattern let it through).
    await saveSection(
      t.db,
      "studio",
      { ...sampleIdentity, calendarUrl: "http://localhost:1@evil.example/x" },
      "o@x.test",
    );
    expect((await getStudio(t.db)).identity.calendarUrl).toBe("");
    const headerEnv = reader();
    expect(headerEnv.CALENDLY_URL).toBe("https://calendly.com/studio/intro");
    expect(contentSecurityPolicy("n", headerEnv)).not.toContain("evil.example");
    // A good one saved after it is used at once.
    await saveSection(t.db, "studio", { ...sampleIdentity, calendarUrl: "https://cal.com/atelier" }, "o@x.test");
    expect((await getStudio(t.db)).identity.calendarUrl).toBe("https://cal.com/atelier");
    expect(reader().CALENDLY_URL).toBe("https://cal.com/atelier");
    expect(contentSecurityPolicy("n", reader())).toContain("frame-src https://cal.com;");
  });
});
