import { expect, test } from "@playwright/test";
import { e2eQuery, latestMagicLink, signInAs } from "../helpers/e2e";

test.describe("magic link", () => {
  test("signs in with JavaScript, returns to the remembered page, and works only once", async ({ page, browser }) => {
    const email = `js-buyer-${Date.now()}@example.com`;
    await page.goto("/templates/atelier");
    await page.locator("html[data-hydrated]").waitFor();
    await page.getByRole("link", { name: "Sign In" }).click();
    const dialog = page.getByRole("dialog", { name: "Sign in to purchase" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Continue with Google" })).toBeDisabled();
    await expect(dialog).toContainText("Google sign-in is not configured");
    await dialog.getByLabel("Email").fill(email);
    await dialog.getByRole("button", { name: "Send magic link" }).click();
    const sent = page.getByRole("dialog", { name: "Check your email" });
    await expect(sent).toBeVisible();
    await expect(sent).toContainText(email);

    const link = latestMagicLink(email);
    expect(link.startsWith(`http://localhost:${process.env.E2E_PORT}/auth/callback?token=`)).toBe(true);
    await page.goto(link);
    await expect(page).toHaveURL(/\/templates\/atelier$/);
    await expect(page.getByRole("button", { name: "Purchase" }).first()).toBeVisible();

    const other = await browser.newContext();
    const p2 = await other.newPage();
    await p2.goto(link);
    await expect(p2).toHaveURL(/\/templates\?error=auth_failed/);
    await expect(p2.getByRole("alert")).toContainText("couldn't sign you in");
    await other.close();
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });
    test("the dialog opens from the server and the Continue button signs in", async ({ page }) => {
      const email = `nojs-buyer-${Date.now()}@example.com`;
      await page.goto("/dashboard");
      await expect(page).toHaveURL(/\/templates\?signin=required/);
      const dialog = page.getByRole("dialog", { name: "Sign in to purchase" });
      await dialog.getByLabel("Email").fill(email);
      await dialog.getByRole("button", { name: "Send magic link" }).click();
      await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
      await page.goto(latestMagicLink(email));
      await expect(page.getByRole("heading", { name: "Signing you in..." })).toBeVisible();
      await page.getByRole("button", { name: "Continue" }).click();
      // The remembered path was /dashboard, which sends buyers on to /templates.
      await expect(page).toHaveURL(/\/templates$/);
      await expect(page.locator("header").getByText(email).first()).toBeVisible();
    });
  });

  test("scanners, tampering, forged hosts and expiry cannot sign anyone in", async ({ request, page }) => {
    const email = `scan-${Date.now()}@example.com`;
    const res = await request.post("/auth/email", {
      form: { email },
      headers: { Origin: `http://localhost:${process.env.E2E_PORT}`, "X-Forwarded-Host": "evil.example" },
    });
    expect(res.status()).toBe(200);
    const link = latestMagicLink(email);
    expect(link).not.toContain("evil.example");
    // A GET (what a mail scanner does) consumes nothing.
    expect((await request.get(link)).status()).toBe(200);
    expect(e2eQuery("select used_at from auth_tokens where email = ?", email)).toEqual([{ used_at: null }]);
    // A tampered token fails.
    // (With JavaScript the Continue form submits itself.)
    await page.goto(link.replace(/token=./, "token=X"));
    await expect(page).toHaveURL(/error=auth_failed/);
    // An expired token fails.
    e2eQuery("update auth_tokens set expires_at = '2000-01-01T00:00:00.000Z' where email = ?", email);
    await page.goto(link);
    await expect(page).toHaveURL(/error=auth_failed/);
  });

  test("at most 5 links per address per hour, with a clear error and Retry-After", async ({ request }) => {
    const email = `flood-${Date.now()}@example.com`;
    const origin = { Origin: `http://localhost:${process.env.E2E_PORT}` };
    for (let i = 0; i < 5; i++)
      expect((await request.post("/auth/email", { form: { email }, headers: origin })).status()).toBe(200);
    const sixth = await request.post("/auth/email", { form: { email }, headers: origin });
    expect(sixth.status()).toBe(429);
    expect(sixth.headers()["retry-after"]).toBe("3600");
    expect(await sixth.text()).toContain("Too many sign-in links");
  });
});

test.describe("sessions and roles", () => {
  test("sign-out deletes the session so the old cookie stops working", async ({ page, context, browser }) => {
    const { sessionId } = await signInAs(context, `out-${Date.now()}@example.com`);
    const cookies = await context.cookies();
    await page.goto("/templates");
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
    expect(e2eQuery("select id from sessions where id = ?", sessionId)).toEqual([]);
    const replay = await browser.newContext();
    await replay.addCookies(cookies);
    const p = await replay.newPage();
    await p.goto("/dashboard");
    await expect(p).toHaveURL(/signin=required/);
    await replay.close();
  });

  test("buyers go to /templates and cannot open /admin", async ({ page, context }) => {
    await signInAs(context, `buyer-${Date.now()}@example.com`);
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/templates$/);
    await expect(page.locator("header").getByRole("link", { name: "Admin" })).toHaveCount(0);
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/templates$/);
  });

  test("admins go to /admin with their label; super admins are labelled so", async ({ page, context, browser }) => {
    await signInAs(context, `admin-${Date.now()}@example.com`, "admin");
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByText("Admin", { exact: true }).first()).toBeVisible();
    await expect(page.getByText("Super Admin")).toHaveCount(0);
    await page.goto("/templates");
    await page.locator("header").getByRole("link", { name: "Admin" }).click();
    await expect(page).toHaveURL(/\/admin$/);

    const sup = await browser.newContext();
    await signInAs(sup, `super-${Date.now()}@example.com`, "super");
    const p = await sup.newPage();
    await p.goto("/admin");
    await expect(p.getByText("Super Admin")).toBeVisible();
    await sup.close();
  });
});
