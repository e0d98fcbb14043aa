import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";

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
);
