#!/usr/bin/env bash
# Runs the whole service on this machine, on Node.js 26 (.node-version; installed when the machine
# has another, see scripts/lib.sh): installs what is missing, builds the dashboard and the
# browser extension (each skipped when its sources are unchanged), migrates, seeds the demo org
# (with a destination on a local stand-in channel) and starts the gateway (serving the dashboard
# at /), the import worker, the publish worker and the stand-in channel. Ctrl-C stops everything.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
prepare
cd "$ROOT"
say "Building the dashboard and the browser extension"
node scripts/build-if-changed.mjs dashboard extension
say "Migrating $DATABASE_URL"
pnpm --silent db:migrate
ensure_credentials_key
export STANDIN_PORT=${STANDIN_PORT:-3200}
say "Seeding the demo org"
pnpm --silent cli seed-demo --standin-url "http://127.0.0.1:$STANDIN_PORT"

export PORT=${PORT:-3000} HOST=${HOST:-127.0.0.1}
export PUBLIC_URL=${PUBLIC_URL:-http://$HOST:$PORT}
CHANNELS_PORT=${CHANNELS_PORT:-3201}
channels_env="$ROOT/.local/channel-standins.env"
rm -f "$channels_env"
pids=()
stop() { trap - INT TERM EXIT; kill -TERM "${pids[@]}" 2>/dev/null || true; wait; }
trap stop INT TERM EXIT

# Node with tsx as a loader (not pnpm, not the tsx CLI), so that stop signals reach the
# processes themselves and each can finish its work in flight. Each starts with the tracing
# register module (it does nothing unless OTEL_EXPORTER_OTLP_ENDPOINT is set).
start() { node --import tsx --import ./packages/tracing/src/register.ts "$@" & pids+=($!); }
start packages/channels/src/standins/generic/standin-main.ts --port "$STANDIN_PORT"
# A stand-in of every channel (their list is the stand-ins entry's CHANNEL_STANDINS); the gateway
# and the worker are pointed at them (client ids, secrets, base URLs) unless the environment
# already names real channels.
start packages/channels/src/standins/channel-standins-main.ts --port "$CHANNELS_PORT" --public-url "$PUBLIC_URL" --write-env "$channels_env"
for _ in $(seq 1 60); do [ -s "$channels_env" ] && break; sleep 0.5; done
[ -s "$channels_env" ] || die "the channel stand-ins did not start"
while IFS='=' read -r key value; do [ -n "${!key:-}" ] || export "$key=$value"; done < "$channels_env"
# The gateway streams large uploads and answers, so its live heap stays small; without a cap V8
# lets garbage pile up to most of the machine's memory before collecting it (the document bench
# peaked at 567 MB RSS uncapped and 348 MB with a 192 MB heap).
NODE_OPTIONS="--max-old-space-size=${GATEWAY_HEAP_MB:-256} ${NODE_OPTIONS:-}" start apps/gateway/src/server.ts
# Known health ports for the demo; unset, each worker takes a free one and logs it.
HEALTH_PORT=${IMPORT_HEALTH_PORT:-3101} start apps/import-worker/src/main.ts
HEALTH_PORT=${WEBHOOK_HEALTH_PORT:-3103} start apps/import-worker/src/webhook-sender-main.ts
HEALTH_PORT=${PUBLISH_HEALTH_PORT:-3102} start apps/publish-worker/src/main.ts

wait_port "$HOST" "$PORT" || die "the gateway did not start"
say "Dashboard: open http://$HOST:$PORT/ and sign in as member@demo.local / demo-member-password"
echo "  (owner@demo.local / demo-owner-password connects stores; admin@demo.local / demo-admin-password sees System)" >&2
say "Browser extension: in Chromium open chrome://extensions, turn on Developer mode, Load unpacked: $ROOT/apps/extension/dist/chrome"
echo "  then pair it with http://$HOST:$PORT and the extension API key printed above" >&2
say "API on http://$HOST:$PORT/api (docs: http://$HOST:$PORT/docs). From a shell:"
echo "  curl -c cookies.txt -H 'content-type: application/json' -d '{\"email\":\"member@demo.local\",\"password\":\"demo-member-password\"}' http://$HOST:$PORT/api/auth/session" >&2
echo "  curl -b cookies.txt http://$HOST:$PORT/api/products" >&2
echo "Publish a product to the demo stand-in store (ids from /api/products and /api/destinations):" >&2
echo "  curl -b cookies.txt -H 'content-type: application/json' -d '{\"productIds\":[\"<product id>\"],\"destinationAccountIds\":[\"<destination id>\"]}' http://$HOST:$PORT/api/products/publish" >&2
echo "  curl -b cookies.txt http://$HOST:$PORT/api/sync-logs" >&2
echo "Connect a store on a channel's local stand-in (connecting is for the org's owner): sign in as owner@demo.local and use Connect on" >&2
echo "  http://$HOST:$PORT/destinations   (each stand-in's address is printed above; the form says what each channel asks for)" >&2
wait -n "${pids[@]}"
