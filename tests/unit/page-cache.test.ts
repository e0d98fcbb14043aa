import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Env } from "../../server/env.server";
import { CATEGORIES } from "#domain/categories";
import {
  cacheKeyFor,
  cachedPageCount,
  cachedPageHead,
  clearPageCache,
  getCachedPage,
  inlineScriptHashes,
  matchesEtag,
  MAX_ENTRIES,
  renderOnce,
  storePage,
  type CachedPage,
} from "../../server/http/page-cache.server";
import { createNonce, securityHeaders } from "../../server/http/security.server";

/** The catalogue version the tests render at (the server reads it from the database). */
let version = 0;
const catalogueVersion = () => version;

describe("page cache", () => {
  it("caches only anonymous GETs of public pages", () => {
    expect(cacheKeyFor("GET", "/", false)).toBe("/");
    expect(cacheKeyFor("GET", "/templates?category=saas", false)).toBe("/templates?category=saas");
    expect(cacheKeyFor("GET", "/templates/atelier", false)).toBe("/templates/atelier");
    expect(cacheKeyFor("GET", "/", true)).toBeNull();
    expect(cacheKeyFor("POST", "/", false)).toBeNull();
    for (const p of [
      "/booking",
      "/booking?step=2",
      "/admin",
      "/dashboard",
      // A batch of tRPC reads (one of them public: kept alone, issue 42.2) is answered each time.
      "/api/trpc/templates.list,templates.featured?batch=1",
      "/templates?signin=required",
      "/templates/atelier?session_id=cs_1",
      "/files/template-images/a.svg",
      "/templates/%61telier",
      "/packages/",
      "/templates/../admin",
      "/Templates",
    ]) {
      expect(cacheKeyFor("GET", p, false), p).toBeNull();
    }
  });

  it("keys a ?category= only when the category exists: junk values are rendered, never cached", () => {
    for (const c of CATEGORIES)
      expect(cacheKeyFor("GET", `/templates?category=${c}`, false)).toBe(`/templates?category=${c}`);
    for (const junk of ["all", "junk", "zzzzzzzzzzzzzzzzzzzz", "a", "Saas", "saas2", "", "saas&x=1"]) {
      expect(cacheKeyFor("GET", `/templates?category=${junk}`, false), junk).toBeNull();
    }
  });

  it("evicts the least recently used page, so pages in use stay", () => {
    clearPageCache();
    const html = new Headers({ "content-type": "text/html" });
    for (let i = 0; i < MAX_ENTRIES; i++) storePage(`/k${i}`, 200, html, Buffer.from(`k${i}`), catalogueVersion());
    expect(cachedPageCount()).toBe(MAX_ENTRIES);
    // /k0 is the oldest stored but was just served: /k1 goes instead.
    expect(getCachedPage("/k0", version)).not.toBeNull();
    storePage("/new", 200, html, Buffer.from("new"), catalogueVersion());
    expect(cachedPageCount()).toBe(MAX_ENTRIES);
    expect(getCachedPage("/k0", version)?.body.toString()).toBe("k0");
    expect(getCachedPage("/k1", version)).toBeNull();
    expect(getCachedPage("/new", version)?.body.toString()).toBe("new");
    // A steady stream of new keys never pushes out a page that keeps being served.
    for (let i = 0; i < 3 * MAX_ENTRIES; i++) {
      storePage(`/stream${i}`, 200, html, Buffer.from("s"), catalogueVersion());
      expect(getCachedPage("/k0", version), `after ${i}`).not.toBeNull();
    }
    clearPageCache();
  });

  it("renders a missing page once for concurrent misses of the same key", async () => {
    clearPageCache();
    const html = new Headers({ "content-type": "text/html" });
    let renders = 0;
    // A render that lasts until the test lets it finish: all 50 misses come while it is under way.
    let finish!: () => void;
    const rendering = new Promise<void>((r) => (finish = r));
    const render = async (key: string) => {
      renders++;
      await rendering;
      return storePage(key, 200, html, Buffer.from(`page ${key}`), catalogueVersion());
    };
    const miss = (key: string) => getCachedPage(key, version) ?? renderOnce(key, render);
    const misses = Array.from({ length: 50 }, () => miss("/"));
    finish();
    const pages = await Promise.all(misses);
    expect(renders).toBe(1);
    expect(new Set(pages).size).toBe(1);
    expect((pages[0] as CachedPage).body.toString()).toBe("page /");
    // Another key renders on its own; a hit renders nothing.
    await Promise.all([miss("/packages"), miss("/packages"), miss("/")]);
    expect(renders).toBe(2);
    clearPageCache();
  });

  it("a failed render fails its waiters and the next miss renders again", async () => {
    let calls = 0;
    // A render that fails once the test lets it: the second miss comes while the first is under way.
    let proceed!: () => void;
    const gate = new Promise<void>((r) => (proceed = r));
    const failing = async () => {
      calls++;
      await gate;
      throw new Error("render failed");
    };
    const waiters = [renderOnce("/fail", failing), renderOnce("/fail", failing)];
    proceed();
    const results = await Promise.allSettled(waiters);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(calls).toBe(1);
    await renderOnce("/fail", async () => null);
    await expect(renderOnce("/fail", failing)).rejects.toThrow("render failed");
    expect(calls).toBe(2);
  });

  it("hashes every inline script and none with a src", () => {
    const html = `<script nonce="a">window.x=1</script><script src="/build/a.js"></script><script type="module">import "/b.js";</script>`;
    const h = (s: string) => `'sha256-${crypto.createHash("sha256").update(s).digest("base64")}'`;
    expect(inlineScriptHashes(html)).toEqual([h("window.x=1"), h('import "/b.js";')]);
  });

  it("stores 200 HTML without cookies and drops entries when the catalogue changes", () => {
    const html = new Headers({ "content-type": "text/html; charset=utf-8" });
    expect(storePage("/x", 404, html, Buffer.from("no"), catalogueVersion())).toBeNull();
    expect(
      storePage(
        "/x",
        200,
        new Headers({ "content-type": "text/html", "set-cookie": "a=b" }),
        Buffer.from("no"),
        catalogueVersion(),
      ),
    ).toBeNull();
    expect(
      storePage("/x", 200, new Headers({ "content-type": "application/json" }), Buffer.from("{}"), catalogueVersion()),
    ).toBeNull();
    const page = storePage("/x", 200, html, Buffer.from("<p>hi</p>"), catalogueVersion());
    expect(page?.gzip.length).toBeGreaterThan(0);
    expect(getCachedPage("/x", version)?.body.toString()).toBe("<p>hi</p>");
    version++;
    expect(getCachedPage("/x", version)).toBeNull();
    storePage("/y", 200, html, Buffer.from("y"), catalogueVersion());
    expect(getCachedPage("/y", version, Date.now() + 61_000)).toBeNull();
  });

  it("builds a cached page's response head once, with only the CSP nonce fresh per hit", () => {
    const env = {
      APP_URL: "http://localhost:3000",
      CALENDLY_URL: "https://calendly.com/x/y",
      isProduction: true,
    } as Env;
    const html = new Headers({
      "content-type": "text/html; charset=utf-8",
      "x-frame-options": "SAMEORIGIN",
      vary: "Cookie",
    });
    const page = storePage(
      "/head",
      200,
      html,
      Buffer.from(`<p>${"hello ".repeat(300)}</p><script>window.x=1</script>`),
      catalogueVersion(),
    )!;
    const asObject = (head: string[]) => {
      const o: Record<string, string[]> = {};
      for (let i = 0; i < head.length; i += 2) (o[head[i].toLowerCase()] ??= []).push(head[i + 1]);
      return o;
    };
    const a = asObject(cachedPageHead(page, "nonceA", env, false, true));
    const b = asObject(cachedPageHead(page, "nonceB", env, false, true));
    const expected = securityHeaders("nonceA", env, false, page.scriptHashes);
    expect(a["content-security-policy"]).toEqual([expected["Content-Security-Policy"]]);
    expect(b["content-security-policy"]).toEqual([
      securityHeaders("nonceB", env, false, page.scriptHashes)["Content-Security-Policy"],
    ]);
    expect(a["content-security-policy"][0]).toContain(page.scriptHashes[0]);
    // The security headers win over the page's own; each header appears once.
    expect(a["x-frame-options"]).toEqual(["DENY"]);
    expect(a.vary).toEqual(["Accept-Encoding"]);
    expect(a["content-type"]).toEqual(["text/html; charset=utf-8"]);
    expect(a["content-encoding"]).toEqual(["gzip"]);
    expect(a["content-length"]).toEqual([String(page.gzip.length)]);
    expect(a["strict-transport-security"]).toBeUndefined();
    const plain = asObject(cachedPageHead(page, "n", env, false, false));
    expect(plain["content-encoding"]).toBeUndefined();
    expect(plain["content-length"]).toEqual([String(page.body.length)]);
    expect(asObject(cachedPageHead(page, "n", env, true, true))["strict-transport-security"]).toEqual([
      "max-age=31536000; includeSubDomains",
    ]);
  });
});

