// eslint over the browser code (`npm run lint:js`): the recommended rules, for ES modules that run
// in a browser. ./run-tests runs it with the TypeScript checker (tsconfig.json).
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: globals.browser,
    },
    linterOptions: {
      reportUnusedDisableDirectives: "error",
    },
  },
  {
    // Two dead names in drawings that their owners are rewriting (issue 35): robo_pigs's
    // programTable takes a `frames` it does not read, and tank_chess destructures a `cy` it does not
    // use. Neither changes what is drawn; this exception goes with those lines.
    files: ["src/tussle/games/robo_pigs/web.js", "src/tussle/games/tank_chess/web.js"],
    rules: { "no-unused-vars": ["error", { args: "none", destructuredArrayIgnorePattern: "^cy$" }] },
  },
  {
    // This file is run by Node, not by a browser.
    files: ["eslint.config.js"],
    languageOptions: { globals: globals.node },
  },
];
