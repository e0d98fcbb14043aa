/**
 * Runs before each test file of the unit and integration suites (vitest.config.ts). The files of a
 * worker share one process (`isolate: false`: Node loads the packages once per worker, not once per
 * file), so each file starts here as it would in a process of its own: the environment as the
 * worker got it, its own data folder, and the app's own modules evaluated afresh (the env parsed
 * once, the database handles and caches of server/ belong to the file that made them). Packages
 * (node_modules) stay loaded; spies and fake timers a file left behind are undone.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { vi } from "vitest";

const worker = globalThis as { __studioWorkerEnv?: Record<string, string | undefined> };
if (worker.__studioWorkerEnv) {
  // Not the worker's first file: what the previous file changed goes.
  const original = worker.__studioWorkerEnv;
  for (const key of Object.keys(process.env)) if (!(key in original)) delete process.env[key];
  Object.assign(process.env, original);
  vi.restoreAllMocks();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.resetModules();
} else {
  worker.__studioWorkerEnv = { ...process.env };
}

// Every test file gets its own data folder so nothing touches ./data (unless the run names one).
if (!worker.__studioWorkerEnv.DATA_DIR) {
  process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "studio-unit-"));
}
process.env.NODE_ENV = "test";
process.env.SESSION_SECRET ??= "test-secret-0123456789abcdef0123456789";
