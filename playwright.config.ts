import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { CALENDLY_E2E_SIGNING_KEY, E2E_SECRET } from "./tests/helpers/e2e";

/**
 * End-to-end tests against the production build (`npm run build` first) on a free port,
 * with a temporary DATA_DIR, in the system Chromium (CHROMIUM_PATH or /usr/bin/chromium).
 */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

if (!process.env.E2E_PORT) process.env.E2E_PORT = String(await freePort());
if (!process.env.E2E_FAKES_PORT) process.env.E2E_FAKES_PORT = String(await freePort());
// The fakes' SMTP server (smtp-server): production without a mail provider refuses email sign-in.
if (!process.env.E2E_SMTP_PORT) process.env.E2E_SMTP_PORT = String(await freePort());
if (!process.env.E2E_DATA_DIR) process.env.E2E_DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "studio-e2e-"));
const port = Number(process.env.E2E_PORT);
const baseURL = `http://localhost:${port}`;
const chromium = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const fakes = `http://127.0.0.1:${process.env.E2E_FAKES_PORT}`;

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  outputDir: "test-results",
  use: {
    baseURL,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: chromium,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-quic",
        "--no-first-run",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  webServer: [
    {
      command: "node tests/helpers/fakes.mjs",
      url: `${fakes}/healthz`,
      reuseExistingServer: false,
      timeout: 20_000,
      stdout: "ignore",
      env: { FAKES_PORT: String(process.env.E2E_FAKES_PORT), SMTP_PORT: String(process.env.E2E_SMTP_PORT) },
    },
    {
      // E2E_SERVER=binary runs the suite against dist/studio (npm run build:binary), the runtime we ship.
      command:
        process.env.E2E_SERVER === "binary"
          ? "dist/studio"
          : `node ${JSON.parse(fs.readFileSync("package.json", "utf8")).config.nodeFlags} server/main.js`,
      url: `${baseURL}/healthz`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: "ignore",
      stderr: "pipe",
      env: {
        NODE_ENV: "production",
        PORT: String(port),
        DATA_DIR: process.env.E2E_DATA_DIR,
        APP_URL: baseURL,
        SESSION_SECRET: E2E_SECRET,
        CALENDLY_URL: `${fakes}/calendly/studio`,
        CALENDLY_TOKEN: "calendly-e2e-token",
        CALENDLY_API_BASE: fakes,
        CALENDLY_WEBHOOK_SIGNING_KEY: CALENDLY_E2E_SIGNING_KEY,
        STRIPE_SECRET_KEY: "sk_test_e2e",
        STRIPE_WEBHOOK_SECRET: "whsec_e2e",
        STRIPE_API_BASE: fakes,
        SUPER_ADMIN_EMAILS: "owner@example.com",
        SMTP_URL: `smtp://e2e:e2e-pass@127.0.0.1:${process.env.E2E_SMTP_PORT}`,
        MAIL_FROM: "Studio Rowan <hello@studiorowan.example>",
      },
    },
  ],
});
