/**
 * The booking wizard as people use it (issue 15): real file sizes with JavaScript on and off,
 * phones and desktops, steppers by mouse and keyboard, in-app navigation, the review.
 */
import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { inDays, MB, PNG, pngOfSize, step1, steps2to4, toStep5 } from "../helpers/booking-e2e";
import { e2eDataDir, e2eQuery, hydrated, packagesWithTier } from "../helpers/e2e";

// Real file sizes through every step of the wizard: slower than the other specs.
test.describe.configure({ timeout: 90_000 });

const uniq = (tag: string) => `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`;

/** Opens the file chooser the way a person does (click on the zone) and picks the files. */
async function choose(page: Page, files: { name: string; mimeType: string; buffer: Buffer }[]) {
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: /Choose files or drop them here/ }).click();
  await (await chooser).setFiles(files);
}

function draftFiles(email: string): { name: string; path: string }[] {
  const rows = e2eQuery<{ data: string; uploaded_files: string }>("select data, uploaded_files from booking_drafts");
  const row = rows.find((r) => (JSON.parse(r.data) as { state?: { email?: string } }).state?.email === email);
  return row ? (JSON.parse(row.uploaded_files) as { name: string; path: string }[]) : [];
}

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 900 },
]) {
  test.describe(`uploads with JavaScript at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("a 2 MB logo uploads at once, once: one stored copy, one row, one name in both emails", async ({ page }) => {
      const email = uniq("logo2mb");
      await toStep5(page, email);
      await hydrated(page);
      const uploads: string[] = [];
      page.on("request", (r) => {
        if (r.method() === "POST") uploads.push(new URL(r.url()).pathname);
      });
      await choose(page, [{ name: "logo.png", mimeType: "image/png", buffer: pngOfSize(2 * MB) }]);
      const list = page.getByRole("list", { name: "Uploaded files" });
      await expect(list.getByText("logo.png")).toBeVisible();
      await expect(list.getByText("Done")).toBeVisible();
      await expect(list.getByText("2.0 MB")).toBeVisible();
      await expect(page.getByRole("alert")).toHaveCount(0);
      await page.getByRole("button", { name: "Next" }).click();
      await expect(page).toHaveURL(/step=6/);
      expect(uploads.filter((p) => p === "/booking/files")).toHaveLength(1);
      await expect(
        page.getByRole("region", { name: "Brand assets" }).getByText("logo.png", { exact: true }),
      ).toBeVisible();

      const files = draftFiles(email);
      expect(files.map((f) => f.name)).toEqual(["logo.png"]);
      const folder = path.join(e2eDataDir(), "storage", "booking-files", path.dirname(files[0].path));
      expect(fs.readdirSync(folder)).toHaveLength(1);
      expect(fs.statSync(path.join(folder, fs.readdirSync(folder)[0])).size).toBe(2 * MB);

      await page.getByRole("button", { name: "Choose a time" }).click();
      await page.getByRole("button", { name: "Confirm without scheduling now" }).click();
      await expect(page).toHaveURL(/\/booking\/success/);
      const [booking] = e2eQuery<{ uploaded_files: string }>(
        "select uploaded_files from bookings where email = ?",
        email,
      );
      expect(JSON.parse(booking.uploaded_files)).toEqual([{ name: "logo.png", size: 2 * MB }]);
      const mails = e2eQuery<{ text_body: string }>(
        "select text_body from email_outbox where text_body like ?",
        `%${email}%`,
      );
      expect(mails).toHaveLength(2);
      for (const m of mails) {
        expect(m.text_body).toContain("Files: logo.png\n");
        expect(m.text_body).not.toContain("logo.png, logo.png");
      }
    });

    test("an 11 MB file is refused by the browser with the spec's message; the server refuses it too", async ({
      page,
    }) => {
      await toStep5(page, uniq("big"));
      await hydrated(page);
      let sent = 0;
      page.on("request", (r) => {
        if (r.url().endsWith("/booking/files")) sent++;
      });
      await choose(page, [
        {
          name: "brand-book.pdf",
          mimeType: "application/pdf",
          buffer: Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.alloc(11 * MB)]),
        },
      ]);
      await expect(page.getByRole("alert")).toHaveText("brand-book.pdf exceeds 10MB limit");
      expect(sent).toBe(0);
      await expect(page.getByText("No files uploaded yet.")).toBeVisible();

      // The server stays the authority: a file just over 10 MB sent anyway gets the same message.
      const answer = await page.evaluate(async () => {
        const body = new FormData();
        const bytes = new Uint8Array(10 * 1024 * 1024 + 100);
        bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
        body.append("files", new File([bytes], "sneaky.png", { type: "image/png" }));
        const res = await fetch("/booking/files", { method: "POST", body });
        return { status: res.status, body: (await res.json()) as { error?: string } };
      });
      expect(answer).toEqual({ status: 400, body: { error: "sneaky.png exceeds 10MB limit", files: [] } });

      await page.getByRole("button", { name: "Next" }).click();
      await expect(page).toHaveURL(/step=6/);
    });
  });
}

test.describe("uploads with JavaScript", () => {
  test("a sixth file is refused without trapping the visitor; at 5 of 5 the zone is disabled", async ({ page }) => {
    const email = uniq("six");
    await toStep5(page, email);
    await hydrated(page);
    await choose(
      page,
      [1, 2, 3, 4].map((i) => ({ name: `asset-${i}.png`, mimeType: "image/png", buffer: PNG })),
    );
    await expect(page.getByRole("list", { name: "Uploaded files" }).getByText("Done")).toHaveCount(4);
    await choose(
      page,
      [5, 6].map((i) => ({ name: `asset-${i}.png`, mimeType: "image/png", buffer: PNG })),
    );
    await expect(page.getByRole("alert")).toHaveText("Maximum 5 files allowed");
    await expect(page.getByRole("list", { name: "Uploaded files" }).getByText("Done")).toHaveCount(4);
    await choose(page, [{ name: "asset-5.png", mimeType: "image/png", buffer: PNG }]);
    await expect(page.getByRole("list", { name: "Uploaded files" }).getByText("Done")).toHaveCount(5);
    await expect(page.getByRole("button", { name: /5 of 5 files uploaded/ })).toBeDisabled();
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page).toHaveURL(/step=6/);
    expect(draftFiles(email).map((f) => f.name)).toEqual([
      "asset-1.png",
      "asset-2.png",
      "asset-3.png",
      "asset-4.png",
      "asset-5.png",
    ]);
    // Removing one from the review's Edit opens the zone again.
    await page.getByRole("link", { name: "Edit Brand assets" }).click();
    await page.getByRole("button", { name: "Remove asset-5.png" }).click();
    await expect(page.getByRole("button", { name: /Choose files or drop them here/ })).toBeEnabled();
  });

  test("files dropped on the zone upload; keyboard users reach the zone and open the chooser", async ({ page }) => {
    const email = uniq("drop");
    await toStep5(page, email);
    await hydrated(page);
    await page.evaluate(() => {
      const dt = new DataTransfer();
      // A 1×1 PNG's signature and header: the server reads a picture's size from it.
      const bytes = new Uint8Array(
        "89504e470d0a1a0a0000000d4948445200000001000000010806000000".match(/../g)!.map((h) => parseInt(h, 16)),
      );
      dt.items.add(new File([bytes], "dropped.png", { type: "image/png" }));
      const zone = document.querySelector('[data-testid="upload-zone"]')!;
      zone.dispatchEvent(new DragEvent("dragover", { dataTransfer: dt, bubbles: true, cancelable: true }));
      zone.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
    });
    await expect(page.getByRole("list", { name: "Uploaded files" }).getByText("dropped.png")).toBeVisible();
    await expect(page.getByRole("list", { name: "Uploaded files" }).getByText("Done")).toBeVisible();

    const zone = page.getByRole("button", { name: /Choose files or drop them here/ });
    await zone.focus();
    await expect(zone).toBeFocused();
    const chooser = page.waitForEvent("filechooser");
    await page.keyboard.press("Enter");
    await (await chooser).setFiles([{ name: "keyboard.png", mimeType: "image/png", buffer: PNG }]);
    await expect(page.getByRole("list", { name: "Uploaded files" }).getByText("Done")).toHaveCount(2);
    expect(draftFiles(email).map((f) => f.name)).toEqual(["dropped.png", "keyboard.png"]);
  });

  test("Next waits while a file uploads", async ({ page }) => {
    await toStep5(page, uniq("slow"));
    await hydrated(page);
    // The upload is held until the test has seen the page wait for it, then let through.
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    page.once("close", () => release());
    await page.route("**/booking/files", async (route) => {
      await released;
      await route.continue().catch(() => {});
    });
    await choose(page, [{ name: "slow.png", mimeType: "image/png", buffer: pngOfSize(2 * MB) }]);
    await expect(page.getByRole("progressbar", { name: "Uploading slow.png" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Next" })).toBeDisabled();
    release();
    await expect(page.getByRole("list", { name: "Uploaded files" }).getByText("Done")).toBeVisible({ timeout: 10_000 });
    await expect(page.getByRole("button", { name: "Next" })).toBeEnabled();
  });
});

test.describe("uploads without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a 2 MB logo goes with the step's post, once; an 11 MB file gets the spec's message", async ({ page }) => {
    const email = uniq("nojs2mb");
    await toStep5(page, email);
    await page
      .getByLabel("Choose files")
      .setInputFiles({ name: "huge.png", mimeType: "image/png", buffer: pngOfSize(11 * MB) });
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await expect(page.getByText("huge.png exceeds 10MB limit")).toBeVisible();
    await page
      .getByLabel("Choose files")
      .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: pngOfSize(2 * MB) });
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await expect(page.getByRole("list", { name: "Uploaded files" })).toContainText("logo.png");
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page).toHaveURL(/step=6/);
    expect(draftFiles(email).map((f) => f.name)).toEqual(["logo.png"]);
  });

  test("step 4: Update total and the steppers' buttons show the server's total; a fixed error goes", async ({
    page,
  }) => {
    await page.goto("/booking");
    await step1(page, uniq("nojs4"));
    await steps2to4(page);
    await page.getByLabel("Preferred start date").fill("");
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page.getByText("Please select a preferred start date")).toBeVisible();
    await expect(page.getByTestId("booking-total")).toHaveText("$8,500");
    await page.getByLabel("Preferred start date").fill(inDays(30));
    await page.getByRole("checkbox", { name: /^CRM integration/ }).check();
    await page.getByRole("button", { name: "Update total" }).click();
    await expect(page.getByTestId("booking-total")).toHaveText("$10,500");
    await expect(page.getByText("Please select a preferred start date")).toHaveCount(0);
    await expect(page.getByLabel("Preferred start date")).toHaveValue(inDays(30));
    await page.getByRole("button", { name: "Increase quantity of Additional design concept" }).click();
    await expect(page.getByTestId("booking-total")).toHaveText("$11,500");
    await page.getByRole("button", { name: "Increase quantity of Additional design concept" }).click();
    await expect(page.getByTestId("booking-total")).toHaveText("$12,500");
    await page.getByRole("button", { name: "Decrease quantity of Additional design concept" }).click();
    await page.getByRole("button", { name: "Decrease quantity of Additional design concept" }).click();
    await expect(page.getByTestId("booking-total")).toHaveText("$10,500");
    await expect(page.getByRole("checkbox", { name: /^Additional design concept/ })).not.toBeChecked();
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page).toHaveURL(/step=5/);
  });
});

test.describe("steppers with JavaScript", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("/packages: − at 1 removes the add-on; clearing the box and typing 4 gives 4", async ({ page }) => {
    await packagesWithTier(page, "Essentials");
    const total = page.getByTestId("calculator-total");
    await page.getByRole("button", { name: "Increase quantity of Additional page" }).click();
    await expect(page.getByRole("checkbox", { name: /^Additional page/ })).toBeChecked();
    await expect(total).toHaveText("$2,750");
    await page.getByRole("button", { name: "Increase quantity of Additional page" }).click();
    await expect(total).toHaveText("$3,000");
    const box = page.getByRole("spinbutton", { name: "Additional page quantity" });
    await box.fill("");
    await box.pressSequentially("4");
    await expect(box).toHaveValue("4");
    await expect(total).toHaveText("$3,500");
    for (let i = 0; i < 4; i++)
      await page.getByRole("button", { name: "Decrease quantity of Additional page" }).click();
    await expect(page.getByRole("checkbox", { name: /^Additional page/ })).not.toBeChecked();
    await expect(total).toHaveText("$2,500");
  });

  test("booking step 4: the same stepper, by keyboard; − at 1 removes the add-on", async ({ page }) => {
    await page.goto("/booking");
    await step1(page, uniq("stepper"));
    await steps2to4(page);
    await hydrated(page);
    await expect(page.getByRole("button", { name: "Update total" })).toHaveCount(0);
    const total = page.getByTestId("booking-total");
    const inc = page.getByRole("button", { name: "Increase quantity of Additional design concept" });
    await inc.focus();
    await page.keyboard.press("Enter");
    await expect(total).toHaveText("$9,500");
    await page.keyboard.press("Space");
    await expect(total).toHaveText("$10,500");
    const box = page.getByRole("spinbutton", { name: "Additional design concept quantity" });
    await box.fill("");
    await box.pressSequentially("3");
    await expect(total).toHaveText("$11,500");
    await box.fill("");
    await box.pressSequentially("4");
    await expect(box).toHaveValue("3"); // the maximum is 3
    const dec = page.getByRole("button", { name: "Decrease quantity of Additional design concept" });
    for (let i = 0; i < 3; i++) await dec.click();
    await expect(page.getByRole("checkbox", { name: /^Additional design concept/ })).not.toBeChecked();
    await expect(total).toHaveText("$8,500");
  });
});

test("a selection from /packages survives in-app navigation to the wizard (header's Get started!)", async ({
  page,
}) => {
  await page.goto("/packages");
  await hydrated(page);
  await page
    .getByRole("radio", { name: /Growth/ })
    .first()
    .check();
  await page.getByRole("checkbox", { name: /^CRM integration/ }).check();
  await page.getByRole("banner").getByRole("link", { name: "Get started!" }).click();
  await expect(page).toHaveURL(/tier=growth/);
  await expect(page.getByRole("radio", { name: /Growth/ })).toBeChecked();
  await page.getByLabel("Your name").fill("Ada Lovelace");
  await page.getByLabel("Email").fill(uniq("inapp"));
  await page.getByLabel("Company").fill("Analytical Engines");
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page).toHaveURL(/step=2/);
  await expect(page.getByText("Please select a package")).toHaveCount(0);
});

test.describe("the review", () => {
  for (const js of [true, false]) {
    test(`reads as people read it, and Edit returns to it (JavaScript ${js ? "on" : "off"})`, async ({ browser }) => {
      const context = await browser.newContext({ javaScriptEnabled: js });
      const page = await context.newPage();
      await page.goto("/booking");
      await step1(page, uniq("review"));
      await steps2to4(page);
      await page.getByRole("checkbox", { name: /^CRM integration/ }).check();
      await page.getByRole("checkbox", { name: /^Additional design concept/ }).check();
      if (!js) await page.getByRole("button", { name: "Update total" }).click();
      await expect(page.getByTestId("booking-total")).toHaveText("$11,500");
      await page.getByRole("button", { name: "Next" }).click();
      await expect(page).toHaveURL(/step=5/);
      await page.getByRole("button", { name: "Next" }).click();
      await expect(page).toHaveURL(/step=6/);
      await expect(page.getByTestId("review-total")).toHaveText("$11,500");
      const start = new Date(`${inDays(30)}T00:00:00Z`).toLocaleDateString("en-US", {
        weekday: "long",
        year: "numeric",
        month: "long",
        day: "numeric",
        timeZone: "UTC",
      });
      await expect(page.getByText(start, { exact: true })).toBeVisible();
      await expect(page.getByText(inDays(30))).toHaveCount(0);
      await expect(page.getByText("Portfolio discount")).toHaveCount(0); // Growth has no such offer
      const addOns = page.getByRole("region", { name: "Timeline & add-ons" });
      await expect(addOns).toContainText("CRM integration ($2,000)");
      await expect(addOns).toContainText("Additional design concept ($1,000)");

      await page.getByRole("link", { name: "Edit Project details" }).click();
      await expect(page).toHaveURL(/step=2/);
      await page.getByLabel("Who is your target audience?").fill("Heads of product at fintech scale-ups");
      await page.getByRole("button", { name: "Save and review" }).click();
      await expect(page).toHaveURL(/step=6/);
      await expect(page.getByText("Heads of product at fintech scale-ups")).toBeVisible();
      await context.close();
    });
  }

  test("Essentials shows the portfolio offer's row", async ({ page }) => {
    await page.goto("/booking");
    await step1(page, uniq("ess"), "Essentials");
    await steps2to4(page);
    await page.getByLabel(/Get 40% off Essentials Package/).check();
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page).toHaveURL(/step=5/);
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page).toHaveURL(/step=6/);
    await expect(page.getByText("40% (−$1,000)")).toBeVisible();
    await expect(page.getByTestId("review-total")).toHaveText("$1,500");
  });
});
