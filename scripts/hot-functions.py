#!/usr/bin/env python3
"""Writes linker/guard.order and linker/ui.order: the functions the guard and the UI run
while a lock rests (shimmer sweeps, pings), then those a drag adds, each list in address
order. The linker (lld's --symbol-ordering-file, see Package.swift) puts them together at
the start of each program's code, so what a resting lock keeps mapped is a few 64 KiB
windows of code instead of one window per function the kernel's fault-around maps.

Run by `./dev order` after the release build: it locks an Xvfb of its own with both
programs under valgrind's callgrind, lets the lock rest, counts the functions run over
ten seconds of rest and four of dragging, and maps them to the programs' symbols; then,
linked in that order, runs the lock at full speed and adds the functions whose code still
faults in while it rests (until none is left, three rounds at most). A list
that no longer matches the code costs memory, never correctness: a name the linker does
not find is skipped."""

import bisect
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
RELEASE = os.path.join(ROOT, ".build", "release")
SLIDER = "560x80+680+800"
UNMOVABLE = set()
THUMB = (720, 840)


def xvfb():
    read, write = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1920x1080x24", "-nolisten", "tcp"],
                              pass_fds=(write,), stderr=subprocess.DEVNULL)
    os.close(write)
    number = b""
    while not number.endswith(b"\n"):
        chunk = os.read(read, 16)
        if not chunk:
            sys.exit("hot-functions: Xvfb did not start")
        number += chunk
    os.close(read)
    return server, ":" + number.decode().strip()


