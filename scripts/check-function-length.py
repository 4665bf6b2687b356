#!/usr/bin/env python3
"""Fails on a function of core/ longer than 150 lines (CONTRIBUTING.md, "Style").

A function is a definition that starts at column 0 with its opening brace at the end of the line
and ends at the next line that is "}" at column 0 (the shape .clang-format gives every free
function and out-of-class member); lambdas and nested blocks count with their function. Class
bodies' inline members are not measured. A function listed in KNOWN may keep its present length
until it is split; it fails when it grows.

usage: scripts/check-function-length.py [ROOT]   (ROOT: the repository, default the one holding this script)
"""
import pathlib
import re
import sys

LIMIT = 150
# Functions over the limit today, each with the most lines it may have until it is split.
KNOWN = {"core/src/api/questions/batch.cpp:answer_batch": 166}
START = re.compile(r"^(?!namespace|struct|class|enum|union|extern|#|//|\s)[^;=]*?(\w+)\([^;]*\)\s*(const\s*)?(noexcept\s*)?(->\s*[^{]+)?\{\s*$")


def long_functions(root):
    found = []
    for path in sorted(root.glob("core/**/*.[ch]pp")):
        rel = path.relative_to(root).as_posix()
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        i = 0
        while i < len(lines):
            m = START.match(lines[i])
            if not m:
                i += 1
                continue
            end = i + 1
            while end < len(lines) and not lines[end].startswith("}"):
                end += 1
            found.append((rel, i + 1, m.group(1), end - i + 1))
            i = end + 1
    return found


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent)
    failed = 0
    for rel, line, name, length in long_functions(root):
        allowed = KNOWN.get(f"{rel}:{name}", LIMIT)
        if length > allowed:
            print(f"{rel}:{line}: {name} is {length} lines (at most {allowed}): split it along what it computes")
            failed += 1
    print(f"check-function-length: {failed} function(s) too long" if failed else f"check-function-length: every function of core/ is within {LIMIT} lines")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
