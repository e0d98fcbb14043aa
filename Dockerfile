# syntax=docker/dockerfile:1
# The single binary on a slim base: no npm, no compiler, the binary itself as PID 1.

FROM node:20-bookworm AS build
WORKDIR /src
# better-sqlite3 compiles from source (for the host Node, then for the embedded Node 24).
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build:binary && cd dist && sha256sum -c studio.sha256

FROM debian:bookworm-slim AS runtime
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates curl && rm -rf /var/lib/apt/lists/* \
    && groupadd --system studio && useradd --system --gid studio --home /app studio \
    && mkdir -p /app /data && chown studio:studio /data
# MALLOC_ARENA_MAX: two malloc arenas instead of one per thread (deploy/studio.service does the same).
# HOST: every interface of the container (Docker publishes the port; a proxy inside would set 127.0.0.1).
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    MALLOC_ARENA_MAX=2
COPY --from=build /src/dist/studio /app/studio
USER studio
WORKDIR /data
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD curl -fsS "http://127.0.0.1:${PORT}/healthz" || exit 1
# The binary is PID 1, so `docker stop`'s SIGTERM reaches the graceful shutdown.
CMD ["/app/studio"]
