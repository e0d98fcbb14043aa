import fs from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { e2eQuery, signInAs } from "../helpers/e2e";

/** Whether what the user sees at the centre of `selector` belongs to it (nothing painted over it). */
async function onTop(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) return false;
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 10));
    return Boolean(hit && (hit === el || el.contains(hit)));
  }, selector);
}

test.describe("the console has a layout of its own (issue 19.1)", () => {
  for (const width of [390, 1280]) {
    test(`at ${width} px: console header instead of the site's, modals above everything, the page behind inert`, async ({
      page,
      context,
    }) => {
      await page.setViewportSize({ width, height: 844 });
      const email = `owner-${width}-${Date.now()}@example.com`;
      await signInAs(context, email, "super");
      await page.goto("/admin?tab=templates");
      await page.locator("html[data-hydrated]").waitFor();

      // The marketing header and footer are gone; the console's own header says who is signed in.
      await expect(page.getByRole("link", { name: "Get started!" })).toHaveCount(0);
      await expect(page.getByRole("contentinfo")).toHaveCount(0);
      const header = page.getByRole("banner");
      await expect(header).toContainText("Studio Rowan");
      await expect(header).toContainText("Super Admin");
      await expect(header).toContainText(email);
      await expect(header.getByRole("link", { name: "Back to Shop" })).toBeVisible();
      await expect(header.getByRole("button", { name: "Sign out" })).toBeVisible();

      // A dialog is above the header and everything else; what is behind it can't be reached.
      await page.getByRole("button", { name: /Add Template/ }).click();
      const dialog = page.getByRole("dialog", { name: "Add Template" });
      await expect(dialog).toBeVisible();
      expect(await onTop(page, '[role="dialog"] h2')).toBe(true);
      expect(await page.evaluate(() => Boolean(document.querySelector("header")?.closest("[inert]")))).toBe(true);
      await page.keyboard.press("Escape");
      await expect(dialog).toBeHidden();
      expect(await page.evaluate(() => document.querySelectorAll("[inert]").length)).toBe(0);

      // Sign out from the console.
      await header.getByRole("button", { name: "Sign out" }).click();
      await expect(page).not.toHaveURL(/\/admin/);
    });
  }
});

test.describe("the console on a phone (issue 19.2)", () => {
  test.use({ viewport: { width: 390, height: 844 } });
  test("no page scrolls sideways; each row is a card with its status and actions reachable", async ({
    page,
    context,
  }) => {
    const company = `Phone Widgets ${Date.now()}`;
    e2eQuery(
      `insert into bookings (id, email, full_name, company_name, package_type, package_price, total_amount, desired_start_date, target_audience, project_description)
       values (?, 'client@example.com', 'Client Person', ?, 'growth', 850000, 850000, '2027-01-10', 'Founders', 'x')`,
      `phone-${Date.now()}`,
      company,
    );
    await signInAs(context, `phone-owner-${Date.now()}@example.com`, "super");
    for (const tab of ["overview", "templates", "bookings", "purchases"]) {
      await page.goto(`/admin?tab=${tab}`);
      await page.locator("html[data-hydrated]").waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth), tab).toBeLessThanOrEqual(390);
    }
    const row = page.getByRole("row", { name: new RegExp(company) });
    await page.goto("/admin?tab=bookings");
    const status = row.getByRole("combobox");
    await status.scrollIntoViewIfNeeded();
    const box = await status.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    await expect(row).toContainText("Status");
    await page.goto("/admin?tab=templates");
    const edit = page.getByRole("row", { name: /Atelier/ }).getByRole("button", { name: /Edit/ });
    await edit.scrollIntoViewIfNeeded();
    const editBox = await edit.boundingBox();
    expect(editBox && editBox.x >= 0 && editBox.x + editBox.width <= 390).toBe(true);
  });
});

