# Mahjong solitaire: the web server in a container.
#
#   docker build -t mahjong .
#   docker run -p 3000:3000 -v mahjong-data:/app/data mahjong
#
# The app needs Node.js 20 or newer (package.json "engines"); the image uses the current LTS, 24.
# Two stages: `build` has the compilers better-sqlite3 needs, type-checks every folder and compiles
# the server and CLI into dist/ and the client bundle into public/build/ (a commit that fails tsc
# makes no image); the final stage has production dependencies only, no compilers and no
# TypeScript, and runs `node dist/server/server.js` as the unprivileged `node` user with the
# database on a volume. See docs/operations.md.

# ---------------------------------------------------------------- build
FROM node:24-slim AS build
# better-sqlite3 compiles its native module when no prebuilt binary fits: python3, make, g++.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# Dependencies first, so a change to the source reuses this layer. `npm ci` would run the `prepare`
# script (the build) before the source is here: install without scripts, then run the install scripts
# of the two packages that need one (better-sqlite3 compiles or fetches its native module; esbuild
# checks its binary).
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts && npm rebuild better-sqlite3 esbuild
# Type-check (engine, client, server, CLI: each folder with its own tsconfig), then compile: the
# server and CLI as plain JavaScript in dist/, the client bundle (hashed files with .br/.gz
# siblings and the manifest) in public/build/.
COPY tsconfig.json ./
COPY scripts ./scripts
COPY src ./src
COPY public ./public
RUN npm run typecheck:src && npm run build

# ---------------------------------------------------------------- runtime
FROM node:24-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATABASE_PATH=/app/data/mahjong.db
WORKDIR /app
# Production dependencies only (no tsx, TypeScript or esbuild: the app is compiled). Install scripts
# are skipped (and with them `prepare`, the build: dist/ comes from the build stage), as there are no
# compilers here; the native SQLite module compiled in the build stage
# (same base image, same Node ABI) is copied in instead.
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
COPY --from=build /app/node_modules/better-sqlite3/build/Release/better_sqlite3.node ./node_modules/better-sqlite3/build/Release/better_sqlite3.node
# The app: the compiled server, engine and CLI (for backups), templates, migrations, assets.
COPY --from=build /app/dist ./dist
COPY views ./views
COPY migrations ./migrations
COPY --from=build /app/public ./public
# Everything above belongs to root and is read-only to the app; only the data folder is its own.
RUN mkdir -p /app/data && chown node:node /app/data
VOLUME ["/app/data"]
USER node
EXPOSE 3000
# No curl in the slim image: node asks /healthz, which checks the database.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Node itself is PID 1 (not npm, which would not pass SIGTERM on): it closes gracefully on SIGTERM.
CMD ["node", "dist/server/server.js"]
