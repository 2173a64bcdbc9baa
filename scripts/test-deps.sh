#!/usr/bin/env bash
# test-deps.sh installs what genui's tests need, when missing:
#   - the Debian packages chromium (headless browser tests), tmux (the TUI driven
#     as a real terminal program) and curl (install.sh in the release test), apt-get
#     as root or via sudo;
#   - the npm packages pinned in scripts/npm-packages.txt, into
#     ${GENUI_TEST_CACHE:-$HOME/.cache/genui-test}/npm.
# It is idempotent: a second run changes nothing and says so. `make deps` runs it.
#
# With --check it installs nothing: it lists what is missing and exits 1 when
# anything is (`make test` runs it so, and says to run `make deps`).
set -euo pipefail

check=0
case "${1:-}" in
--check) check=1 ;;
"") ;;
*)
	echo "usage: $0 [--check]" >&2
	exit 2
	;;
esac

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="${GENUI_TEST_CACHE:-$HOME/.cache/genui-test}"
npmdir="$cache/npm"
pkgfile="$here/npm-packages.txt"

log() { printf 'test-deps: %s\n' "$*"; }

# --- Debian packages: chromium, tmux ----------------------------------------
apt_missing=()
if [[ -x /usr/bin/chromium ]]; then
	log "chromium present ($(/usr/bin/chromium --version 2>/dev/null || echo 'version unknown'))"
else
	apt_missing+=(chromium)
fi
if command -v tmux >/dev/null 2>&1; then
	log "tmux present ($(tmux -V 2>/dev/null || echo 'version unknown'))"
else
	apt_missing+=(tmux)
fi
# curl: the release test pipes install.sh from a local HTTP server into sh, as users do
if command -v curl >/dev/null 2>&1; then
	log "curl present"
else
	apt_missing+=(curl)
fi
if ((check == 0 && ${#apt_missing[@]} > 0)); then
	if [[ "$(id -u)" -eq 0 ]]; then
		sudo=()
	elif command -v sudo >/dev/null 2>&1; then
		sudo=(sudo -n)
	else
		log "ERROR: missing ${apt_missing[*]} and not root, no sudo: install the Debian package(s) ${apt_missing[*]}" >&2
		exit 1
	fi
	log "installing ${apt_missing[*]} with apt-get"
	"${sudo[@]}" apt-get update -q
	DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q "${apt_missing[@]}"
	log "installed ${apt_missing[*]}"
fi

# --- npm packages -----------------------------------------------------------
for tool in node npm; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		log "ERROR: $tool not found on PATH (Node 20+ with npm is required)" >&2
		if ((check)); then
			log "missing: ${apt_missing[*]} ${tool} (install Node 20+ with npm, then run make deps)" >&2
		fi
		exit 1
	fi
done

((check)) || mkdir -p "$npmdir"
missing=()
while read -r name version _; do
	[[ -z "${name:-}" || "$name" == \#* ]] && continue
	manifest="$npmdir/node_modules/$name/package.json"
	have=""
	if [[ -f "$manifest" ]]; then
		have="$(node -e 'process.stdout.write(require(process.argv[1]).version || "")' "$manifest")"
	fi
	if [[ "$have" == "$version" ]]; then
		log "npm $name@$version present"
	else
		log "npm $name@$version missing${have:+ (have $have)}"
		missing+=("$name@$version")
	fi
done <"$pkgfile"

if ((check)); then
	all_missing=("${apt_missing[@]}" "${missing[@]}")
	if ((${#all_missing[@]} > 0)); then
		log "missing: ${all_missing[*]}" >&2
		log "run make deps (scripts/test-deps.sh) to install them" >&2
		exit 1
	fi
	log "nothing missing"
	exit 0
fi

if ((${#missing[@]} > 0)); then
	log "installing into $npmdir: ${missing[*]}"
	# Every pinned package is passed so npm keeps them all in package.json.
	all=()
	while read -r name version _; do
		[[ -z "${name:-}" || "$name" == \#* ]] && continue
		all+=("$name@$version")
	done <"$pkgfile"
	npm install --prefix "$npmdir" --no-audit --no-fund --save-exact "${all[@]}"
	log "npm install done"
else
	log "all npm packages present in $npmdir"
fi
