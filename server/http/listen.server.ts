import type http from "node:http";

/**
 * Listens on HOST:PORT (every interface without HOST). A body still arriving after 60 s must
 * average 64 KB/s (408 otherwise, in server/http/remix-handler.ts); Node's own limit on a whole request
 * is only the backstop for a 100 MB upload on a slow line. A burst of visitors (1,200 connections
 * at once in tests/server/faults.test.ts) waits in the kernel's queue while renders hold the event
 * loop; at Node's default of 511 the rest were dropped or reset. The kernel caps it at
 * net.core.somaxconn.
 */
export function listen(server: http.Server, port: number, host: string | undefined): Promise<void> {
  server.requestTimeout = 30 * 60_000;
  server.headersTimeout = 60_000;
  return new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ port, host, backlog: 4096 }, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

/**
 * Why the server could not listen, in one line that says what to do. `variable`: the setting that
 * names the port (PORT, or HTTPS_PORT and HTTP_PORT with DOMAIN).
 */
export function listenProblem(
  error: NodeJS.ErrnoException,
  port: number,
  host: string | undefined,
  variable = "PORT",
): string {
  const where = host ? `${host}:${port}` : `port ${port}`;
  switch (error.code) {
    case "EADDRINUSE":
      return `cannot listen on ${where}: it is already in use by another program (EADDRINUSE); stop that program or set ${variable} to a free port`;
    case "EACCES":
      return variable === "PORT"
        ? `cannot listen on ${where}: this user may not use ports below 1024 (EACCES); set PORT to 1024 or above and let the proxy listen on 80 and 443`
        : `cannot listen on ${where}: this user may not use ports below 1024 (EACCES); give the service CAP_NET_BIND_SERVICE (studio install does), or set ${variable}`;
    case "EADDRNOTAVAIL":
      return `cannot listen on ${where}: ${host} is not an address of this machine (EADDRNOTAVAIL); set HOST to one of its addresses, 127.0.0.1 or 0.0.0.0`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `cannot listen on ${where}: HOST ${host} is not a name this machine can resolve (${error.code})`;
    default:
      return `cannot listen on ${where}: ${error.message}`;
  }
}
