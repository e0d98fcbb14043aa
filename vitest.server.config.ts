import { defineConfig } from "vitest/config";
import { resolve } from "./vitest.config";

/**
 * Tests against the production build running as a child process (tests/helpers/server.ts); the
 * build is brought up to date first when a source is newer (tests/helpers/build-if-stale.ts), then
 * started once on an empty folder, which each later server gets a copy of
 * (tests/helpers/server-data-template.ts).
 * `npm test` runs the tests not tagged `slow` (`--tags-filter='!slow'`), `npm run test:slow` the
 * rest (`--tags-filter=slow`); `npm run validate` runs both.
 */
export default defineConfig({
  resolve,
  test: {
    include: ["tests/server/**/*.test.ts", "tests/binary/**/*.test.ts"],
    environment: "node",
    pool: "forks",
    // Two files at a time on two cores: each test starts its own server on its own port and data
    // folder, and no test measures time (decision 021), so a neighbour only makes it slower.
    maxWorkers: 2,
    testTimeout: 180_000,
    hookTimeout: 60_000,
    // A worker runs its files one after another in one process (each file's servers are its own
    // child processes): no process per file to start.
    isolate: false,
    // Transformed modules kept on disk between runs (node_modules/.experimental-vitest-cache, keyed
    // by each file's content): a second run transforms nothing again (about 5 s of CPU).
    experimental: { fsModuleCache: true },
    globalSetup: ["tests/helpers/build-if-stale.ts", "tests/helpers/server-data-template.ts"],
    tags: [
      {
        name: "slow",
        description:
          "heavy or long: kill rounds, 1,000 concurrent confirms, 100 MB bodies, a body trickled for 60 s, a full disk, the single binary (npm run test:slow)",
      },
    ],
  },
});
