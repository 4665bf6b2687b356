#!/usr/bin/env python3
"""Fails on an #include that runs up the core's layers (CONTRIBUTING.md, "The layers").

Layers, bottom to top: support, model, catalog, pricing, fleet, api (core/src/<layer>/), then the
tools outside the shipped module (core/tools/). A file may include its own layer and the layers
below it, and the public headers (gpufleet/*.hpp). model/ holds numbers only: no JSON. The doors
(core/cli/, wasm/) include only the public headers and their own files.

usage: scripts/check-layers.py [ROOT]   (ROOT: the repository, default the one holding this script)
"""
import pathlib
import re
import sys

LAYERS = ["support", "model", "catalog", "pricing", "fleet", "api", "tools"]
RANK = {name: i for i, name in enumerate(LAYERS)}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
SOURCE = {".cpp", ".hpp", ".h", ".cc"}


def layer_of(rel):
    parts = rel.parts
    if parts[:2] == ("core", "src") and len(parts) > 3 and parts[2] in RANK:
        return parts[2]
    if parts[:2] == ("core", "tools"):
        return "tools"
    return None


def problems(root):
    found = []
    for path in sorted(root.glob("core/src/*")):
        if path.is_file() and path.suffix in SOURCE:
            found.append(f"{path.relative_to(root)}: a source outside the layers' folders ({', '.join(LAYERS[:-1])})")
    files = [p for p in root.glob("core/**/*") if p.suffix in SOURCE and p.is_file()]
    files += [p for p in root.glob("wasm/*") if p.suffix in SOURCE and p.is_file()]
    for path in sorted(files):
        rel = path.relative_to(root)
        text = path.read_text(encoding="utf-8", errors="replace")
        door = rel.parts[0] == "wasm" or rel.parts[:2] == ("core", "cli")
        mine = layer_of(rel)
        for number, line in enumerate(text.splitlines(), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            target = m.group(1)
            where = f"{rel}:{number}"
            head = target.split("/")[0]
            if target.startswith("gpufleet/"):
                continue
            if door:
                if "/" in target:
                    found.append(f"{where}: a door includes \"{target}\"; doors include only gpufleet/*.hpp and their own files")
                continue
            if mine is None or head not in RANK:
                if mine is not None:
                    found.append(f"{where}: \"{target}\" names no layer (write it from core/src: \"<layer>/<file>\")")
                continue
            if RANK[head] > RANK[mine]:
                found.append(f"{where}: {mine}/ includes \"{target}\", which is above it ({' < '.join(LAYERS)})")
            if mine == "model" and head == "support" and "json" in target:
                found.append(f"{where}: model/ holds numbers only, no JSON (\"{target}\")")
    return found


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent)
    found = problems(root)
    for p in found:
        print(p)
    print(f"check-layers: {len(found)} upward or misplaced include(s)" if found else "check-layers: every include goes down the layers")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
