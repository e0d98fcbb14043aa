import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "~": path.resolve(import.meta.dirname, "app"),
      "#domain": path.resolve(import.meta.dirname, "server/domain"),
    },
  },
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
    testTimeout: 20_000,
    setupFiles: ["tests/helpers/vitest-setup.ts"],
  },
});
