import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { e2eDataDir, e2eQuery, signInAs } from "../helpers/e2e";

const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082",
  "hex",
);

function seedBooking(company: string) {
  const id = `b-${Date.now()}-${Math.random().toString(16).slice(2)}`;
  const rel = `bookings/${id}/1700000000000-brand.png`;
  const file = path.join(e2eDataDir(), "storage", "booking-files", rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, PNG);
  e2eQuery(
    `insert into bookings (id, email, full_name, company_name, package_type, package_price, total_amount, desired_start_date, target_audience, project_description, uploaded_files, uploaded_file_urls)
     values (?, 'client@example.com', 'Client Person', ?, 'growth', 850000, 850000, '2027-01-10', 'Founders', 'Must-have features: a blog', ?, ?)`,
    id,
    company,
    JSON.stringify([{ name: "brand.png", size: PNG.length }]),
    JSON.stringify([rel]),
  );
  return { id, file };
}

test.describe("admin console", () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test("bookings: status, two payments, details with a file, mark contacted, delete with its files", async ({
    page,
    context,
    request,
  }) => {
    const company = `Acme ${Date.now()}`;
    const { id, file } = seedBooking(company);
    await signInAs(context, `boss-${Date.now()}@example.com`, "super");
    await page.goto("/admin?tab=bookings");
    await page.locator("html[data-hydrated]").waitFor();
    const row = page.getByRole("row", { name: new RegExp(company) });
    await row.getByRole("combobox").selectOption("in_progress");
    await expect
      .poll(() => e2eQuery<{ status: string }>("select status from bookings where id = ?", id)[0].status)
      .toBe("in_progress");

    for (const amount of ["1700", "250.50"]) {
      await row.getByRole("button", { name: "Record payment" }).click();
      const dialog = page.getByRole("dialog", { name: "Record Payment" });
      await expect(dialog.getByRole("button", { name: "Record Payment" })).toBeDisabled();
      await dialog.getByLabel("Amount (USD)").fill(amount);
      await dialog.getByRole("button", { name: "Record Payment" }).click();
      await expect(dialog).toBeHidden();
    }
    await expect(row.getByTestId("booking-paid")).toHaveText("$1,950.50 paid");
    const b = e2eQuery<{ amount_paid: number; payment_history: string; payment_status: string }>(
      "select amount_paid, payment_history, payment_status from bookings where id = ?",
      id,
    )[0];
    expect(b.amount_paid).toBe(195050);
    expect(JSON.parse(b.payment_history).map((p: { amount: number }) => p.amount)).toEqual([170000, 25050]);
    expect(b.payment_status).toBe("partial");

    await row.getByRole("button", { name: "View details" }).click();
    const details = page.getByRole("dialog", { name: company });
    await expect(details).toContainText("Growth Package");
    // Download asks for a fresh signed link and saves the file under its uploaded name.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      details.getByRole("button", { name: "Download" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("brand.png");
    const res = await request.get(download.url());
    expect(res.status()).toBe(200);
    expect(res.headers()["content-disposition"]).toContain('filename="brand.png"');
    await details.getByRole("button", { name: "Mark as Contacted" }).click();
    await expect(details).toBeHidden();
    await expect
      .poll(() => e2eQuery<{ status: string }>("select status from bookings where id = ?", id)[0].status)
      .toBe("contacted");

    await row.getByRole("button", { name: "Delete" }).click();
    const del = page.getByRole("dialog", { name: "Delete Booking" });
    await del.getByLabel("Type DELETE to confirm").fill("delete");
    await expect(del.getByRole("button", { name: "Delete Booking" })).toBeDisabled();
    await del.getByLabel("Type DELETE to confirm").fill("DELETE");
    await del.getByRole("button", { name: "Delete Booking" }).click();
    await expect(page.getByRole("row", { name: new RegExp(company) })).toHaveCount(0);
    expect(e2eQuery("select id from bookings where id = ?", id)).toEqual([]);
    expect(fs.existsSync(file)).toBe(false);
  });

  test("templates: add with an uploaded image, feature it, see it in the shop, delete it", async ({
    page,
    context,
  }) => {
    const name = `Orbit ${Date.now()}`;
    await signInAs(context, `boss2-${Date.now()}@example.com`, "admin");
    await page.goto("/admin?tab=templates");
    await page.locator("html[data-hydrated]").waitFor();
    await page.getByRole("button", { name: "Add Template" }).click();
    const dialog = page.getByRole("dialog", { name: "Add Template" });
    await dialog.getByLabel("Name", { exact: true }).fill(name);
    await dialog.getByLabel("Tagline").fill("A template made in a test");
    await dialog.getByLabel("Description").fill("Made by the admin e2e test.");
    await dialog.getByLabel("Category").selectOption("blog");
    await dialog.getByLabel("Price ($)", { exact: true }).fill("79.5");
    await dialog.getByLabel("Original Price ($)").fill("99");
    await dialog.getByLabel(/^Features/).fill("Fast\nAccessible");
    await dialog.getByLabel(/^What's Included/).fill("Source files");
    await dialog
      .getByLabel(/Upload images/)
      .setInputFiles({ name: "fake.png", mimeType: "image/png", buffer: Buffer.from("<script>alert(1)</script>") });
    await expect(dialog.getByRole("alert")).toHaveText("Only image files are allowed");
    await dialog.getByLabel(/Upload images/).setInputFiles({ name: "shot.png", mimeType: "image/png", buffer: PNG });
    await expect(dialog.getByLabel(/^Images/)).toHaveValue(/\/files\/template-images\/.+-\d+-[0-9a-f]+\.png/);
    await dialog.getByRole("button", { name: "Add Template" }).click();
    await expect(dialog).toBeHidden();
    const row = page.getByRole("row", { name: new RegExp(name) });
    await expect(row).toContainText("On Sale");
    await expect(row).toContainText("$79.50");
    await row.getByRole("button", { name: /Edit/ }).click();
    const edit = page.getByRole("dialog", { name: `Edit ${name}` });
    await expect(edit.getByLabel("Price ($)", { exact: true })).toHaveValue("79.50");
    await edit.getByLabel("Price ($)", { exact: true }).fill("89");
    await edit.getByLabel("Original Price ($)").fill("");
    await edit.getByRole("button", { name: "Save changes" }).click();
    await expect(edit).toBeHidden();
    await expect(row).toContainText("$89.00");
    await expect(row).not.toContainText("On Sale");
    expect(e2eQuery("select price, original_price, on_sale from templates where name = ?", name)).toEqual([
      { price: 8900, original_price: null, on_sale: 0 },
    ]);
    await row.getByRole("checkbox").check();
    await expect
      .poll(() => e2eQuery<{ featured: number }>("select featured from templates where name = ?", name)[0]?.featured)
      .toBe(1);

    const slug = e2eQuery<{ slug: string }>("select slug from templates where name = ?", name)[0].slug;
    await page.goto("/templates?category=blog");
    await expect(page.getByTestId("template-grid")).toContainText(name);
    await page.goto(`/templates/${slug}`);
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();

    await page.goto("/admin?tab=templates");
    page.once("dialog", (d) => d.accept());
    await page
      .getByRole("row", { name: new RegExp(name) })
      .getByRole("button", { name: /Delete/ })
      .click();
    await expect(page.getByRole("row", { name: new RegExp(name) })).toHaveCount(0);
    expect(e2eQuery("select id from templates where name = ?", name)).toEqual([]);
  });

  test("overview and purchases screens render, and the screen is kept in the URL", async ({ page, context }) => {
    await signInAs(context, `boss3-${Date.now()}@example.com`, "admin");
    await page.goto("/admin");
    for (const title of ["Total Revenue", "Total Sales", "Total Bookings", "Bookings Revenue"])
      await expect(page.getByText(title, { exact: true })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Recent purchases" })).toBeVisible();
    await page.getByRole("link", { name: "Purchases" }).click();
    await expect(page).toHaveURL(/\/admin\/purchases$/);
    await page.reload();
    await expect(page.getByRole("link", { name: "Purchases" })).toHaveAttribute("aria-current", "page");
    await page.goBack();
    await expect(page).toHaveURL(/\/admin$/);
  });

  test("an old /admin?tab= address opens its screen with its other parameters; the nav marks the screen", async ({
    page,
    context,
  }) => {
    await signInAs(context, `boss4-${Date.now()}@example.com`, "admin");
    await page.goto("/admin?tab=bookings&q=nobody-books-this");
    await expect(page).toHaveURL(/\/admin\/bookings\?q=nobody-books-this$/);
    await expect(page.getByLabel("Search bookings")).toHaveValue("nobody-books-this");
    const nav = page.getByRole("navigation", { name: "Admin sections" });
    await expect(nav.locator('[aria-current="page"]')).toHaveText("Bookings");
    await page.goto("/admin?tab=overview");
    await expect(page).toHaveURL(/\/admin$/);
    await expect(nav.locator('[aria-current="page"]')).toHaveText("Overview");
    await page.goto("/admin/settings");
    await expect(nav.locator('[aria-current="page"]')).toHaveText("Settings");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Settings");
  });

  test("the template form says under each field what is missing, in the server's words, before anything is sent", async ({
    page,
    context,
  }) => {
    await signInAs(context, `boss5-${Date.now()}@example.com`, "admin");
    await page.goto("/admin/templates");
    await page.locator("html[data-hydrated]").waitFor();
    const before = e2eQuery<{ n: number }>("select count(*) as n from templates")[0].n;
    await page.getByRole("button", { name: "Add Template" }).click();
    const dialog = page.getByRole("dialog", { name: "Add Template" });
    await dialog.getByRole("button", { name: "Add Template" }).click();
    for (const message of [
      "Name is required",
      "Tagline is required",
      "Description is required",
      "Features are required",
    ])
      await expect(dialog.getByText(message, { exact: true })).toBeVisible();
    await expect(dialog.getByLabel("Name", { exact: true })).toHaveAttribute("aria-invalid", "true");
    await dialog.getByLabel("Name", { exact: true }).fill("Half done");
    await expect(dialog.getByText("Name is required", { exact: true })).toHaveCount(0);
    await dialog.getByLabel("Price ($)", { exact: true }).fill("100001");
    await dialog.getByRole("button", { name: "Add Template" }).click();
    await expect(dialog.getByText("Price must be at most $100,000", { exact: true })).toBeVisible();
    expect(e2eQuery<{ n: number }>("select count(*) as n from templates")[0].n).toBe(before);
  });
});
