import { expect, test, type Page } from "@playwright/test";
import { PNG, scheduleInCalendar, step1, steps2to4 } from "../helpers/booking-e2e";
import { e2eQuery, recordConfirms } from "../helpers/e2e";

test.describe("booking without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("six plain form posts save one booking priced by the server, with uploads", async ({ page }) => {
    // Eleven plain page loads and an 11 MB upload: a busy CI host took 33 s once.
    test.setTimeout(60_000);
    const email = `nojs-${Date.now()}@example.com`;
    await page.goto("/booking");
    await page.getByRole("button", { name: "Next" }).click();
    for (const m of ["Please select a package", "Name is required", "Email is required", "Company name is required"]) {
      await expect(page.getByText(m, { exact: true })).toBeVisible();
    }
    await step1(page, email);
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page.getByText("Please select a primary goal")).toBeVisible();
    await expect(page.getByText('Website URL is required, or check "new site"')).toBeVisible();
    await steps2to4(page);
    await page.getByRole("checkbox", { name: /^Additional design concept/ }).check();
    await page.getByRole("spinbutton").first().fill("2");
    await page.getByRole("checkbox", { name: /^CRM integration/ }).check();
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page).toHaveURL(/step=5/);

    // Uploads: a wrong type is refused by content, a good file is listed, too many are refused.
    await page
      .getByLabel("Choose files")
      .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: Buffer.from("not really a png") });
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await expect(page.getByRole("alert")).toContainText("Failed to upload logo.png");
    await page.getByLabel("Choose files").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: PNG });
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await expect(page.getByRole("list", { name: "Uploaded files" })).toContainText("logo.png");
    await page
      .getByLabel("Choose files")
      .setInputFiles([1, 2, 3, 4, 5].map((i) => ({ name: `extra-${i}.png`, mimeType: "image/png", buffer: PNG })));
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await expect(page.getByText("Maximum 5 files allowed")).toBeVisible();
    await page.getByLabel("Choose files").setInputFiles({
      name: "huge.pdf",
      mimeType: "application/pdf",
      buffer: Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.alloc(10 * 1024 * 1024 + 10)]),
    });
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await expect(page.getByText("huge.pdf exceeds 10MB limit")).toBeVisible();
    await page.getByRole("button", { name: "Next" }).click();

    await expect(page).toHaveURL(/step=6/);
    await expect(page.getByTestId("review-total")).toHaveText("$12,500");
    await expect(page.getByText("free 20-minute discovery call")).toBeVisible();
    await page.getByRole("button", { name: "Confirm booking" }).click();
    await expect(page).toHaveURL(/\/booking\/success/);
    await expect(page.getByRole("heading", { name: "You're all set!" })).toBeVisible();

    const rows = e2eQuery<Record<string, unknown>>("select * from bookings where email = ?", email);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      package_type: "growth",
      package_price: 850000,
      total_amount: 1250000,
      amount_paid: 0,
      payment_status: "unpaid",
      status: "pending",
      timeline_urgency: "rush",
    });
    expect(JSON.parse(rows[0].addons as string)).toEqual([
      { id: "additional-concept", quantity: 2, name: "Additional design concept", price: 100000 },
      { id: "crm-integration", quantity: 1, name: "CRM integration", price: 200000 },
    ]);
    expect(JSON.parse(rows[0].uploaded_files as string)).toEqual([{ name: "logo.png", size: PNG.length }]);
    expect(JSON.parse(rows[0].uploaded_file_urls as string)[0]).toMatch(/^bookings\/[0-9a-f-]+\/\d+-logo\.png$/);
    const mails = e2eQuery<{ to_email: string }>(
      "select to_email from email_outbox where text_body like ?",
      `%${email}%`,
    );
    expect(mails.map((m) => m.to_email).sort()).toEqual([email, "hello@studiorowan.example"].sort());
  });

  test("a selection from /packages arrives in steps 1 and 4", async ({ page }) => {
    await page.goto("/packages");
    await page
      .getByRole("radio", { name: /Essentials/ })
      .first()
      .check();
    await page.getByRole("checkbox", { name: /^Additional page/ }).check();
    await page.getByRole("spinbutton", { name: "Additional page quantity" }).fill("3");
    await page.getByLabel(/Yes! Feature my site/).check();
    await page.getByRole("button", { name: "Continue to booking" }).click();
    await expect(page).toHaveURL(/\/booking\?/);
    await expect(page.getByRole("radio", { name: /Essentials/ })).toBeChecked();
    await step1(page, `prefill-${Date.now()}@example.com`, "Essentials");
    await steps2to4(page);
    await expect(page.getByRole("checkbox", { name: /^Additional page/ })).toBeChecked();
    await expect(page.getByRole("spinbutton").first()).toHaveValue("3");
    await expect(page.getByLabel(/Get 40% off Essentials Package/)).toBeChecked();
    await expect(page.getByTestId("booking-total")).toHaveText("$1,950");
  });

  test("locked steps redirect to the first incomplete one", async ({ page }) => {
    const res = await page.goto("/booking?step=4");
    expect(page.url()).toMatch(/step=1$/);
    expect(res?.status()).toBe(200);
    await expect(page.getByRole("navigation", { name: "Booking steps" }).getByText("(locked)")).toHaveCount(5);
  });
});

