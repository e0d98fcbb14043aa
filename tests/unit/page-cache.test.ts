import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { bumpCatalogueVersion, cacheKeyFor, catalogueVersion, getCachedPage, inlineScriptHashes, storePage } from "../../server/http/page-cache.server";

describe("page cache", () => {
  it("caches only anonymous GETs of public pages", () => {
    expect(cacheKeyFor("GET", "/", false)).toBe("/");
    expect(cacheKeyFor("GET", "/templates?category=saas", false)).toBe("/templates?category=saas");
    expect(cacheKeyFor("GET", "/templates/atelier", false)).toBe("/templates/atelier");
    expect(cacheKeyFor("GET", "/", true)).toBeNull();
    expect(cacheKeyFor("POST", "/", false)).toBeNull();
    for (const p of ["/booking", "/booking?step=2", "/admin", "/dashboard", "/api/trpc/templates.list", "/templates?signin=required", "/templates/atelier?session_id=cs_1", "/files/template-images/a.svg"]) {
      expect(cacheKeyFor("GET", p, false), p).toBeNull();
    }
  });

  it("hashes every inline script and none with a src", () => {
    const html = `<script nonce="a">window.x=1</script><script src="/build/a.js"></script><script type="module">import "/b.js";</script>`;
    const h = (s: string) => `'sha256-${crypto.createHash("sha256").update(s).digest("base64")}'`;
    expect(inlineScriptHashes(html)).toEqual([h("window.x=1"), h('import "/b.js";')]);
  });

  it("stores 200 HTML without cookies and drops entries when the catalogue changes", () => {
    const html = new Headers({ "content-type": "text/html; charset=utf-8" });
    expect(storePage("/x", 404, html, Buffer.from("no"), catalogueVersion())).toBeNull();
    expect(storePage("/x", 200, new Headers({ "content-type": "text/html", "set-cookie": "a=b" }), Buffer.from("no"), catalogueVersion())).toBeNull();
    expect(storePage("/x", 200, new Headers({ "content-type": "application/json" }), Buffer.from("{}"), catalogueVersion())).toBeNull();
    const page = storePage("/x", 200, html, Buffer.from("<p>hi</p>"), catalogueVersion());
    expect(page?.gzip.length).toBeGreaterThan(0);
    expect(getCachedPage("/x")?.body.toString()).toBe("<p>hi</p>");
    bumpCatalogueVersion();
    expect(getCachedPage("/x")).toBeNull();
    storePage("/y", 200, html, Buffer.from("y"), catalogueVersion());
    expect(getCachedPage("/y", Date.now() + 61_000)).toBeNull();
  });
});
