import { defineConfig } from "vitest/config";

// Unit tests of the dashboard's logic (URL checks, field errors, labels, formatting), beside the
// code they test as src/**/*.test.ts, in Node: they need no browser (the e2e suite covers that).
// Jest never sees them (its testMatch is apps/*/test/**).
export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    environment: "node",
  },
});
