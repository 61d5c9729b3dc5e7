#!/bin/sh
# Installs the release build under PREFIX (default /usr/local), inside DESTDIR when set
# (for packaging): slidegate in bin, and its drawing program slidegate-ui in lib/slidegate,
# where slidegate looks for it. Run ./dev build (or ./dev install) first.
set -eu
cd "$(dirname "$0")/.."
prefix=${1:-/usr/local}
for binary in .build/release/slidegate .build/release/slidegate-ui; do
  [ -x "$binary" ] || { echo "install.sh: $binary is missing; run ./dev build first" >&2; exit 1; }
done
install -d "${DESTDIR:-}$prefix/bin" "${DESTDIR:-}$prefix/lib/slidegate"
install -m 0755 .build/release/slidegate "${DESTDIR:-}$prefix/bin/slidegate"
install -m 0755 .build/release/slidegate-ui "${DESTDIR:-}$prefix/lib/slidegate/slidegate-ui"
echo "installed ${DESTDIR:-}$prefix/bin/slidegate and ${DESTDIR:-}$prefix/lib/slidegate/slidegate-ui"
