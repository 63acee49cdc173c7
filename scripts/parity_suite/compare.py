"""Comparing the stand-in's answer with Trino's (tests/parity/README.md, "What is compared").

- column names, and full types as rendered from the typeSignature;
- rows exactly, except doubles and reals (within 1e-12 relative; NaN equals NaN) and maps
  (unordered); rows in order only where a top-level ORDER BY fixes it — and rows that tie on
  the ORDER BY keys may come in any order among themselves, when the keys are output columns;
- refusals: errorName and errorType; one side failing while the other answers is a mismatch.
- an EXPLAIN plan's table-scan assignments (`name := tpch:name`) as a set: Trino prints them in
  a java.util.HashMap's order whose keys hash by the identity hash codes of its type classes,
  which differ between Trino processes (a first start on an empty data directory and a
  restart print different orders; UnaliasSymbolReferences.visitTableScan builds the map).
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from .protocol import Answer

RELATIVE_TOLERANCE = 1e-12
FLOAT_TYPES = {"double", "real"}
FLOAT_WORDS = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


# --- the types, parsed back from their rendering -------------------------------------------

def parse_type(text: str) -> tuple[str, list]:
    """`map(varchar(3), array(double))` → ("map", [("varchar", [3]), ("array", [("double", [])])]).

    Row fields come back as their types alone (names do not matter for values)."""
    text = text.strip()
    open_at = text.find("(")
    if open_at < 0 or not text.endswith(")"):
        return text, []
    base = text[:open_at].strip()
    arguments = []
    for part in split_top_level(text[open_at + 1 : -1], ","):
        part = part.strip()
        if part.isdigit():
            arguments.append(int(part))
        elif base == "row":
            arguments.append(parse_type(strip_field_name(part)))
        else:
            arguments.append(parse_type(part))
    return base, arguments


def strip_field_name(part: str) -> str:
    """`x integer` → `integer`, `"Y z" varchar` → `varchar`, `integer` → `integer`."""
    if part.startswith('"'):
        end = 1
        while end < len(part):
            if part[end] == '"':
                if part[end + 1 : end + 2] == '"':
                    end += 2
                    continue
                break
            end += 1
        return part[end + 1 :].strip()
    head, _, rest = part.partition(" ")
    if rest and "(" not in head and not is_type_word(part):
        return rest.strip()
    return part


def is_type_word(part: str) -> bool:
    """Types whose names hold spaces: they are not `name type`."""
    return part.startswith(("timestamp", "time", "interval", "double precision"))


def split_top_level(text: str, separator: str) -> list[str]:
    parts, depth, current, quoted = [], 0, [], False
    for char in text:
        if char == '"':
            quoted = not quoted
        elif not quoted and char == "(":
            depth += 1
        elif not quoted and char == ")":
            depth -= 1
        elif not quoted and depth == 0 and char == separator:
            parts.append("".join(current))
            current = []
            continue
        current.append(char)
    if current or parts:
        parts.append("".join(current))
    return parts


# --- values --------------------------------------------------------------------------------

def as_float(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        if value in FLOAT_WORDS:
            return FLOAT_WORDS[value]
    return None


def floats_equal(a: float, b: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= RELATIVE_TOLERANCE * max(abs(a), abs(b))


def values_equal(a: Any, b: Any, ty: tuple[str, list] | None) -> bool:
    """One value of each side, compared as the type `ty` (Trino's) says; None: generically."""
    if a is None or b is None:
        return a is None and b is None
    base, arguments = ty if ty is not None else (None, [])
    if base in FLOAT_TYPES:
        fa, fb = as_float(a), as_float(b)
        return fa is not None and fb is not None and floats_equal(fa, fb)
    if base == "array" and arguments:
        return (
            isinstance(a, list)
            and isinstance(b, list)
            and len(a) == len(b)
            and all(values_equal(x, y, arguments[0]) for x, y in zip(a, b))
        )
    if base == "row" and arguments:
        return (
            isinstance(a, list)
            and isinstance(b, list)
            and len(a) == len(b) == len(arguments)
            and all(values_equal(x, y, t) for x, y, t in zip(a, b, arguments))
        )
    if base == "map" and len(arguments) == 2:
        # JSON objects: key order never matters; values compared by the value type.
        return (
            isinstance(a, dict)
            and isinstance(b, dict)
            and a.keys() == b.keys()
            and all(values_equal(a[k], b[k], arguments[1]) for k in a)
        )
    if ty is None:
        return generic_equal(a, b)
    return type(a) is type(b) and a == b or (is_number(a) and is_number(b) and a == b)


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def generic_equal(a: Any, b: Any) -> bool:
    """Without a type: floats within the tolerance, containers element by element."""
    if isinstance(a, float) or isinstance(b, float):
        fa, fb = as_float(a), as_float(b)
        return fa is not None and fb is not None and floats_equal(fa, fb)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(generic_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(generic_equal(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def rows_equal(a: list, b: list, types: list | None) -> bool:
    if len(a) != len(b):
        return False
    if types is None:
        return all(values_equal(x, y, None) for x, y in zip(a, b))
    return all(values_equal(x, y, t) for x, y, t in zip(a, b, types))


def sort_key(value: Any) -> Any:
    """A total order over JSON values that puts nearly equal floats side by side."""
    if value is None:
        return (0,)
    if isinstance(value, bool):
        return (1, value)
    if is_number(value) or (isinstance(value, str) and value in FLOAT_WORDS):
        number = as_float(value)
        if number is None or math.isnan(number):
            return (2, 1, 0.0)
        return (2, 0, float(f"{number:.9e}") if math.isfinite(number) else number)
    if isinstance(value, str):
        return (3, value)
    if isinstance(value, list):
        return (4, tuple(sort_key(v) for v in value))
    if isinstance(value, dict):
        return (5, tuple(sorted((k, sort_key(v)) for k, v in value.items())))
    return (6, repr(value))


def multisets_equal(a: list[list], b: list[list], types: list | None) -> bool:
    """The same rows in any order."""
    if len(a) != len(b):
        return False
    left = sorted(a, key=lambda r: tuple(sort_key(v) for v in r))
    right = sorted(b, key=lambda r: tuple(sort_key(v) for v in r))
    if all(rows_equal(x, y, types) for x, y in zip(left, right)):
        return True
    if len(a) > 3000:
        return False
    # Floats near a rounding edge can sort apart: match row by row instead.
    unmatched = list(right)
    for row in left:
        for index, candidate in enumerate(unmatched):
            if rows_equal(row, candidate, types):
                del unmatched[index]
                break
        else:
            return False
    return True


def runs_by_key(rows: list[list], keys: list[int]) -> list[list[list]]:
    """Consecutive rows with equal ORDER BY keys, as groups."""
    groups: list[list[list]] = []
    previous = None
    for row in rows:
        key = [row[k] if k < len(row) else None for k in keys]
        if groups and key == previous:
            groups[-1].append(row)
        else:
            groups.append([row])
        previous = key
    return groups


def ordered_equal(a: list[list], b: list[list], types: list | None, keys: list[int] | None) -> bool:
    """The same rows in the same order; rows tying on known ORDER BY keys in any order."""
    if len(a) != len(b):
        return False
    if all(rows_equal(x, y, types) for x, y in zip(a, b)):
        return True
    if not keys:
        return False
    left, right = runs_by_key(a, keys), runs_by_key(b, keys)
    return len(left) == len(right) and all(
        len(x) == len(y) and multisets_equal(x, y, types) for x, y in zip(left, right)
    )


# --- ORDER BY at the top level -------------------------------------------------------------

TOKEN = re.compile(r"""'(?:[^']|'')*'|"(?:[^"]|"")*"|--[^\n]*|/\*.*?\*/|\w+|\S""", re.S)


def top_level_tokens(sql: str) -> list[tuple[int, str]]:
    """(parenthesis depth, token), comments dropped; literals and quoted names one token."""
    tokens, depth = [], 0
    for match in TOKEN.finditer(sql):
        token = match.group()
        if token.startswith("--") or token.startswith("/*"):
            continue
        if token == "(":
            depth += 1
            continue
        if token == ")":
            depth -= 1
            continue
        tokens.append((depth, token))
    return tokens


def top_level_order_by(sql: str) -> list[str] | None:
    """The items of the statement's own ORDER BY (outside every parenthesis), or None.

    `ORDER BY` inside a subquery, a window (`OVER (ORDER BY …)`), `array_agg(x ORDER BY …)`
    or `WITHIN GROUP (ORDER BY …)` is parenthesized, so it does not count."""
    depth_tokens = top_level_tokens(sql)
    found = None
    for index in range(len(depth_tokens) - 1):
        depth, token = depth_tokens[index]
        following = depth_tokens[index + 1]
        if (
            depth == 0
            and token.upper() == "ORDER"
            and following[0] == 0
            and following[1].upper() == "BY"
        ):
            found = index + 2
    if found is None:
        return None
    items, current, stop = [], [], {"LIMIT", "OFFSET", "FETCH"}
    # Re-scan the clause keeping parenthesized text, so `f(x)` stays one item.
    clause_depth = 0
    for match in TOKEN.finditer(sql[clause_start(sql, found):]):
        token = match.group()
        if token.startswith("--") or token.startswith("/*"):
            continue
        if token == "(":
            clause_depth += 1
        elif token == ")":
            clause_depth -= 1
            if clause_depth < 0:
                break
        elif clause_depth == 0 and token.upper() in stop:
            break
        elif clause_depth == 0 and token == ",":
            items.append(" ".join(current))
            current = []
            continue
        current.append(token)
    if current:
        items.append(" ".join(current))
    return items


def clause_start(sql: str, index: int) -> int:
    """Where in `sql` the ORDER BY clause's first item begins."""
    count = 0
    for match in TOKEN.finditer(sql):
        token = match.group()
        if token.startswith(("--", "/*")) or token in ("(", ")"):
            continue
        if count == index:
            return match.start()
        count += 1
    return len(sql)


def order_keys(items: list[str], columns: list[str]) -> list[int] | None:
    """The output columns an ORDER BY sorts by, when every item is an ordinal or an output
    column's name (maybe qualified, with ASC/DESC/NULLS …); None when any item is an
    expression we cannot place."""
    keys = []
    lowered = [c.lower() for c in columns]
    for item in items:
        words = item.split()
        while words and words[-1].upper() in {"ASC", "DESC", "FIRST", "LAST", "NULLS"}:
            words.pop()
        if len(words) != 1:
            return None
        word = words[0]
        if word.isdigit():
            position = int(word) - 1
            if not 0 <= position < len(columns):
                return None
            keys.append(position)
            continue
        name = word.split(".")[-1].strip('"').lower()
        if lowered.count(name) != 1:
            return None
        keys.append(lowered.index(name))
    return keys


# --- one statement -------------------------------------------------------------------------

# --- EXPLAIN's table-scan assignments, in no order ----------------------------------------

ASSIGNMENT = re.compile(r"^[\s\u2502]*[^\s:]+ := [a-z_]+:\S+$")
CONSTRAINT = re.compile(r"^[\s\u2502]*:: ")
JSON_DETAILS = re.compile(r'^(\s*"details" : )(\[.*\])(,?)$')


def sorted_assignments(items: list[str]) -> list[str]:
    """Runs of assignments (each with the constraint lines under it) sorted; the rest kept."""
    out: list[str] = []
    run: list[list[str]] = []

    def flush() -> None:
        for group in sorted(run):
            out.extend(group)
        run.clear()

    for item in items:
        if ASSIGNMENT.match(item):
            run.append([item])
        elif CONSTRAINT.match(item) and run:
            run[-1].append(item)
        else:
            flush()
            out.append(item)
    flush()
    return out


def canonical_plan(text: str) -> str:
    """A plan's text (or its JSON) with every run of scan assignments sorted."""
    lines = sorted_assignments(text.split("\n"))
    for i, line in enumerate(lines):
        match = JSON_DETAILS.match(line)
        if match:
            try:
                details = json.loads(match.group(2))
            except ValueError:
                continue
            if isinstance(details, list) and all(isinstance(d, str) for d in details):
                inner = ", ".join(json.dumps(d, ensure_ascii=False) for d in sorted_assignments(details))
                lines[i] = f"{match.group(1)}[ {inner} ]{match.group(3)}" if inner else line
    return "\n".join(lines)


def plan_rows(answer: Answer) -> list[list]:
    return [[canonical_plan(v) if isinstance(v, str) else v for v in row] for row in answer.rows]


def compare(sql: str, standin: Answer, trino: Answer) -> tuple[bool, str]:
    """(passed, why not) for one statement."""
    if standin.failed or trino.failed:
        if standin.failed and trino.failed:
            same = (standin.error_name, standin.error_type) == (trino.error_name, trino.error_type)
            return same, "" if same else "different errors"
        return False, "only the stand-in failed" if standin.failed else "only Trino failed"
    names = [c[0] for c in trino.columns]
    if [c[0] for c in standin.columns] != names:
        return False, "column names differ"
    if [c[1] for c in standin.columns] != [c[1] for c in trino.columns]:
        return False, "column types differ"
    types = [parse_type(c[1]) for c in trino.columns]
    if names == ["Query Plan"]:
        same = plan_rows(standin) == plan_rows(trino)
        return same, "" if same else "rows differ"
    items = top_level_order_by(sql)
    if items is None:
        same = multisets_equal(standin.rows, trino.rows, types)
        return same, "" if same else "rows differ"
    keys = order_keys(items, names)
    same = ordered_equal(standin.rows, trino.rows, types, keys)
    return same, "" if same else "rows differ (ordered)"
