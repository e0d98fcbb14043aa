// The bench's reference: a plain node:http server replaying captured responses byte for byte
// (same status, headers and gzip bytes). It runs in its own process, as the product does, so
// neither shares a core with the load generator.
//   node tests/perf/reference.mjs CAPTURED.json
// CAPTURED.json maps a route name to { status, headers, body (base64) }; a request picks its
// response by the `x-route` header, else by its URL. Prints the port once listening.
import fs from "node:fs";
import http from "node:http";

const captured = new Map(
  Object.entries(JSON.parse(fs.readFileSync(process.argv[2], "utf8"))).map(([name, c]) => [
    name,
    { ...c, body: Buffer.from(c.body, "base64") },
  ]),
);

const server = http.createServer((req, res) => {
  const c = captured.get(req.headers["x-route"] ?? req.url ?? "/");
  if (!c) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(c.status, c.headers);
  res.end(c.body);
});

server.listen(0, "127.0.0.1", () => {
  console.log(`reference listening on ${server.address().port}`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
