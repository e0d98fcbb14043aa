// eslint-plugin-react-hooks 5 ships no types; what eslint.config.js uses of it (the plugin and its
// legacy `recommended` config's rules), so that the config is type-checked with the rest.
declare module "eslint-plugin-react-hooks" {
  import type { ESLint, Linter } from "eslint";

  const plugin: ESLint.Plugin & {
    configs: { recommended: { plugins: string[]; rules: Linter.RulesRecord } };
  };
  export default plugin;
}
