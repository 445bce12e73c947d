# syntax=docker/dockerfile:1
# One image for the API, the Temporal worker and the migration job; the command picks which:
#   node dist/src/main.js        API (default)
#   node dist/workers/main.js    Temporal worker (runs dist/workflow-bundle.js, bundled here at build time)
#   node dist/scripts/migrate.js applies pending migrations from dist/migrations

# ---- build: install the lockfile's dependencies, compile TypeScript, bundle the workflows, drop dev dependencies ----
FROM node:24-bookworm-slim AS build
WORKDIR /app

# bcrypt ships prebuilt binaries (prebuilds/); the toolchain is only a fallback for node-gyp.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*

# npm ci installs exactly package-lock.json; package.json's allowScripts lists the dependencies whose install
# scripts may run. The lock is written where the registry serves only Linux x64 and arm64 builds, so it lacks the
# other platforms' optional packages of @swc/core and unrs-resolver, and npm ci refuses a lock with such holes
# ("Missing: ... from lock file"): --package-lock-only first fills in just those, keeping every locked version.
COPY package.json package-lock.json ./
RUN npm install --package-lock-only --no-audit --no-fund \
  && npm ci --no-audit --no-fund

COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY workflows ./workflows
COPY activities ./activities
COPY workers ./workers
COPY migrations ./migrations
COPY scripts/migrate.ts scripts/bundle-workflows.ts ./scripts/

# tsc -p tsconfig.build.json with rootDir "." -> dist/src, dist/workers, dist/workflows, dist/migrations, dist/scripts;
# then the workflows are bundled once into dist/workflow-bundle.js (with tsx, a dev dependency: before the prune),
# which the worker loads instead of running webpack at every start (workers/workflow-source.ts).
RUN npm run build \
  && node --import tsx scripts/bundle-workflows.ts \
  && test -f dist/src/main.js \
  && test -f dist/workers/main.js \
  && test -f dist/workflow-bundle.js \
  && test -f dist/scripts/migrate.js \
  && npm prune --omit=dev --no-audit --no-fund

# ---- runtime: production dependencies and compiled output only ----
FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app

# Files stay owned by root (read-only to the app); the process runs as the unprivileged node user.
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist

USER node
EXPOSE 3000

# Liveness of the API; the worker and migrate services disable it in docker-compose.yml.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

CMD ["node", "dist/src/main.js"]
