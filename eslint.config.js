import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";

const SERVER_NOT_APP = {
  regex: "^~/|(^|/)app/",
  message:
    "server/ imports nothing from app/: what both need lives in server/domain, imported as #domain/... (decision 023).",
};

/**
 * Inside server/domain only relative imports that stay in it, and zod (conform's zod for forms).
 * @param {string} relative a pattern of the relative imports that stay inside
 */
const domainOnly = (relative) => ({
  regex: `^(?!(${relative}|zod$|@conform-to/zod$|vitest$))`,
  message:
    "server/domain imports only itself and zod: no Remix, no HTTP, no services, no node:*, nothing of app/ (decision 023).",
});

/**
 * The server's layers (issue 41.2, decision 034), lowest first: a room imports only rooms of lower
 * layers (shop and booking, on one layer, not each other). A room is a folder of server/ or one of
 * its top-level files. server/domain has its own, stricter rule (domainOnly).
 */
/** The rooms below the web layer that never speak HTTP (auth keeps the session cookies, with Remix's). */
const SERVICE_ROOMS = [
  "errors.ts",
  "env.server.ts",
  "log.server.ts",
  "rate-limit.server.ts",
  "storage/",
  "db/",
  "db.server.ts",
  "health.server.ts",
  "email/",
  "replica/",
  "acme/",
  "studio/",
  "payments/",
  "shop/",
  "booking/",
  "admin/",
];

const SERVER_LAYERS = [
  ["errors.ts", "cron.ts", "log-path.ts", "packages-apart.ts", "env-rules.ts"],
  ["env.server.ts", "log.server.ts", "rate-limit.server.ts", "data-owner.server.ts", "storage/", "documents/"],
  ["db/", "db.server.ts", "health.server.ts"],
  ["email/", "replica/"],
  ["studio/", "acme/"],
  ["auth/"],
  ["payments/"],
  ["calendar/"],
  ["shop/", "booking/", "contracts/"],
  ["admin/"],
  ["boot.server.ts", "http/"],
  ["trpc/"],
  ["index.ts", "cli.ts", "bundle.ts", "install.ts"],
];

/** @param {string} text */
const escapeRe = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The import specifiers that name a room, from a file of `importer`: a folder as `../shop/x`,
 * `./shop/x` or `../../shop/x`; a top-level file as `./boot.server` from beside it and
 * `../boot.server` from a folder (a folder's own `./db.server` is not the top-level one).
 * @param {string} room
 * @param {string} importer
 */
function roomPattern(room, importer) {
  if (room.endsWith("/")) return `(^|/)${escapeRe(room)}`;
  const base = escapeRe(room.replace(/\.(ts|js)$/, ""));
  return `^${importer.endsWith("/") ? "(\\.\\./)+" : "\\./"}${base}(\\.(ts|js))?$`;
}

/** Rooms on one layer that still may not import each other. */
const APART = [["shop/", "booking/"]];

/**
 * One config per room: the rooms above it (and those kept APART from it) may not be imported.
 * @param {(room: string) => object[]} extraPatterns what else the room may not import
 * @returns {import("eslint").Linter.Config[]}
 */
function layerConfigs(extraPatterns) {
  return SERVER_LAYERS.flatMap((layer, i) =>
    layer.map((room) => {
      const apart = APART.filter((group) => group.includes(room)).flatMap((group) => group.filter((r) => r !== room));
      const higher = [...SERVER_LAYERS.slice(i + 1).flat(), ...apart];
      return {
        files: [room.endsWith("/") ? `server/${room}**/*.{ts,tsx,js}` : `server/${room}`],
        rules: {
          "no-restricted-imports": [
            "error",
            {
              patterns: [
                ...extraPatterns(room),
                ...(higher.length
                  ? [
                      {
                        regex: higher.map((r) => roomPattern(r, room)).join("|"),
                        message: `server/${room} imports only the layers below it (${SERVER_LAYERS.slice(0, i)
                          .flat()
                          .join(
                            ", ",
                          )}); nothing above it${apart.length ? ` and not ${apart.map((r) => `server/${r}`).join(", ")}` : ""} (decision 034).`,
                      },
                    ]
                  : []),
              ],
            },
          ],
        },
      };
    }),
  );
}

export default tseslint.config(
  {
    ignores: ["build/**", "public/build/**", "node_modules/**", ".cache/**", "test-results/**", "playwright-report/**"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx,js,mjs}"],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-console": "off",
    },
  },
  {
    // Browser code never imports server modules (their secrets, the database, node:*); types are fine.
    // Route modules may: Remix strips their loaders and actions from the browser build.
    files: ["app/components/**", "app/lib/**", "app/content/**", "app/trpc/**", "app/entry.client.tsx"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/*.server", "**/*.server.*", "**/server/**", "~/../server/**"],
              allowTypeImports: true,
              message: "Browser code must not import server modules (types only).",
            },
          ],
        },
      ],
    },
  },
  // Imports go one way (decision 023): app/ -> server/ -> server/domain, never back.
  {
    files: ["server/**/*.{ts,tsx,js}"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [SERVER_NOT_APP] }],
    },
  },
  // Services speak the domain's language; the web layer (server/http, server/trpc, the routes)
  // imports them and maps their errors, never the other way (decision 023). And the server's rooms
  // form layers (decision 034).
  ...layerConfigs((room) => [
    SERVER_NOT_APP,
    ...(SERVICE_ROOMS.includes(room)
      ? [
          {
            regex: "^(@remix-run/|express$|@trpc/)",
            message: "Services answer in the domain's words (DomainError, plain values), not HTTP (decision 023).",
          },
        ]
      : []),
  ]),
  {
    // The domain layer: the studio's rules and the sample studio, pure and client-safe.
    files: ["server/domain/*.{ts,tsx}"],
    rules: { "no-restricted-imports": ["error", { patterns: [domainOnly("\\./")] }] },
  },
  {
    files: ["server/domain/*/**/*.{ts,tsx}"],
    rules: { "no-restricted-imports": ["error", { patterns: [domainOnly("\\.\\.?/(?!\\.\\./)")] }] },
  },
);
