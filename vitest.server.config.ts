import { defineConfig } from "vitest/config";
import { resolve } from "./vitest.config";

/** Tests against the production build running as a child process (run after `npm run build`). */
export default defineConfig({
  resolve,
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
