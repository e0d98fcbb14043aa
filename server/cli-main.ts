// The npm scripts' operator commands (db:migrate, db:seed, admin, backup, restore): compiled to
// build/cli.js by `npm run build` (scripts/build-cli.mjs), so no TypeScript runner is needed at run time.
import { runCli } from "./cli";

runCli(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
