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

    const answer = new Promise<{ status: number; location: string | undefined }>((resolve, reject) => {
      const req = http.request(
        `${server.url}/booking?index&step=1`,
        {
          method: "POST",
          headers: {
            "Content-Type": "application/x-www-form-urlencoded",
            "Content-Length": body.length,
            Origin: server.url,
          },
        },
        (res) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode ?? 0, location: res.headers.location }));
        },
      );
      req.on("error", reject);
      req.write(body.slice(0, half));
      // The rest of the body arrives after the signal.
      setTimeout(() => {
        server.proc.kill("SIGTERM");
        setTimeout(() => req.end(body.slice(half)), 500);
      }, 200);
    });

    // Once the signal is in, new connections are refused.
    await new Promise((r) => setTimeout(r, 450));
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();

    expect(await answer).toEqual({ status: 302, location: "/booking?step=2" });
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.output()).toContain("SIGTERM: finishing in-flight requests");
    const [draft] = queryDb<{ data: string }>(server.dataDir, "select data from booking_drafts");
    expect(JSON.parse(draft.data).state.email).toBe("inflight@example.com");
  });
});
