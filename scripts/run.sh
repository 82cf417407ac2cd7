#!/usr/bin/env bash
# Runs the whole service on this machine: installs what is missing, migrates, seeds the demo
# org and starts the gateway and the import worker. Ctrl-C stops everything.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
prepare
cd "$ROOT"
say "Migrating $DATABASE_URL"
pnpm --silent db:migrate
say "Seeding the demo org"
pnpm --silent cli seed-demo

export PORT=${PORT:-3000} HOST=${HOST:-127.0.0.1}
pids=()
stop() { trap - INT TERM EXIT; kill -TERM "${pids[@]}" 2>/dev/null || true; wait; }
trap stop INT TERM EXIT

# Started through tsx directly (not pnpm), so that stop signals reach the processes themselves.
node_modules/.bin/tsx apps/gateway/src/server.ts & pids+=($!)
node_modules/.bin/tsx apps/import-worker/src/main.ts & pids+=($!)

wait_port "$HOST" "$PORT" || die "the gateway did not start"
say "Gateway on http://$HOST:$PORT (API docs: http://$HOST:$PORT/docs). Sign in with:"
echo "  curl -c cookies.txt -H 'content-type: application/json' -d '{\"email\":\"member@demo.local\",\"password\":\"demo-member-password\"}' http://$HOST:$PORT/api/auth/session" >&2
echo "  curl -b cookies.txt http://$HOST:$PORT/api/products" >&2
wait -n "${pids[@]}"
