"""The differences the stand-in keeps on purpose, each with its reason: tests/parity/differences.toml.

The issue's rule is that every statement left failing is listed with its reason. The reasons
live in one file, grouped (one reason usually covers several statements), so docs/parity.md
can say for each mismatch why it stays, and which mismatches have no reason yet. The file is
checked against the corpus: a reason naming a statement that does not exist is an error (a
typo or a statement edited away), and a reason for a statement that now passes is reported as
stale so it is removed.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

KEY = re.compile(r"^[a-z0-9][a-z0-9-]{0,60}$")


class DifferencesError(Exception):
    pass


@dataclass(frozen=True)
class Difference:
    key: str  # a short slug, the anchor docs/parity.md links to
    reason: str
    statements: tuple[str, ...]  # statement ids, `<family>:<12 hex>`


def parse(text: str, known_ids: set[str], origin: str = "differences.toml") -> list[Difference]:
    """Every `[[difference]]` table of the file, validated against the corpus's ids."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise DifferencesError(f"{origin}: {error}") from error
    unexpected = set(data) - {"difference"}
    if unexpected:
        raise DifferencesError(f"{origin}: unexpected top-level keys {sorted(unexpected)}; "
                               "each entry is a [[difference]] table")
    entries = data.get("difference", [])
    if not isinstance(entries, list):
        raise DifferencesError(f"{origin}: `difference` must be an array of tables ([[difference]])")
    differences: list[Difference] = []
    owner: dict[str, str] = {}
    for number, entry in enumerate(entries, start=1):
        where = f"{origin}: difference #{number}"
        if not isinstance(entry, dict):
            raise DifferencesError(f"{where}: not a table")
        extra = set(entry) - {"key", "reason", "statements"}
        if extra:
            raise DifferencesError(f"{where}: unexpected fields {sorted(extra)}")
        key, reason, statements = entry.get("key"), entry.get("reason"), entry.get("statements")
        if not isinstance(key, str) or not KEY.match(key):
            raise DifferencesError(f"{where}: `key` must be a lower-case slug (a-z, 0-9, -), got {key!r}")
        where = f"{origin}: difference {key!r}"
        if not isinstance(reason, str) or not reason.strip():
            raise DifferencesError(f"{where}: `reason` must be a non-empty string")
        if (not isinstance(statements, list) or not statements
                or not all(isinstance(s, str) for s in statements)):
            raise DifferencesError(f"{where}: `statements` must be a non-empty list of statement ids")
        if any(d.key == key for d in differences):
            raise DifferencesError(f"{where}: the key is used twice")
        for statement_id in statements:
            if statement_id not in known_ids:
                raise DifferencesError(f"{where}: {statement_id!r} is not a statement of the corpus")
            if statement_id in owner:
                raise DifferencesError(f"{where}: {statement_id!r} is already explained by "
                                       f"{owner[statement_id]!r}")
            owner[statement_id] = key
        differences.append(Difference(key, " ".join(reason.split()), tuple(statements)))
    return differences


def load(path: Path, known_ids: set[str]) -> list[Difference]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    return parse(text, known_ids, origin=str(path))


def by_statement(differences: list[Difference]) -> dict[str, Difference]:
    return {statement_id: d for d in differences for statement_id in d.statements}


def stale(differences: list[Difference], passed: dict[str, bool]) -> list[tuple[str, str]]:
    """(key, statement id) of reasons given for statements that ran and passed."""
    return [(d.key, s) for d in differences for s in d.statements if passed.get(s) is True]
