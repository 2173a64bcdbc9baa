#!/usr/bin/env bash
# deadcode.sh DEADCODE: runs deadcode (golang.org/x/tools/cmd/deadcode) over
# the genui binary and fails listing every unreachable function that
# scripts/deadcode-allow.txt does not name with a reason. `make lint` runs it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
deadcode="${1:?usage: $0 path/to/deadcode}"
allow=scripts/deadcode-allow.txt

# Every allow-list entry needs a reason.
if grep -vE '^(#|$)' "$allow" | grep -vE '^[^ ]+ [^ ]+ +# .+' >&2; then
	echo "deadcode: the entries above in $allow lack a FILE FUNCTION  # reason form" >&2
	exit 1
fi

report="$("$deadcode" -tags grpcnotrace ./cmd/genui)"
left="$(printf '%s\n' "$report" | awk -v allow="$allow" '
	BEGIN {
		while ((getline line < allow) > 0) {
			if (line ~ /^#/ || line == "") continue
			split(line, f, " ")
			n++; file[n] = f[1]; fn[n] = f[2]
		}
	}
	NF == 0 { next }
	{
		split($1, loc, ":"); name = $NF; ok = 0
		for (i = 1; i <= n; i++) {
			if (loc[1] != file[i]) continue
			pat = fn[i]
			if (pat == name) ok = 1
			else if (pat ~ /^\*\./ && substr(name, length(name) - length(pat) + 2) == substr(pat, 2)) ok = 1
			else if (pat ~ /\.\*$/ && index(name, substr(pat, 1, length(pat) - 1)) == 1) ok = 1
		}
		if (!ok) print
	}')"
if [[ -n "$left" ]]; then
	printf '%s\n' "$left" >&2
	echo "deadcode: the functions above are unreachable from cmd/genui: remove them, move test-only ones to an export_test.go, or name them in $allow with a reason" >&2
	exit 1
fi
echo "deadcode: nothing unreachable outside $allow"
