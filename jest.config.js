// ESM TypeScript through @swc/jest; jest runs with --experimental-vm-modules (see package.json).
const swcTs = ["@swc/jest", { jsc: { parser: { syntax: "typescript" }, target: "es2022" }, module: { type: "es6" } }];

// ESM-only packages that CommonJS dependencies require() (light-my-request needs `cookie`,
// @fastify/static needs `content-disposition`, openapi-backend needs the ref parser, sanitize-html
// needs htmlparser2 12 and its dom* and entities packages). Jest on Node 20 cannot require ESM, so
// these are compiled to CommonJS (their older CommonJS versions pass through unchanged). Node
// 20.19+ itself requires them; jest would not need this on Node 24.9+.
const esmPackages = [
  "cookie", "content-disposition", "@apidevtools/json-schema-ref-parser",
  "htmlparser2", "domhandler", "domutils", "domelementtype", "dom-serializer", "entities",
];
const esmRequiredFromCjs = esmPackages.join("|");
// pnpm's store folder writes a scope's slash as "+".
const esmStoreFolders = esmPackages.map((name) => name.replace("/", "\\+")).join("|");
const swcCjs = ["@swc/jest", { jsc: { target: "es2022" }, module: { type: "commonjs" } }];

export default {
  testEnvironment: "node",
  extensionsToTreatAsEsm: [".ts"],
  transform: {
    "^.+\\.ts$": swcTs,
    [`/node_modules/(${esmRequiredFromCjs})/.+\\.js$`]: swcCjs,
  },
  transformIgnorePatterns: [`/node_modules/(?!(\\.pnpm/(${esmStoreFolders})@[^/]+/node_modules/)?(${esmRequiredFromCjs})/)`],
  moduleNameMapper: { "^(\\.{1,2}/.*)\\.js$": "$1" },
  testMatch: ["<rootDir>/apps/*/test/**/*.test.ts", "<rootDir>/packages/*/test/**/*.test.ts", "<rootDir>/deploy/test/**/*.test.ts"],
  globalSetup: "<rootDir>/packages/testing/src/jest-global-setup.mjs",
  globalTeardown: "<rootDir>/packages/testing/src/jest-global-teardown.mjs",
  testTimeout: 30_000,
};
