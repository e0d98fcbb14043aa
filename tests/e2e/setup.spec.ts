/**
 * The first run (issue 29) as an owner meets it: a server started on an empty data folder prints a
 * setup link; the owner opens it, names the studio and is signed in as its super admin. The shared
 * e2e server cannot show this (its output is not read, and other tests make admins there), so each
 * test starts a server of its own, as the suite's does (E2E_SERVER=binary: dist/studio).
 */
import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { startOwnServer, type OwnServer } from "../helpers/own-server";

/** A production server on a fresh data folder, and the one setup link it printed. */
async function firstRunServer(): Promise<OwnServer & { link: string }> {
  const server = await startOwnServer();
  const out = server.output();
  // The server's log is JSON lines (decision 027): the messages, in order.
  const messages = out
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => String((JSON.parse(l) as { msg?: unknown }).msg ?? ""));
  const lines = messages.filter((l) => l.startsWith("[setup]"));
  expect(lines, out).toHaveLength(1);
  const link = /^\[setup\] No admin yet\. Open this link within 24 hours to set up your studio: (\S+)$/.exec(
    lines[0],
  )?.[1];
  expect(link, lines[0]).toMatch(new RegExp(`^${server.url}/setup\\?token=[\\w-]{43}$`));
  return { ...server, link: link! };
}

for (const width of [1280, 390]) {
  for (const javaScriptEnabled of [true, false]) {
    test(`at ${width} px, JavaScript ${javaScriptEnabled ? "on" : "off"}: the printed link sets up the studio and signs its owner in`, async ({
      browser,
    }) => {
      test.setTimeout(90_000);
      const server = await firstRunServer();
      const context = await browser.newContext({
        baseURL: server.url,
        viewport: { width, height: 844 },
        javaScriptEnabled,
      });
      try {
        const page = await context.newPage();
        const email = `owner-${width}-${javaScriptEnabled ? "js" : "nojs"}@example.com`;
        const opened = await page.goto(server.link);
        expect(opened?.status()).toBe(200);
        if (javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor();
        await expect(page).toHaveTitle(/Set up your studio/);
        await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
        await expect(page.getByRole("heading", { level: 1, name: "Set up your studio" })).toBeVisible();
        const name = page.getByLabel("Studio name");
        const mail = page.getByLabel("Your email");
        const submit = page.getByRole("button", { name: "Set up my studio" });

        // Nothing filled: both messages (from the browser's copy of the schema, or the server's 400).
        await submit.click();
        await expect(page.getByText("Studio name is required")).toBeVisible();
        await expect(page.getByText("Please enter a valid email")).toBeVisible();
        await expect(name).toHaveAttribute("aria-invalid", "true");

        // A bad email: its message, and the studio's name still typed.
        await name.fill("Atelier Nord");
        await mail.fill("owner-at-example");
        await submit.click();
        await expect(page.getByText("Please enter a valid email")).toBeVisible();
        await expect(page.getByText("Studio name is required")).toHaveCount(0);
        await expect(name).toHaveValue("Atelier Nord");
        expect(server.query("select id from admin_users")).toEqual([]);

        await mail.fill(email);
        await submit.click();
        await page.waitForURL("**/admin/settings");
        expect(server.query("select u.email, a.is_super_admin from admin_users a join users u on u.id = a.id")).toEqual(
          [{ email, is_super_admin: 1 }],
        );
        const studio = server.query<{ data: string }>("select data from studio_settings where section = 'studio'");
        expect(JSON.parse(studio[0].data)).toMatchObject({ name: "Atelier Nord" });
        expect((await context.cookies()).some((c) => c.name === "__studio_session")).toBe(true);
        // No email was needed to sign in.
        expect(server.query("select id from email_outbox")).toEqual([]);

        // Signed in: the console opens.
        const admin = await page.goto("/admin");
        expect(admin?.status()).toBe(200);
        await expect(page.getByRole("banner")).toContainText(email);
        await expect(page.getByRole("banner")).toContainText("Super Admin");

        // The link is spent.
        const again = await page.goto(server.link);
        expect(again?.status()).toBe(410);
        await expect(page.getByRole("heading", { name: "This setup link is no longer valid" })).toBeVisible();
        await expect(page.getByRole("button", { name: "Set up my studio" })).toHaveCount(0);
        await expect(page.getByText("studio admin login-link EMAIL")).toBeVisible();
      } finally {
        await context.close();
        await server.stop();
        fs.rmSync(server.dataDir, { recursive: true, force: true });
      }
    });
  }
}
