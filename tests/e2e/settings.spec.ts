import { expect, test, type Page } from "@playwright/test";
import { gradientPng, MB, pngOfSize, step1, steps2to4 } from "../helpers/booking-e2e";
import { startOwnServer, type OwnServer } from "../helpers/own-server";

/**
 * Issue 29: the owner makes the site theirs from the console, and every change is on the public
 * pages at the next load. Each test runs its own server on a fresh data folder: the studio's
 * settings change what every page shows, and the suite's other tests must not see it.
 */

const OWNER = "owner@ateliernord.test";
const SECTIONS = ["Studio", "Packages", "Promotion", "Case studies", "Testimonials", "Legal"] as const;

async function openSection(page: Page, name: (typeof SECTIONS)[number]) {
  await page
    .getByRole("navigation", { name: "Settings sections" })
    .getByRole("link", { name: new RegExp(`^${name}`) })
    .click();
  await expect(page.getByRole("heading", { level: 2, name })).toBeVisible();
}

/** Saves the section's form: the post is answered, then the toast says so. */
async function save(page: Page, toast: string) {
  const answered = page.waitForResponse(
    (r) => r.request().method() === "POST" && r.url().includes("/admin/settings") && r.status() === 200,
  );
  await page.getByRole("button", { name: "Save changes" }).click();
  await answered;
  await expect(page.getByRole("status").filter({ hasText: toast }).first()).toBeAttached();
  await expect(page.getByText(toast, { exact: true }).first()).toBeVisible();
}

/** The add-on row of the Packages form whose name field holds `name`. */
const addOnRow = (page: Page, name: string) => page.locator("li", { has: page.locator(`input[value="${name}"]`) });

