import http from "node:http";
import { describe, expect, it } from "vitest";
import { queryDb, startServer } from "../helpers/server";

describe("graceful shutdown", () => {
  it("on SIGTERM stops accepting, finishes the request in flight, then exits 0", async () => {
    const server = await startServer();
    const body = new URLSearchParams({
      selectedPackage: "growth",
      name: "In Flight",
      email: "inflight@example.com",
      company: "Slow Uploads Ltd",
      intent: "next",
    }).toString();
    const half = Math.floor(body.length / 2);

    // Expect: 100-continue makes the server say when it has the request's head and has handed the
    // request to the app ("100 Continue"): from then on the request is in flight.
    const req = http.request(`${server.url}/booking?index&step=1`, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        "Content-Length": body.length,
        Origin: server.url,
        Expect: "100-continue",
      },
    });
    const answer = new Promise<{ status: number; location: string | undefined }>((resolve, reject) => {
      req.on("response", (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, location: res.headers.location }));
      });
      req.on("error", reject);
    });
    req.flushHeaders();
    await new Promise<void>((resolve) => req.once("continue", resolve));
    req.write(body.slice(0, half));

    server.proc.kill("SIGTERM");
    await expect.poll(() => server.output(), { timeout: 10_000 }).toContain("SIGTERM: finishing in-flight requests");
    // Once the signal is in, new connections are refused.
    await expect
      .poll(
        () =>
          fetch(`${server.url}/healthz`).then(
            () => "answered",
            () => "refused",
          ),
        { timeout: 10_000 },
      )
      .toBe("refused");

    // The rest of the body arrives after the signal, and the request is answered.
    req.end(body.slice(half));
    expect(await answer).toEqual({ status: 302, location: "/booking?step=2" });
    expect(await server.exited).toEqual({ code: 0, signal: null });
    const [draft] = queryDb<{ data: string }>(server.dataDir, "select data from booking_drafts");
    expect(JSON.parse(draft.data).state.email).toBe("inflight@example.com");
  });
});
