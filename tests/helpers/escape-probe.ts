// A process that installs the server's last line for escaped errors, then lets errors escape:
// in a request's scope (an emitter's unheard error, a rejected promise), then outside any request.
// Run by tests/unit/escapes.test.ts; it prints what happened as JSON lines.
import { EventEmitter } from "node:events";
import { createLogger } from "../../server/log.server";
import { withRequestScope } from "../../server/http/disk-full.server";
import { keepServingThroughRequestFaults } from "../../server/http/escapes.server";

keepServingThroughRequestFaults(createLogger("json"));
const said = (what: string) => process.stdout.write(JSON.stringify({ probe: what }) + "\n");

await withRequestScope(
  async () => {
    // Like busboy's part stream: an error emitted later, on a tick of its own, with no listener.
    setTimeout(() => new EventEmitter().emit("error", new Error("Unexpected end of form")), 5);
    void Promise.reject(new Error("a rejection nobody awaited"));
  },
  "req-probe-1",
  () => said("dropped req-probe-1"),
);
setTimeout(() => {
  said("still serving");
  // Outside any request: the process stops.
  setTimeout(() => {
    throw new Error("a fault of the process itself");
  }, 5);
}, 50);
