#!/bin/sh
# Builds .build/slidegate_VERSION-1_amd64.deb from the release build (./dev package runs
# ./dev build first). The version is the one slidegate --version prints.
set -eu
cd "$(dirname "$0")/.."
version=$(sed -n 's/.*upstreamVersion = "\(.*\)"/\1/p' Sources/SlidegateCore/Options.swift)
[ -n "$version" ] || { echo "build-deb.sh: no upstreamVersion in Sources/SlidegateCore/Options.swift" >&2; exit 1; }
package_version="$version-1"
work=.build/deb
stage="$work/slidegate"
deb=".build/slidegate_${package_version}_amd64.deb"
rm -rf "$work"
mkdir -p "$stage/DEBIAN"
DESTDIR="$stage" packaging/install.sh /usr >/dev/null
strip --remove-section=.comment --remove-section=.note --strip-unneeded \
  "$stage/usr/bin/slidegate" "$stage/usr/libexec/slidegate/slidegate-ui" "$stage/usr/libexec/slidegate/slidegate-auth"
doc="$stage/usr/share/doc/slidegate"
install -d "$doc/examples" "$stage/usr/share/lintian/overrides"
install -m 0644 packaging/copyright "$doc/copyright"
gzip -9n < packaging/changelog > "$doc/changelog.Debian.gz"
chmod 0644 "$doc/changelog.Debian.gz"
install -m 0644 packaging/examples/slidegate-xss-lock.service packaging/examples/i3.config \
  packaging/examples/openbox-rc.xml "$doc/examples/"
install -m 0755 packaging/examples/kiosk.sh "$doc/examples/kiosk.sh"
install -m 0644 packaging/lintian-overrides "$stage/usr/share/lintian/overrides/slidegate"

# Depends: what the dynamic helpers link (the guard is static), as dpkg-shlibdeps
# computes it; it wants a debian/control to read. gdk-pixbuf, which the UI loads when it
# reads an --image, and libsystemd (sd-bus, for --show-media, --show-battery and
# --power-actions) are added by hand at the version their newest function needs.
mkdir -p "$work/debian"
printf 'Source: slidegate\n\nPackage: slidegate\nArchitecture: amd64\n' > "$work/debian/control"
depends=$(cd "$work" && dpkg-shlibdeps -O -e slidegate/usr/libexec/slidegate/slidegate-ui \
  -e slidegate/usr/libexec/slidegate/slidegate-auth 2>/dev/null \
  | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "build-deb.sh: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
depends="$depends, libgdk-pixbuf-2.0-0 (>= 2.31.1), libsystemd0 (>= 241)"

cat > "$stage/DEBIAN/control" <<CONTROL
Package: slidegate
Version: $package_version
Architecture: amd64
Maintainer: slidegate maintainers <maintainers@slidegate.example.org>
Installed-Size: $(du -sk "$stage/usr" | cut -f1)
Depends: $depends
Recommends: xss-lock
Suggests: fprintd, libpam-fprintd, libpam-u2f, libspeechd2, speech-dispatcher
Section: x11
Priority: optional
Description: slide-to-unlock gate and screen locker for X11
 slidegate shows a track, a thumb and a shimmering label, and waits until a
 person drags the thumb all the way to the end. Without --geometry it locks
 the screen (with xss-lock, from a window manager's keybinding, or before
 suspend); with --geometry it is a window that gates a script or cancels a
 kiosk job.
 .
 The lock is held by a small static program that links only Xlib and
 ignores events forged by other X clients; drawing happens in a separate
 process that can crash without unlocking the screen. With --auth pam the
 gate opens only for the user's password, checked by PAM in a third process.
CONTROL
(cd "$stage" && find usr -type f -exec md5sum {} + | sort -k 2) > "$stage/DEBIAN/md5sums"
{ for f in packaging/pam.d/*; do echo "/etc/pam.d/$(basename "$f")"; done; echo /etc/xdg/slidegate/config; } > "$stage/DEBIAN/conffiles"
# slidegate-auth is setgid to a group of its own (nobody is in it; the helper gives it up at
# once): the kernel starts a setgid program non-dumpable, so no process of the same user can
# read or trace it before it protects itself (README: Threat model). The group is made here,
# so its mode comes from dpkg-statoverride, which an administrator may change.
cat > "$stage/DEBIAN/postinst" <<'POSTINST'
#!/bin/sh
set -e
if [ "$1" = configure ]; then
  getent group slidegate >/dev/null || groupadd --system slidegate
  if ! dpkg-statoverride --list /usr/libexec/slidegate/slidegate-auth >/dev/null; then
    dpkg-statoverride --update --add root slidegate 2755 /usr/libexec/slidegate/slidegate-auth
  fi
fi
POSTINST
cat > "$stage/DEBIAN/postrm" <<'POSTRM'
#!/bin/sh
set -e
if [ "$1" = purge ]; then
  dpkg-statoverride --remove /usr/libexec/slidegate/slidegate-auth >/dev/null 2>&1 || true
  groupdel slidegate >/dev/null 2>&1 || true
fi
POSTRM
chmod 0755 "$stage/DEBIAN/postinst" "$stage/DEBIAN/postrm"
chmod 0644 "$stage/DEBIAN/control" "$stage/DEBIAN/md5sums" "$stage/DEBIAN/conffiles"
find "$stage" -type d -exec chmod 0755 {} +
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >/dev/null
echo "$deb"
