# syntax=docker/dockerfile:1
# One image for the API, the Temporal worker and the migration job; the command picks which:
#   node dist/src/main.js        API (default)
#   node dist/workers/main.js    Temporal worker (bundles dist/workflows with webpack at start-up)
#   node dist/scripts/migrate.js applies pending migrations from dist/migrations

# ---- build: install everything, compile TypeScript, then drop dev dependencies ----
FROM node:24-bookworm-slim AS build
WORKDIR /app

# bcrypt ships prebuilt binaries (prebuilds/); the toolchain is only a fallback for node-gyp.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*

# package.json's allowScripts lists the dependencies whose install scripts may run.
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund

COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY workflows ./workflows
COPY activities ./activities
COPY workers ./workers
COPY migrations ./migrations
COPY scripts/migrate.ts ./scripts/migrate.ts

# tsc -p tsconfig.build.json with rootDir "." -> dist/src, dist/workers, dist/workflows, dist/migrations, dist/scripts
RUN npm run build \
  && test -f dist/src/main.js \
  && test -f dist/workers/main.js \
  && test -f dist/workflows/index.js \
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
