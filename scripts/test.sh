#!/usr/bin/env bash
# Runs the whole test suite on this machine: installs what is missing, type-checks, then runs
# jest against the real PostgreSQL and Redis (each run in its own database and key prefix).
# Ends with one line "N passed, M failed".
set -euo pipefail
source "$(dirname "$0")/lib.sh"
prepare
cd "$ROOT"
say "Type-checking"
pnpm --silent typecheck
say "Running the tests"
results=$(mktemp)
status=0
pnpm --silent test --maxWorkers=2 --json --outputFile="$results" "$@" || status=$?
node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const skipped = r.numPendingTests + r.numTodoTests;
  const failed = r.numFailedTests + r.numRuntimeErrorTestSuites;
  console.log(`${r.numPassedTests} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ""));
' "$results" || echo "0 passed, 1 failed"
rm -f "$results"
exit "$status"
