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
    // This file is run by Node, not by a browser.
    files: ["eslint.config.js"],
    languageOptions: { globals: globals.node },
  },
];
