import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";

const SERVER_NOT_APP = {
  regex: "^~/|(^|/)app/",
  message:
    "server/ imports nothing from app/: what both need lives in server/domain, imported as #domain/... (decision 023).",
};

/** Inside server/domain only relative imports that stay in it, and zod (conform's zod for forms). */
const domainOnly = (relative) => ({
  regex: `^(?!(${relative}|zod$|@conform-to/zod$|vitest$))`,
  message:
    "server/domain imports only itself and zod: no Remix, no HTTP, no services, no node:*, nothing of app/ (decision 023).",
});

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
  {
    // Services speak the domain's language; the web layer (server/http, server/trpc, the routes)
    // imports them and maps their errors, never the other way.
    files: [
      "server/{admin,booking,db,email,shop,storage,studio}/**/*.{ts,tsx}",
      "server/*.server.ts",
      "server/errors.ts",
    ],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            SERVER_NOT_APP,
            {
              regex: "(^|/)(http|trpc)/",
              message:
                "Services never import the web layer (server/http, server/trpc): it imports them (decision 023).",
            },
            {
              regex: "^(@remix-run/|express$|@trpc/)",
              message: "Services answer in the domain's words (DomainError, plain values), not HTTP (decision 023).",
            },
          ],
        },
      ],
    },
  },
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