def profile(directory, display):
    """Runs the lock under callgrind; returns the dump files of each process: rest, drag."""
    for name in ("slidegate", "slidegate-ui"):
        subprocess.run(["strip", "-g", "-o", os.path.join(directory, name + ".bin"), os.path.join(RELEASE, name)], check=True)
    # The guard starts the UI beside it by its file descriptor, so a script cannot stand
    # in: a small program starts the UI under callgrind, with descriptor 3 kept.
    wrapper = os.path.join(directory, "wrapper.c")
    with open(wrapper, "w") as f:
        f.write('#include <unistd.h>\nint main(int argc, char **argv) {\n'
                '    char *args[] = {"valgrind", "--tool=callgrind", "--callgrind-out-file=%s/ui.%%p", "%s/slidegate-ui.bin", argv[1], 0};\n'
                '    execvp(args[0], args);\n    return 127;\n}\n' % (directory, directory))
    os.rename(os.path.join(directory, "slidegate.bin"), os.path.join(directory, "slidegate"))
    subprocess.run(["gcc", "-O2", "-o", os.path.join(directory, "slidegate-ui"), wrapper], check=True)
    env = dict(os.environ, DISPLAY=display, XDG_CACHE_HOME=os.path.join(directory, "cache"))
    env.pop("WAYLAND_DISPLAY", None)
    gate = subprocess.Popen(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=%s/guard.%%p" % directory,
         os.path.join(directory, "slidegate"), "--slider", SLIDER, "--no-clock"],
        env=env, stderr=subprocess.DEVNULL)
    try:
        # Start-up, the first sweeps and the frames handed to the server are behind.
        time.sleep(12)
        subprocess.run(["callgrind_control", "-z"], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(10)
        subprocess.run(["callgrind_control", "-d"], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        subprocess.run(["xdotool", "mousemove", str(THUMB[0]), str(THUMB[1]), "mousedown", "1"], env=env, check=True)
        end = time.monotonic() + 4
        x = THUMB[0]
        while time.monotonic() < end:
            x = THUMB[0] + (x - THUMB[0] + 7) % 240
            subprocess.run(["xdotool", "mousemove", str(x), str(THUMB[1])], env=env, check=True)
        subprocess.run(["xdotool", "mousemove", str(THUMB[0]), str(THUMB[1]), "mouseup", "1"], env=env, check=True)
        time.sleep(1)
        subprocess.run(["callgrind_control", "-d"], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    finally:
        gate.send_signal(signal.SIGTERM)
        gate.wait()
    dumps = {}
    for name in os.listdir(directory):
        m = re.fullmatch(r"(guard|ui)\.(\d+)\.(\d)", name)
        if m:
            dumps.setdefault(m.group(1), {})[int(m.group(3))] = os.path.join(directory, name)
    if set(dumps) != {"guard", "ui"} or any(set(d) != {1, 2} for d in dumps.values()):
        sys.exit(f"hot-functions: expected a rest and a drag dump of each program, found {sorted(os.listdir(directory))}")
    return {name: (d[1], d[2]) for name, d in dumps.items()}


def functions_run(dump):
    """The names of the functions a callgrind dump counts (its fn= and cfn= lines)."""
    names = set()
    with open(dump) as f:
        for line in f:
            m = re.match(r"^c?fn=\(\d+\) (.+)", line)
            if m:
                names.add(m.group(1).strip())
    return names


def symbols(binary):
    """Address → symbol name, and name (as nm prints it, also demangled) → address."""
    by_address, by_name = {}, {}
    for demangle in ([], ["-C"]):
        out = subprocess.run(["nm", "--defined-only"] + demangle + [binary], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            parts = line.split(" ", 2)
            if len(parts) == 3 and parts[1] in "tTwW":
                address = int(parts[0], 16)
                if not demangle:
                    by_address.setdefault(address, parts[2])
                by_name.setdefault(parts[2], address)
    return by_address, by_name


def unmovable():
    """Functions the linker cannot move one by one: the Swift standard library has most of
    its code in one section of 1.5 MiB (Swift.o's .text in libswiftCore.a); ordering any
    of them would move all of that ahead of the rest of the list."""
    toolchain = os.path.dirname(os.path.dirname(os.path.realpath(shutil.which("swift"))))
    library = os.path.join(toolchain, "lib", "swift_static", "linux", "libswiftCore.a")
    with tempfile.NamedTemporaryFile(suffix=".o") as swift:
        swift.write(subprocess.run(["ar", "p", library, "Swift.o"], capture_output=True, check=True).stdout)
        swift.flush()
        sections = subprocess.run(["readelf", "-SW", swift.name], capture_output=True, text=True, check=True).stdout
        index = next(m.group(1) for m in re.finditer(r"\[\s*(\d+)\] \.text\s", sections))
        table = subprocess.run(["readelf", "-sW", swift.name], capture_output=True, text=True, check=True).stdout
    return {f[7] for f in (line.split() for line in table.splitlines()) if len(f) >= 8 and f[6] == index}


def order(binary, rest, drag):
    by_address, by_name = symbols(binary)
    starts = sorted(by_address)
    text = subprocess.run(["readelf", "-lW", binary], capture_output=True, text=True, check=True).stdout
    code = [(int(f[2], 16), int(f[2], 16) + int(f[5], 16)) for f in (line.split() for line in text.splitlines())
            if f and f[0] == "LOAD" and "E" in f[6:-1]]
    def address(name):
        # Code callgrind found no name for (an outlined or merged piece) is ordered with
        # the function it follows, in whose section the compiler put it.
        if name.startswith("0x"):
            at = int(name, 16)
            i = bisect.bisect_right(starts, at) - 1
            return starts[i] if i >= 0 and any(lo <= at < hi for lo, hi in code) else None
        return by_name.get(name)
    def addresses(names):
        return sorted({a for a in map(address, names) if a is not None and by_address[a] not in UNMOVABLE})
    resting = addresses(functions_run(rest))
    dragging = [a for a in addresses(functions_run(drag)) if a not in set(resting)]
    return [by_address[a] for a in resting], [by_address[a] for a in dragging]


def faulting_functions(display):
    """The functions of each program whose code faulted in, while a lock at full speed
    rested, after the program last gave its pages back (the last time it can: from then
    on, what faults in stays): what callgrind's slow run missed (under callgrind the UI is
    too slow for Present's answer, and paints the sweeps itself)."""
    env = dict(os.environ, DISPLAY=display)
    env.pop("WAYLAND_DISPLAY", None)
    programs = {"guard": os.path.realpath(os.path.join(RELEASE, "slidegate")),
                "ui": os.path.realpath(os.path.join(RELEASE, "slidegate-ui"))}
    with tempfile.TemporaryDirectory() as directory:
        env["XDG_CACHE_HOME"] = directory
        gate = subprocess.Popen([programs["guard"], "--slider", SLIDER, "--no-clock"], env=env, stderr=subprocess.DEVNULL)
        try:
            time.sleep(0.5)
            with open(f"/proc/{gate.pid}/task/{gate.pid}/children") as f:
                ui = int(f.read().split()[0])
            data = os.path.join(directory, "faults")
            subprocess.run(["perf", "record", "-q", "-e", "page-faults", "-c", "1", "-p", f"{gate.pid},{ui}", "-o", data,
                            "--", "sleep", "12"], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        finally:
            gate.send_signal(signal.SIGTERM)
            gate.wait()
        out = subprocess.run(["perf", "script", "-i", data, "--no-demangle", "-F", "pid,ip,sym,dso"],
                             capture_output=True, text=True, check=True).stdout
    faults = {name: [] for name in programs}
    for line in out.splitlines():
        m = re.match(r"\s*(\d+)\s+[0-9a-f]+ (.+) \((.+)\)$", line)
        if m:
            faults["guard" if int(m.group(1)) == gate.pid else "ui"].append((m.group(2).split("+")[0], m.group(3)))
    found = {}
    for name, samples in faults.items():
        last = max((i for i, (sym, _) in enumerate(samples) if sym == "sg_shed_startup_pages"), default=-1)
        found[name] = {sym for sym, dso in samples[last + 1:] if dso == programs[name] and sym != "[unknown]"}
    return found


def write(lists):
    os.makedirs(os.path.join(ROOT, "linker"), exist_ok=True)
    for name, parts in lists.items():
        names = [n for part in parts for n in part]
        with open(os.path.join(ROOT, "linker", name + ".order"), "w") as f:
            f.write("".join(n + "\n" for n in names))
        print(f"linker/{name}.order: {len(names)} functions")


def relink():
    """Builds the release programs linked in the order just written: SwiftPM does not know
    the order files are an input of the link, so the programs are removed first."""
    for program in ("slidegate", "slidegate-ui"):
        path = os.path.realpath(os.path.join(RELEASE, program))
        if os.path.exists(path):
            os.remove(path)
    subprocess.run(["swift", "build", "-c", "release", "--static-swift-stdlib"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)


def main():
    global UNMOVABLE
    UNMOVABLE = unmovable()
    server, display = xvfb()
    try:
        with tempfile.TemporaryDirectory() as directory:
            dumps = profile(directory, display)
            lists = {}
            for name, program in (("guard", "slidegate"), ("ui", "slidegate-ui.bin")):
                rest, drag = order(os.path.join(directory, program), *dumps[name])
                lists[name] = [rest, [], drag]
        write(lists)
        # Linked in that order, a run at full speed shows what else a resting lock runs: its
        # code still faults in outside the ordered part. Three rounds at most.
        for _ in range(3):
            relink()
            new = {name: sorted(names - UNMOVABLE - set(n for part in lists[name] for n in part))
                   for name, names in faulting_functions(display).items()}
            print("faulting outside the ordered code:", {name: len(names) for name, names in new.items()})
            if not any(new.values()):
                break
            for name, names in new.items():
                lists[name][1] += names
                added = set(names)
                lists[name][2] = [n for n in lists[name][2] if n not in added]
            write(lists)
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
