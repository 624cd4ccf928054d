// ESLint for the browser code (plain ES modules, no build step), its node tests and tools:
// `npm run lint`; CI runs it (tests/browser/test_js_checks.py).
import js from "@eslint/js";
import globals from "globals";

export default [
  // only the project's own code: not the virtualenv's or any installed package's
  { ignores: [".venv/**", "**/node_modules/**", "build/**", "dist/**", "docs/**"] },
  js.configs.recommended,
  {
    files: ["src/cardtable/server/static/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.browser },
  },
  {
    files: ["tests/browser/js/**/*.mjs", "tools/**/*.mjs"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.node },
  },
  {
    rules: {
      "no-unused-vars": ["error", { args: "after-used", argsIgnorePattern: "^_" }],
      eqeqeq: ["error", "always", { null: "ignore" }],
      "prefer-const": "error",
    },
  },
];
