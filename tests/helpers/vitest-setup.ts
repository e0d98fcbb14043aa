import fs from "node:fs";
import os from "node:os";
import path from "node:path";

// Every test process gets its own data folder so nothing touches ./data.
if (!process.env.DATA_DIR) {
  process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "studio-unit-"));
}
process.env.NODE_ENV = "test";
process.env.SESSION_SECRET ??= "test-secret-0123456789abcdef0123456789";
