# Sigil: two commands do everything on a fresh machine with Rust, Node and npm.
#   make demo   set up and run server + demo host page + local dev chain (SQLite)
#   make test   set up and pass every test (Rust on SQLite and PostgreSQL, web unit tests)
#   make bench  print every benchmark's figures

.PHONY: demo test bench bench-api bench-rpc bench-ui bench-relay bench-convert bench-names size icons build web-deps clean

demo:
	bash scripts/demo.sh

test:
	bash scripts/test.sh

bench: bench-api bench-rpc bench-ui bench-relay bench-convert bench-names

bench-api:
	bash scripts/bench-api.sh

bench-rpc:
	bash scripts/bench-rpc.sh

bench-ui:
	bash scripts/bench-ui.sh

bench-relay:
	bash scripts/bench-relay.sh

bench-convert:
	bash scripts/bench-convert.sh

bench-names:
	bash scripts/bench-names.sh

size:
	[ -d web/node_modules ] || (cd web && npm ci --no-audit --no-fund)
	node scripts/size.mjs

# Refreshes data/icons (committed, with its NOTICE) from the pinned npm icon packages; not part of
# demo or test, which use the committed icons.
icons:
	node scripts/icons.mjs

build:
	cargo build --locked -p sigil-server

web-deps:
	cd web && npm ci --no-audit --no-fund

clean:
	cargo clean
	rm -rf var web/node_modules
