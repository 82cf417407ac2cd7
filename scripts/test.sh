#!/usr/bin/env bash
# Runs the whole test suite on this machine, on Node.js 26 (.node-version; installed when the
# machine has another, see scripts/lib.sh): installs what is missing, type-checks, lints (ESLint)
# and checks the formatting (Prettier), runs jest against the real PostgreSQL and Redis (each run
# in its own database and key prefix), runs the dashboard's unit tests (Vitest,
# apps/dashboard/src/**/*.test.ts), runs the gateway's and the publish pipeline's tests again on a
# three-master Redis Cluster that it starts on loopback ports, then builds the dashboard and the
# browser extension (each skipped when unchanged) and runs the browser tests in Chromium against
# the real gateway, workers and channel stand-ins (e2e/, their own database and prefix too).
# Ends with one line counting every run: "N passed, M failed" (", K skipped" when any).
#
#   ./scripts/test.sh                          everything
#   ./scripts/test.sh <jest args>              only jest, with these arguments
#   ./scripts/test.sh --redis-cluster [args]   only the Redis Cluster run (default: its usual tests)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
CLUSTER_TESTS=(apps/gateway apps/publish-worker)
mode=all
if [ "${1:-}" = "--redis-cluster" ]; then mode=cluster; shift; elif [ $# -gt 0 ]; then mode=jest; fi
prepare
cd "$ROOT"
say "Type-checking"
pnpm --silent typecheck
results=$(mktemp -d)
trap 'stop_redis_cluster; rm -rf "$results"' EXIT
reports=()
status=0

if [ "$mode" = all ]; then
  # Lint and format checks: a finding fails the run (one failure each in the last line), and the
  # tests still run. `pnpm lint:report` lists ESLint's findings by rule; the formatter's are fixed
  # by `pnpm exec prettier --write <files>`.
  say "Linting (ESLint)"
  lint=0; pnpm --silent lint || lint=$?
  say "Checking the formatting (Prettier)"
  format=0; pnpm --silent format:check || format=$?
  reports+=("check:$lint" "check:$format")
  [ "$lint" = 0 ] && [ "$format" = 0 ] || status=1
fi

if [ "$mode" != cluster ]; then
  say "Running the tests"
  reports+=("jest:$results/jest.json")
  pnpm --silent test --maxWorkers=2 --json --outputFile="$results/jest.json" "$@" || status=$?
fi

if [ "$mode" = all ]; then
  say "Running the dashboard's unit tests"
  reports+=("vitest:$results/vitest.json")
  pnpm --silent --filter @catalog/dashboard test --reporter=default --reporter=json --outputFile.json="$results/vitest.json" || status=$?
fi

if [ "$mode" != jest ]; then
  say "Starting a three-master Redis Cluster on loopback"
  start_redis_cluster
  cluster_args=("$@")
  [ ${#cluster_args[@]} -gt 0 ] || cluster_args=("${CLUSTER_TESTS[@]}")
  say "Running ${cluster_args[*]} on the Redis Cluster ($REDIS_CLUSTER_URL)"
  reports+=("jest:$results/jest-cluster.json")
  REDIS_URL=$REDIS_CLUSTER_URL REDIS_CLUSTER=true pnpm --silent test --maxWorkers=2 --json --outputFile="$results/jest-cluster.json" \
    "${cluster_args[@]}" || status=$?
  stop_redis_cluster
fi

if [ "$mode" = all ]; then
  say "Building the dashboard and the browser extension"
  reports+=("playwright:$results/playwright.json")
  if node scripts/build-if-changed.mjs dashboard extension; then
    say "Running the browser tests"
    E2E_JSON_REPORT="$results/playwright.json" pnpm --silent test:e2e || status=$?
  else
    echo "error: the dashboard or the extension did not build; the browser tests did not run" >&2
    status=1
  fi
fi

node -e '
  const fs = require("fs");
  const read = (file) => { try { return JSON.parse(fs.readFileSync(file, "utf8")); } catch { return null; } };
  let passed = 0, failed = 0, skipped = 0;
  for (const report of process.argv.slice(1)) {
    const [runner, file] = [report.slice(0, report.indexOf(":")), report.slice(report.indexOf(":") + 1)];
    const r = read(file);
    if (runner === "check") { if (file !== "0") failed += 1; continue; } // lint, format: exit code
    if (!r) failed += 1; // the runner did not run or ended before it reported
    else if (runner === "jest") {
      passed += r.numPassedTests;
      failed += r.numFailedTests + r.numRuntimeErrorTestSuites;
      skipped += r.numPendingTests + r.numTodoTests;
    } else if (runner === "vitest") {
      passed += r.numPassedTests;
      // A test file that failed with no failing test (it did not load, a hook threw) counts once.
      const fileErrors = r.testResults.filter((f) => f.status === "failed" && !f.assertionResults.some((a) => a.status === "failed")).length;
      failed += r.numFailedTests + fileErrors;
      skipped += r.numPendingTests + r.numTodoTests;
    } else {
      passed += r.stats.expected;
      // flaky: passed only on a retry (there are none, retries are 0), still a failure here.
      failed += r.stats.unexpected + r.stats.flaky + (r.errors ?? []).length;
      skipped += r.stats.skipped;
    }
  }
  console.log(`${passed} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ""));
  process.exitCode = failed > 0 ? 1 : 0;
' "${reports[@]}" || status=1
exit "$status"
