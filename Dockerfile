# Marketplace Desk's server in a container: `marketplace-desk serve` as the
# unprivileged `node` user, its data in the /data volume, a health check.
#
#   docker build -t marketplace-desk .
#   docker run -d --name desk -p 127.0.0.1:8790:8790 -v desk-data:/data \
#     -v /etc/marketplace-desk/tls:/tls:ro marketplace-desk \
#     serve --host 0.0.0.0 --profile-dir /data --tls-cert /tls/cert.pem --tls-key /tls/key.pem
#   docker logs desk        # the first start's setup link
#
# Listening on the container's own interface is "beyond this machine" to the
# desk: give it TLS, or a reverse proxy's address (--trusted-proxy), or
# --insecure-remote. See docs/server.md.

FROM node:24-slim AS build
# keytar (the keychain module) compiles against libsecret.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ libsecret-1-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# The package as npm would install it (`npm pack` builds it first), installed with its runtime dependencies only.
RUN npm pack --pack-destination /tmp \
 && npm install --global --prefix /opt/desk --omit=dev --no-audit --no-fund /tmp/marketplace-desk-*.tgz

FROM node:24-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends libsecret-1-0 \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir /data && chown node:node /data && chmod 700 /data
COPY --from=build /opt/desk /opt/desk
ENV PATH=/opt/desk/bin:$PATH NODE_ENV=production
USER node
VOLUME /data
EXPOSE 8790
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --start-interval=2s --retries=3 CMD ["marketplace-desk", "health", "--port", "8790"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["marketplace-desk"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8790", "--profile-dir", "/data"]
