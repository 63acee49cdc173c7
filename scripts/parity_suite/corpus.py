"""The parity corpus: tests/parity/corpus/<family>.sql, in the format of tests/parity/README.md.

A statement ends at a line whose last non-blank character is `;` (one with inline routines,
`WITH FUNCTION …`, whose bodies hold `;`, at such a line followed by a blank line); lines starting
with `--` are comments; `-- source:` lines name the source of the statements after them. A statement's id is
`<family>:<first 12 hex of sha1 of its whitespace-collapsed text>`.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

FAMILY_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


class CorpusError(Exception):
    """A corpus file that breaks the format: names the file and line."""


@dataclass(frozen=True)
class Statement:
    id: str
    family: str
    sql: str
    source: str
    file: str
    line: int


def normalize(sql: str) -> str:
    """Runs of whitespace collapsed to one space, trimmed: what a statement's id is taken of."""
    return " ".join(sql.split())


def statement_id(family: str, sql: str) -> str:
    digest = hashlib.sha1(normalize(sql).encode("utf-8")).hexdigest()
    return f"{family}:{digest[:12]}"


def parse_family(path: Path) -> list[Statement]:
    """The statements of one family file, in file order."""
    family = path.stem
    if not FAMILY_NAME.match(family):
        raise CorpusError(f"{path}: a family name is lower_snake_case, not {family!r}")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise CorpusError(f"{path}: cannot read: {error}") from error
    statements: list[Statement] = []
    source = ""
    pending: list[str] = []
    start = 0
    lines = text.splitlines()
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if stripped.startswith("--"):
            comment = stripped[2:].strip()
            if comment.lower().startswith("source:"):
                source = comment[len("source:"):].strip()
            continue
        if not pending and not stripped:
            continue
        if not pending:
            start = number
        pending.append(line)
        if stripped.endswith(";") and not inside_routine(pending, lines, number):
            body = "\n".join(pending).rstrip()
            sql = body[: body.rfind(";")].strip()
            pending = []
            if not sql:
                raise CorpusError(f"{path}:{start}: an empty statement")
            statements.append(
                Statement(statement_id(family, sql), family, sql, source, str(path), start)
            )
    if any(part.strip() for part in pending):
        raise CorpusError(f"{path}:{start}: a statement without its closing `;`")
    return statements


def inside_routine(pending: list[str], lines: list[str], number: int) -> bool:
    """Whether a line ending in `;` is inside an inline routine's body: a statement that starts
    with `WITH FUNCTION` holds `;` of its own, and ends only at a `;` line followed by a blank
    line (or the file's end)."""
    if not " ".join(" ".join(pending).split()).upper().startswith("WITH FUNCTION"):
        return False
    return number < len(lines) and bool(lines[number].strip())


def load(directory: Path, families: set[str] | None = None) -> list[Statement]:
    """Every statement of the corpus (or of the families named), sorted by id.

    Duplicate statements anywhere in the corpus are an error, naming both places.
    """
    files = sorted(directory.glob("*.sql"))
    if not files:
        raise CorpusError(f"{directory}: no corpus files (*.sql)")
    seen: dict[str, Statement] = {}
    statements: list[Statement] = []
    for path in files:
        for statement in parse_family(path):
            key = normalize(statement.sql)
            earlier = seen.get(key)
            if earlier is not None:
                raise CorpusError(
                    f"{statement.file}:{statement.line}: duplicate of the statement at "
                    f"{earlier.file}:{earlier.line}"
                )
            seen[key] = statement
            if families is None or statement.family in families:
                statements.append(statement)
    if families is not None:
        unknown = families - {s.family for s in statements}
        if unknown:
            raise CorpusError(f"no such families in {directory}: {', '.join(sorted(unknown))}")
    statements.sort(key=lambda s: s.id)
    return statements
