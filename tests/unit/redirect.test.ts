import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "../../server/auth/redirect";

describe("safeRedirectPath", () => {
  it("keeps same-site paths with their query and hash, normalised", () => {
    expect(safeRedirectPath("/templates/atelier")).toBe("/templates/atelier");
    expect(safeRedirectPath("/templates?category=saas#grid")).toBe("/templates?category=saas#grid");
    expect(safeRedirectPath("/a/./b/../c")).toBe("/a/c");
    expect(safeRedirectPath("/%2F%2Fevil.example")).toBe("/%2F%2Fevil.example");
  });

  it("never returns anything a browser reads as another origin", () => {
    for (const p of [
      "/.//evil.example",
      "/..//evil.example",
      "/./..//evil.example/x",
      "/a/..//evil.example",
      "//evil.example",
      "/\\evil.example",
      "/.\\/evil.example",
      "https://evil.example",
      "javascript:alert(1)",
      "evil.example",
      "/\tevil",
      "",
      "/" + "a".repeat(600),
    ]) {
      const out = safeRedirectPath(p, "/dashboard");
      expect(out, p).toBe("/dashboard");
    }
  });

  it("whatever it is given, the answer is a path on this site", () => {
    const samples = ["/x//y", "/.//", "/..", "/../..//a", "/?//evil.example", "/#//evil", "/%5C%5Cevil", "/.%2F/evil"];
    for (const p of samples) {
      const out = safeRedirectPath(p);
      expect(out.startsWith("/"), p).toBe(true);
      expect(out.startsWith("//") || out.startsWith("/\\"), p).toBe(false);
      expect(new URL(out, "https://studio.example").origin, p).toBe("https://studio.example");
    }
  });
});
