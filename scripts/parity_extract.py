#!/usr/bin/env python3
"""Extracts the SQL this project's own QueryMesh tests send into parity corpus families.

    scripts/parity_extract.py [--trino URL]

Reads tests/sandbox/querymesh/{semantics,fidelity,engine}/*.rs, takes every Rust string literal
that is a SQL statement (and `format!("{CONST} …")` over a `const CONST: &str` of the same file),
and writes tests/parity/corpus/project_<folder>_<file>.sql. Kept: statements that are
deterministic over tpch.tiny and VALUES, judged by their text (no now(), random(), approx_*,
unordered array_agg, session-changing statements, other catalogs) and by a real Trino (an
answer within 30 s, the same answer twice, no LIMIT that cuts an unordered answer), and not
already elsewhere in the corpus. Python 3.11 standard library only.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from parity_suite import corpus  # noqa: E402
from parity_suite.compare import multisets_equal, parse_type, top_level_tokens  # noqa: E402
from parity_suite.protocol import Client  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ["semantics", "fidelity", "engine"]
# Tests of things the corpus cannot hold: other catalogs, threads, the TPC-H files themselves,
# and the stand-in's own EXPLAIN plans (by design not Trino's: each would be a kept difference).
SKIP_FILES = {
    "developer_sources.rs",
    "interruption_and_threads.rs",
    "mod.rs",
    "explain_beyond_trinos_shapes.rs",
}
SQL_START = re.compile(
    r"^\s*(\(\s*)*(SELECT|WITH|VALUES|SHOW|DESCRIBE|EXPLAIN|TABLE|EXECUTE\s+IMMEDIATE|INSERT|"
    r"UPDATE|DELETE|CREATE|DROP|ALTER|GRANT|CALL)\b",
    re.I,
)
NONDETERMINISTIC = re.compile(
    r"\b(now|current_date|current_time|current_timestamp|localtime|localtimestamp|random|rand|"
    r"uuid|shuffle|approx_\w+|tablesample|current_catalog|current_schema)\b",
    re.I,
)
ORDER_SENSITIVE_AGGREGATES = re.compile(r"\b(array_agg|arbitrary|any_value)\s*\(", re.I)
STRING = re.compile(r'(?P<raw>r(?P<hashes>#*)"(?P<rawbody>.*?)"(?P=hashes))|"(?P<body>(?:[^"\\]|\\.)*)"', re.S)
CONSTANT = re.compile(r'const\s+(\w+)\s*:\s*&str\s*=\s*"((?:[^"\\]|\\.)*)"\s*;', re.S)
# Past this a statement is too slow for the corpus (a busy machine slows Trino a lot: generous).
JUDGE_TIMEOUT = 30.0
ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "'": "'", "0": "\0"}


def unescape(body: str) -> str:
    out, i = [], 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        nxt = body[i + 1] if i + 1 < len(body) else ""
        if nxt == "\n":  # a line continuation: the newline and the next line's indent go
            i += 2
            while i < len(body) and body[i] in " \t\n":
                i += 1
        elif nxt == "u" and body[i + 2 : i + 3] == "{":
            end = body.index("}", i)
            out.append(chr(int(body[i + 3 : end], 16)))
            i = end + 1
        elif nxt == "x":
            out.append(chr(int(body[i + 2 : i + 4], 16)))
            i += 4
        else:
            out.append(ESCAPES.get(nxt, nxt))
            i += 2
    return "".join(out)


# A literal that is the argument of one of these is text the test looks for, not a statement
# it sends (`.contains("Values")`, `json!("call")`, `column_of(sql, "WITH")`).
SEARCHED_TEXT = re.compile(
    r"(\.(contains|split_once|starts_with|ends_with|find|rfind|replace|strip_prefix|strip_suffix)\("
    r"|json!\(|column_of\(\w+,)$"
)


def without_comment_lines(source: str) -> str:
    """The source with its comment lines blanked (a doc comment quoting a statement is not one
    the test sends); line breaks kept."""
    return "\n".join("" if line.lstrip().startswith("//") else line for line in source.split("\n"))


def literals(source: str) -> list[str]:
    """The file's SQL literals, in order, with format! over file constants filled in."""
    source = without_comment_lines(source)
    constants = {name: unescape(body) for name, body in CONSTANT.findall(source)}
    found = []
    for match in STRING.finditer(source):
        text = match.group("rawbody") if match.group("raw") else unescape(match.group("body"))
        before_compact = re.sub(r"\s", "", source[max(0, match.start() - 40) : match.start()])
        if SEARCHED_TEXT.search(before_compact):
            continue
        # One word is never a whole statement, only a refusal a test sends on its own
        # (`error(&engine, "EXPLAIN")`, `("call", "SYNTAX_ERROR…")`); in a list it is data.
        if len(text.split()) == 1 and not before_compact.endswith(("(", "engine,")):
            continue
        before = source[max(0, match.start() - 12) : match.start()].replace(" ", "")
        if before.endswith(("format!(", "&format!(")):
            names = re.findall(r"\{(\w*)\}", text)
            if not names or any(n not in constants for n in names):
                continue
            text = re.sub(r"\{(\w+)\}", lambda m: constants[m.group(1)], text)
            text = text.replace("{{", "{").replace("}}", "}")
        if SQL_START.match(text):
            found.append(text.strip().rstrip(";").strip())
    return found


