#!/bin/sh
# Installs the release build under PREFIX (default /usr/local), inside DESTDIR when set (the
# .deb is made that way): slidegate in bin, its drawing program and authentication helper in
# libexec/slidegate (where slidegate looks for them), the man page, the bash, zsh and fish
# completions, the translations (share/locale), the PAM service files in /etc/pam.d (the
# only place PAM reads) and the commented system-wide configuration /etc/xdg/slidegate/config
# (an existing one of either is kept), and /etc/slidegate, empty, for the enforced settings.
# As root, the helper is setgid to the group slidegate (made if missing).
#   packaging/install.sh [PREFIX]              install (run ./dev build first)
#   packaging/install.sh --uninstall [PREFIX]  remove what install put there
set -eu
cd "$(dirname "$0")/.."
uninstall=false
if [ "${1:-}" = --uninstall ]; then uninstall=true; shift; fi
prefix=${1:-/usr/local}
root="${DESTDIR:-}$prefix"
pamd="${DESTDIR:-}/etc/pam.d"
xdg="${DESTDIR:-}/etc/xdg/slidegate"
enforced="${DESTDIR:-}/etc/slidegate"
services=$(cd packaging/pam.d && echo *)
files="bin/slidegate libexec/slidegate/slidegate-ui libexec/slidegate/slidegate-auth share/man/man1/slidegate.1.gz
share/bash-completion/completions/slidegate share/zsh/vendor-completions/_slidegate
share/fish/vendor_completions.d/slidegate.fish
$(for po in resources/locale/*.po; do echo "share/locale/$(basename "$po" .po)/LC_MESSAGES/slidegate.mo"; done)
$(for f in resources/themes/*/*; do echo "share/slidegate/themes/$(basename "$(dirname "$f")")/$(basename "$f")"; done)"

if $uninstall; then
  for f in $files; do rm -f "$root/$f"; done
  for service in $services; do
    if [ -f "$pamd/$service" ] && cmp -s "$pamd/$service" "packaging/pam.d/$service"; then rm -f "$pamd/$service"; fi
  done
  if [ -f "$xdg/config" ] && cmp -s "$xdg/config" packaging/xdg/slidegate/config; then rm -f "$xdg/config"; fi
  rmdir "$root/libexec/slidegate" "$root/share/slidegate/themes/classic" "$root/share/slidegate/themes/high-contrast" \
    "$root/share/slidegate/themes" \
    "$root/share/slidegate" "$xdg" "$enforced" 2>/dev/null || true
  echo "removed slidegate from $root"
  exit 0
fi

for binary in .build/release/slidegate .build/release/slidegate-ui .build/release/slidegate-auth; do
  [ -x "$binary" ] || { echo "install.sh: $binary is missing; run ./dev build first" >&2; exit 1; }
done
command -v scdoc >/dev/null || { echo "install.sh: scdoc is missing (apt-get install scdoc)" >&2; exit 1; }
install -d "$root/bin" "$root/libexec/slidegate" "$root/share/man/man1" "$root/share/bash-completion/completions" \
  "$root/share/zsh/vendor-completions" "$root/share/fish/vendor_completions.d"
install -m 0755 .build/release/slidegate "$root/bin/slidegate"
install -m 0755 .build/release/slidegate-ui "$root/libexec/slidegate/slidegate-ui"
install -m 0755 .build/release/slidegate-auth "$root/libexec/slidegate/slidegate-auth"
# As root, without DESTDIR: the helper setgid to a group of its own, as the .deb installs it
# (the package's postinst does it there), so it starts non-dumpable.
if [ -z "${DESTDIR:-}" ] && [ "$(id -u)" -eq 0 ]; then
  getent group slidegate >/dev/null || groupadd --system slidegate
  chgrp slidegate "$root/libexec/slidegate/slidegate-auth"
  chmod 2755 "$root/libexec/slidegate/slidegate-auth"
fi
install -d "$pamd"
for service in $services; do
  [ -e "$pamd/$service" ] || install -m 0644 "packaging/pam.d/$service" "$pamd/$service"
done
install -d -m 0755 "$xdg" "$enforced"
[ -e "$xdg/config" ] || install -m 0644 packaging/xdg/slidegate/config "$xdg/config"
scdoc < packaging/slidegate.1.scd > "$root/share/man/man1/slidegate.1"
gzip -9nf "$root/share/man/man1/slidegate.1"
chmod 0644 "$root/share/man/man1/slidegate.1.gz"
install -m 0644 packaging/completions/slidegate "$root/share/bash-completion/completions/slidegate"
install -m 0644 packaging/completions/_slidegate "$root/share/zsh/vendor-completions/_slidegate"
install -m 0644 packaging/completions/slidegate.fish "$root/share/fish/vendor_completions.d/slidegate.fish"
for theme in resources/themes/*; do
  install -d "$root/share/slidegate/themes/$(basename "$theme")"
  for f in "$theme"/*; do install -m 0644 "$f" "$root/share/slidegate/themes/$(basename "$theme")/"; done
done
for po in resources/locale/*.po; do
  lang=$(basename "$po" .po)
  mo=".build/locale/$lang/LC_MESSAGES/slidegate.mo"
  [ -f "$mo" ] || { echo "install.sh: $mo is missing; run ./dev build first" >&2; exit 1; }
  install -d "$root/share/locale/$lang/LC_MESSAGES"
  install -m 0644 "$mo" "$root/share/locale/$lang/LC_MESSAGES/slidegate.mo"
done
echo "installed slidegate under $root"
