#!/usr/bin/env python3
"""Where the QueryMesh analysis still writes SQLite text instead of building the expression
tree (querymesh-values `sqlite_expr`), issue 27's measure.

Counts, per file of the engine and the function families:
- the `format!` calls whose format string reads as SQL (a call `name(`, a quoted name, or one
  of SQL's keywords: CASE, SELECT, FROM, WHERE, CAST, IS NULL, `||`, AND, OR, …), except the
  messages of Trino errors, which name clauses and functions;
- the `SqlExpr::Raw` and `comma_list` uses that carry text into the tree;
- the call templates (`Lower::Template("qm_x({0})")`) the engine fills with text.
The SQLite functions themselves (`sqlite/`, `udf/`), tests, the tpch generator and the
developer's sources (which write DDL for their own files) are not analysis and are skipped.

  python3 scripts/sql_text.py            # a total per crate, the 20 largest files
  python3 scripts/sql_text.py --all      # every file
  python3 scripts/sql_text.py --max N    # exit 1 when the total is above N
"""
import argparse
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
CRATES = ["crates/querymesh-engine/src", "crates/querymesh-functions/src", "crates/querymesh-values/src"]
SKIP = re.compile(r"(^|/)(sqlite|udf|tests?|tpch|sources|memory)(/|\.rs$|_tests\.rs$)|/tests\.rs$|_tests\.rs$")
SQL = re.compile(
    r"\b[a-z_][a-z0-9_]*\(|\bCASE\b|\bSELECT\b|\bCAST\(|\bIS (NOT )?NULL\b|\|\||\bAND\b|\bOR\b"
    r"|\bCOLLATE\b|\bEXISTS\b|\b(FROM|WHERE|HAVING|JOIN|UNION|INTERSECT|EXCEPT|LIMIT|OVER|VALUES|WITH)\b"
    r'|\b(GROUP|ORDER|PARTITION) BY\b|\bAS \\?"|^\\"[^ ]*\\"$'
)
# The tree's renderer and quoting, and files whose `name(` strings are Trino's type names.
# trino_text.rs prints Trino's own expression text for its messages, not SQLite's.
NOT_ANALYSIS = {
    "sqlite_expr/mod.rs",
    "sqlite_expr/select.rs",
    "sqlite_text.rs",
    "types.rs",
    "signature.rs",
    "sql/analyze/trino_text.rs",
}
FORMAT = re.compile(r'format!\(\s*"((?:[^"\\]|\\.)*)"', re.S)
CARRIERS = re.compile(
    r"SqlExpr::Raw\(|\bcomma_list\("
    # a call template a family's table gives `Lower::Template`: "qm_x({0}, {1})"
    r'|"[a-z_]\w*\((?:\{[0-9*]\}(?:,\s*)?)+\)"'
)
# A Trino error's message names clauses and functions ("ORDER BY position 3 is not in select
# list"): a format! that is the message argument of an error (`error_at(ErrorName::X, at,
# format!(…))`, `TrinoError::new(ErrorName::X, format!(…))`) is not SQL text.
MESSAGE = re.compile(r"ErrorName::\w+\s*,(?:[^;{}]{0,80}?,)?\s*$")


def strip_tests(text: str) -> str:
    """The file without its `#[cfg(test)] mod … { … }` blocks."""
    out, i = [], 0
    for m in re.finditer(r"#\[cfg\(test\)\]\s*mod\s+\w+\s*\{", text):
        if m.start() < i:
            continue
        out.append(text[i : m.start()])
        depth, j = 1, m.end()
        while j < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        i = j
    out.append(text[i:])
    return "".join(out)


def count(path: pathlib.Path) -> int:
    text = strip_tests(path.read_text())
    sql = sum(
        1
        for m in FORMAT.finditer(text)
        if SQL.search(m.group(1)) and not MESSAGE.search(text[max(0, m.start() - 200) : m.start()])
    )
    return sql + len(CARRIERS.findall(text))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--all", action="store_true")
    parser.add_argument("--max", type=int)
    args = parser.parse_args()
    per_file = {}
    for crate in CRATES:
        base = ROOT / crate
        for path in sorted(base.rglob("*.rs")):
            rel = path.relative_to(base).as_posix()
            if SKIP.search(rel) or rel in NOT_ANALYSIS:
                continue
            n = count(path)
            if n:
                per_file[f"{crate}/{rel}"] = n
    total = sum(per_file.values())
    for crate in CRATES:
        print(f"{crate}: {sum(n for f, n in per_file.items() if f.startswith(crate + '/'))}")
    print(f"total: {total} places write SQLite text")
    ranked = sorted(per_file.items(), key=lambda kv: -kv[1])
    for f, n in ranked if args.all else ranked[:20]:
        print(f"  {n:4d} {f}")
    if args.max is not None and total > args.max:
        print(f"more than {args.max}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
