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
  // Never in band: with one worker (its default on a 2-core machine) jest runs every file in its
  // own process, whose heap the whole suite outgrew (4 GB, after about ten minutes). Two workers,
  // as CI runs them (scripts/test.sh).
  maxWorkers: 2,
  // A worker keeps every test file's modules it ran (each file loads its own graph), reaching
  // about 1.5 GB and then failing to exit in time; one that holds more than this after a file is
  // replaced by a fresh one. Measured on the gateway's tests: peak heap 1,475 -> 834 MB, no slower.
  workerIdleMemoryLimit: "800MB",
};
