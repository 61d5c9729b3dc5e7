#!/usr/bin/env bash
# Installs the .deb for real, checks what a person gets, and purges it again: the files in
# their places, --version, the man page, a lock and a real slide with the installed binary
# (which must find its drawing program in /usr/libexec/slidegate), its German catalogue, the completions in bash,
# zsh and fish, lintian, and a purge that leaves nothing behind. Needs root. Prints one
# line per check and "package: N passed, M failed"; exits 1 if any failed.
#   packaging/check-deb.sh .build/slidegate_VERSION_amd64.deb
set -uo pipefail
deb=$(realpath "${1:?usage: check-deb.sh PACKAGE.deb}")
version=$(dpkg-deb -f "$deb" Version)
passed=0
failed=0
check() {
  local what=$1
  shift
  if "$@" >/tmp/slidegate-check.$$ 2>&1; then
    passed=$((passed + 1)); echo "ok    $what"
  else
    failed=$((failed + 1)); echo "FAIL  $what"; sed 's/^/      /' /tmp/slidegate-check.$$
  fi
}

if dpkg-query -W -f='${Status}' slidegate 2>/dev/null | grep -q 'install ok installed'; then
  echo "check-deb.sh: a slidegate package is installed already; this check would replace and purge it" >&2
  exit 1
fi

# A lock keeps its first frame in $XDG_CACHE_HOME/slidegate: here, in a directory this check removes.
XDG_CACHE_HOME=$(mktemp -d)
export XDG_CACHE_HOME

expected_files="/usr/bin/slidegate /usr/libexec/slidegate/slidegate-ui /usr/libexec/slidegate/slidegate-auth
/etc/xdg/slidegate/config
$(for f in "$(dirname "$0")"/pam.d/*; do echo "/etc/pam.d/$(basename "$f")"; done)
/usr/share/man/man1/slidegate.1.gz
/usr/share/bash-completion/completions/slidegate /usr/share/zsh/vendor-completions/_slidegate
/usr/share/fish/vendor_completions.d/slidegate.fish /usr/share/doc/slidegate/copyright
/usr/share/doc/slidegate/changelog.Debian.gz /usr/share/doc/slidegate/examples/slidegate-xss-lock.service
/usr/share/doc/slidegate/examples/i3.config /usr/share/doc/slidegate/examples/openbox-rc.xml
/usr/share/doc/slidegate/examples/kiosk.sh /usr/share/lintian/overrides/slidegate
$(for po in "$(dirname "$0")"/../resources/locale/*.po; do echo "/usr/share/locale/$(basename "$po" .po)/LC_MESSAGES/slidegate.mo"; done)
$(for f in "$(dirname "$0")"/../resources/themes/*/*; do echo "/usr/share/slidegate/themes/$(basename "$(dirname "$f")")/$(basename "$f")"; done)"

check "lintian reports no errors" lintian --fail-on error "$deb"
check "apt-get installs it" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$deb"
listed() { local f; for f in $expected_files; do dpkg -L slidegate | grep -qx "$f" || { echo "missing $f"; return 1; }; done; }
check "dpkg -L lists every file" listed
check "slidegate --version prints ${version%-*}" test "$(/usr/bin/slidegate --version)" = "slidegate ${version%-*}"
# Linked statically, the programs take their arguments from the C library's initialiser call
# (Sources/CXShim/shim.c), not from the Swift runtime's, which reads all of /proc/self/maps.
for program in /usr/bin/slidegate /usr/libexec/slidegate/slidegate-ui; do
  check "$(basename "$program") does not read /proc/self/maps to find its arguments" \
    bash -c "! strace -f -e trace=open,openat $program --version 2>&1 >/dev/null | grep -q /proc/self/maps"
done
check "man -w finds slidegate(1)" test "$(man -w slidegate)" = /usr/share/man/man1/slidegate.1.gz
check "the man page is whole (down to SEE ALSO)" bash -c "man slidegate 2>/dev/null | grep -q 'SEE ALSO'"
for service in slidegate slidegate-fingerprint slidegate-key; do
  check "/etc/pam.d/$service is a conffile" bash -c "dpkg-query -W -f='\${Conffiles}' slidegate | grep -q ' /etc/pam.d/$service '"
done

check "/etc/xdg/slidegate/config is a conffile" bash -c "dpkg-query -W -f='\${Conffiles}' slidegate | grep -q ' /etc/xdg/slidegate/config '"
check "/etc/slidegate is there for the enforced settings: empty, root's, mode 755" \
  bash -c 'test "$(stat -c "%a %U" /etc/slidegate)" = "755 root" && test -z "$(ls -A /etc/slidegate)"'
