/**
 * A data folder's disk in trouble, for the server tests: a small tmpfs (root only; otherwise the
 * reason it cannot be had), filled until it refuses 1 KB more, and /healthz watched until it says so.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Health } from "../../server/health.server";

export function mountTmpfs(size: string, prefix = "studio-small-disk-"): { dir: string | null; reason: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir], { stdio: "pipe" });
    return { dir, reason: "" };
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    return {
      dir: null,
      reason: `cannot mount a tmpfs here (${error instanceof Error ? error.message.split("\n")[0] : error}); needs root`,
    };
  }
}

/** Writes a filler file until the disk refuses even 1 KB more; answers its path. */
export function fillDisk(dir: string): string {
  const filler = path.join(dir, "filler.bin");
  const fd = fs.openSync(filler, "w");
  try {
    for (const size of [1024 * 1024, 64 * 1024, 1024]) {
      const chunk = Buffer.alloc(size, 7);
      for (;;) {
        try {
          fs.writeSync(fd, chunk);
        } catch {
          break;
        }
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  return filler;
}

/** /healthz once it answers `status` (it probes at most every 2 s): its JSON. */
export async function healthWhen(url: string, status: number): Promise<Health> {
  let last = 0;
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${url}/healthz`);
    last = res.status;
    if (res.status === status) {
      if (res.headers.get("content-type") !== "application/json; charset=utf-8")
        throw new Error(`/healthz answered ${res.headers.get("content-type")}`);
      return (await res.json()) as Health;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`/healthz answered ${last}, never ${status}`);
}