for (const width of [1280, 390]) {
  test.describe(`Settings at ${width} px`, () => {
    test.use({ viewport: { width, height: width === 390 ? 844 : 900 } });
    let server: OwnServer;
    test.beforeEach(async () => {
      server = await startOwnServer();
    });
    test.afterEach(async () => {
      await server.stop();
    });

    test("renaming, a contact address, a price, an add-on, the promotion off, a case study with two pictures and a testimonial show on the public pages at the next load", async ({
      page,
      context,
    }, testInfo) => {
      test.setTimeout(120_000);
      const base = server.url;
      await server.signInAdmin(context, OWNER);
      await page.goto(`${base}/admin`);
      // A click before the console hydrates can be lost to it (as in the other console specs).
      await page.locator("html[data-hydrated]").waitFor();
      await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Settings" }).click();
      await expect(page).toHaveURL(/\/admin\/settings/);
      await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
      // Every section starts as the sample studio's; each has a screenshot.
      for (const name of SECTIONS) {
        await openSection(page, name);
        await expect(page.getByText("Sample content from the starter studio")).toBeVisible();
        await page.screenshot({
          path: testInfo.outputPath(`${width}-settings-${name.replace(" ", "-")}.png`),
          fullPage: true,
        });
      }

      // Studio: a new name and a contact address.
      await openSection(page, "Studio");
      await page.getByLabel("Studio name").fill("Atelier Nord");
      await page.getByLabel("Public contact email").fill("hello@ateliernord.test");
      await save(page, "Saved");
      await expect(page.getByTestId("last-saved")).toContainText(`Last saved by ${OWNER}`);

      // Packages: Essentials at $3,000, the blog add-on at $650.
      await openSection(page, "Packages");
      const essentials = page.getByRole("group", { name: "Essentials package" });
      await essentials.getByLabel("Price", { exact: true }).first().fill("3000");
      await addOnRow(page, "Blog setup").getByLabel("Price").fill("650");
      await save(page, "Saved");

      // Promotion off.
      await openSection(page, "Promotion");
      await page.getByLabel("Promotion on").uncheck();
      await save(page, "Saved");

      // A case study with two pictures.
      await openSection(page, "Case studies");
      await page.getByRole("link", { name: "Add a case study" }).click();
      await page.getByLabel("Title", { exact: true }).fill("A calmer shop for Birch & Co");
      await page.getByLabel("Client", { exact: true }).fill("Birch & Co");
      await page.getByLabel("Industry").fill("Retail");
      await page.getByLabel("Tags").fill("Shop, Brand");
      await page.getByLabel("Challenge").fill("Sales were stuck in marketplaces.");
      await page.getByLabel("Solution").fill("A focused storefront.");
      await page.getByLabel("Results").fill("Direct orders doubled.");
      await page.getByLabel("Metric 1 label").fill("Direct orders");
      await page.getByLabel("Metric 1 value").fill("2×");
      await page.getByLabel("Add pictures").setInputFiles([
        { name: "front.png", mimeType: "image/png", buffer: gradientPng(1200, 900, [246, 213, 196], [180, 66, 26]) },
        { name: "detail.png", mimeType: "image/png", buffer: gradientPng(1200, 900, [215, 220, 255], [67, 56, 202]) },
      ]);
      await page.getByLabel("Description of the new pictures").fill("The Birch & Co shop on a phone");
      await page.getByRole("button", { name: "Save changes" }).click();
      await expect(page.getByText("Saved: case study added").first()).toBeVisible();
      await expect(page.getByRole("list", { name: /Case studies, in the order/ })).toContainText(
        "A calmer shop for Birch & Co",
      );
      await page.screenshot({ path: testInfo.outputPath(`${width}-settings-case-studies-list.png`), fullPage: true });

      // The sample's testimonials cleared (one action per section), then one of the studio's own.
      await openSection(page, "Testimonials");
      await page.getByText("Sample content from the starter studio").click();
      await page.getByRole("button", { name: "Clear sample testimonials" }).click();
      await expect(page.getByText("No testimonials yet")).toBeVisible();
      await expect(page.getByText("Sample content from the starter studio")).toHaveCount(0);
      await page.getByRole("button", { name: "Add a testimonial" }).click();
      await page.getByLabel("Quote").fill("Calm, clear and on time.");
      await page.getByLabel("Name", { exact: true }).fill("Maja Lind");
      await page.getByLabel("Role or company").fill("Founder, Birch & Co");
      await save(page, "Saved");

      // The public pages at the next load.
      await page.goto(`${base}/`);
      const header = page.getByRole("banner");
      await expect(header.getByRole("link", { name: "Atelier Nord, home" })).toBeVisible();
      await expect(page).toHaveTitle(/Atelier Nord/);
      await expect(page.getByRole("contentinfo")).toContainText("hello@ateliernord.test");
      await expect(page.getByRole("contentinfo")).toContainText("© ");
      await expect(page.locator("body")).not.toContainText("Studio Rowan");
      await expect(page.locator("body")).not.toContainText("hello@studiorowan.example");
      await expect(page.getByRole("complementary", { name: "Limited-time offer" })).toHaveCount(0);
      await expect(page.getByRole("heading", { name: "What clients say" })).toBeVisible();
      await expect(page.getByText("Calm, clear and on time.")).toBeVisible();
      await expect(page.getByText("The process was the calmest website project")).toHaveCount(0);
      await expect(page.getByText("$3,000").first()).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath(`${width}-home-after.png`), fullPage: true });

      await page.goto(`${base}/packages`);
      await expect(page.getByRole("list").filter({ hasText: "Essentials" }).first()).toContainText("$3,000");
      await expect(page.getByText("40% OFF")).toHaveCount(0);
      await expect(page.locator('label[for="addon-blog-setup"]')).toContainText("$650");

      await page.goto(`${base}/work`);
      await page.getByRole("link", { name: "A calmer shop for Birch & Co" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "A calmer shop for Birch & Co" })).toBeVisible();
      const pictures = page.getByRole("img", { name: "The Birch & Co shop on a phone" });
      await expect(pictures).toHaveCount(2);
      await page.screenshot({ path: testInfo.outputPath(`${width}-case-study-after.png`), fullPage: true });
      for (const src of await pictures.evaluateAll((els) => els.map((e) => (e as HTMLImageElement).src))) {
        const res = await page.request.get(src);
        expect(res.status()).toBe(200);
        expect(res.headers()["content-type"]).toBe("image/png");
      }

      await page.goto(`${base}/process`);
      await expect(page.getByText("Calm, clear and on time.")).toBeVisible();
      await expect(page.getByText("The process was the calmest website project")).toHaveCount(0);

      await page.goto(`${base}/terms`);
      await expect(page.locator("article")).toContainText("Atelier Nord");
      await expect(page.locator("article")).not.toContainText("Studio Rowan");
    });

    test("bad input gets its message by the field and changes nothing", async ({ page, context }) => {
      test.setTimeout(90_000);
      const base = server.url;
      await server.signInAdmin(context, OWNER);
      await page.goto(`${base}/admin/settings?section=studio`);
      await page.getByLabel("Studio name").fill("");
      await page.getByLabel("Public contact email").fill("not-an-email");
      await page.getByLabel("Social link", { exact: true }).fill("javascript:alert(1)");
      await page.getByRole("button", { name: "Save changes" }).click();
      await expect(page.getByText("Studio name is required")).toBeVisible();
      await expect(page.getByText("Please enter a valid email")).toBeVisible();
      await expect(page.getByText("Links must start with https:// or http://")).toBeVisible();
      await expect(page.getByLabel("Studio name")).toHaveAttribute("aria-invalid", "true");

      await page.goto(`${base}/admin/settings?section=packages`);
      await page
        .getByRole("group", { name: "Essentials package" })
        .getByLabel("Price", { exact: true })
        .first()
        .fill("1000001");
      for (const name of ["Essentials package", "Growth package", "Custom package"])
        await page.getByRole("group", { name }).getByLabel("Offered").uncheck();
      await page.getByRole("button", { name: "Save changes" }).click();
      await expect(page.getByText("Enter a whole amount from $0 to $999,999")).toBeVisible();
      await expect(page.getByText("Offer at least one package")).toBeVisible();

      // Pictures are checked by their bytes on the server: an SVG, a text file named .png, one over 10 MB.
      await page.goto(`${base}/admin/settings?section=caseStudies&edit=new`);
      const fill = async () => {
        await page.getByLabel("Title", { exact: true }).fill("Refused pictures");
        await page.getByLabel("Client", { exact: true }).fill("Client");
        await page.getByLabel("Industry").fill("Retail");
        await page.getByLabel("Challenge").fill("c");
        await page.getByLabel("Solution").fill("s");
        await page.getByLabel("Results").fill("r");
        await page.getByLabel("Description of the new pictures").fill("A picture");
      };
      const refused: [string, Buffer, string][] = [
        [
          "logo.svg",
          Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
          "logo.svg is not a PNG, JPEG or WebP image",
        ],
        ["fake.png", Buffer.from("not really a png"), "fake.png is not a PNG, JPEG or WebP image"],
        ["big.png", pngOfSize(10 * MB + 1), "big.png is over 10 MB"],
      ];
      for (const [name, buffer, message] of refused) {
        await fill();
        await page.getByLabel("Add pictures").setInputFiles({ name, mimeType: "image/png", buffer });
        await page.getByRole("button", { name: "Save changes" }).click();
        await expect(page.getByText(message)).toBeVisible();
        // What was typed is still there.
        await expect(page.getByLabel("Title", { exact: true })).toHaveValue("Refused pictures");
      }

      // Nothing was saved: every section is still the sample's, no picture was kept.
      expect(server.query("select section from studio_settings")).toEqual([]);
      await page.goto(`${base}/`);
      await expect(page.getByRole("banner").getByRole("link", { name: "Studio Rowan, home" })).toBeVisible();
      await expect(page.getByText("$2,500").first()).toBeVisible();
    });

    test("a booking made without JavaScript after a price change stores the new price; an older booking keeps its own", async ({
      browser,
    }) => {
      test.setTimeout(120_000);
      const base = server.url;
      const book = async (email: string) => {
        const visitor = await browser.newContext({ javaScriptEnabled: false, viewport: { width, height: 900 } });
        const page = await visitor.newPage();
        await page.goto(`${base}/booking`);
        await step1(page, email, "Growth");
        await steps2to4(page);
        await page.getByRole("checkbox", { name: /^CRM integration/ }).check();
        await page.getByRole("button", { name: "Next" }).click();
        await expect(page).toHaveURL(/step=5/);
        await page.getByRole("button", { name: "Next" }).click();
        await expect(page).toHaveURL(/step=6/);
        const total = await page.getByTestId("review-total").textContent();
        await page.getByRole("button", { name: "Confirm booking" }).click();
        await expect(page).toHaveURL(/\/booking\/success/);
        await visitor.close();
        return total;
      };
      expect(await book("before@example.com")).toBe("$10,500");

      const owner = await browser.newContext({ viewport: { width, height: 900 } });
      await server.signInAdmin(owner, OWNER);
      const page = await owner.newPage();
      await page.goto(`${base}/admin/settings?section=packages`);
      const growth = page.getByRole("group", { name: "Growth package" });
      await growth.getByLabel("Price", { exact: true }).first().fill("9000");
      await addOnRow(page, "CRM integration").getByLabel("Price").fill("2500");
      await save(page, "Saved");
      await owner.close();

      expect(await book("after@example.com")).toBe("$11,500");
      const rows = server.query<{ email: string; package_price: number; total_amount: number; addons: string }>(
        "select email, package_price, total_amount, addons from bookings order by created_at",
      );
      expect(rows.map((r) => [r.email, r.package_price, r.total_amount])).toEqual([
        ["before@example.com", 850000, 1050000],
        ["after@example.com", 900000, 1150000],
      ]);
      expect(JSON.parse(rows[0].addons)).toEqual([
        { id: "crm-integration", quantity: 1, name: "CRM integration", price: 200000 },
      ]);
      expect(JSON.parse(rows[1].addons)).toEqual([
        { id: "crm-integration", quantity: 1, name: "CRM integration", price: 250000 },
      ]);
    });

    test("removed sample templates stay removed across a restart", async ({ page, context }) => {
      test.setTimeout(90_000);
      const base = server.url;
      await server.signInAdmin(context, OWNER);
      await page.goto(`${base}/templates`);
      expect(server.query("select count(*) as n from templates where sample = 1")).toEqual([{ n: 10 }]);
      // A fresh shop has no invented figures: no ratings, no sales, each card says "New".
      await expect(page.getByTestId("template-grid").locator(":scope > li")).toHaveCount(6);
      await expect(page.locator("main")).not.toContainText(/\d sales?\b/);
      await expect(page.locator("main")).not.toContainText(/\d\.\d \(\d+\)/);
      await expect(page.getByTestId("template-grid").getByText("New", { exact: true })).toHaveCount(6);

      await page.goto(`${base}/admin?tab=templates`);
      const notice = page.getByRole("region", { name: "Sample templates" });
      await expect(notice).toContainText("10 sample templates");
      await notice.getByRole("button", { name: "Remove sample templates" }).click();
      await page
        .getByRole("dialog", { name: "Remove sample templates?" })
        .getByRole("button", { name: "Remove sample templates" })
        .click();
      await expect(page.getByText("Removed 10 sample templates", { exact: true })).toBeVisible();
      await expect(notice).toHaveCount(0);
      expect(server.query("select slug from templates")).toEqual([]);

      await server.restart();
      expect(server.query("select slug from templates")).toEqual([]);
      await page.goto(`${base}/templates`);
      await expect(page.getByText("No templates for sale yet.")).toBeVisible();
      await page.goto(`${base}/templates/atelier`);
      await expect(page.getByText("Template not found")).toBeVisible();
    });
  });
}
