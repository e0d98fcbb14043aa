import { expect, test, type Page } from "@playwright/test";
import { e2eQuery, fakes, hydrated, packagesWithTier, signInAs } from "../helpers/e2e";

/** Issue 21: what a visitor meets after the first page, at the width where it was seen. */

test.describe("/packages on a phone (390 px)", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the running total stays in view while add-ons change; names stay within two lines", async ({ page }) => {
    await packagesWithTier(page, "Growth");
    const crm = page.getByRole("checkbox", { name: /^CRM integration/ });
    await crm.evaluate((e) => e.scrollIntoView({ block: "center" }));
    await crm.check();
    const sticky = page.getByTestId("calculator-sticky-total");
    await expect(sticky).toContainText("$10,500");
    await expect(sticky).toBeInViewport();
    // The estimate's own total is further down, out of view: the sticky one is what the visitor sees.
    await expect(page.getByTestId("calculator-total")).not.toBeInViewport();
    await page.getByRole("button", { name: "Increase quantity of Additional design concept" }).click();
    await expect(sticky).toContainText("$11,500");
    await expect(sticky).toBeInViewport();

    const lines = await page
      .locator('fieldset[data-tier="growth"] li label span.font-medium')
      .evaluateAll((names) =>
        names.map((n) => Math.round(n.getBoundingClientRect().height / parseFloat(getComputedStyle(n).lineHeight))),
      );
    expect(lines.length).toBeGreaterThan(3);
    for (const n of lines) expect(n).toBeLessThanOrEqual(2);
  });

  test("an add-on not chosen shows no quantity, only +; chosen, its quantity shows", async ({ page }) => {
    await packagesWithTier(page, "Growth");
    const box = page.getByRole("spinbutton", { name: "Additional design concept quantity" });
    await expect(box).toBeHidden();
    await expect(page.getByRole("button", { name: "Decrease quantity of Additional design concept" })).toBeHidden();
    await page.getByRole("button", { name: "Increase quantity of Additional design concept" }).click();
    await expect(box).toBeVisible();
    await expect(box).toHaveValue("1");
    await page.getByRole("checkbox", { name: /^Additional design concept/ }).uncheck();
    await expect(box).toBeHidden();
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });
    test("ticking an add-on shows its quantity box (by CSS alone)", async ({ page }) => {
      await page.goto("/packages");
      await page
        .getByRole("radio", { name: /Growth/ })
        .first()
        .check();
      const box = page.getByRole("spinbutton", { name: "Additional design concept quantity" });
      await expect(box).toBeHidden();
      await page.getByRole("checkbox", { name: /^Additional design concept/ }).check();
      await expect(box).toBeVisible();
    });
  });
});

test.describe("/packages at 1280 px", () => {
  test.use({ viewport: { width: 1280, height: 900 } });
  test("the estimate sits beside the add-ons; no sticky bar", async ({ page }) => {
    await page.goto("/packages");
    await hydrated(page);
    await expect(page.getByTestId("calculator-sticky-total")).toBeHidden();
  });
});

