#!/bin/sh
# dupcount.sh counts the repeated code of the hand-written library code with
# the duplicates command (issue 29), always the same way, so that counts from
# different days compare:
#   - the files git tracks in the core module, .go and .s only;
#   - not tests (*_test.go), generated files (a "Code generated ... DO NOT
#     EDIT." line before the package clause or, for .s, in the first lines),
#     testdata/, nor bench/, scripts/, interop/, cgo_test/ and the adapters
#     (nested modules or tooling);
#   - not the test helpers: packages under an internal/ folder that no
#     non-test package of the module imports (found with go list, to a fixed
#     point, so a helper imported only by another helper goes too).
# The generators of generated files are hand-written and count.
# Usage: scripts/dupcount.sh [duplicates options...]; default --most 200 --seconds 120.
set -eu
root=$(git rev-parse --show-toplevel)
cd "$root"
mod=$(go list -m)
scratch=$(mktemp -d /tmp/dupcount.XXXXXX)
trap 'rm -rf "$scratch"' EXIT

# Package import path and its non-test imports, one package a line, in the
# default build and in a build without cgo (packages such as
# native/internal/nocgo are imported only there).
go list -f '{{.ImportPath}} {{.Name}} {{join .Imports " "}}' ./... >"$scratch/pkgs"
CGO_ENABLED=0 go list -tags purego -f '{{.ImportPath}} {{.Name}} {{join .Imports " "}}' ./... >>"$scratch/pkgs"
# Test helpers: internal, not main, imported by no non-test package that is
# itself not a test helper. Repeat until nothing changes.
: >"$scratch/helpers"
while :; do
	awk -v mod="$mod" 'FILENAME == ARGV[1] { helper[$1] = 1; next }
		!($1 in helper) { for (i = 3; i <= NF; i++) used[$i] = 1 }
		{ pkg[$1] = $2 }
		END {
			for (p in pkg) if (pkg[p] != "main" && p ~ /\/internal(\/|$)/ && !(p in used)) print p
		}' "$scratch/helpers" "$scratch/pkgs" | sort >"$scratch/helpers.new"
	if cmp -s "$scratch/helpers" "$scratch/helpers.new"; then break; fi
	mv "$scratch/helpers.new" "$scratch/helpers"
done
# Folders of the helpers, relative to the module root.
sed "s#^$mod/##" "$scratch/helpers" >"$scratch/helperdirs"

mkdir "$scratch/repo"
git ls-files -- '*.go' '*.s' |
	grep -v '_test\.go$' |
	grep -Ev '^(bench|scripts|interop|cgo_test|adapters)/|(^|/)testdata/' |
	while read -r f; do
		dir=$(dirname "$f")
		if grep -qxF "$dir" "$scratch/helperdirs"; then continue; fi
		# A generated file says so before its package clause (Go) or in its first lines (.s).
		if sed -n '/^package /q;p' "$f" | head -40 | grep -q '^// Code generated .* DO NOT EDIT\.$'; then continue; fi
		mkdir -p "$scratch/repo/$dir"
		cp "$f" "$scratch/repo/$f"
	done
echo "test helpers left out: $(tr '\n' ' ' <"$scratch/helperdirs")"
echo "files: $(find "$scratch/repo" -type f | wc -l)"
cd "$scratch/repo"
git init -q . && git add -A && git -c user.name=dupcount -c user.email=dupcount@localhost commit -qm count
if [ $# -eq 0 ]; then set -- --most 200 --seconds 120; fi
duplicates --repo "$scratch/repo" "$@"
