# syntax=docker/dockerfile:1
# Parley's container image: one image for every role (see the README's operations section).
#
#   docker build -t parley .                                                # podman: add --format docker (keeps HEALTHCHECK)
#   docker run --rm -p 3000:3000 -v parley-data:/data parley                # embedded database, one container
#   docker run --rm --env-file .env parley migrate                          # PostgreSQL: migrate once per release
#   docker run --rm --env-file .env -p 3000:3000 parley serve               # then as many replicas as needed
#
# BASE is the official Node.js image of the current LTS line (Node 20 reached end of life on
# 2026-04-30). Any Debian-based image with Node 22 or 24 at /usr/local/bin/node and /bin/sh works:
# where no registry is reachable, build on a local one (`--build-arg BASE=localhost/...`).
ARG BASE=node:24-bookworm-slim

# --- manifests: what npm ci reads, the lockfile and every workspace's package.json (listed here
# only: both installs below start from this stage) ---
FROM ${BASE} AS manifests
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/web/package.json apps/web/
COPY packages/api/package.json packages/api/
COPY packages/client/package.json packages/client/
COPY packages/core/package.json packages/core/
COPY packages/db/package.json packages/db/
COPY packages/testing/package.json packages/testing/
COPY packages/web-sdk/package.json packages/web-sdk/
COPY scripts/no-streams scripts/no-streams

# --- deps: every dependency, from the manifests alone (this layer is reused until they change) ---
FROM manifests AS deps
ENV NEXT_TELEMETRY_DISABLED=1 TURBO_TELEMETRY_DISABLED=1 UPSTASH_DISABLE_TELEMETRY=1 ONNXRUNTIME_NODE_INSTALL=skip
# The root postinstall (Prisma client, widget bundle) needs the sources: the build stage runs it.
RUN npm ci --ignore-scripts --no-audit --no-fund

# --- build: the Prisma client, the widget bundle, the Next.js production build ---
FROM deps AS build
COPY . .
RUN node scripts/prisma-generate.mjs \
 && node scripts/bundle-widget.mjs \
 && NODE_ENV=production npm run build -w @parley/app \
 && rm -rf apps/web/.next/cache apps/web/node_modules packages/*/node_modules

# --- prod-deps: production dependencies only, and tsx (for `migrate`) outside them ---
FROM manifests AS prod-deps
ENV ONNXRUNTIME_NODE_INSTALL=skip
# onnxruntime-node (voice activity detection) ships its native library for every platform: only
# this one's is kept (some 220 MB less).
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && find node_modules/onnxruntime-node/bin -mindepth 2 -maxdepth 2 -type d ! -name linux -exec rm -rf {} + \
 && find node_modules/onnxruntime-node/bin -mindepth 3 -maxdepth 3 -type d -path "*/linux/*" ! -name "$(node -p process.arch)" -exec rm -rf {} + \
 && TSX_VERSION="$(node -p "require('./package-lock.json').packages['node_modules/tsx'].version")" \
 && npm install --prefix /opt/tsx --no-save --no-audit --no-fund "tsx@${TSX_VERSION}" \
 && npm cache clean --force

# --- runtime: the slim image that runs ---
FROM ${BASE} AS runtime
WORKDIR /app
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    UPSTASH_DISABLE_TELEMETRY=1 \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    TSX_LOADER=file:///opt/tsx/node_modules/tsx/dist/loader.mjs
# The sources the server and `migrate` load as they are (server.mjs, core's .mjs files, the CLI,
# the demo seed's articles, the migrations), the generated Prisma client, and the build.
COPY --from=build /app/package.json /app/turbo.json ./
COPY --from=build /app/scripts/app-process.mjs /app/scripts/container.mjs scripts/
COPY --from=build /app/prisma prisma
COPY --from=build /app/packages packages
COPY --from=build /app/apps/web apps/web
# Production dependencies only (the workspaces' own node_modules folders merge into theirs).
COPY --from=prod-deps /app/node_modules node_modules
COPY --from=prod-deps /app/packages packages
COPY --from=prod-deps /app/apps/web apps/web
COPY --from=prod-deps /opt/tsx /opt/tsx
# The embedded database (when DATABASE_URL is unset) and the generated session secret live here.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM drains (running turns finish, widgets are told to reconnect elsewhere) within 9 s.
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "scripts/container.mjs"]
CMD ["embedded"]
