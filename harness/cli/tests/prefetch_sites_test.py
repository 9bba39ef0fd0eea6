#!/usr/bin/python3
"""Checks that every __builtin_prefetch in the simulator's source is still a
prefetch instruction in the optimized dmbench binary.

A prefetch changes no result, so no other test notices one going missing,
and GCC 12 does drop them: a template helper that issued the index cache's
prefetches compiled to 2 of its 7 instructions, and the simulation ran 8%
slower. The release build keeps line tables (-g1), which say which source
line each instruction came from. So every source line that calls
__builtin_prefetch must own at least one prefetch instruction.

usage: prefetch_sites_test.py DMBENCH SOURCE_ROOT
"""

import os
import re
import subprocess
import sys

# The directories whose code is linked into dmbench. Tests are not.
SOURCE_DIRS = ("harness", "indexes", "workloads")
PREFETCH_CALL = re.compile(r"^[^/]*\b__builtin_prefetch\(")
# objdump -l writes a "path:line" line, sometimes followed by
# "(discriminator N)", before the instructions that come from there.
LOCATION = re.compile(r"^(/.*):(\d+)(?: \(discriminator \d+\))?$")
PREFETCH_INSTRUCTION = re.compile(r"^\s*[0-9a-f]+:\s+prefetch\w*\s")


def source_sites(root):
    """(relative path, line) of every __builtin_prefetch call outside tests."""
    sites = []
    for top in SOURCE_DIRS:
        for directory, subdirs, files in os.walk(os.path.join(root, top)):
            subdirs[:] = sorted(d for d in subdirs if d != "tests")
            for name in sorted(files):
                if not name.endswith((".h", ".cc")):
                    continue
                path = os.path.join(directory, name)
                with open(path, encoding="utf-8") as source:
                    for number, text in enumerate(source, start=1):
                        if PREFETCH_CALL.search(text):
                            sites.append((os.path.relpath(path, root), number))
    return sites


def binary_sites(binary):
    """How many prefetch instructions come from each (absolute path, line),
    and how many source locations the line tables name at all."""
    listing = subprocess.run(
        ["objdump", "--disassemble", "--line-numbers", "--no-show-raw-insn", binary],
        check=True, capture_output=True, text=True).stdout
    counts = {}
    locations = 0
    where = None
    for line in listing.splitlines():
        location = LOCATION.match(line)
        if location:
            where = (location.group(1), int(location.group(2)))
            locations += 1
        elif where is not None and PREFETCH_INSTRUCTION.match(line):
            counts[where] = counts.get(where, 0) + 1
    return counts, locations


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    binary, root = argv[1], argv[2]
    sites = source_sites(root)
    if not sites:
        print(f"no __builtin_prefetch found under {root}: is that the source root?")
        return 1
    counts, locations = binary_sites(binary)
    if locations == 0:
        print(f"{binary} has no line tables: the release build must compile with -g1")
        return 1
    missing = []
    for path, line in sites:
        found = sum(n for (where, at), n in counts.items()
                    if at == line and where.endswith("/" + path))
        print(f"{path}:{line}: {found} prefetch instruction(s)")
        if found == 0:
            missing.append(f"{path}:{line}")
    if missing:
        print("no prefetch instruction in the binary for: " + ", ".join(missing)
              + " (dropped by the compiler, or never compiled in)")
        return 1
    print(f"prefetch sites test: passed ({len(sites)} sites)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