# The system-wide file as shipped changes nothing: every line is a comment.
check "the shipped system file sets nothing" bash -c '! grep -v "^#" /etc/xdg/slidegate/config | grep -q .'
check "slidegate-auth is setgid to the group slidegate" test "$(stat -c '%a %U %G' /usr/libexec/slidegate/slidegate-auth)" = "2755 root slidegate"
# Run by a throwaway user, the installed helper is not dumpable from its first instruction:
# another process of that user cannot read its environment (nor its memory). A preloaded
# library stops each program before main: a copy that is not setgid can be read then (the
# window an attacker races for); the setgid one ignores the library (secure execution) and
# is not dumpable from the start.
unreadable_helper() {
  local user=sgcheck$$ dir pid status=0
  useradd --system --no-create-home --shell /usr/sbin/nologin "$user" || return 1
  dir=$(mktemp -d) && chmod 0755 "$dir"
  printf '#include <signal.h>\n__attribute__((constructor)) static void stop(void) { raise(SIGSTOP); }\n' > "$dir/stop.c"
  gcc -shared -fPIC -o "$dir/stop.so" "$dir/stop.c" || return 1
  cp /usr/libexec/slidegate/slidegate-auth "$dir/copy" && chmod 0755 "$dir/copy"
  for helper in /usr/libexec/slidegate/slidegate-auth "$dir/copy"; do
    setpriv --reuid="$user" --regid="$user" --clear-groups /bin/sh -c 'LD_PRELOAD=$1 exec "$0"' "$helper" "$dir/stop.so" \
      3< <(sleep 5) &
    pid=$!
    sleep 0.3
    if setpriv --reuid="$user" --regid="$user" --clear-groups cat "/proc/$pid/environ" >/dev/null 2>&1; then
      [ "$helper" = "$dir/copy" ] || { echo "the installed helper's environment could be read by its user"; status=1; }
    else
      [ "$helper" != "$dir/copy" ] || { echo "the stopped copy's environment could not be read: this check proves nothing"; status=1; }
    fi
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  done
  rm -r "$dir"
  userdel "$user"
  return $status
}
check "the installed helper cannot be read by another process of its user" unreadable_helper