/** Whether two elements' boxes overlap. */
async function overlap(a: ReturnType<Page["locator"]>, b: ReturnType<Page["locator"]>) {
  const [x, y] = [await a.boundingBox(), await b.boundingBox()];
  if (!x || !y) throw new Error("not rendered");
  return x.x < y.x + y.width && y.x < x.x + x.width && x.y < y.y + y.height && y.y < x.y + x.height;
}

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 900 },
]) {
  test.describe(`details seen in screenshots at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("home: each case study's number is clear of its mock window; the offer says 'Limited time' once at most", async ({
      page,
    }) => {
      await page.goto("/");
      const arts = page.locator('[role="img"]:has([data-part="number"])');
      expect(await arts.count()).toBeGreaterThanOrEqual(3);
      for (const art of await arts.all()) {
        await art.scrollIntoViewIfNeeded();
        expect(await overlap(art.locator('[data-part="number"]'), art.locator('[data-part="window"]'))).toBe(false);
      }
      const banner = page.getByRole("complementary", { name: "Limited-time offer" });
      const text = (await banner.textContent()) ?? "";
      expect(text.match(/limited time/gi)?.length ?? 0).toBeLessThanOrEqual(1);
    });

    test("a case study: its art is not taller than the screen, metrics keep to one line, next and previous studies", async ({
      page,
    }) => {
      await page.goto("/work");
      const hrefs = await page
        .locator('main a[href^="/work/"]')
        .evaluateAll((as) => [...new Set(as.map((a) => a.getAttribute("href")!))]);
      expect(hrefs.length).toBeGreaterThanOrEqual(3);
      await page.goto(hrefs[0]);
      const art = page.locator('[role="img"]:has([data-part="number"])');
      const box = await art.boundingBox();
      expect(box!.height).toBeLessThanOrEqual(viewport.width === 1280 ? 600 : 320);
      for (const dd of await page.locator("main dl dd").all()) {
        const lines = await dd.evaluate(
          (e) => e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight),
        );
        expect(Math.round(lines), (await dd.textContent()) ?? "").toBe(1);
      }
      const more = page.getByRole("navigation", { name: "More case studies" });
      await expect(more.getByRole("link", { name: /Previous case study/ })).toHaveCount(0);
      await more.getByRole("link", { name: /Next case study/ }).click();
      await expect(page).toHaveURL(new RegExp(`${hrefs[1]}$`));
      await expect(more.getByRole("link", { name: /Previous case study/ })).toHaveAttribute("href", hrefs[0]);
    });

    test("/templates: titles in a row start level, a sale price beside the price, not above it", async ({ page }) => {
      test.skip(viewport.width < 640, "one card per row: nothing to line up");
      await page.goto("/templates");
      const cards = page.locator("main li.card");
      expect(await cards.count()).toBeGreaterThan(3);
      const rows = new Map<number, number[]>();
      for (const c of await cards.all()) {
        const [li, h3] = [await c.boundingBox(), await c.locator("h3").boundingBox()];
        if (!li || !h3) continue;
        const key = Math.round(li.y);
        rows.set(key, [...(rows.get(key) ?? []), Math.round(h3.y - li.y)]);
      }
      const sale = page.locator("main li.card:has(s)");
      expect(await sale.count()).toBeGreaterThan(0);
      for (const offsets of rows.values()) expect(Math.max(...offsets) - Math.min(...offsets)).toBeLessThanOrEqual(1);
      expect([...rows.values()].some((offsets) => offsets.length > 1)).toBe(true);
    });
  });
}

const sentTo = (email: string) =>
  e2eQuery<{ n: number }>("select count(*) as n from email_outbox where to_email = ?", email)[0].n;

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 900 },
]) {
  test.describe(`small states at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("'Check your email' offers Resend, within the sign-in limits, and Use another email", async ({ page }) => {
      const email = `resend-${viewport.width}-${Date.now()}@example.com`;
      await page.goto("/templates?signin=required");
      await hydrated(page);
      const dialog = page.getByRole("dialog", { name: "Sign in to purchase" });
      // The dialog's own code is lazy: until it has taken over, Send posts the plain form.
      await expect(dialog).toHaveAttribute("data-ready", "");
      await dialog.getByLabel("Email").fill(email);
      await dialog.getByRole("button", { name: "Send magic link" }).click();
      const sent = page.getByRole("dialog", { name: "Check your email" });
      await expect(sent).toContainText(email);
      await sent.getByRole("button", { name: "Resend" }).click();
      await expect(sent.getByText("We sent you a new link.")).toBeVisible();
      expect(sentTo(email)).toBe(2);
      // Five links an hour per address: the sixth is refused, in the panel, in words.
      for (let i = 0; i < 4; i++) {
        await sent.getByRole("button", { name: "Resend" }).click();
        await expect(sent.getByRole("button", { name: "Resend" })).toBeEnabled();
      }
      await expect(sent.getByRole("alert")).toHaveText(
        "Too many sign-in links requested. Please wait an hour and try again.",
      );
      expect(sentTo(email)).toBe(5);

      await sent.getByRole("link", { name: "Use another email" }).click();
      const form = page.getByRole("dialog", { name: "Sign in to purchase" });
      await expect(form.getByLabel("Email")).toHaveValue("");
      await expect(form.getByLabel("Email")).toBeFocused();
      const other = `other-${viewport.width}-${Date.now()}@example.com`;
      await form.getByLabel("Email").fill(other);
      await form.getByRole("button", { name: "Send magic link" }).click();
      await expect(page.getByRole("dialog", { name: "Check your email" })).toContainText(other);
    });

    test("the sign-in error banner offers to try again", async ({ page }) => {
      await page.goto("/templates?error=auth_failed");
      await hydrated(page);
      const banner = page.getByRole("alert").filter({ hasText: "couldn't sign you in" });
      await banner.getByRole("link", { name: "Try again" }).click();
      await expect(page.getByRole("dialog", { name: "Sign in to purchase" })).toBeVisible();
    });

    test("a signed-in buyer has their email and Sign out on every page", async ({ page, context }) => {
      const email = `menu-${viewport.width}-${Date.now()}@example.com`;
      await signInAs(context, email);
      for (const path of ["/", "/work", "/packages", "/process", "/booking", "/templates"]) {
        await page.goto(path);
        await expect(page.getByTestId("account-menu").locator("summary")).toHaveAccessibleName(`Account: ${email}`);
      }
      await page.goto("/packages");
      await hydrated(page);
      await page.getByTestId("account-menu").locator("summary").click();
      await expect(page.locator("header").getByText(`Signed in as ${email}`)).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(page.locator("header").getByText(`Signed in as ${email}`)).toBeHidden();
      await page.getByTestId("account-menu").locator("summary").click();
      await page.locator("header").getByRole("button", { name: "Sign out" }).click();
      await expect(page).toHaveURL(/\/templates$/);
      await expect(page.getByTestId("account-menu").locator("summary")).toHaveCount(0);
    });
  });
}

