#!/usr/bin/env bash
# gen-tbd.sh GOROOT OUTDIR
#
# Writes the text-based linker stubs (.tbd) that zig lacks for linking Go
# programs for macOS without an SDK:
#   OUTDIR/lib/libresolv.tbd                                  (-lresolv)
#   OUTDIR/Frameworks/CoreFoundation.framework/CoreFoundation.tbd
#   OUTDIR/Frameworks/Security.framework/Security.tbd         (-framework ...)
# Every darwin Go binary links -lresolv (package net's DNS code); runtime/cgo
# links -framework CoreFoundation on darwin/arm64; crypto/x509 (reached
# through net/http, e.g. by testify) links CoreFoundation and Security.
#
# A stub only names the library's install path and the symbols it exports.
# The symbol lists are read from the Go toolchain's own sources (the
# //go:cgo_import_dynamic lines naming each library), so they follow the Go
# version in use. The binaries then import those symbols from the real
# libraries on the Mac at run time, like binaries linked against Apple's SDK.
set -euo pipefail

goroot=$1
out=$2

# symbols LIBPATH prints, one per line, the Mach-O names (leading
# underscore) of the symbols the Go sources import from LIBPATH.
symbols() {
	grep -rhE --include='*.go' "^//go:cgo_import_dynamic [^ ]+ [^ ]+ \"$1\"" "$goroot/src" |
		awk '{ print "_" $3 }' | sort -u
}

# write_tbd FILE INSTALLNAME LIBPATH writes one stub.
write_tbd() {
	local file=$1 install=$2 syms
	syms=$(symbols "$3" | paste -sd, - | sed 's/,/, /g')
	mkdir -p "$(dirname "$file")"
	{
		echo '--- !tapi-tbd'
		echo 'tbd-version:     4'
		echo 'targets:         [ x86_64-macos, arm64-macos ]'
		echo "install-name:    '$install'"
		echo 'current-version: 1'
		if [ -n "$syms" ]; then
			echo 'exports:'
			echo '  - targets:         [ x86_64-macos, arm64-macos ]'
			echo "    symbols:         [ $syms ]"
		fi
		echo '...'
	} >"$file.tmp"
	mv "$file.tmp" "$file"
}

resolv=/usr/lib/libresolv.9.dylib
cf=/System/Library/Frameworks/CoreFoundation.framework/Versions/A/CoreFoundation
sec=/System/Library/Frameworks/Security.framework/Versions/A/Security

write_tbd "$out/lib/libresolv.tbd" "$resolv" "$resolv"
write_tbd "$out/Frameworks/CoreFoundation.framework/CoreFoundation.tbd" "$cf" "$cf"
write_tbd "$out/Frameworks/Security.framework/Security.tbd" "$sec" "$sec"
