// ESM TypeScript through @swc/jest; jest runs with --experimental-vm-modules (see package.json).
const swcTs = [
  "@swc/jest",
  { jsc: { parser: { syntax: "typescript" }, target: "es2024" }, module: { type: "es6" } },
];

export default {
  testEnvironment: "node",
  extensionsToTreatAsEsm: [".ts"],
  transform: { "^.+\\.ts$": swcTs },
  moduleNameMapper: { "^(\\.{1,2}/.*)\\.js$": "$1" },
  testMatch: [
    "<rootDir>/apps/*/test/**/*.test.ts",
    "<rootDir>/packages/*/test/**/*.test.ts",
    "<rootDir>/deploy/test/**/*.test.ts",
  ],
  globalSetup: "<rootDir>/packages/testing/src/jest-global-setup.mjs",
  globalTeardown: "<rootDir>/packages/testing/src/jest-global-teardown.mjs",
  testTimeout: 30_000,
  // A worker whose heap passes this after a test file is replaced by a fresh one. Under
  // --experimental-vm-modules a worker keeps every file's modules: after a dozen files its heap was
  // 480-530 MB (RSS 840 MB), and tearing such a heap down at the end took longer than jest's 500 ms,
  // so jest force-killed it and printed "A worker process has failed to exit gracefully" with no
  // test leaking (the workers had nothing open but their stdio pipes).
  workerIdleMemoryLimit: "300MB",
};