test.describe("small states without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("Resend and Use another email work as plain links and posts", async ({ page }) => {
    const email = `resend-nojs-${Date.now()}@example.com`;
    await page.goto("/templates?signin=required");
    const dialog = page.getByRole("dialog", { name: "Sign in to purchase" });
    await dialog.getByLabel("Email").fill(email);
    await dialog.getByRole("button", { name: "Send magic link" }).click();
    await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
    await page.getByRole("button", { name: "Resend" }).click();
    await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
    expect(sentTo(email)).toBe(2);
    await page.getByRole("link", { name: "Use another email" }).click();
    await expect(page.getByLabel("Email")).toHaveValue("");
  });

  test("the account menu opens without JavaScript", async ({ page, context }) => {
    const email = `menu-nojs-${Date.now()}@example.com`;
    await signInAs(context, email);
    await page.goto("/work");
    await page.getByTestId("account-menu").locator("summary").click();
    await expect(page.locator("header").getByRole("button", { name: "Sign out" })).toBeVisible();
  });
});

test("after a purchase the template page greets the buyer once", async ({ page, context, request }) => {
  await signInAs(context, `thanks-${Date.now()}@example.com`);
  await page.goto("/templates/marginalia");
  await hydrated(page);
  await page.getByRole("button", { name: "Purchase", exact: true }).click();
  await expect(page).toHaveURL(/\/pay\/cs_test_/);
  const sessionId = page.url().split("/pay/")[1];
  await request.post(`${fakes()}/pay/${sessionId}/complete`);
  await page.goto(`/templates/marginalia?session_id=${sessionId}`);
  await expect(page).toHaveURL(/\/templates\/marginalia$/);
  await expect(page.getByRole("status").filter({ hasText: "Thanks — your files are ready." })).toBeVisible();
  await expect(page.getByText("You own this template")).toBeVisible();
  await page.reload();
  await expect(page.getByText("You own this template")).toBeVisible();
  await expect(page.getByText("Thanks — your files are ready.")).toHaveCount(0);
});
