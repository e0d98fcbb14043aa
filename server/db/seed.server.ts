import crypto from "node:crypto";
import { categoryMeta } from "#domain/categories";
import { createStorage, publicUrl } from "../storage/storage.server";
import { storedZip } from "../storage/stored-zip";
import type { DB } from "./db.server";
import { announceCatalogueChange } from "./catalogue-version.server";
import { toJson } from "./json";
import { SEED_TEMPLATES, type SeedTemplate } from "./seed-data";

function xml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

const SANS = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";
const EMOJI = "'Apple Color Emoji', 'Segoe UI Emoji', 'Noto Color Emoji', sans-serif";
const INK = "#161513";
const PAPER = "#fffdf9";
const CHROME = "#efeae1";

/** Greedy word wrap by character count (SVG has no text wrapping); at most `lines` lines. */
function wrap(text: string, width: number, lines: number): string[] {
  const out: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      out.push(line);
      line = word;
      if (out.length === lines) break;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (out.length < lines && line) out.push(line);
  else if (out.length === lines && line && !out[lines - 1].endsWith("…"))
    out[lines - 1] = `${out[lines - 1].replace(/[,.;:]?$/, "")}…`;
  return out;
}

/** Browser window: chrome bar with traffic lights and an address pill. */
function browser(x: number, y: number, w: number, h: number, address: string): string {
  return `<g filter="url(#shadow)"><rect x="${x}" y="${y}" width="${w}" height="${h}" rx="20" fill="${PAPER}"/></g>
<path d="M${x} ${y + 48}V${y + 20}a20 20 0 0 1 20-20h${w - 40}a20 20 0 0 1 20 20v28z" fill="${CHROME}"/>
<circle cx="${x + 30}" cy="${y + 24}" r="7" fill="#e26d5a"/><circle cx="${x + 54}" cy="${y + 24}" r="7" fill="#e8b04b"/><circle cx="${x + 78}" cy="${y + 24}" r="7" fill="#5fb36b"/>
<rect x="${x + w / 2 - 170}" y="${y + 13}" width="340" height="22" rx="11" fill="${PAPER}"/>
<text x="${x + w / 2}" y="${y + 29}" text-anchor="middle" font-family="${SANS}" font-size="12" fill="${INK}" fill-opacity="0.55">${xml(address)}</text>`;
}

/** Site header inside a frame: logo mark, site name, three nav items and a button. */
function siteNav(x: number, y: number, w: number, name: string, accent: string): string {
  const right = x + w;
  return `<rect x="${x}" y="${y}" width="22" height="22" rx="6" fill="${accent}"/>
<text x="${x + 32}" y="${y + 16}" font-family="${SANS}" font-size="15" font-weight="700" fill="${INK}">${xml(name)}</text>
<rect x="${right - 300}" y="${y + 7}" width="48" height="8" rx="4" fill="${INK}" fill-opacity="0.22"/>
<rect x="${right - 236}" y="${y + 7}" width="56" height="8" rx="4" fill="${INK}" fill-opacity="0.22"/>
<rect x="${right - 164}" y="${y + 7}" width="44" height="8" rx="4" fill="${INK}" fill-opacity="0.22"/>
<rect x="${right - 96}" y="${y - 3}" width="96" height="28" rx="14" fill="${INK}"/>`;
}

/**
 * A 1200×800 preview of a demo template: the category's gradient, a stylised website in a
 * browser frame with the template's name in a system font stack, and the category emoji large.
 * Variant 1 is the main (desktop) preview; variant 2 shows desktop and phone together.
 */
