// A bundle's source map reduced to the product's own code (app/, server/, migrations/), written by
// `npm run build` (scripts/build.mjs: build/index.product.js.map, which the log maps stacks through
// under `npm start`) and by `npm run build:binary` (the map the binary carries). See decision 027.
import fs from "node:fs";

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** One mapping: [generated column] alone, or [generated column, source, line, column]. */
/** @typedef {[number] | [number, number, number, number]} Segment */

/**
 * A source map's `mappings` as [generated column, source, line, column][] per generated line.
 * @param {string} mappings
 * @returns {Segment[][]}
 */
function decodeMappings(mappings) {
  /** @type {Segment[][]} */
  const lines = [];
  const state = [0, 0, 0, 0];
  for (const text of mappings.split(";")) {
    /** @type {Segment[]} */
    const line = [];
    state[0] = 0;
    for (const segment of text ? text.split(",") : []) {
      /** @type {number[]} */
      const fields = [];
      let value = 0;
      let shift = 0;
      for (const char of segment) {
        const digit = BASE64.indexOf(char);
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      state[0] += fields[0];
      if (fields.length >= 4) {
        for (let i = 1; i < 4; i++) state[i] += fields[i];
        line.push([state[0], state[1], state[2], state[3]]);
      } else line.push([state[0]]);
    }
    lines.push(line);
  }
  return lines;
}

/** @param {Segment[][]} lines */
function encodeMappings(lines) {
  /** @param {number} n */
  const vlq = (n) => {
    let v = n < 0 ? (-n << 1) | 1 : n << 1;
    let out = "";
    do {
      let digit = v & 31;
      v >>>= 5;
      if (v) digit |= 32;
      out += BASE64[digit];
    } while (v);
    return out;
  };
  const prev = [0, 0, 0, 0];
  return lines
    .map((line) => {
      prev[0] = 0;
      return line
        .map((seg) => {
          let out = vlq(seg[0] - prev[0]);
          prev[0] = seg[0];
          if (seg.length === 4)
            for (let i = 1; i < 4; i++) {
              out += vlq(seg[i] - prev[i]);
              prev[i] = seg[i];
            }
          return out;
        })
        .join(",");
    })
    .join(";");
}

/**
 * The bundle's map reduced to the product's own code (app/, server/, migrations/): a stack is
 * mapped where it passes through our sources; a run of a package's code keeps one segment without
 * a source, so its frames stay as they are instead of borrowing a neighbour's. The whole map
 * (every package, with names) would take some 70 MB of heap to parse, more than the server has.
 * @param {string} file the bundle's map
 * @param {string} [out] where the reduced map is written (default: over `file`)
 * @param {{ line: number, column: number, delta: number } | null} [shift] text of `delta` characters
 *   put into the bundle after it was mapped, at generated `line` (from 0) and `column`: the
 *   mappings after it on that line move with it (scripts/server-bundle.mjs's rememberInterop)
 */
export function productMap(file, out = file, shift = null) {
  /** @type {{ file?: string, sources: string[], mappings: string }} */
  const map = JSON.parse(fs.readFileSync(file, "utf8"));
  const ours = map.sources.map((s) => !/(^|\/)node_modules\//.test(s) && !s.startsWith("<"));
  /** @type {Map<number, number>} */
  const index = new Map();
  /** @type {string[]} */
  const sources = [];
  map.sources.forEach((s, i) => {
    if (ours[i]) {
      index.set(i, sources.length);
      sources.push(s);
    }
  });
  const decoded = decodeMappings(map.mappings);
  if (shift) for (const seg of decoded[shift.line] ?? []) if (seg[0] > shift.column) seg[0] += shift.delta;
  const lines = decoded.map((line) => {
    /** @type {Segment[]} */
    const kept = [];
    let inPackage = false;
    for (const seg of line) {
      if (seg.length === 4 && ours[seg[1]]) {
        // ours[seg[1]]: the index has it.
        kept.push([seg[0], /** @type {number} */ (index.get(seg[1])), seg[2], seg[3]]);
        inPackage = false;
      } else if (!inPackage) {
        kept.push([seg[0]]);
        inPackage = true;
      }
    }
    return kept;
  });
  fs.writeFileSync(
    out,
    JSON.stringify({ version: 3, file: map.file, sources, names: [], mappings: encodeMappings(lines) }),
  );
}