describe("CSP nonces", () => {
  it("are 128 random bits in base64, never repeated", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const n = createNonce();
      expect(n).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(Buffer.from(n, "base64").length).toBe(16);
      seen.add(n);
    }
    expect(seen.size).toBe(2000);
  });
});

describe("public tRPC reads in the page cache (issue 42.2)", () => {
  const bySlug = (input: unknown) =>
    `/api/trpc/templates.bySlug?input=${encodeURIComponent(typeof input === "string" ? input : JSON.stringify(input))}`;

  it("keys the anonymous list, the featured and a template by a slug's own characters, and nothing else", () => {
    expect(cacheKeyFor("GET", "/api/trpc/templates.list", false)).toBe("/api/trpc/templates.list");
    expect(cacheKeyFor("GET", "/api/trpc/templates.featured", false)).toBe("/api/trpc/templates.featured");
    expect(cacheKeyFor("GET", bySlug({ slug: "atelier" }), false)).toBe(bySlug({ slug: "atelier" }));
    // Signed in (the list marks what the buyer owns), a write, a batch, another procedure, odd input.
    expect(cacheKeyFor("GET", "/api/trpc/templates.list", true)).toBeNull();
    expect(cacheKeyFor("POST", "/api/trpc/templates.list", false)).toBeNull();
    expect(cacheKeyFor("GET", "/api/trpc/templates.list,templates.featured?batch=1&input={}", false)).toBeNull();
    expect(cacheKeyFor("GET", "/api/trpc/templates.list?x=1", false)).toBeNull();
    expect(cacheKeyFor("GET", "/api/trpc/admin.templates.list", false)).toBeNull();
    expect(cacheKeyFor("GET", "/api/trpc/templates.related?input={}", false)).toBeNull();
    for (const input of [{ slug: "Atelier" }, { slug: "a/b" }, { slug: "a", extra: 1 }, { slug: 1 }, "not json", null])
      expect(cacheKeyFor("GET", bySlug(input), false), JSON.stringify(input)).toBeNull();
  });

  it("keeps a JSON answer with a weak ETag, never HTML under an API key or JSON under a page's", () => {
    const json = new Headers({ "content-type": "application/json" });
    const page = storePage("/api/trpc/templates.list", 200, json, Buffer.from('{"result":{}}'), 7)!;
    expect(page.etag).toMatch(/^W\/"7-[\w-]{22}"$/);
    expect(
      storePage("/api/trpc/templates.featured", 200, new Headers({ "content-type": "text/html" }), Buffer.from("x"), 7),
    ).toBeNull();
    expect(storePage("/templates", 200, json, Buffer.from("{}"), 7)).toBeNull();
    const env = { APP_URL: "http://localhost:3000", CALENDLY_URL: "", isProduction: true } as Env;
    expect(cachedPageHead(page, "n", env, false, false)).toEqual(expect.arrayContaining(["ETag", page.etag]));
    // The head goes to writeHead whole: a name the answer had already (tRPC's Cache-Control) is
    // replaced, never sent twice.
    const withOwn = storePage(
      "/api/trpc/templates.featured",
      200,
      new Headers({ "content-type": "application/json", "cache-control": "no-store", vary: "trpc-accept" }),
      Buffer.from('{"result":{}}'),
      7,
    )!;
    const head = cachedPageHead(withOwn, "n", env, false, true);
    const names = head.filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase());
    expect(names).toEqual([...new Set(names)]);
    expect(head[head.findIndex((n) => n.toLowerCase() === "cache-control") + 1]).toBe("no-cache");
    expect(head[head.findIndex((n) => n.toLowerCase() === "vary") + 1]).toBe("Accept-Encoding");
  });

  it("matches If-None-Match weakly, in a list, or *", () => {
    expect(matchesEtag('W/"7-abc"', 'W/"7-abc"')).toBe(true);
    expect(matchesEtag('"7-abc"', 'W/"7-abc"')).toBe(true);
    expect(matchesEtag('W/"6-x", W/"7-abc"', 'W/"7-abc"')).toBe(true);
    expect(matchesEtag("*", 'W/"7-abc"')).toBe(true);
    expect(matchesEtag('W/"7-abd"', 'W/"7-abc"')).toBe(false);
    expect(matchesEtag(undefined, 'W/"7-abc"')).toBe(false);
    expect(matchesEtag("*", null)).toBe(false);
  });
});