export function previewSvg(
  t: Pick<SeedTemplate, "name" | "tagline" | "category"> & { slug?: string },
  variant: 1 | 2,
): string {
  const meta = categoryMeta(t.category);
  const [from, to] = meta.gradient;
  const address = `${t.slug ?? t.name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}.com`;
  const direction = variant === 1 ? 'x1="0" y1="0" x2="1" y2="1"' : 'x1="1" y1="0" x2="0" y2="1"';
  const defs = `<defs>
<linearGradient id="bg" ${direction}><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient>
<linearGradient id="art" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}" stop-opacity="0.85"/></linearGradient>
<filter id="shadow" x="-15%" y="-15%" width="130%" height="140%"><feDropShadow dx="0" dy="28" stdDeviation="30" flood-color="${INK}" flood-opacity="0.28"/></filter>
</defs>`;
  const backdrop = `<rect width="1200" height="800" fill="url(#bg)"/>
<circle cx="${variant === 1 ? 1080 : 120}" cy="110" r="260" fill="#ffffff" fill-opacity="0.10"/>
<circle cx="${variant === 1 ? 90 : 1110}" cy="760" r="210" fill="#ffffff" fill-opacity="0.08"/>`;
  let body: string;
  if (variant === 1) {
    const [l1, l2] = wrap(t.tagline, 40, 2);
    const headline = wrap(t.name, 16, 2);
    body = `${browser(150, 110, 900, 600, address)}
${siteNav(194, 186, 812, t.name, to)}
${headline.map((line, i) => `<text x="194" y="${292 + i * 60}" font-family="${SANS}" font-size="54" font-weight="700" letter-spacing="-1.5" fill="${INK}">${xml(line)}</text>`).join("\n")}
<text x="196" y="${322 + (headline.length - 1) * 60 + 18}" font-family="${SANS}" font-size="19" fill="${INK}" fill-opacity="0.62">${xml(l1 ?? "")}</text>
${l2 ? `<text x="196" y="${322 + (headline.length - 1) * 60 + 46}" font-family="${SANS}" font-size="19" fill="${INK}" fill-opacity="0.62">${xml(l2)}</text>` : ""}
<rect x="194" y="${420 + (headline.length - 1) * 40}" width="150" height="46" rx="23" fill="${to}"/>
<rect x="358" y="${420 + (headline.length - 1) * 40}" width="130" height="46" rx="23" fill="none" stroke="${INK}" stroke-opacity="0.25" stroke-width="2"/>
<rect x="660" y="248" width="346" height="262" rx="16" fill="url(#art)"/>
<text x="833" y="420" text-anchor="middle" font-family="${EMOJI}" font-size="120">${meta.emoji}</text>
<rect x="194" y="548" width="256" height="124" rx="14" fill="${from}" fill-opacity="0.55"/>
<rect x="472" y="548" width="256" height="124" rx="14" fill="${from}" fill-opacity="0.40"/>
<rect x="750" y="548" width="256" height="124" rx="14" fill="${from}" fill-opacity="0.28"/>`;
  } else {
    const [l1] = wrap(t.tagline, 46, 1);
    body = `${browser(90, 130, 800, 540, address)}
${siteNav(130, 204, 720, t.name, to)}
<rect x="130" y="256" width="720" height="190" rx="16" fill="url(#art)"/>
<text x="490" y="380" text-anchor="middle" font-family="${EMOJI}" font-size="96">${meta.emoji}</text>
<text x="130" y="500" font-family="${SANS}" font-size="34" font-weight="700" letter-spacing="-0.8" fill="${INK}">${xml(t.name)}</text>
<text x="131" y="532" font-family="${SANS}" font-size="16" fill="${INK}" fill-opacity="0.6">${xml(l1 ?? "")}</text>
<rect x="130" y="562" width="226" height="76" rx="12" fill="${from}" fill-opacity="0.5"/>
<rect x="377" y="562" width="226" height="76" rx="12" fill="${from}" fill-opacity="0.36"/>
<rect x="624" y="562" width="226" height="76" rx="12" fill="${from}" fill-opacity="0.24"/>
<g filter="url(#shadow)"><rect x="830" y="190" width="270" height="540" rx="38" fill="${INK}"/></g>
<rect x="842" y="202" width="246" height="516" rx="28" fill="${PAPER}"/>
<rect x="925" y="214" width="80" height="18" rx="9" fill="${INK}"/>
<rect x="862" y="250" width="16" height="16" rx="4" fill="${to}"/>
<rect x="1050" y="253" width="20" height="3" rx="1.5" fill="${INK}"/><rect x="1050" y="260" width="20" height="3" rx="1.5" fill="${INK}"/>
<rect x="862" y="282" width="206" height="150" rx="14" fill="url(#art)"/>
<text x="965" y="380" text-anchor="middle" font-family="${EMOJI}" font-size="64">${meta.emoji}</text>
${wrap(t.name, 12, 2)
  .map(
    (line, i) =>
      `<text x="862" y="${474 + i * 30}" font-family="${SANS}" font-size="26" font-weight="700" letter-spacing="-0.5" fill="${INK}">${xml(line)}</text>`,
  )
  .join("\n")}
<rect x="862" y="540" width="190" height="8" rx="4" fill="${INK}" fill-opacity="0.25"/>
<rect x="862" y="558" width="160" height="8" rx="4" fill="${INK}" fill-opacity="0.25"/>
<rect x="862" y="590" width="206" height="40" rx="20" fill="${to}"/>
<rect x="862" y="646" width="98" height="52" rx="10" fill="${from}" fill-opacity="0.5"/>
<rect x="970" y="646" width="98" height="52" rx="10" fill="${from}" fill-opacity="0.35"/>`;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800" viewBox="0 0 1200 800" role="img" aria-label="${xml(`${t.name}: ${meta.label} template preview`)}">
<title>${xml(`${t.name} — ${meta.label} template`)}</title>
${defs}
${backdrop}
${body}
</svg>
`;
}

function archiveFor(t: SeedTemplate): Buffer {
  const pkg = {
    name: t.slug,
    version: "1.0.0",
    private: true,
    type: "module",
    scripts: { dev: "vite", build: "vite build" },
    dependencies: { react: "^18.3.1", "react-dom": "^18.3.1" },
    devDependencies: { typescript: "^5.7.2", tailwindcss: "^3.4.17", vite: "^6.0.0" },
  };
  const files: { name: string; data: string }[] = [
    {
      name: "README.md",
      data: `# ${t.name}\n\n${t.tagline}.\n\n${t.description}\n\n## Getting started\n\n1. Install dependencies: \`npm install\`\n2. Start the dev server: \`npm run dev\`\n3. Build for production: \`npm run build\`\n\nBuilt with ${t.tech_stack.join(", ")}.\n\n## Licence\n\nSee LICENSE.txt. Your licence key is in your purchase receipt.\n`,
    },
    {
      name: "LICENSE.txt",
      data: `${t.name} template licence\n\nOne purchase allows use on unlimited projects owned by you or your clients.\nRedistributing or reselling the template files themselves is not permitted.\nLifetime updates are included.\n`,
    },
    { name: "package.json", data: JSON.stringify(pkg, null, 2) + "\n" },
    {
      name: "src/App.tsx",
      data: `export default function App() {\n  return (\n    <main className="mx-auto max-w-3xl p-8">\n      <h1 className="text-4xl font-semibold">${t.name}</h1>\n      <p className="mt-4 text-lg text-neutral-600">${t.tagline}</p>\n    </main>\n  );\n}\n`,
    },
  ];
  // A fixed date, so the same template gives the same archive on every machine. Stored, not
  // deflated: four short text files, where deflating ten archives was some 20 ms of a first start.
  return storedZip(
    files.map((f) => ({ name: f.name, data: Buffer.from(f.data, "utf8") })),
    new Date("2026-01-01T00:00:00Z"),
  );
}