def textually_fit(sql: str) -> str | None:
    """Why the statement cannot be in the corpus, judged by its text; None if it can."""
    if NONDETERMINISTIC.search(sql):
        return "nondeterministic function"
    if re.search(r"\bsf\d+\b", sql, re.I):
        return "another scale factor than tiny"
    tokens = [t for _, t in top_level_tokens(sql)]
    words = {t.lower() for t in tokens}
    for match in ORDER_SENSITIVE_AGGREGATES.finditer(sql):
        inner = sql[match.end() : match.end() + 400]
        if not re.match(r"[^()]*(\([^()]*\)[^()]*)*\bORDER\s+BY\b", inner, re.I) and not re.search(
            r"array_sort\s*\(\s*" + match.group(1), sql, re.I
        ):
            return "order-sensitive aggregate"
    if re.search(r"\b(?!tpch|system|information_schema)\w+\.\w+\.\w+\b", sql) and re.search(
        r"\bFROM\s+(?!tpch\.|system\.|information_schema\.)\w+\.\w+\.\w+", sql, re.I
    ):
        return "another catalog"
    if any(line.rstrip().endswith(";") for line in sql.splitlines()):
        return "a line ending with ;"
    if any(line.lstrip().startswith("--") for line in sql.splitlines()):
        return "a comment line"
    if "limit" in words or "fetch" in words:
        return None  # judged on Trino's answer
    return None


def limit_cuts_unordered(sql: str, rows: int) -> bool:
    """A top-level LIMIT/FETCH with no top-level ORDER BY that cut the answer: any rows may come."""
    tokens = top_level_tokens(sql)
    upper = [t.upper() for d, t in tokens if d == 0]
    if "ORDER" in upper and "BY" in upper:
        return False
    for index, word in enumerate(upper):
        if word in ("LIMIT", "FETCH"):
            following = upper[index + 1 : index + 4]
            numbers = [int(w) for w in following if w.isdigit()]
            limit = numbers[0] if numbers else (1 if word == "FETCH" else None)
            if limit is not None and rows >= limit:
                return True
    return False


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--trino", default="http://127.0.0.1:18476")
    args = parser.parse_args(argv)
    corpus_dir = ROOT / "tests/parity/corpus"
    others = set()
    for path in corpus_dir.glob("*.sql"):
        if not path.stem.startswith("project_"):
            others |= {corpus.normalize(s.sql) for s in corpus.parse_family(path)}
    for path in corpus_dir.glob("project_*.sql"):
        path.unlink()
    trino = Client(args.trino, "parity")
    cache_path = ROOT / "target/parity-extract-cache.json"
    try:
        cache = json.loads(cache_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        cache = {}
    seen = set(others)
    dropped: dict[str, int] = {}
    total = 0
    for folder in FOLDERS:
        for rust in sorted((ROOT / "tests/sandbox/querymesh" / folder).glob("*.rs")):
            if rust.name in SKIP_FILES:
                continue
            candidates = []
            for sql in literals(rust.read_text(encoding="utf-8")):
                key = corpus.normalize(sql)
                if key in seen:
                    dropped["duplicate"] = dropped.get("duplicate", 0) + 1
                    continue
                seen.add(key)
                candidates.append(sql)
            with ThreadPoolExecutor(2) as pool:
                verdicts = list(pool.map(lambda sql: verdict(trino, sql, cache), candidates))
            kept = []
            for sql, why in zip(candidates, verdicts):
                if why:
                    dropped[why] = dropped.get(why, 0) + 1
                    continue
                kept.append(sql)
            if not kept:
                continue
            family = f"project_{folder}_{rust.stem}"
            relative = rust.relative_to(ROOT)
            lines = [
                f"-- family: {family}",
                f"-- source: this project's QueryMesh tests, {relative} (extracted by "
                f"scripts/parity_extract.py: every statement the tests send that is "
                f"deterministic over tpch.tiny and VALUES)",
                "",
            ]
            for sql in kept:
                lines += [sql + ";", ""]
            (corpus_dir / f"{family}.sql").write_text("\n".join(lines), encoding="utf-8")
            total += len(kept)
            print(f"{family}: {len(kept)}", file=sys.stderr)
    cache_path.parent.mkdir(exist_ok=True)
    cache_path.write_text(json.dumps(cache), encoding="utf-8")
    print(f"kept {total}; dropped {dropped}", file=sys.stderr)
    return 0


def verdict(trino: Client, sql: str, cache: dict) -> str | None:
    """Why the statement is left out, or None; Trino's verdicts are kept between runs in
    target/parity-extract-cache.json (delete it to judge again)."""
    why = textually_fit(sql)
    if why:
        return why
    if sql not in cache:
        why = judged_by_trino(trino, sql)
        if why == "slow or unreachable on Trino":
            return why  # not cached: a busy machine or a stopped Trino says nothing lasting
        cache[sql] = why or ""
    return cache[sql] or None


def judged_by_trino(trino: Client, sql: str) -> str | None:
    first = trino.run(sql, JUDGE_TIMEOUT)
    if first.error_type == "PARITY":
        return "slow or unreachable on Trino"
    if first.error_name in ("CATALOG_NOT_FOUND", "SCHEMA_NOT_FOUND", "MISSING_CATALOG_NAME",
                            "MISSING_SCHEMA_NAME"):
        return "another catalog"
    second = trino.run(sql, JUDGE_TIMEOUT)
    if (first.error_name, first.error_type) != (second.error_name, second.error_type):
        return "a different answer the second time"
    if not first.failed:
        if first.columns != second.columns:
            return "a different answer the second time"
        types = [parse_type(t) for _, t in first.columns]
        if first.rows != second.rows and not multisets_equal(first.rows, second.rows, types):
            return "a different answer the second time"
        if limit_cuts_unordered(sql, len(first.rows)):
            return "LIMIT over an unordered answer"
    return None


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
