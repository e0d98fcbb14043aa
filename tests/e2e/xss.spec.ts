import { expect, test, type Page } from "@playwright/test";
import { inDays, scheduleInCalendar } from "../helpers/booking-e2e";
import { e2eQuery, settled, signInAs } from "../helpers/e2e";

/** Breaks out of attributes, inline JSON and markup if anything renders it unescaped. */
const PAYLOAD = `</script><script>window.__xss=1</script><img src=x onerror="window.__xss=2">"'&<b>bold</b>`;

/** Nothing ran and nothing was injected: no flag, no dialog, no element made from the payload. */
async function expectInert(page: Page, dialogs: string[]) {
  await settled(page);
  expect(await page.locator('img[src="x"], b:text-is("bold")').count()).toBe(0);
  expect(
    await page.evaluate(() =>
      Array.from(document.scripts).some(
        (s) =>
          s.textContent?.includes("window.__xss=1") && !s.type.includes("json") && !s.textContent.includes("\\u003c"),
      ),
    ),
  ).toBe(false);
  if (await page.evaluate(() => document.documentElement.hasAttribute("data-hydrated"))) {
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  }
  expect(dialogs).toEqual([]);
}

function watchDialogs(page: Page) {
  const dialogs: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  return dialogs;
}

test("script and HTML typed into the booking render as text in the wizard, the admin console and the emails", async ({
  page,
  context,
}) => {
  test.setTimeout(60_000);
  const dialogs = watchDialogs(page);
  const email = `xss-${Date.now()}@example.com`;
  await page.goto("/booking?tier=growth");
  await page.locator("html[data-hydrated]").waitFor();
  await page.getByLabel("Your name").fill(PAYLOAD);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Company").fill(`Acme ${PAYLOAD}`);
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page).toHaveURL(/step=2/);
  await page.getByLabel("This is a new site").check();
  await page.getByRole("radio", { name: "Lead Generation" }).check();
  await page.getByLabel("Who is your target audience?").fill(PAYLOAD);
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page).toHaveURL(/step=3/);
  await page.getByLabel("Inspiration website 1").fill("https://linear.app");
  await page.getByLabel("Must-have features").fill(PAYLOAD);
  await page.getByLabel("Nice-to-have features").fill(PAYLOAD);
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page).toHaveURL(/step=4/);
  await page.getByLabel("Preferred start date").fill(inDays(30));
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page).toHaveURL(/step=5/);
  await expect(page.getByRole("heading", { name: "Brand assets" })).toBeVisible();
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page).toHaveURL(/step=6/);

  // The review, server-rendered and hydrated, shows the text as typed.
  await page.reload();
  await page.locator("html[data-hydrated]").waitFor();
  await expect(page.getByText(`Acme ${PAYLOAD}`, { exact: true })).toBeVisible();
  await expectInert(page, dialogs);

  await page.getByRole("button", { name: "Choose a time" }).click();
  await scheduleInCalendar(page);
  // The confirm may wait up to 3 s for Calendly and 3 s for mail by design.
  await expect(page).toHaveURL(/\/booking\/success/, { timeout: 20_000 });
  const [booking] = e2eQuery<{ id: string; full_name: string }>(
    "select id, full_name from bookings where email = ?",
    email,
  );
  expect(booking.full_name).toBe(PAYLOAD);

  const mails = e2eQuery<{ html_body: string; text_body: string }>(
    "select html_body, text_body from email_outbox where text_body like ?",
    `%${email}%`,
  );
  expect(mails.length).toBe(2);
  for (const m of mails) {
    expect(m.html_body).not.toContain("<script>window.__xss");
    expect(m.html_body).not.toContain("<img src=x");
    expect(m.html_body).toContain("&lt;/script&gt;&lt;script&gt;window.__xss=1&lt;/script&gt;");
  }

  await signInAs(context, `xss-admin-${Date.now()}@example.com`, "super");
  await page.goto("/admin?tab=bookings");
  await page.locator("html[data-hydrated]").waitFor();
  const row = page.getByRole("row", { name: /Acme <\/script>/ });
  await expect(row).toBeVisible();
  await row.getByRole("button", { name: "View details" }).click();
  const details = page.getByRole("dialog");
  await expect(details.getByText(PAYLOAD, { exact: true }).first()).toBeVisible();
  await expectInert(page, dialogs);
});

test("script and HTML in a template render as text in the shop and the admin console", async ({ page, context }) => {
  const dialogs = watchDialogs(page);
  await signInAs(context, `xss-owner-${Date.now()}@example.com`, "super");
  await page.goto("/admin?tab=templates");
  await page.locator("html[data-hydrated]").waitFor();
  const name = `Evil ${Date.now()} </script><img src=x onerror="window.__xss=2">`;
  const res = await page.request.post("/api/trpc/admin.templates.create", {
    headers: { "Content-Type": "application/json" },
    data: {
      name,
      tagline: PAYLOAD,
      description: PAYLOAD,
      category: "saas",
      price: "49",
      features: PAYLOAD,
      included: PAYLOAD,
      techStack: "<svg onload=alert(1)>",
      tags: "<i>tag</i>",
    },
  });
  expect(res.status()).toBe(200);
  const [tpl] = e2eQuery<{ slug: string }>("select slug from templates where name = ?", name);
  expect(tpl.slug).toMatch(/^[a-z0-9-]+$/);

  for (const url of ["/templates", `/templates/${tpl.slug}`, "/admin?tab=templates"]) {
    await page.goto(url);
    await page.locator("html[data-hydrated]").waitFor();
    await expect(page.getByText(name, { exact: true }).first()).toBeVisible();
    await expectInert(page, dialogs);
  }
  const admin = await page.request.fetch("/api/trpc/admin.templates.delete", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    data: { id: e2eQuery<{ id: string }>("select id from templates where slug = ?", tpl.slug)[0].id },
  });
  expect(admin.status()).toBe(200);
});