/** Remembered in `studio_flags` once the sample templates were seeded: a data folder gets them once. */
export const SAMPLE_TEMPLATES_FLAG = "sample_templates_seeded";

/**
 * Seeds the sample templates on the very first start of a data folder only (issue 29): the fact is
 * remembered in the database, so templates the owner removed never come back, even once the shop
 * is empty. With `force` (the `seed --force` command) it adds the sample slugs that are missing.
 * Each gets preview images in `template-images`, a real zip in `template-files`, and a row marked
 * `sample`, with no invented rating, reviews or sales.
 */
export async function seedDemoCatalogue(
  db: DB,
  dataDir: string,
  opts: { force?: boolean } = {},
): Promise<{ inserted: number }> {
  if (!opts.force) {
    const seeded = await db
      .selectFrom("studio_flags")
      .select("key")
      .where("key", "=", SAMPLE_TEMPLATES_FLAG)
      .executeTakeFirst();
    if (seeded) return { inserted: 0 };
  }
  const existing = await db.selectFrom("templates").select("slug").execute();
  const have = new Set(existing.map((r) => r.slug));
  const storage = createStorage(dataDir);
  const todo = SEED_TEMPLATES.filter((t) => !have.has(t.slug));
  const rows = todo.map((t) => {
    const images = ([1, 2] as const).map((v) => {
      const file = `${t.slug}-${v}.svg`;
      storage.put("template-images", file, Buffer.from(previewSvg(t, v), "utf8"), { overwrite: true });
      return publicUrl("template-images", file);
    });
    storage.put("template-files", `${t.slug}.zip`, archiveFor(t), { overwrite: true });
    return {
      id: crypto.randomUUID(),
      name: t.name,
      slug: t.slug,
      tagline: t.tagline,
      description: t.description,
      category: t.category,
      price: t.price,
      original_price: t.original_price,
      on_sale: t.original_price !== null && t.original_price > t.price ? 1 : 0,
      featured: t.featured ? 1 : 0,
      sample: 1,
      features: toJson(t.features),
      included: toJson(t.included),
      tech_stack: toJson(t.tech_stack),
      tags: toJson(t.tags),
      images: toJson(images),
      image_url: images[0],
      file_url: `${t.slug}.zip`,
      created_at: t.created_at,
      updated_at: t.created_at,
    };
  });
  const inserted = await db.transaction().execute(async (trx) => {
    let n = 0;
    if (rows.length) {
      const result = await trx
        .insertInto("templates")
        .values(rows)
        .onConflict((oc) => oc.column("slug").doNothing())
        .executeTakeFirst();
      n = Number(result.numInsertedOrUpdatedRows ?? 0);
    }
    await trx
      .insertInto("studio_flags")
      .values({ key: SAMPLE_TEMPLATES_FLAG, value: new Date().toISOString() })
      .onConflict((oc) => oc.column("key").doNothing())
      .execute();
    if (n) await announceCatalogueChange(trx);
    return n;
  });
  return { inserted };
}
