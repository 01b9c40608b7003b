// ESLint for the viewer's page: plain ES modules run in the browser, no build step.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", ".venv/", ".ci-venv/", "build/", "dist/", "src/geoik/viewer/static/vendor/"] },
  js.configs.recommended,
  {
    files: ["src/geoik/viewer/static/**/*.js"],
    languageOptions: {
      ecmaVersion: "latest",
      sourceType: "module",
      globals: globals.browser,
    },
  },
  {
    files: ["eslint.config.js", "scripts/**/*.mjs"],
    languageOptions: { sourceType: "module", globals: globals.node },
  },
];
