import { expect, test } from "@playwright/test";
import { e2eQuery, hydrated, signInAs } from "../helpers/e2e";

// Issue 32.6: the console lists this machine's backups, makes one on demand, offers each for
// download, and says across the console when the last scheduled backup failed. One at a time:
// the failure banner is the server's, shared by both widths.
test.describe.configure({ mode: "serial" });

for (const width of [390, 1280]) {
  test(`at ${width} px: Back up now, the list, a download, and the failure banner`, async ({ browser }, testInfo) => {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    await signInAs(context, `owner-backups-${width}-${Date.now()}@example.com`, "admin");
    const page = await context.newPage();
    await page.goto("/admin");
    await hydrated(page);
    const card = page.getByRole("region", { name: "Backups" });
    await expect(card.getByTestId("backup-schedule")).toContainText("“0 3 * * *”");
    await expect(page.getByTestId("console-version")).toHaveText("Studio version 1.0.0");

    await card.getByRole("button", { name: "Back up now" }).click();
    await expect(page.getByText(/^Backup written: studio-.*\.studio-backup$/)).toBeVisible();
    const list = card.getByRole("list", { name: "Backups on this machine" });
    await expect(list.getByRole("listitem").first()).toContainText("version 1.0.0 · Made by hand");
    const href = await list
      .getByRole("link", { name: /^Download/ })
      .first()
      .getAttribute("href");
    const file = await page.request.get(href!);
    expect(file.status()).toBe(200);
    expect(file.headers()["content-disposition"]).toMatch(/^attachment; filename="studio-.*\.studio-backup"$/);
    const body = await file.body();
    expect(body.subarray(257, 262).toString("latin1")).toBe("ustar");
    await card.screenshot({ path: testInfo.outputPath(`backups-${width}.png`) });

    // A failed scheduled run: a banner on every tab until a backup succeeds.
    e2eQuery(
      "insert or replace into studio_flags (key, value) values ('backup_failure', ?)",
      JSON.stringify({
        at: new Date().toISOString(),
        message: "cannot write the backup to /srv/backups: permission denied for this user (EACCES)",
      }),
    );
    await page.goto("/admin?tab=bookings");
    await expect(page.getByRole("alert").filter({ hasText: "The last scheduled backup failed" })).toContainText(
      "permission denied for this user (EACCES)",
    );
    await page.goto("/admin");
    await hydrated(page);
    await page.getByRole("region", { name: "Backups" }).getByRole("button", { name: "Back up now" }).click();
    await expect(page.getByText(/^Backup written:/)).toBeVisible();
    await page.reload();
    await expect(page.getByRole("alert").filter({ hasText: "The last scheduled backup failed" })).toHaveCount(0);

    // The schedule, changed here: a bad one is refused with its reason, a good one saved and shown.
    await hydrated(page);
    const backups = page.getByRole("region", { name: "Backups" });
    await backups.getByLabel("Schedule (cron, or “off”)").fill("every night");
    await backups.getByRole("button", { name: "Save schedule" }).click();
    await expect(backups.getByRole("alert")).toContainText("The schedule must be a cron expression");
    await backups.getByLabel("Schedule (cron, or “off”)").fill("30 4 * * *");
    await backups.getByLabel("Keep").fill("5");
    await backups.getByRole("button", { name: "Save schedule" }).click();
    await expect(page.getByText("Backup schedule saved")).toBeVisible();
    await expect(backups.getByTestId("backup-schedule")).toContainText("“30 4 * * *” (UTC), keeping the newest 5.");
    // Back as it was, for the rest of the suite.
    await backups.getByLabel("Schedule (cron, or “off”)").fill("0 3 * * *");
    await backups.getByLabel("Keep").fill("7");
    await backups.getByRole("button", { name: "Save schedule" }).click();
    await expect(backups.getByTestId("backup-schedule")).toContainText("“0 3 * * *” (UTC), keeping the newest 7.");
    await context.close();
  });
}