test.describe("booking with JavaScript", () => {
  test("validates instantly, restores after reload, and confirms from the calendar's own origin only", async ({
    page,
  }) => {
    const email = `js-${Date.now()}@example.com`;
    await page.goto("/booking?tier=essentials");
    await page.locator("html[data-hydrated]").waitFor();
    await expect(page.getByRole("radio", { name: /Essentials/ })).toBeChecked();
    let posted = false;
    page.on("request", (r) => {
      if (r.method() === "POST") posted = true;
    });
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page.getByText("Name is required", { exact: true })).toBeVisible();
    expect(posted).toBe(false);
    await page.getByLabel("Your name").fill("Grace");
    await expect(page.getByText("Name is required", { exact: true })).toBeHidden();

    await page.getByLabel("Company").fill("Compilers Inc");
    await page.reload();
    await page.locator("html[data-hydrated]").waitFor();
    await expect(page.getByLabel("Company")).toHaveValue("Compilers Inc");

    await step1(page, email, "Essentials");
    await steps2to4(page);
    await page.getByLabel(/Get 40% off Essentials Package/).check();
    await expect(page.getByTestId("booking-total")).toHaveText("$1,500");
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page).toHaveURL(/step=5/);
    await expect(page.getByRole("heading", { name: "Brand assets" })).toBeVisible();
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page).toHaveURL(/step=6/);
    await page.getByRole("button", { name: "Choose a time" }).click();

    const frame = page.frameLocator('iframe[title="Schedule your free consultation"]');
    await expect(frame.locator("#prefill")).toContainText("a2=Essentials Package");
    await expect(frame.locator("#prefill")).toContainText("a1=Analytical Engines");
    await expect(frame.locator("#prefill")).toContainText("a3=Lead Generation");

    // A message from another origin (here: the page itself) is ignored: once the calendar's own
    // message has booked the call, the one confirm posted is the calendar's, with its event (the
    // forged message, handled first, would have posted one before it, without an event).
    const confirms = recordConfirms(page);
    await page.evaluate(() => window.postMessage({ event: "calendly.event_scheduled" }, "*"));

    await scheduleInCalendar(page);
    await expect(page).toHaveURL(/\/booking\/success/, { timeout: 20_000 });
    expect(confirms.map((c) => new URLSearchParams(c).get("eventUri"))).toEqual([
      expect.stringMatching(/^https:\/\/api\.calendly\.com\/scheduled_events\//),
    ]);
    const rows = e2eQuery<{ total_amount: number; campaign_accepted: number }>(
      "select total_amount, campaign_accepted from bookings where email = ?",
      email,
    );
    expect(rows).toEqual([{ total_amount: 150000, campaign_accepted: 1 }]);
    expect(await page.evaluate(() => window.localStorage.getItem("bookingFormState"))).toBeNull();
  });
});

/** The wizard's first step with its JavaScript running; answers the bodies of the POSTs it makes from then on. */
async function openWizard(page: Page): Promise<string[]> {
  await page.goto("/booking?tier=growth");
  await page.locator("html[data-hydrated]").waitFor();
  const posts: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST") posts.push(r.postData() ?? "");
  });
  return posts;
}

test("with JavaScript, a filled field is checked as it is left, its message clears as it is edited, and only Next posts", async ({
  page,
}) => {
  const posts = await openWizard(page);
  // Leaving an empty field says nothing; leaving a filled, wrong one says what is wrong.
  await page.getByLabel("Your name").focus();
  await page.getByLabel("Email").focus();
  await expect(page.getByText("Name is required", { exact: true })).toHaveCount(0);
  await page.getByLabel("Your name").fill("Grace");
  await page.getByLabel("Company").fill("Compilers Inc");
  await page.getByLabel("Email").fill("grace@example.c");
  await page.getByLabel("Company").focus();
  await expect(page.getByText("Please enter a valid email", { exact: true })).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
  // Edited: the message goes at once (here the keystroke also completes the step).
  await page.getByLabel("Email").pressSequentially("o");
  await expect(page.getByText("Please enter a valid email", { exact: true })).toHaveCount(0);
  await page.getByLabel("Email").blur();
  // Checking as the visitor goes never posts the step; Next does, once. A post made by the checks
  // would have gone out before Next's, so once step 2 shows, Next's must be the only one.
  await expect(page).toHaveURL(/\/booking\?tier=growth$/);
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page).toHaveURL(/step=2/);
  expect(posts.map((body) => new URLSearchParams(body).get("intent"))).toEqual(["next"]);
});

test("with JavaScript, Next on an incomplete step shows every message at once, focuses the first, and posts nothing", async ({
  page,
}) => {
  const posts = await openWizard(page);
  await page.getByLabel("Company").fill("Compilers Inc");
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByText("Name is required", { exact: true })).toBeVisible();
  await expect(page.getByText("Email is required", { exact: true })).toBeVisible();
  await expect(page.getByText("Company name is required", { exact: true })).toHaveCount(0);
  await expect(page.getByLabel("Your name")).toBeFocused();
  await expect(page.getByLabel("Your name")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Your name")).toHaveAttribute("aria-describedby", "name-error");
  await expect(page).toHaveURL(/\/booking\?tier=growth$/);
  expect(posts).toEqual([]);
});

test("with JavaScript, the Saved package selection prefills a booking opened directly", async ({ page }) => {
  await page.goto("/packages");
  await page.locator("html[data-hydrated]").waitFor();
  await page.getByRole("radio", { name: /Growth/ }).check();
  await page.getByRole("checkbox", { name: /^CRM integration/ }).check();
  await page.goto("/booking");
  await expect(page).toHaveURL(/tier=growth/);
  await expect(page.getByRole("radio", { name: /Growth/ })).toBeChecked();
});
