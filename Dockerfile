# The Slots platform as one image: the compiled server (dist/server/, no TypeScript at run time), the built host page
# and remotes, and the production dependencies. Operators' guide: docs/operators/deploy.md.
#
#   docker build -t slots-platform .                                       the demo (server/main.ts)
#   docker build --build-arg REVISION="$(git describe --always --abbrev=40 --dirty --exclude='*')" -t slots-platform .
#                                       the same, saying its commit (and `-dirty` when tracked files had changes)
#   docker build --build-arg APP_ENTRY=myapp.ts -t myapp .                 a host application's own entry
#   docker run -p 3000:3000 --read-only --tmpfs /tmp -v slots-data:/data --stop-timeout 15 -e DEMO_PASSWORD=... \
#     slots-platform
#
# Everything is configured by the environment at run time (README's table); nothing secret is built in.

ARG BASE_IMAGE=node:20-bookworm-slim

# Dependencies, dev ones included, with the toolchain better-sqlite3 needs where its prebuilt binary cannot be
# downloaded (it then compiles from source; where the download works, the toolchain is simply unused). Only the
# manifests are copied first, so a change of source does not reinstall them.
FROM ${BASE_IMAGE} AS dependencies
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

# Production dependencies alone, the native module already compiled above. better-sqlite3's SQLite sources and
# object files are only needed to compile it (some 20 MB). The packages' own source maps go too (some 30 MB): with
# --enable-source-maps, Node would hold every one it finds in memory, for stack lines inside libraries; the server's
# maps stay. Type declarations are for compilers.
FROM dependencies AS production-dependencies
RUN npm prune --omit=dev --no-audit --no-fund \
  && rm -rf node_modules/better-sqlite3/deps node_modules/better-sqlite3/src \
    node_modules/better-sqlite3/build/Release/obj node_modules/better-sqlite3/build/Release/obj.target \
    node_modules/better-sqlite3/build/Release/.deps node_modules/better-sqlite3/build/deps \
  && find node_modules -type f \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' \) -delete \
  && npm cache clean --force

# The host, the remotes and the server (with the application's entry: APP_ENTRY, relative to the checkout). The
# context has no .git (.dockerignore), so the build records the sources' revision from REVISION: the server says it in
# its log, start message and /metrics (slots_build_info), `unknown` when the image was built without it. Nor can it see
# whether the tree had changes: `git describe --dirty` says so in REVISION (`<commit>-dirty`), a bare commit does not.
FROM dependencies AS build
COPY . .
ARG APP_ENTRY=server/main.ts
ARG REVISION=unknown
RUN BUILD_REVISION="${REVISION}" npm run build -- --entry "${APP_ENTRY}"

FROM ${BASE_IMAGE} AS runtime
ARG VERSION=0.1.0
ARG REVISION=unknown
LABEL org.opencontainers.image.title="slots-platform" \
  org.opencontainers.image.description="Server-driven UI slots for a micro-frontend admin: the server, the host page and its remotes" \
  org.opencontainers.image.licenses="MIT" \
  org.opencontainers.image.version="${VERSION}" \
  org.opencontainers.image.revision="${REVISION}" \
  org.opencontainers.image.documentation="docs/operators/deploy.md"
# Defaults only: each is overridden with -e. The SQLite file (and the session secret generated beside it) lives on
# the /data volume, the one place the server writes, so the root file system can be read-only. Both listeners on
# every address of the container, whose network is its own: METRICS_PORT (when set) on 127.0.0.1 could be reached
# by nothing but the container itself, not by a published port nor by Prometheus in the pod or compose network.
# COMMAND_PREFIX: the start message and the commands write each command as run from the operator's shell, into this
# container (whose settings it runs with: no DATABASE_PATH before it).
ENV NODE_ENV=production \
  PORT=3000 \
  HOST=0.0.0.0 \
  METRICS_HOST=0.0.0.0 \
  DATABASE_PATH=/data/app.db \
  COMMAND_PREFIX="docker exec -it <container>"
WORKDIR /app
# Owned by root, read-only to the server's user: the running server cannot change its own code.
COPY --from=production-dependencies /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The base's user `node`, by number: Kubernetes' runAsNonRoot can check a number, not a name.
RUN mkdir /data && chown 1000:1000 /data
VOLUME /data
USER 1000:1000
EXPOSE 3000
# No curl in the slim base: node asks /healthz (over HTTPS when TLS_CERT_FILE is set; the certificate is the
# server's own, so not verified here).
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "const t=require(process.env.TLS_CERT_FILE?'https':'http');t.get({host:'127.0.0.1',port:process.env.PORT||3000,path:'/healthz',rejectUnauthorized:false,timeout:4000},r=>process.exit(r.statusCode===200?0:1)).on('error',()=>process.exit(1))"]
# Node is PID 1 and handles SIGTERM itself (server/process/graceful-shutdown.ts): readiness off, requests in flight
# finished, stores closed, exit 0. Source maps: stack traces name the TypeScript lines. The young generation's size:
# why in server/process/server-node-flags.ts, which lists the flags every launcher gives.
STOPSIGNAL SIGTERM
CMD ["node", "--enable-source-maps", "--max-semi-space-size=32", "dist/entry.js"]
