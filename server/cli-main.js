// The npm scripts' operator commands (`npm run db:migrate`, `db:seed`, `admin`, `backup`,
// `restore`): server/cli.ts's runCli, from the one server module that `npm run build` writes
// (server/bundle.ts; loaded from its code cache by server/load-build.js).
import path from "node:path";
import url from "node:url";
import { loadServer } from "./load-build.js";

const root = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), "..");
const { dataDirFromEnv, otherOwnerRefusal, runCli, shellQuote } = (await loadServer(root)).server;

const args = process.argv.slice(2);
// Files private to the studio's user and group (data 0640, folders 0750; backups 0600).
process.umask(0o027);
// Run as the data folder's owner, or not at all: nothing is created before this (issue 33.5).
// As it was typed: each npm script gives the command (`admin`, `backup`, …), the rest came after `--`.
const script = process.env.npm_lifecycle_event;
const typed = args.slice(1).map(shellQuote).join(" ");
const command = script
  ? `npm run ${script}${typed ? ` -- ${typed}` : ""}`
  : `node server/cli-main.js ${args.map(shellQuote).join(" ")}`;
const refusal = otherOwnerRefusal(dataDirFromEnv(), command);
if (refusal) {
  console.error(refusal);
  process.exit(1);
}

runCli(args).then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
