// ESLint (pinned in package.json): the recommended rules over the harness's own code, as
// test/format.test.mjs checks; generated code is left out.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", "gen/"] },
  js.configs.recommended,
  {
    languageOptions: { ecmaVersion: "latest", sourceType: "module", globals: { ...globals.node, Bun: "readonly" } },
    rules: { "no-unused-vars": ["error", { argsIgnorePattern: "^_", caughtErrors: "none" }] },
  },
];
