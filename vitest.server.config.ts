import path from "node:path";
import { defineConfig } from "vitest/config";

/** Tests against the production build running as a child process (run after `npm run build`). */
export default defineConfig({
  resolve: {
    alias: {
      "~": path.resolve(import.meta.dirname, "app"),
      "#domain": path.resolve(import.meta.dirname, "server/domain"),
    },
  },
  test: {
    include: ["tests/server/**/*.test.ts", "tests/binary/**/*.test.ts"],
    environment: "node",
    pool: "forks",
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 60_000,
  },
});
