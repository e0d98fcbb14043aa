// The npm scripts' operator commands (`npm run db:migrate`, `db:seed`, `admin`, `backup`,
// `restore`): server/cli.ts's runCli, from the one server module that `npm run build` writes
// (build/index.js, server/bundle.ts).
import { runCli } from "../build/index.js";

runCli(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