lock_and_unlock() {
  local fifo display xvfb gate ui i status
  fifo=$(mktemp -u) && mkfifo "$fifo"
  Xvfb -displayfd 3 -screen 0 1280x720x24 -nolisten tcp -noreset 3>"$fifo" >/dev/null 2>&1 &
  xvfb=$!
  display=":$(head -n 1 "$fifo")"
  rm -f "$fifo"
  DISPLAY=$display /usr/bin/slidegate --slider 600x80+100+100 2>/tmp/slidegate-check-err.$$ &
  gate=$!
  # slidegate runs the lock in its child slidegate-guard, whose children are the drawing
  # program and a short-lived shell saying logind's LockedHint.
  for i in $(seq 200); do
    ui=
    for guard in $(cat "/proc/$gate/task/$gate/children" 2>/dev/null); do
      [ "$(cat "/proc/$guard/comm" 2>/dev/null)" = slidegate-guard ] || continue
      for child in $(cat "/proc/$guard/task/$guard/children" 2>/dev/null); do
        [ "$(readlink -f "/proc/$child/exe" 2>/dev/null)" = /usr/libexec/slidegate/slidegate-ui ] && ui=$child
      done
    done
    [ -n "$ui" ] && DISPLAY=$display xdotool search --class Slidegate >/dev/null 2>&1 && break
    sleep 0.01
  done
  [ -n "$ui" ] || { echo "no drawing program from /usr/libexec/slidegate; slidegate said:"; cat /tmp/slidegate-check-err.$$; }
  [ -n "$ui" ] && [ "$(cat "/proc/$ui/comm")" = slidegate-ui ] || { echo "the drawing program is named \"$(cat "/proc/$ui/comm")\""; ui=; }
  DISPLAY=$display xdotool mousemove 140 140 mousedown 1
  for i in $(seq 1 20); do DISPLAY=$display xdotool mousemove $((140 + i * 45)) 140; done
  DISPLAY=$display xdotool mouseup 1
  wait $gate
  status=$?
  kill $xvfb
  wait $xvfb 2>/dev/null
  ! grep -q "plain slider" /tmp/slidegate-check-err.$$ || { echo "the guard drew the plain slider"; status=1; }
  rm -f /tmp/slidegate-check-err.$$
  [ -n "$ui" ] && [ $status -eq 0 ]
}
check "the installed slidegate locks, draws with its helper and a slide unlocks" lock_and_unlock
check "bash completes slidegate" bash -c 'source /usr/share/bash-completion/completions/slidegate && complete -p slidegate'
check "zsh loads its completion" zsh -fc 'fpath=(/usr/share/zsh/vendor-completions $fpath); autoload -Uz compinit && compinit -u && (( $+_comps[slidegate] ))'
check "fish completes --fork" bash -c "fish -c 'complete -C\"slidegate --fo\"' | grep -q -- --fork"
speaks_german() {
  local fifo display xvfb gate found=1 i
  fifo=$(mktemp -u) && mkfifo "$fifo"
  Xvfb -displayfd 3 -screen 0 1280x720x24 -nolisten tcp -noreset 3>"$fifo" >/dev/null 2>&1 &
  xvfb=$!
  display=":$(head -n 1 "$fifo")"
  rm -f "$fifo"
  DISPLAY=$display LANG=C.UTF-8 LANGUAGE=de /usr/bin/slidegate --geometry 600x80+0+0 --timeout 5 &
  gate=$!
  for i in $(seq 200); do
    for w in $(DISPLAY=$display xdotool search --class Slidegate 2>/dev/null); do
      DISPLAY=$display xprop -id "$w" _NET_WM_NAME | grep -q '"zum Entsperren schieben"' && found=0
    done
    [ $found -eq 0 ] && break
    sleep 0.02
  done
  kill $gate $xvfb
  wait $gate $xvfb 2>/dev/null
  return $found
}
check "the installed slidegate finds its German catalogue (LANGUAGE=de)" speaks_german
# --check on the installed files: the helpers in /usr/libexec, the helper setgid, the packaged
# /etc/pam.d/slidegate run up to its first prompt, the German catalogue; ready to lock.
checks_ready() {
  local fifo display xvfb report status
  fifo=$(mktemp -u) && mkfifo "$fifo"
  Xvfb -displayfd 3 -screen 0 1280x720x24 -nolisten tcp -noreset 3>"$fifo" >/dev/null 2>&1 &
  xvfb=$!
  display=":$(head -n 1 "$fifo")"
  rm -f "$fifo"
  report=$(DISPLAY=$display LANG=C.UTF-8 LANGUAGE=de /usr/bin/slidegate --check --no-config --auth pam)
  status=$?
  kill $xvfb
  wait $xvfb 2>/dev/null
  [ $status -eq 0 ] || { echo "$report"; return 1; }
  for expected in "ok +slidegate-ui +/usr/libexec/slidegate/slidegate-ui: protocol" \
    "ok +slidegate-auth +setgid slidegate" \
    "ok +pam +/etc/pam.d/slidegate: a dry run reached its first prompt" \
    "ok +translation +de: /usr/share/locale/de/LC_MESSAGES/slidegate.mo" "^ready to lock$"; do
    grep -Eq -- "$expected" <<<"$report" || { echo "missing: $expected"; echo "$report"; return 1; }
  done
}
check "the installed slidegate --check --auth pam is ready to lock" checks_ready
# A library loaded before main whose constructor calls setenv (as pam_wrapper's does) moves
# environ off the stack, where the Swift runtime looks for argv: the drawing program must
# still see its options (windowed mode runs, and times out with 4).
preloaded_setenv() {
  local dir fifo display xvfb status
  dir=$(mktemp -d)
  printf '#include <stdlib.h>\n__attribute__((constructor)) static void add(void) { setenv("SLIDEGATE_CHECK", "1", 1); }\n' > "$dir/setenv.c"
  gcc -shared -fPIC -o "$dir/libsetenv.so" "$dir/setenv.c" || return 1
  fifo=$(mktemp -u) && mkfifo "$fifo"
  Xvfb -displayfd 3 -screen 0 1280x720x24 -nolisten tcp -noreset 3>"$fifo" >/dev/null 2>&1 &
  xvfb=$!
  display=":$(head -n 1 "$fifo")"
  rm -f "$fifo"
  DISPLAY=$display LD_PRELOAD="$dir/libsetenv.so" /usr/bin/slidegate --geometry 600x80+0+0 --timeout 0.5
  status=$?
  kill $xvfb
  wait $xvfb 2>/dev/null
  rm -r "$dir"
  [ $status -eq 4 ]
}
check "a preloaded library that calls setenv leaves the command line whole" preloaded_setenv
check "apt-get purges it" env DEBIAN_FRONTEND=noninteractive apt-get purge -y -q slidegate
gone() {
  local f
  for f in $expected_files /usr/libexec/slidegate /usr/share/slidegate /usr/share/doc/slidegate /etc/xdg/slidegate /etc/slidegate; do [ ! -e "$f" ] || { echo "left behind: $f"; return 1; }; done
  ! getent group slidegate >/dev/null || { echo "left behind: the group slidegate"; return 1; }
  ! dpkg-statoverride --list /usr/libexec/slidegate/slidegate-auth >/dev/null || { echo "left behind: the statoverride"; return 1; }
}
check "nothing is left behind" gone
rm -f /tmp/slidegate-check.$$
rm -rf "$XDG_CACHE_HOME"
echo "package: $passed passed, $failed failed"
[ $failed -eq 0 ]
