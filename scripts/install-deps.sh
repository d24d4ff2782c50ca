#!/usr/bin/env bash
# install-deps.sh installs the C libraries pqcodec's native/ bindings link
# against. It is idempotent: it checks first and installs only what is
# missing, so a second run is instant and needs no network.
set -euo pipefail
# shellcheck source=scripts/apt-wait.sh
. "$(dirname -- "$0")/apt-wait.sh"

debian_pkgs=(pkg-config libbrotli-dev liblzo2-dev libdeflate-dev liblz4-dev)
brew_pkgs=(pkg-config brotli lzo libdeflate lz4)

case "$(uname -s)" in
Linux)
	if command -v dpkg-query >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
		missing=()
		for p in "${debian_pkgs[@]}"; do
			if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
				missing+=("$p")
			fi
		done
		if [ ${#missing[@]} -eq 0 ]; then
			echo "install-deps: all native libraries present (${debian_pkgs[*]})"
			exit 0
		fi
		echo "install-deps: installing ${missing[*]}"
		sudo=""
		if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
		export DEBIAN_FRONTEND=noninteractive
		apt_wait $sudo apt-get update -qq
		apt_wait $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
		exit 0
	fi
	;;
Darwin)
	echo "install-deps: on macOS run: brew install ${brew_pkgs[*]}"
	if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists libbrotlienc libbrotlidec lzo2 libdeflate liblz4; then
		exit 0
	fi
	exit 1
	;;
esac

cat >&2 <<MSG
install-deps: unsupported system; install these yourself:
  pkg-config, and the development files (headers + pkg-config .pc or libraries) of
  libbrotli (libbrotlienc, libbrotlidec), liblzo2 (lzo2), libdeflate and liblz4.
Or build without cgo (CGO_ENABLED=0), which uses pure-Go codecs, or with -tags nolzo to drop liblzo2.
MSG
exit 1
