#!/usr/bin/python3
"""Fails when code the guard runs can trap: a dead guard is an unlocked session.

Reads the Swift files of the modules the guard links (SlidegateCore, SlidegateProtocol,
SlidegateSystem, SlidegateHost, SlidegateXlib, SlidegateGuard, slidegate) with string literals and comments taken out, and
reports each place that can trap at run time:

- `try!`, `fatalError`, `precondition`, `preconditionFailure`;
- a force unwrap (`x!`) or an implicitly unwrapped optional (`T!`);
- an integer conversion without a label (`Int32(x)`, `UInt32(x)`, `Int(x)`), which traps on
  a value out of range or a NaN: use `exactly:`, `clamping:`, `truncatingIfNeeded:`,
  `bitPattern:` or the checked helpers (`saturating:`, `xCoordinate:`, `xExtent:`, `pixels:`);
  `ascii:` takes a literal; a parse of
  text says `radix:` (it fails with nil); a literal or a C constant (an identifier that
  starts with a capital) is known when the program is built and is let through.

Subscripts are not looked at: nearly every one stands beside the count check that makes it
safe (`fields.count == 3`, then `fields[2]`), which a reading of the text cannot tell from a
missing one. The fuzz targets (decoders, options, files, gate, layout) run those paths.

The places that may stay are ALLOWED below, each with why. Exit 1 with one line a place,
0 with a summary line.
"""

import glob
import os
import re
import sys

MODULES = ["SlidegateCore", "SlidegateProtocol", "SlidegateSystem", "SlidegateHost", "SlidegateXlib", "SlidegateGuard", "slidegate"]
# Generated data, no code.
SKIPPED = {"Sources/SlidegateCore/KeysymTable.generated.swift"}

# (file, the code on the line, why it may stay)
ALLOWED = [
    ("Sources/SlidegateXlib/EventLoop.swift", "precondition(pthread_equal(pthread_self(), owner) != 0",
     "a programming error (the loop used off its thread) that no input can cause; continuing would race Xlib"),
]

CHECKS = [
    ("try!", re.compile(r"\btry!")),
    ("a call that traps", re.compile(r"\b(fatalError|precondition|preconditionFailure)\s*\(")),
    ("a force unwrap", re.compile(r"[\w\)\]]!(?!=)")),
    ("an unlabelled integer conversion", re.compile(r"\b(?:U?Int(?:8|16|32|64)?)\(")),
]

LABELS = ("exactly:", "clamping:", "truncatingIfNeeded:", "bitPattern:", "ascii:", "xCoordinate:", "xExtent:", "pixels:", "saturating:")


def code_of(text):
    """The text with string literals emptied and comments removed, line for line."""
    out, i, n = [], 0, len(text)
    state = None  # None, "line", "block", "string", "multi"
    depth = 0
    while i < n:
        c = text[i]
        if state is None:
            if text.startswith("//", i):
                state = "line"
                i += 2
                continue
            if text.startswith("/*", i):
                state, depth = "block", 1
                i += 2
                continue
            if text.startswith('"""', i):
                state = "multi"
                out.append('""')
                i += 3
                continue
            if c == '"':
                state = "string"
                out.append('""')
                i += 1
                continue
            out.append(c)
        elif state == "line":
            if c == "\n":
                state = None
                out.append(c)
        elif state == "block":
            if text.startswith("/*", i):
                depth += 1
                i += 1
            elif text.startswith("*/", i):
                depth -= 1
                i += 1
                if depth == 0:
                    state = None
            elif c == "\n":
                out.append(c)
        elif state == "string":
            if c == "\\":
                i += 2
                continue
            if c == '"':
                state = None
            elif c == "\n":
                state = None
                out.append(c)
        elif state == "multi":
            if text.startswith('"""', i):
                state = None
                i += 3
                continue
            if c == "\n":
                out.append(c)
        i += 1
    return "".join(out)


def argument_after(line, start):
    """The text between the parenthesis opened at `start` and the one that closes it."""
    depth, i = 0, start
    while i < len(line):
        if line[i] == "(":
            depth += 1
        elif line[i] == ")":
            depth -= 1
            if depth == 0:
                return line[start + 1 : i]
        i += 1
    return line[start + 1 :]


def conversion_is_checked(line, match):
    argument = argument_after(line, match.end() - 1).strip()
    if argument.startswith(LABELS) or "radix:" in argument:
        return True
    return re.fullmatch(r"-?(\d[\d_]*|0x[0-9a-fA-F_]+)|[A-Z][A-Za-z0-9_.]*", argument) is not None


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    os.chdir(root)
    files = sorted(f for m in MODULES for f in glob.glob(f"Sources/{m}/**/*.swift", recursive=True) if f not in SKIPPED)
    found, used = [], set()
    for path in files:
        raw = open(path, encoding="utf-8").read().split("\n")
        for number, line in enumerate(code_of(open(path, encoding="utf-8").read()).split("\n"), 1):
            for what, pattern in CHECKS:
                for match in pattern.finditer(line):
                    if what == "an unlabelled integer conversion" and conversion_is_checked(line, match):
                        continue
                    allowed = [a for a in ALLOWED if a[0] == path and a[1] in raw[number - 1]]
                    if allowed:
                        used.add(ALLOWED.index(allowed[0]))
                        continue
                    found.append(f"{path}:{number}: {what}: {raw[number - 1].strip()}")
    for index, (path, code, _) in enumerate(ALLOWED):
        if index not in used:
            found.append(f"{path}: the allowed place \"{code}\" is gone: take it off the list")
    for line in found:
        print(line)
    if found:
        print(f"check-traps: {len(found)} places where the guard can trap")
        return 1
    print(f"check-traps: {len(files)} files of the guard's modules, no place that traps but the {len(ALLOWED)} allowed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