test.describe("feedback on every action (issue 19.3)", () => {
  for (const width of [390, 1280]) {
    test(`at ${width} px: a toast after each success; a failed status change goes back and says why`, async ({
      page,
      context,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      const company = `Toast Co ${Date.now()}`;
      const id = `toast-${Date.now()}`;
      e2eQuery(
        `insert into bookings (id, email, full_name, company_name, package_type, package_price, total_amount, desired_start_date, target_audience, project_description)
       values (?, 'client@example.com', 'Client Person', ?, 'growth', 850000, 850000, '2027-01-10', 'Founders', 'x')`,
        id,
        company,
      );
      await signInAs(context, `toast-owner-${Date.now()}@example.com`, "super");
      await page.goto("/admin?tab=bookings");
      await page.locator("html[data-hydrated]").waitFor();
      const row = page.getByRole("row", { name: new RegExp(company) });

      await row.getByRole("combobox").selectOption("in_progress");
      await expect(page.getByRole("status").filter({ hasText: "Status updated" })).toBeVisible();
      expect(e2eQuery<{ status: string }>("select status from bookings where id = ?", id)[0].status).toBe(
        "in_progress",
      );

      await row.getByRole("button", { name: "Record payment" }).click();
      const pay = page.getByRole("dialog", { name: "Record Payment" });
      await pay.getByLabel("Amount (USD)").fill("1500");
      await pay.getByRole("button", { name: "Record Payment" }).click();
      await expect(pay).toBeHidden();
      await expect(page.getByRole("status").filter({ hasText: "Payment recorded" })).toBeVisible();
      await expect(row.getByTestId("booking-paid")).toHaveText("$1,500.00 paid");

      // Someone else deleted the booking meanwhile: the change is refused, shown, and undone.
      e2eQuery("delete from bookings where id = ?", id);
      await row.getByRole("combobox").selectOption("completed");
      await expect(
        page.getByRole("alert").filter({ hasText: "Could not update the status: Booking not found" }),
      ).toBeVisible();

      await page.goto("/admin?tab=templates");
      await page.locator("html[data-hydrated]").waitFor();
      const atelier = page.getByRole("row", { name: /Atelier/ });
      const featured = atelier.getByRole("checkbox");
      const was = await featured.isChecked();
      await featured.setChecked(!was);
      await expect(
        page.getByRole("status").filter({ hasText: was ? "Atelier is no longer featured" : "Atelier is featured" }),
      ).toBeVisible();
      await featured.setChecked(was);
      await atelier.getByRole("button", { name: /Edit/ }).click();
      await page.getByRole("dialog", { name: "Edit Atelier" }).getByRole("button", { name: "Save changes" }).click();
      await expect(page.getByRole("status").filter({ hasText: "Template updated" })).toBeVisible();
    });
  }
});

test.describe("booking details are complete (issue 19.4)", () => {
  for (const width of [390, 1280]) {
    test(`at ${width} px: contact, package, add-ons with quantities, discount, goal, audience, website, inspiration, features, start, total and payments with notes`, async ({
      page,
      context,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      const company = `Details Co ${Date.now()}`;
      const id = `details-${Date.now()}`;
      e2eQuery(
        `insert into bookings (id, email, full_name, company_name, phone, package_type, package_price, total_amount, amount_paid, discount_percent, campaign_accepted,
         website_url, is_new_site, project_description, project_goals, target_audience, inspiration_urls, desired_start_date, timeline_urgency, addons, payment_history, source)
       values (?, 'ada@example.com', 'Ada Lovelace', ?, '+44 20 7946 0000', 'essentials', 250000, 190000, 50000, 40, 1,
         'https://old.example.com', 0, 'Must-have features: a portfolio grid', '["portfolio"]', 'Design-minded founders', '["https://stripe.com","https://linear.app"]', '2027-02-01', 'rush',
         '[{"id":"additional-page","quantity":2}]', '[{"amount":50000,"date":"2026-11-20T10:00:00.000Z","note":"Deposit by bank transfer"}]', 'newsletter')`,
        id,
        company,
      );
      await signInAs(context, `details-owner-${Date.now()}@example.com`, "super");
      await page.goto(`/admin?tab=bookings&booking=${id}`);
      await page.locator("html[data-hydrated]").waitFor();
      const dialog = page.getByRole("dialog", { name: company });
      for (const text of [
        "Ada Lovelace",
        "ada@example.com",
        "+44 20 7946 0000",
        "Essentials Package",
        "Additional page × 2 ($500)",
        "40% portfolio discount",
        "$1,900.00",
        "$500.00 of $1,900.00",
        "Portfolio/Showcase",
        "Design-minded founders",
        "https://old.example.com",
        "https://linear.app",
        "Must-have features: a portfolio grid",
        "Monday, February 1, 2027 · Strict Deadline",
        "Deposit by bank transfer",
        "newsletter",
      ]) {
        await expect(dialog, text).toContainText(text);
      }
    });
  }
});

test.describe("lists that scale (issue 19.5)", () => {
  const seed = (prefix: string, n: number) => {
    for (let i = 0; i < n; i++) {
      e2eQuery(
        `insert into bookings (id, email, full_name, company_name, package_type, package_price, total_amount, desired_start_date, target_audience, project_description, status, created_at)
         values (?, ?, 'Client Person', ?, 'growth', 850000, 850000, '2027-01-10', 'Founders', 'x', ?, ?)`,
        `${prefix}-${i}`,
        `${prefix.toLowerCase()}-${i}@example.com`,
        `${prefix} ${String(i).padStart(2, "0")}`,
        i % 3 === 0 ? "completed" : "pending",
        new Date(Date.UTC(2026, 9, 1, 0, i)).toISOString(),
      );
    }
  };

  for (const width of [390, 1280]) {
    test(`at ${width} px: search, status filter and page live in the URL; a refresh shows the same view; details open by link`, async ({
      page,
      context,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      const prefix = `Paged${Date.now()}`;
      seed(prefix, 30);
      await signInAs(context, `lists-owner-${Date.now()}@example.com`, "super");
      await page.goto("/admin?tab=bookings");
      await page.locator("html[data-hydrated]").waitFor();
      await page.getByLabel("Search bookings").fill(prefix);
      await page.getByRole("button", { name: "Search" }).click();
      await expect(page).toHaveURL(new RegExp(`q=${prefix}`));
      const rows = page.getByRole("row").filter({ hasText: prefix });
      await expect(rows).toHaveCount(25);
      await expect(page.getByText("Page 1 of 2 · 30 bookings")).toBeVisible();
      await page.getByRole("link", { name: "Next" }).click();
      await expect(page).toHaveURL(/page=2/);
      await expect(rows).toHaveCount(5);
      await page.reload();
      await expect(rows).toHaveCount(5);
      await expect(page.getByText("Page 2 of 2 · 30 bookings")).toBeVisible();

      await page.getByLabel("Status", { exact: true }).selectOption("completed");
      await expect(page).toHaveURL(/status=completed/);
      await expect(page).not.toHaveURL(/page=2/);
      await expect(rows).toHaveCount(10);
      await expect(page.getByText("Page 1 of 1 · 10 bookings")).toBeVisible();

      // The oldest booking is not on the first page of all bookings: its link still opens it.
      await page.goto(`/admin?tab=bookings&booking=${prefix}-1`);
      await expect(page.getByRole("dialog", { name: `${prefix} 01` })).toBeVisible();
    });
  }

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });
    test("the search form still narrows the list", async ({ page, context }) => {
      const prefix = `NoJs${Date.now()}`;
      seed(prefix, 3);
      await signInAs(context, `lists-nojs-${Date.now()}@example.com`, "super");
      await page.goto("/admin?tab=bookings");
      await page.getByLabel("Search bookings").fill(`${prefix} 02`);
      await page.getByRole("button", { name: "Search" }).click();
      await expect(page.getByRole("row").filter({ hasText: prefix })).toHaveCount(1);
    });
  });
});

