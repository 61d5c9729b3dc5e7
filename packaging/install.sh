#!/bin/sh
# Installs the release build of slidegate under PREFIX (default /usr/local), inside DESTDIR
# when set (for packaging). Run ./dev build (or ./dev install) first.
set -eu
cd "$(dirname "$0")/.."
prefix=${1:-/usr/local}
binary=.build/release/slidegate
[ -x "$binary" ] || { echo "install.sh: $binary is missing; run ./dev build first" >&2; exit 1; }
install -d "${DESTDIR:-}$prefix/bin"
install -m 0755 "$binary" "${DESTDIR:-}$prefix/bin/slidegate"
echo "installed ${DESTDIR:-}$prefix/bin/slidegate"
