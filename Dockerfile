# Multi-stage build: the first stage compiles the single binary (bun build --compile, see
# scripts/build.ts), the second ships only that binary on a small glibc base. See docs/deploy.md.

FROM oven/bun:1.4.4 AS build
WORKDIR /src
COPY package.json bun.lock ./
RUN bun install --frozen-lockfile
COPY . .
RUN bun run build --outfile /out/ai-detector

FROM debian:bookworm-slim
# The binary embeds the runtime, the model, the migrations and the web assets: nothing else is needed.
RUN useradd --system --uid 10001 --home-dir /var/lib/ai-detector --create-home --shell /usr/sbin/nologin ai-detector
COPY --from=build /out/ai-detector /usr/local/bin/ai-detector
USER ai-detector
WORKDIR /var/lib/ai-detector
# SQLite by default (mount a volume on /var/lib/ai-detector); set DATABASE_URL for PostgreSQL.
ENV HOST=0.0.0.0 \
    PORT=3000 \
    DATABASE_PATH=/var/lib/ai-detector/detector.sqlite \
    BOOTSTRAP_KEY=0
EXPOSE 3000
# /health is 503 while the store is down; bash's /dev/tcp avoids adding curl to the image. The port
# is the container's PORT (docker run -e PORT=8080 ...), not a fixed 3000.
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${PORT:-3000} && printf 'GET /health HTTP/1.0\\r\\n\\r\\n' >&3 && head -n 1 <&3 | grep -q ' 200 '"]
# SIGTERM: in-flight requests finish (batch streams get 30 s), then exit 0.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/ai-detector"]
CMD ["serve"]
