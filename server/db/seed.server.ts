import crypto from "node:crypto";
import { categoryMeta } from "../../app/content/categories";
import { createStorage, publicUrl } from "../storage/storage.server";
import { createZip } from "../storage/zip.server";
import type { DB } from "./db.server";
import { toJson } from "./json";
import { SEED_TEMPLATES, type SeedTemplate } from "./seed-data";

function xml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** A 1200×800 preview: the category's gradient, its emoji and a stylised browser frame. */
export function previewSvg(t: Pick<SeedTemplate, "name" | "tagline" | "category">, variant: 1 | 2): string {
  const meta = categoryMeta(t.category);
  const [from, to] = meta.gradient;
  const angle = variant === 1 ? 'x1="0" y1="0" x2="1" y2="1"' : 'x1="1" y1="0" x2="0" y2="1"';
  const blocks =
    variant === 1
      ? `<rect x="250" y="300" width="420" height="34" rx="8" fill="#161513" opacity="0.85"/>
<rect x="250" y="350" width="330" height="18" rx="6" fill="#161513" opacity="0.35"/>
<rect x="250" y="384" width="290" height="18" rx="6" fill="#161513" opacity="0.35"/>
<rect x="250" y="430" width="150" height="44" rx="22" fill="${to}"/>
<rect x="250" y="520" width="215" height="130" rx="14" fill="${from}"/>
<rect x="485" y="520" width="215" height="130" rx="14" fill="${from}" opacity="0.7"/>
<rect x="720" y="520" width="230" height="130" rx="14" fill="${from}" opacity="0.5"/>`
      : `<rect x="250" y="290" width="700" height="200" rx="16" fill="${from}"/>
<rect x="250" y="515" width="330" height="22" rx="6" fill="#161513" opacity="0.8"/>
<rect x="250" y="552" width="520" height="16" rx="6" fill="#161513" opacity="0.3"/>
<rect x="250" y="580" width="470" height="16" rx="6" fill="#161513" opacity="0.3"/>
<rect x="800" y="520" width="150" height="44" rx="22" fill="${to}"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800" viewBox="0 0 1200 800" role="img" aria-label="${xml(t.name)} preview">
<defs><linearGradient id="g" ${angle}><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient>
<filter id="s" x="-10%" y="-10%" width="120%" height="130%"><feDropShadow dx="0" dy="24" stdDeviation="28" flood-color="#161513" flood-opacity="0.28"/></filter></defs>
<rect width="1200" height="800" fill="url(#g)"/>
<g filter="url(#s)"><rect x="200" y="170" width="800" height="540" rx="22" fill="#fffdf9"/></g>
<rect x="200" y="170" width="800" height="54" rx="22" fill="#efeae1"/><rect x="200" y="200" width="800" height="24" fill="#efeae1"/>
<circle cx="236" cy="197" r="8" fill="#e26d5a"/><circle cx="262" cy="197" r="8" fill="#e8b04b"/><circle cx="288" cy="197" r="8" fill="#5fb36b"/>
<rect x="420" y="186" width="360" height="22" rx="11" fill="#fffdf9"/>
<text x="250" y="270" font-family="Georgia, 'Times New Roman', serif" font-size="30" fill="#161513">${xml(t.name)}</text>
${blocks}
<text x="1080" y="140" font-size="120" text-anchor="middle" font-family="'Apple Color Emoji','Segoe UI Emoji','Noto Color Emoji',sans-serif">${meta.emoji}</text>
</svg>`;
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
  return createZip([
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
  ]);
}

/**
 * Seeds the demo catalogue when the templates table is empty (with `force`, adds the missing
 * slugs): preview images in `template-images`, a real zip in `template-files`, one row each.
 */
export async function seedDemoCatalogue(db: DB, dataDir: string, opts: { force?: boolean } = {}): Promise<{ inserted: number }> {
  const existing = await db.selectFrom("templates").select("slug").execute();
  if (existing.length > 0 && !opts.force) return { inserted: 0 };
  const have = new Set(existing.map((r) => r.slug));
  const storage = createStorage(dataDir);
  const todo = SEED_TEMPLATES.filter((t) => !have.has(t.slug));
  const rows = todo.map((t) => {
    const images = ([1, 2] as const).map((v) => {
      const file = `${t.slug}-${v}.svg`;
      storage.put("template-images", file, Buffer.from(previewSvg(t, v)), { overwrite: true });
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
      rating: t.rating,
      review_count: t.review_count,
      sales_count: t.sales_count,
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
  if (rows.length) {
    await db.transaction().execute(async (trx) => {
      await trx.insertInto("templates").values(rows).onConflict((oc) => oc.column("slug").doNothing()).execute();
    });
  }
  return { inserted: rows.length };
}
