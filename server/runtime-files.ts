import fs from "node:fs";
import url from "node:url";

/**
 * The single binary's runtime files, each put in place at its first use (issue 42.4). The binary
 * carries public/, the packages read apart and its source map in its payload (server/binary.js);
 * extracting all of them at a first start wrote some 7 MB in about a hundred files, 40 ms of the
 * start, where the first page needs none of them. The binary hands a function here that writes one
 * file of its payload into the runtime folder (once, atomically) and answers its path; the files
 * app, packages-apart.ts and the log's source map ask it for what they read. Under `npm start` no
 * function is handed in: the files are in build/ and public/ already.
 *
 * The function is kept on the global object under a registered symbol, not in this module: the
 * server's bundle holds this module twice (once in the Remix build, once beside packages-apart.ts,
 * which the build's plugin loads from its source), and both must see what the binary handed in.
 */

/** Puts the payload's file `name` (such as `public/favicon.svg`) in place: its path, or null when the payload has none. */
export type RuntimeFiles = (name: string) => string | null;

const PROVIDER = Symbol.for("studio.runtimeFiles");
const holder = globalThis as typeof globalThis & { [PROVIDER]?: RuntimeFiles };

/** Set once by the single binary, before the server starts. */
export function provideRuntimeFiles(files: RuntimeFiles): void {
  holder[PROVIDER] = files;
}

/** Whether this process's runtime files come from a payload, at their first use. */
export const runtimeFilesOnDemand = (): boolean => holder[PROVIDER] !== undefined;

/** The path of runtime file `name`, put in place if it was not; null without a payload or with no such file. */
export function runtimeFile(name: string): string | null {
  return holder[PROVIDER]?.(name) ?? null;
}

/**
 * `name` in build/ beside the running server (build/index.js, build/server.cjs or a file in
 * build/chunks/), or null when it is not there, as when the server runs from its sources.
 */
export function besideServer(name: string): string | null {
  for (const up of [".", ".."]) {
    const file = url.fileURLToPath(new URL(`${up}/${name}`, import.meta.url));
    if (fs.existsSync(file)) return file;
  }
  return null;
}
