/**
 * The console's Settings (issue 29) against the production build: admins only, for every way in
 * (the page, each intent of its action, a multipart case study with a picture), checked on the
 * server; anyone else is sent to /templates and nothing is written.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryDb, sessionCookie, startServer, type RunningServer } from "../helpers/server";

let server: RunningServer;
let buyer: string;
let admin: string;
beforeAll(async () => {
  server = await startServer();
  buyer = await sessionCookie(server.dataDir, "buyer@example.com");
  admin = await sessionCookie(server.dataDir, "admin@example.com", "admin");
});
afterAll(async () => {
  await server?.stop();
});

const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082",
  "hex",
);

/** Every kind of post the Settings action answers. */
function posts(): [string, string, () => BodyInit][] {
  const form = (fields: Record<string, string>) => () => new URLSearchParams(fields);
  return [
    [
      "save studio",
      "studio",
      form({ section: "studio", intent: "save", name: "Taken", contactEmail: "x@example.com" }),
    ],
    ["clear sample", "legal", form({ section: "legal", intent: "clear-sample" })],
    ["move a case study", "caseStudies", form({ section: "caseStudies", intent: "move-down:1" })],
    ["remove a case study", "caseStudies", form({ section: "caseStudies", intent: "remove:1" })],
    [
      "a case study with a picture",
      "caseStudies",
      () => {
        const f = new FormData();
        for (const [k, v] of Object.entries({
          section: "caseStudies",
          intent: "save",
          title: "T",
          client: "C",
          industry: "I",
          challenge: "c",
          solution: "s",
          result: "r",
          newImagesAlt: "A picture",
        }))
          f.append(k, v);
        f.append("newImages", new Blob([PNG], { type: "image/png" }), "a.png");
        return f;
      },
    ],
  ];
}

describe("/admin/settings", () => {
  it("sends signed-out visitors and buyers to /templates, for the page and every post, and writes nothing", async () => {
    for (const cookie of [null, buyer]) {
      const headers: Record<string, string> = cookie ? { Cookie: cookie } : {};
      const page = await fetch(`${server.url}/admin/settings`, { headers, redirect: "manual" });
      expect(page.status).toBe(302);
      expect(page.headers.get("location")).toBe("/templates");
      for (const [name, section, body] of posts()) {
        const res = await fetch(`${server.url}/admin/settings?section=${section}`, {
          method: "POST",
          headers: { ...headers, Origin: server.url },
          body: body(),
          redirect: "manual",
        });
        expect(res.status, name).toBe(302);
        expect(res.headers.get("location"), name).toBe("/templates");
      }
    }
    expect(queryDb(server.dataDir, "select section from studio_settings")).toEqual([]);
    expect(
      queryDb<{ n: number }>(server.dataDir, "select count(*) as n from users where email = 'x@example.com'"),
    ).toEqual([{ n: 0 }]);
  });

  it("answers an admin: the page, a save, and a case study with its picture stored in the public bucket", async () => {
    const page = await fetch(`${server.url}/admin/settings`, { headers: { Cookie: admin } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Settings sections");
    const [, , body] = posts()[4];
    const res = await fetch(`${server.url}/admin/settings?section=caseStudies&edit=new`, {
      method: "POST",
      headers: { Cookie: admin, Origin: server.url },
      body: body(),
      redirect: "manual",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/admin/settings?section=caseStudies&saved=added");
    const [row] = queryDb<{ data: string; updated_by: string }>(
      server.dataDir,
      "select data, updated_by from studio_settings where section = 'caseStudies'",
    );
    expect(row.updated_by).toBe("admin@example.com");
    const items = JSON.parse(row.data).items as { title: string; images: { url: string; alt: string }[] }[];
    const added = items.find((i) => i.title === "T")!;
    expect(added.images).toHaveLength(1);
    expect(added.images[0].alt).toBe("A picture");
    const image = await fetch(`${server.url}${added.images[0].url}`);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await image.arrayBuffer())).toEqual(PNG);
  });
});
