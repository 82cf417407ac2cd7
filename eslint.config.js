// ESLint for the whole workspace, one flat config (run: pnpm lint; findings by rule:
// node scripts/lint-report.mjs). Type-aware typescript-eslint through the project service: each
// file is checked against the nearest tsconfig.json that includes it (the root one, or
// apps/dashboard, apps/extension, e2e). Prettier formats; eslint-config-prettier (last) turns off
// every stylistic rule that would fight it.
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import { defineConfig, globalIgnores } from "eslint/config";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import reactRefresh from "eslint-plugin-react-refresh";
import globals from "globals";
import tseslint from "typescript-eslint";

const tsFiles = ["**/*.{ts,tsx,mts,cts}"];
const jsFiles = ["**/*.{js,mjs,cjs,jsx}"];
const reactApps = ["apps/dashboard/src/**/*.{ts,tsx}", "apps/extension/src/**/*.{ts,tsx}"];

export default defineConfig(
  globalIgnores([
    "**/node_modules/",
    "**/dist/",
    "**/coverage/",
    "packages/db/src/generated/",
    "test-results/",
    "artifacts/",
    ".local/",
    "packages/extract/.speed-base-*/",
  ]),
  { linterOptions: { reportUnusedDisableDirectives: "error" } },

  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    files: tsFiles,
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/consistent-type-imports": [
        "error",
        { prefer: "type-imports", fixStyle: "separate-type-imports" },
      ],
      // Fastify plugins and route handlers are async by contract (FastifyPluginAsync), await or
      // not.
      "@typescript-eslint/require-await": "off",
      // TanStack Router's redirect() is thrown by design; it is its Redirect object, not an Error.
      "@typescript-eslint/only-throw-error": [
        "error",
        { allow: [{ from: "package", package: "@tanstack/router-core", name: "Redirect" }] },
      ],
      // An underscore marks a deliberately unused name (a handler's unused argument, a rest
      // sibling).
      "@typescript-eslint/no-unused-vars": [
        "error",
        {
          argsIgnorePattern: "^_",
          varsIgnorePattern: "^_",
          caughtErrorsIgnorePattern: "^_",
          destructuredArrayIgnorePattern: "^_",
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  // Plain JavaScript (build scripts, jest's setup, configs) is in no tsconfig: no type information.
  { files: jsFiles, extends: [tseslint.configs.disableTypeChecked] },
  { files: jsFiles, languageOptions: { globals: { ...globals.node } } },
  {
    files: ["**/*.cjs"],
    languageOptions: { sourceType: "commonjs", globals: { ...globals.node } },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },

  // Import cycles, followed through workspace packages: @catalog/* resolves (package.json
  // "exports", condition "default") to each package's TypeScript sources, and "./x.js"
  // specifiers to "./x.ts", by the TypeScript resolver reading the same tsconfigs.
  {
    plugins: { "import-x": importX },
    settings: {
      "import-x/resolver-next": [
        createTypeScriptImportResolver({
          alwaysTryTypes: true,
          noWarnOnMultipleProjects: true,
          project: [
            "tsconfig.json",
            "apps/dashboard/tsconfig.json",
            "apps/extension/tsconfig.json",
            "e2e/tsconfig.json",
          ],
        }),
      ],
      "import-x/internal-regex": "^@catalog/",
      // Parse TypeScript dependencies too (import-x follows only .js files by default).
      "import-x/extensions": [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx", ".mts", ".cts"] },
    },
    rules: { "import-x/no-cycle": "error" },
  },

  // Playwright reads a fixture's dependencies from its first parameter, so one with none is `{}`.
  {
    files: ["e2e/**/*.ts"],
    rules: { "no-empty-pattern": ["error", { allowObjectPatternsAsParameters: true }] },
  },

  {
    files: reactApps,
    extends: [reactHooks.configs.flat.recommended, reactRefresh.configs.vite],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ["apps/extension/src/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.webextensions } },
  },

  prettier,
);
