import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let fake: http.Server;
let base = "";
const tokenRequests: URLSearchParams[] = [];

beforeAll(async () => {
  fake = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      if (req.url === "/token" && req.method === "POST") {
        tokenRequests.push(new URLSearchParams(body));
        res.writeHead(200, { "Content-Type": "application/json" });
        return res.end(
          JSON.stringify({
            access_token: "at-1",
            refresh_token: "rt-1",
            token_type: "Bearer",
            expires_in: 3600,
            scope: "openid email profile",
            id_token: "x",
          }),
        );
      }
      if (req.url === "/oauth2/v3/userinfo" && req.headers.authorization === "Bearer at-1") {
        res.writeHead(200, { "Content-Type": "application/json" });
        return res.end(
          JSON.stringify({
            sub: "g-1",
            name: "Grace Hopper",
            given_name: "Grace",
            family_name: "Hopper",
            email: "grace@example.com",
            email_verified: true,
            picture: "",
            locale: "en",
          }),
        );
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((r) => fake.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  Object.assign(process.env, {
    GOOGLE_CLIENT_ID: "client-123",
    GOOGLE_CLIENT_SECRET: "secret-456",
    GOOGLE_AUTH_BASE: base,
    APP_URL: "http://localhost:3000",
  });
  const { migrateToLatest } = await import("../../server/db/db.server");
  const { db } = await import("../../server/db.server");
  await migrateToLatest(db());
});

afterAll(() => fake.close());

function cookieOf(res: Response) {
  // Every cookie the answer sets, as the browser would send them back.
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

async function callLoader(mod: { loader: (a: never) => unknown }, request: Request): Promise<Response> {
  try {
    return (await mod.loader({ request, params: {}, context: {} } as never)) as Response;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

describe("Google sign-in", () => {
  it("redirects with offline access, the consent prompt and a state, then signs in on the callback", async () => {
    const google = await import("../../app/routes/auth.google");
    const callback = await import("../../app/routes/auth.callback");
    const start = (await google.action({
      request: new Request("http://localhost:3000/auth/google", {
        method: "POST",
        body: new URLSearchParams({ redirectTo: "/templates/atelier" }),
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      }),
      params: {},
      context: {},
    } as never)) as Response;
    expect(start.status).toBe(302);
    const to = new URL(start.headers.get("Location")!);
    expect(to.origin + to.pathname).toBe(`${base}/o/oauth2/v2/auth`);
    expect(to.searchParams.get("client_id")).toBe("client-123");
    expect(to.searchParams.get("redirect_uri")).toBe("http://localhost:3000/auth/callback");
    expect(to.searchParams.get("access_type")).toBe("offline");
    expect(to.searchParams.get("prompt")).toBe("consent");
    expect(to.searchParams.get("scope")).toContain("email");
    const state = to.searchParams.get("state")!;
    expect(state).toBeTruthy();
    const cookie = cookieOf(start);

    // A forged state is refused.
    const forged = await callLoader(
      callback,
      new Request(`http://localhost:3000/auth/callback?code=c1&state=nope`, { headers: { Cookie: cookie } }),
    );
    expect(forged.headers.get("Location")).toBe("/templates?error=auth_failed");

    const done = await callLoader(
      callback,
      new Request(`http://localhost:3000/auth/callback?code=c1&state=${state}`, { headers: { Cookie: cookie } }),
    );
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/templates/atelier");
    expect(cookieOf(done)).toMatch(/^__studio_session=/);
    expect(cookieOf(done)).not.toBe(cookie);
    expect(tokenRequests.at(-1)?.get("code")).toBe("c1");
    const { db } = await import("../../server/db.server");
    const user = await db()
      .selectFrom("users")
      .selectAll()
      .where("email", "=", "grace@example.com")
      .executeTakeFirstOrThrow();
    expect(user.full_name).toBe("Grace Hopper");
  });

  it("sends a provider error to /templates?error=auth_failed", async () => {
    const callback = await import("../../app/routes/auth.callback");
    const res = await callLoader(callback, new Request("http://localhost:3000/auth/callback?error=access_denied"));
    expect(res.headers.get("Location")).toBe("/templates?error=auth_failed");
  });
});
