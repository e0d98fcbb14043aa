import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { strToU8, zipSync } from "fflate";
import { e2eDataDir, e2eQuery, signInAs } from "../helpers/e2e";

/** Strings SPEC.md names (§5 Admin uploads, §8 Error catalogue), as the product shows them. */

const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082",
  "hex",
);
const ZIP = Buffer.from(zipSync({ "index.html": strToU8("<!doctype html><title>Site</title>") }));
const origin = () => ({ Origin: `http://localhost:${process.env.E2E_PORT}` });
const stored = (bucket: string, rel: string) => path.join(e2eDataDir(), "storage", bucket, rel);

test.describe("sign-in dialog: a failed Google sign-in", () => {
  const GOOGLE_FAILED = "Failed to sign in with Google. Please try again.";

  test("shows the spec's message in the dialog's red box; closing drops it", async ({ page }) => {
    await page.goto("/templates?signin=required&error=google_failed");
    await page.locator("html[data-hydrated]").waitFor();
    const dialog = page.getByRole("dialog", { name: "Sign in to purchase" });
    await expect(dialog.getByRole("alert")).toHaveText(GOOGLE_FAILED);
    await dialog.getByRole("link", { name: "Close" }).click();
    await expect(dialog).toBeHidden();
    await expect(page).not.toHaveURL(/error=/);
    await page.getByRole("link", { name: "Sign in" }).click();
    await expect(page.getByRole("dialog", { name: "Sign in to purchase" })).toBeVisible();
    await expect(page.getByRole("dialog", { name: "Sign in to purchase" }).getByRole("alert")).toHaveCount(0);
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });
    test("the server renders the message", async ({ page }) => {
      await page.goto("/templates?signin=required&error=google_failed");
      await expect(page.getByRole("dialog", { name: "Sign in to purchase" }).getByRole("alert")).toHaveText(
        GOOGLE_FAILED,
      );
    });
  });

  test("other codes and free text in the query are never printed", async ({ page }) => {
    for (const [error, probe] of [
      ["Your account is locked, <b>call 555-0100</b>", "555-0100"],
      ["__proto__", "__proto__"],
    ]) {
      await page.goto(`/templates?signin=required&error=${encodeURIComponent(error)}`);
      const dialog = page.getByRole("dialog", { name: "Sign in to purchase" });
      await expect(dialog).toBeVisible();
      await expect(page.getByRole("alert")).toHaveCount(0);
      await expect(page.locator("body")).not.toContainText(probe);
    }
  });

  test("error=auth_failed keeps its banner outside the dialog", async ({ page }) => {
    await page.goto("/templates?error=auth_failed");
    await expect(page.getByRole("alert")).toContainText("couldn't sign you in");
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(page.locator("body")).not.toContainText(GOOGLE_FAILED);
  });
});

test.describe("admin uploads: who is refused with which message", () => {
  test("signed out: 401 'You must be an admin to upload files'; a buyer: 403 'Admin access required to upload files'", async ({
    context,
    playwright,
  }) => {
    const multipart = { files: { name: "shot.png", mimeType: "image/png", buffer: PNG } };
    const anon = await playwright.request.newContext({ baseURL: `http://localhost:${process.env.E2E_PORT}` });
    const out = await anon.post("/admin/upload?bucket=template-images&slug=x", { multipart, headers: origin() });
    expect(out.status()).toBe(401);
    expect(await out.json()).toEqual({ error: "You must be an admin to upload files" });
    await anon.dispose();

    await signInAs(context, `upload-buyer-${Date.now()}@example.com`);
    const res = await context.request.post("/admin/upload?bucket=template-images&slug=x", {
      multipart,
      headers: origin(),
    });
    expect(res.status()).toBe(403);
    expect(await res.json()).toEqual({ error: "Admin access required to upload files" });
  });
});

function seedBooking(company: string, files: { name: string; data: Buffer }[]) {
  const id = `b-${Date.now()}-${Math.random().toString(16).slice(2)}`;
  const rels = files.map((f, i) => `bookings/${id}/${1700000000000 + i}-${f.name}`);
  files.forEach((f, i) => {
    fs.mkdirSync(path.dirname(stored("booking-files", rels[i])), { recursive: true });
    fs.writeFileSync(stored("booking-files", rels[i]), f.data);
  });
  e2eQuery(
    `insert into bookings (id, email, full_name, company_name, package_type, package_price, total_amount, desired_start_date, target_audience, project_description, uploaded_files, uploaded_file_urls)
     values (?, 'client@example.com', 'Client Person', ?, 'growth', 850000, 850000, '2027-01-10', 'Founders', 'A site', ?, ?)`,
    id,
    company,
    JSON.stringify(files.map((f) => ({ name: f.name, size: f.data.length }))),
    JSON.stringify(rels),
  );
  return { id, rels };
}

async function openDetails(page: Page, id: string, company: string) {
  await page.goto(`/admin?tab=bookings&booking=${id}`);
  await page.locator("html[data-hydrated]").waitFor();
  return page.getByRole("dialog", { name: company });
}

