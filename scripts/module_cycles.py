#!/usr/bin/env python3
"""Circles of files that import each other, per crate (issue 27's measure).

A file depends on another when it names a module of the other through a `crate::` or
`super::` path (in a `use` or inline); `self::` and plain names inside a file are not
counted. The files of one circle (a strongly connected component of that graph) cannot be
understood, tested or moved apart. Prints the circles larger than one file, largest first.

    scripts/module_cycles.py [SRC_DIR ...] [--max N] [--list]

SRC_DIR defaults to every crate's `src` of the workspace: `src` and `crates/*/src`. With `--max N`
it exits 1 when a circle has more than N files; `--list` names every file of each circle.
"""

import argparse
import re
import sys
from pathlib import Path

PATH = re.compile(r"\b((?:crate|super)(?:::(?:super|[A-Za-z_][A-Za-z0-9_]*))+)")
USE_GROUP = re.compile(r"\buse\s+((?:crate|super)(?:::(?:super|\w+))*)::\{([^;]*)\};", re.S)
COMMENT = re.compile(r"//[^\n]*")


def module_of(src: Path, file: Path) -> tuple:
    parts = list(file.relative_to(src).with_suffix("").parts)
    if parts[-1] in ("mod", "lib", "main"):
        parts.pop()
    return tuple(parts)


def resolve(here: tuple, path: str, modules: dict):
    """The file of the deepest module `path` (as written in the module `here`) names."""
    segments = path.split("::")
    if segments[0] == "crate":
        base, rest = (), segments[1:]
    else:
        base = here
        rest = segments
        while rest and rest[0] == "super":
            base = base[:-1]
            rest = rest[1:]
    target = base
    found = modules.get(base)
    for segment in rest:
        target = target + (segment,)
        if target in modules:
            found = modules[target]
        else:
            break
    return found


def expand_groups(text: str) -> str:
    """`use crate::a::{b, c::d}` as the paths `crate::a::b`, `crate::a::c::d` (one level)."""

    def paths(match):
        prefix, inner = match.group(1), match.group(2)
        names = [n.strip().split(" as ")[0] for n in inner.split(",") if n.strip()]
        return " ".join(f"{prefix}::{n.split('::{')[0]}" for n in names if n != "self")

    return USE_GROUP.sub(paths, text)


def graph(src: Path):
    files = sorted(p for p in src.rglob("*.rs"))
    modules = {module_of(src, f): f for f in files}
    edges = {f: set() for f in files}
    for file in files:
        # `super` in `a/b.rs` (module a::b) and in `a/b/mod.rs` alike means module `a`.
        here = module_of(src, file)
        text = file.read_text(encoding="utf-8")
        # A file's tests (at its end, by this project's habit) see their file as `super`:
        # they are not a dependency of the file.
        text = text.split("#[cfg(test)]", 1)[0]
        text = expand_groups(COMMENT.sub("", text))
        for path in PATH.findall(text):
            target = resolve(here, path, modules)
            if target is not None and target != file:
                edges[file].add(target)
    return edges


def circles(edges: dict) -> list:
    """Tarjan's strongly connected components, iteratively."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = 0
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found, key=len, reverse=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("src", nargs="*")
    parser.add_argument("--max", type=int, help="exit 1 past this many files in a circle")
    parser.add_argument("--list", action="store_true", help="name each circle's files")
    args = parser.parse_args()
    worst = 0
    sources = args.src or ["src", *sorted(str(p) for p in Path("crates").glob("*/src"))]
    for src in map(Path, sources):
        if not src.is_dir():
            print(f"{src}: not a directory", file=sys.stderr)
            return 2
        edges = graph(src)
        found = circles(edges)
        sizes = ", ".join(str(len(c)) for c in found) or "none"
        print(f"{src}: {len(edges)} files; circles of more than one file: {sizes}")
        for circle in found:
            worst = max(worst, len(circle))
            if args.list:
                common = Path(*Path(circle[0]).parts[: len(src.parts)])
                names = ", ".join(str(Path(f).relative_to(common)) for f in circle)
                print(f"  {len(circle)} files: {names}")
    if args.max is not None and worst > args.max:
        print(f"a circle of {worst} files is over the limit of {args.max}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
