# syntax=docker/dockerfile:1
# Multi-stage build of the studio site: one process, one SQLite file, one data folder.

FROM node:20-bookworm-slim AS deps
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
RUN groupadd --system studio && useradd --system --gid studio --home /app studio \
    && mkdir -p /data && chown studio:studio /data
COPY --from=build --chown=studio:studio /app/package.json /app/package-lock.json ./
COPY --from=build --chown=studio:studio /app/node_modules ./node_modules
COPY --from=build --chown=studio:studio /app/build ./build
COPY --from=build --chown=studio:studio /app/public ./public
COPY --from=build --chown=studio:studio /app/server ./server
COPY --from=build --chown=studio:studio /app/migrations ./migrations
COPY --from=build --chown=studio:studio /app/app ./app
COPY --from=build --chown=studio:studio /app/tsconfig.json ./
USER studio
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# node itself is PID 1 (no npm, no shell), so `docker stop`'s SIGTERM reaches the graceful shutdown.
CMD ["node", "--max-old-space-size=96", "--max-semi-space-size=8", "server/main.js"]