test.describe("admin booking details: uploaded files", () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test("View opens an image in a new tab, Download saves the file; each says its own message when no link can be had", async ({
    page,
    context,
  }) => {
    const company = `Files ${Date.now()}`;
    const { id, rels } = seedBooking(company, [
      { name: "brand.png", data: PNG },
      { name: "brief.pdf", data: Buffer.from("%PDF-1.4\n%%EOF\n") },
    ]);
    await signInAs(context, `files-admin-${Date.now()}@example.com`, "admin");
    const details = await openDetails(page, id, company);
    await expect(details.getByRole("button", { name: "View brand.png" })).toBeVisible();
    await expect(details.getByRole("button", { name: "View brief.pdf" })).toHaveCount(0);

    const [tab] = await Promise.all([
      context.waitForEvent("page"),
      details.getByRole("button", { name: "View brand.png" }).click(),
    ]);
    await tab.waitForURL(/\/files\/booking-files\/.+brand\.png\?.*disposition=inline/);
    expect(await tab.evaluate(() => document.contentType)).toBe("image/png");
    await tab.close();

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      details.getByRole("button", { name: "Download brief.pdf" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("brief.pdf");
    await expect(details.getByRole("alert")).toHaveCount(0);

    // The stored files disappear: the server gives no link, and each button says what failed.
    for (const rel of rels) fs.rmSync(stored("booking-files", rel));
    await details.getByRole("button", { name: "View brand.png" }).click();
    await expect(details.getByRole("alert")).toHaveText("Failed to view file");
    await details.getByRole("button", { name: "Download brief.pdf" }).click();
    await expect(details.getByRole("alert")).toHaveText("Failed to download file");
    await expect.poll(() => context.pages().length).toBe(1);
  });

  test("a booking without files says so", async ({ page, context }) => {
    const company = `No files ${Date.now()}`;
    const { id } = seedBooking(company, []);
    await signInAs(context, `nofiles-admin-${Date.now()}@example.com`, "admin");
    const details = await openDetails(page, id, company);
    await expect(details.getByText("No files uploaded for this booking.")).toBeVisible();
  });
});

test.describe("admin template form: removing stored files", () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test("Remove deletes an uploaded image or archive; a failure says 'Failed to delete file'", async ({
    page,
    context,
  }) => {
    const email = `remove-admin-${Date.now()}@example.com`;
    const { userId } = await signInAs(context, email, "admin");
    await page.goto("/admin?tab=templates");
    await page.locator("html[data-hydrated]").waitFor();
    await page.getByRole("button", { name: "Add Template" }).click();
    const dialog = page.getByRole("dialog", { name: "Add Template" });
    await dialog.getByLabel("Name", { exact: true }).fill(`Removal ${Date.now()}`);

    await dialog.getByLabel(/Upload images/).setInputFiles([
      { name: "one.png", mimeType: "image/png", buffer: PNG },
      { name: "two.png", mimeType: "image/png", buffer: PNG },
    ]);
    const images = dialog.getByRole("list", { name: "Stored images" }).getByRole("listitem");
    await expect(images).toHaveCount(2);
    const [first, second] = (await dialog.getByLabel(/^Images/).inputValue()).split("\n");
    const firstPath = decodeURIComponent(first.replace("/files/template-images/", ""));
    const secondPath = decodeURIComponent(second.replace("/files/template-images/", ""));
    expect(fs.existsSync(stored("template-images", firstPath))).toBe(true);

    await dialog.getByRole("button", { name: `Remove ${firstPath}` }).click();
    await expect(images).toHaveCount(1);
    await expect(dialog.getByLabel(/^Images/)).toHaveValue(second);
    expect(fs.existsSync(stored("template-images", firstPath))).toBe(false);

    await dialog
      .getByLabel(/Upload archive/)
      .setInputFiles({ name: "site.zip", mimeType: "application/zip", buffer: ZIP });
    await expect(dialog.getByLabel("Template file")).toHaveValue(/\.zip$/);
    const archive = await dialog.getByLabel("Template file").inputValue();
    expect(fs.existsSync(stored("template-files", archive))).toBe(true);
    await dialog.getByRole("button", { name: `Remove ${archive}` }).click();
    await expect(dialog.getByLabel("Template file")).toHaveValue("");
    expect(fs.existsSync(stored("template-files", archive))).toBe(false);
    await expect(dialog.getByRole("alert")).toHaveCount(0);

    // The server decides: once this user is no longer an admin, nothing is deleted.
    e2eQuery("delete from admin_users where id = ?", userId);
    await dialog.getByRole("button", { name: `Remove ${secondPath}` }).click();
    await expect(dialog.getByRole("alert")).toHaveText("Failed to delete file");
    await expect(images).toHaveCount(1);
    expect(fs.existsSync(stored("template-images", secondPath))).toBe(true);
  });

  test("the delete procedure refuses paths outside the template buckets", async ({ context }) => {
    await signInAs(context, `trav-admin-${Date.now()}@example.com`, "admin");
    const call = (input: unknown) =>
      context.request.post("/api/trpc/admin.templates.deleteFile", {
        data: input,
        headers: { ...origin(), "Content-Type": "application/json" },
      });
    for (const p of ["../app.db", "../../app.db", "a/../../app.db", "../booking-files/x.png"]) {
      expect((await call({ bucket: "template-images", path: p })).status(), p).toBe(400);
    }
    expect((await call({ bucket: "booking-files", path: "x.png" })).status()).toBe(400);
    expect((await call({ bucket: "template-images", path: "never-uploaded.png" })).status()).toBe(404);
    expect(fs.existsSync(path.join(e2eDataDir(), "app.db"))).toBe(true);
  });
});
