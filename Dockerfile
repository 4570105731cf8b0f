# Gatehouse: the packed server (npm pack) in a small image that runs as an unprivileged user.
# Not built where Gatehouse is developed (no container runtime there): see docs/operations.md.

FROM node:22-bookworm-slim AS build
WORKDIR /src
# The workspace's manifests first, so the dependency layer is cached across source changes.
COPY package.json package-lock.json ./
COPY packages/client/package.json packages/client/
COPY packages/node/package.json packages/node/
COPY examples/express-shop/package.json examples/express-shop/
RUN npm ci --no-audit --no-fund
COPY . .
# prepack builds dist/ (server and UI assets); the tarball is what `npm install -g` installs anywhere.
RUN npm pack --pack-destination /tmp/pack \
 && npm install -g --prefix /opt/gatehouse --omit=dev --no-audit --no-fund /tmp/pack/gatehouse-*.tgz

FROM node:22-bookworm-slim
# The young generation's bound that `npm start` gives node (docs/operations.md, "Memory"): V8 can
# size it only at start, and Node 24 would take 64 MB semi-spaces where 8 serve.
ENV NODE_ENV=production \
    NODE_OPTIONS=--max-semi-space-size=8 \
    HOST=0.0.0.0 \
    PORT=8080 \
    GATEHOUSE_DATA_DIR=/var/lib/gatehouse
COPY --from=build /opt/gatehouse /opt/gatehouse
RUN mkdir -p /var/lib/gatehouse && chown node:node /var/lib/gatehouse
USER node
WORKDIR /var/lib/gatehouse
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/opt/gatehouse/bin/gatehouse"]
CMD ["serve"]