test.describe("the studio sees the call (issue 18.5)", () => {
  for (const width of [390, 1280]) {
    test(`at ${width} px: the call's time in the bookings table, the details and the overview's upcoming calls`, async ({
      page,
      context,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      const company = `Call Co ${width} ${Date.now()}`;
      const id = `call-${width}-${Date.now()}`;
      const start = new Date(Date.now() + 2 * 86400_000);
      start.setUTCHours(14, 0, 0, 0);
      const end = new Date(start.getTime() + 20 * 60_000);
      e2eQuery(
        `insert into bookings (id, email, full_name, company_name, package_type, package_price, total_amount, desired_start_date, target_audience, project_description,
           meeting_status, meeting_start_at, meeting_end_at, invitee_timezone, meeting_join_url, meeting_reschedule_url, meeting_cancel_url, calendly_event_uri, calendly_invitee_uri)
         values (?, 'ada@example.com', 'Ada Lovelace', ?, 'growth', 850000, 850000, '2027-01-10', 'Founders', 'x',
           'scheduled', ?, ?, 'Europe/Berlin', 'https://meet.example/abc', 'https://calendly.example/reschedule/1', 'https://calendly.example/cancel/1', ?, ?)`,
        id,
        company,
        start.toISOString(),
        end.toISOString(),
        `https://api.calendly.com/scheduled_events/${id}`,
        `https://api.calendly.com/scheduled_events/${id}/invitees/${id}`,
      );
      const short = new Intl.DateTimeFormat("en-US", {
        timeZone: "UTC",
        month: "short",
        day: "numeric",
        hour: "numeric",
        minute: "2-digit",
      }).format(start);
      await signInAs(context, `call-owner-${width}-${Date.now()}@example.com`, "super");

      await page.goto("/admin");
      const upcoming = page.locator("section", { has: page.getByRole("heading", { name: "Upcoming calls" }) });
      await expect(upcoming).toContainText(company);
      await expect(upcoming).toContainText("2:00 PM – 2:20 PM (Coordinated Universal Time, UTC)");

      await page.goto(`/admin?tab=bookings&q=${encodeURIComponent(company)}`);
      await expect(page.getByRole("row", { name: new RegExp(company) })).toContainText(short);
      await page.goto(`/admin?tab=bookings&q=${encodeURIComponent(company)}&booking=${id}`);
      const dialog = page.getByRole("dialog", { name: company });
      await expect(dialog).toContainText("2:00 PM – 2:20 PM (Coordinated Universal Time, UTC)");
      await expect(dialog).toContainText("Europe/Berlin");
      await expect(dialog.getByRole("link", { name: "Join link" })).toHaveAttribute("href", "https://meet.example/abc");
      await expect(dialog.getByRole("link", { name: "Reschedule" })).toHaveAttribute(
        "href",
        "https://calendly.example/reschedule/1",
      );
    });
  }
});

test.describe("Export CSV from the console (issue 19.6)", () => {
  for (const width of [390, 1280]) {
    test(`at ${width} px: the download holds the booking made in the test, as the filter shows it`, async ({
      page,
      context,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      const company = `Csv Co ${width} ${Date.now()}`;
      e2eQuery(
        `insert into bookings (id, email, full_name, company_name, package_type, package_price, total_amount, desired_start_date, target_audience, project_description)
         values (?, 'csv@example.com', '=cmd|calc', ?, 'growth', 850000, 850000, '2027-01-10', 'Founders', 'x')`,
        `csv-${width}-${Date.now()}`,
        company,
      );
      await signInAs(context, `csv-owner-${width}-${Date.now()}@example.com`, "super");
      await page.goto(`/admin?tab=bookings&q=${encodeURIComponent(company)}`);
      await page.locator("html[data-hydrated]").waitFor();
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("link", { name: "Export CSV" }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^bookings-\d{4}-\d{2}-\d{2}\.csv$/);
      const text = fs.readFileSync((await download.path())!, "utf8");
      const lines = text.split("\r\n").filter(Boolean);
      expect(lines).toHaveLength(2);
      expect(lines[1]).toContain(company);
      expect(lines[1]).toContain("'=cmd|calc");
    });
  }
});

test.describe("buyer care from the console (issue 19.7)", () => {
  for (const width of [390, 1280]) {
    test(`at ${width} px: resend the receipt, then revoke access and the buyer's next download is refused`, async ({
      page,
      context,
      browser,
    }) => {
      await page.setViewportSize({ width, height: 844 });
      // A buyer who owns Spark and has a download link in hand.
      const buyer = await browser.newContext();
      const buyerEmail = `care-${width}-${Date.now()}@example.com`;
      const { userId } = await signInAs(buyer, buyerEmail);
      const tpl = e2eQuery<{ id: string }>("select id from templates where slug = 'spark'")[0];
      const licenseKey = `CARE${width}-${Date.now()}`;
      e2eQuery(
        "insert into purchases (id, user_id, template_id, amount_paid, license_key) values (?, ?, ?, 6900, ?)",
        `care-${width}-${Date.now()}`,
        userId,
        tpl.id,
        licenseKey,
      );
      const origin = `http://localhost:${process.env.E2E_PORT}`;
      const download = () =>
        buyer.request.post("/api/trpc/downloads.create", {
          data: { templateId: tpl.id },
          headers: { "content-type": "application/json", Origin: origin },
        });
      const first = await download();
      expect(first.status()).toBe(200);
      const earlierLink = ((await first.json()) as { result: { data: { url: string } } }).result.data.url;
      expect((await buyer.request.get(earlierLink)).status()).toBe(200);

      await signInAs(context, `care-owner-${width}-${Date.now()}@example.com`, "admin");
      await page.goto(`/admin?tab=purchases&q=${encodeURIComponent(buyerEmail)}`);
      await page.locator("html[data-hydrated]").waitFor();
      const row = page.getByRole("row", { name: new RegExp(licenseKey) });
      await expect(row).toContainText("Active");
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

      // Resend receipt: a toast, and a new email with the license key and a download link that works.
      await row.getByRole("button", { name: /Resend receipt/ }).click();
      await expect(page.getByRole("status").filter({ hasText: `Receipt sent to ${buyerEmail}` })).toBeVisible();
      const mail = e2eQuery<{ text_body: string }>(
        "select text_body from email_outbox where to_email = ? and subject = 'Your receipt: Spark template' order by id desc",
        buyerEmail,
      );
      expect(mail).toHaveLength(1);
      expect(mail[0].text_body).toContain(`License key: ${licenseKey}`);
      const mailedLink = mail[0].text_body.match(/Download the files: (\S+)/)![1];
      expect((await buyer.request.get(mailedLink)).status()).toBe(200);

      // Revoke access, with a confirm that names the buyer and the template.
      const revokeButton = row.getByRole("button", { name: /Revoke access/ });
      await revokeButton.scrollIntoViewIfNeeded();
      const box = await revokeButton.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= width).toBe(true);
      await revokeButton.click();
      const dialog = page.getByRole("dialog", { name: "Revoke access" });
      await expect(dialog).toContainText(buyerEmail);
      await expect(dialog).toContainText("Spark");
      await dialog.getByRole("button", { name: "Revoke access" }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByRole("status").filter({ hasText: `Access revoked for ${buyerEmail}` })).toBeVisible();
      await expect(row).toContainText("Revoked");
      await expect(row.getByRole("button", { name: /Revoke access|Resend receipt/ })).toHaveCount(0);
      expect(e2eQuery("select status from purchases where license_key = ?", licenseKey)).toEqual([
        { status: "revoked" },
      ]);

      // The buyer's next download is refused: new links, the link in hand and the mailed one.
      expect((await download()).status()).toBe(403);
      for (const link of [earlierLink, mailedLink]) {
        const res = await buyer.request.get(link);
        expect(res.status()).toBe(403);
        expect(await res.text()).toContain("the studio revoked access to this purchase");
      }
      const buyerPage = await buyer.newPage();
      await buyerPage.goto("/templates/spark");
      await expect(buyerPage.getByRole("button", { name: "Purchase", exact: true })).toBeVisible();
      await buyer.close();
    });
  }
});
