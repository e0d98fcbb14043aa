import path from "node:path";
import { defineConfig } from "vitest/config";

/** The app's import aliases (tsconfig.json's paths), shared with vitest.server.config.ts. */
export const resolve = {
  alias: {
    "~": path.resolve(import.meta.dirname, "app"),
    "#domain": path.resolve(import.meta.dirname, "server/domain"),
  },
};

export default defineConfig({
  resolve,
  test: {
    // Unit tests may sit next to the code they test (server/domain/money.test.ts) or under tests/unit.
    include: [
      "tests/unit/**/*.test.{ts,tsx}",
      "tests/integration/**/*.test.{ts,tsx}",
      "app/**/*.test.{ts,tsx}",
      "server/**/*.test.{ts,tsx}",
    ],
    environment: "node",
    pool: "forks",
    maxWorkers: 2,
    // A worker runs its files one after another in one process, loading the packages once: a fresh
    // process per file spent most of the suite's time importing them again. Each file still gets
    // fresh app modules, environment and data folder (tests/helpers/vitest-setup.ts).
    isolate: false,
    // Transformed modules kept on disk between runs (node_modules/.experimental-vitest-cache, keyed
    // by each file's content): a second run transforms nothing again (about 5 s of CPU).
    experimental: { fsModuleCache: true },
    testTimeout: 20_000,
    setupFiles: ["tests/helpers/vitest-setup.ts"],
  },
});
