# syntax=docker/dockerfile:1
# The service's image, built from this repository. Every process starts with plain Node from the
# compiled tree that scripts/build.mjs lays out (the same command the test suite runs, in
# deploy/test/built-stack.test.ts):
#   docker build -t catalog .                                     gateway, publish worker, migrate, CLI
#   docker build --target import-worker -t catalog-import-worker .   the same plus Debian's Chromium
# The base is pinned by version; pin it by digest too where your registry policy asks for it.
# Its Node is the one runtime: .node-version names the same version for scripts/run.sh,
# scripts/test.sh and CI (deploy/test/compose.test.ts checks that they agree).
ARG NODE_IMAGE=node:26.10.0-bookworm-slim

FROM ${NODE_IMAGE} AS build
RUN npm install -g pnpm@10.34.9
WORKDIR /src
COPY . .
RUN pnpm install --frozen-lockfile && node scripts/build.mjs --out /app

FROM ${NODE_IMAGE} AS runtime
# "built": workspace packages resolve to their compiled dist/ instead of their TypeScript sources.
# --import: every process loads the tracing register module first; it starts OpenTelemetry only
# when OTEL_EXPORTER_OTLP_ENDPOINT is set (deploy/README.md, "Tracing"), and loads nothing else.
ENV NODE_ENV=production \
    NODE_OPTIONS="--conditions=built --import=/app/packages/tracing/dist/register.js" \
    HOST=0.0.0.0 PORT=3000 HEALTH_HOST=0.0.0.0 HEALTH_PORT=3100
WORKDIR /app
# Owned by root, read-only to the process; uploads spool to /tmp.
COPY --from=build /app /app
USER node
EXPOSE 3000 3100
# Node is PID 1 and gets SIGTERM itself; each process finishes its work in flight, then exits.
CMD ["node", "apps/gateway/dist/server.js"]
# Other processes of this image:
#   node apps/publish-worker/dist/main.js
#   node packages/db/dist/migrations/cli.js deploy
#   node apps/cli/dist/main.js <command>

FROM runtime AS import-worker
USER root
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium fonts-liberation \
 && rm -rf /var/lib/apt/lists/*
USER node
ENV CHROMIUM_PATH=/usr/bin/chromium
CMD ["node", "apps/import-worker/dist/main.js"]

# The default target.
FROM runtime
