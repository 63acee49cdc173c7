"""The run's outputs: docs/parity.md (for people) and tests/parity/record.json (the ratchet)."""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass, field
from pathlib import Path

from .corpus import Statement
from .differences import Difference, by_statement
from .protocol import Answer

CUT = 300


@dataclass
class Outcome:
    statement: Statement
    standin: Answer
    trino: Answer
    passed: bool
    why: str


@dataclass
class RunInfo:
    trino_version: str
    started_utc: str
    standin_binary: str
    standin_commit: str
    standin_startup: float
    trino_startup: float | None
    trino_startup_note: str
    seconds: float
    concurrency: int
    timeout: float
    # (function, kind) Trino's SHOW FUNCTIONS lists and the stand-in's does not; None when
    # either list could not be read.
    missing_functions: list[tuple[str, str]] | None = None
    # tests/parity/differences.toml: the mismatches kept on purpose, with their reasons.
    differences: list[Difference] = field(default_factory=list)


# --- the record ----------------------------------------------------------------------------

def record_text(outcomes: list[Outcome]) -> str:
    """One statement per line, sorted by id: a diff shows exactly which statements changed."""
    lines = [
        f'  {json.dumps(o.statement.id)}: {{"family": {json.dumps(o.statement.family)}, '
        f'"passed": {"true" if o.passed else "false"}}}'
        for o in sorted(outcomes, key=lambda o: o.statement.id)
    ]
    return "{\n" + ",\n".join(lines) + "\n}\n"


def load_record(path: Path) -> dict[str, dict]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    if not isinstance(data, dict):
        raise ValueError(f"{path}: not a JSON object of statement ids")
    return data


@dataclass
class Ratchet:
    regressions: list[str]
    improvements: list[str]
    new: list[str]
    removed: list[str]


def ratchet(record: dict[str, dict], outcomes: list[Outcome], partial: bool,
            skipped: frozenset = frozenset()) -> Ratchet:
    """Statements that passed in the record and fail now are regressions; new and removed
    statements are only reported. `partial`: only some families ran, so none is 'removed';
    `skipped`: statements of the corpus left out of this run, not 'removed' either."""
    now = {o.statement.id: o.passed for o in outcomes}
    families = {o.statement.family for o in outcomes}
    regressions = sorted(i for i, e in record.items() if e.get("passed") and now.get(i) is False)
    improvements = sorted(i for i, e in record.items() if not e.get("passed") and now.get(i))
    new = sorted(i for i in now if i not in record)
    removed = sorted(
        i
        for i, e in record.items()
        if i not in now and i not in skipped and (not partial or e.get("family") in families)
    )
    return Ratchet(regressions, improvements, new, removed)


# --- docs/parity.md ------------------------------------------------------------------------

def cut(text: str, limit: int = CUT) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def describe(answer: Answer) -> str:
    if answer.failed:
        return f"{answer.error_name} ({answer.error_type}): {answer.message or ''}"
    columns = ", ".join(f"{n} {t}" for n, t in answer.columns)
    shown = json.dumps(answer.rows[:5], ensure_ascii=False, separators=(",", ":"))
    more = f" … {len(answer.rows)} rows" if len(answer.rows) > 5 else ""
    return f"[{columns}] {shown}{more}"


def timing_ratio(outcome: Outcome) -> float | None:
    a, b = outcome.standin, outcome.trino
    if a.error_type == "PARITY" or b.error_type == "PARITY" or b.seconds <= 0:
        return None
    return a.seconds / b.seconds


def md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("`", "'")


def family_rows(outcomes: list[Outcome]) -> list[tuple[str, int, int, float | None]]:
    families: dict[str, list[Outcome]] = {}
    for outcome in outcomes:
        families.setdefault(outcome.statement.family, []).append(outcome)
    rows = []
    for family, members in sorted(families.items()):
        ratios = [r for r in (timing_ratio(o) for o in members) if r is not None]
        median = statistics.median(ratios) if ratios else None
        rows.append((family, len(members), sum(o.passed for o in members), median))
    return rows


def missing_functions(standin: Answer, trino: Answer) -> list[tuple[str, str]] | None:
    """The (name, kind) pairs of Trino's `SHOW FUNCTIONS` that the stand-in's does not list:
    by name, so a function with fewer signatures than Trino's is not counted here."""
    if standin.failed or trino.failed:
        return None
    have = {row[0] for row in standin.rows}
    return sorted({(row[0], row[3]) for row in trino.rows if row[0] not in have})


def functions_text(missing: list[tuple[str, str]] | None) -> list[str]:
    out = ["", "## Functions Trino lists that the stand-in does not", ""]
    if missing is None:
        return out + ["Not compared in this run (`SHOW FUNCTIONS` failed on one side)."]
    if not missing:
        return out + ["None: every function name of Trino's `SHOW FUNCTIONS` is the stand-in's too."]
    out.append(f"{len(missing)} names (by name only; a function the stand-in has with fewer "
               "signatures than Trino's is not listed):")
    out.append("")
    by_kind: dict[str, list[str]] = {}
    for name, kind in missing:
        by_kind.setdefault(kind, []).append(name)
    for kind in sorted(by_kind):
        out.append(f"- {kind} ({len(by_kind[kind])}): " + ", ".join(f"`{n}`" for n in by_kind[kind]))
    return out


def docs_text(outcomes: list[Outcome], info: RunInfo) -> str:
    total = len(outcomes)
    passed = sum(o.passed for o in outcomes)
    rows = family_rows(outcomes)
    all_ratios = [r for r in (timing_ratio(o) for o in outcomes) if r is not None]
    trino_startup = (
        f"{info.trino_startup:.1f} s ({info.trino_startup_note})"
        if info.trino_startup is not None
        else info.trino_startup_note
    )
    out = [
        "# QueryMesh beside a real Trino: the parity suite",
        "",
        "Every statement of the corpus ([tests/parity/corpus](../tests/parity/corpus), format and",
        "usage in [tests/parity/README.md](../tests/parity/README.md)) sent to the stand-in and to",
        "a real Trino over the client protocol, and the answers compared: column names, full types,",
        "rows (doubles within 1e-12 relative; order only where a top-level ORDER BY fixes it) and,",
        "for refusals, `errorName` and `errorType`. Written by `scripts/parity.py` (`just parity`);",
        "`tests/parity/record.json` records which statements passed, and CI fails when one of them",
        "stops passing.",
        "",
        f"- Trino release: **{info.trino_version}** (`scripts/trino`, the tpch connector over `tpch.tiny`)",
        f"- Run: {info.started_utc}, {info.concurrency} statements in flight per side, "
        f"{info.timeout:g} s per statement",
        f"- Stand-in: `{info.standin_binary}` at commit `{info.standin_commit}`",
        f"- Start-up: stand-in {info.standin_startup:.2f} s to its ready line; Trino {trino_startup}",
        f"- The whole run: {info.seconds:.0f} s for {total} statements",
        "",
        f"**Overall: {passed} of {total} statements pass ({pct(passed, total)}).** "
        f"Median stand-in / Trino time per statement: {fmt_ratio(median_or_none(all_ratios))}.",
        "",
        "`kept` counts a family's mismatches kept on purpose, each for its reason "
        "([below](#differences-kept-and-why)); the rest of its mismatches are work left.",
        "",
        "| family | statements | pass | rate | kept | median time ratio (stand-in / Trino) |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    kept_ids = by_statement(info.differences)
    kept_in: dict[str, int] = {}
    for o in outcomes:
        if not o.passed and o.statement.id in kept_ids:
            kept_in[o.statement.family] = kept_in.get(o.statement.family, 0) + 1
    for family, count, ok, median in rows:
        out.append(f"| {family} | {count} | {ok} | {pct(ok, count)} | "
                   f"{kept_in.get(family, 0) or ''} | {fmt_ratio(median)} |")
    out.append(f"| **all** | **{total}** | **{passed}** | **{pct(passed, total)}** | "
               f"**{sum(kept_in.values())}** | {fmt_ratio(median_or_none(all_ratios))} |")
    out += functions_text(info.missing_functions)
    failing = [o for o in outcomes if not o.passed]
    out += differences_text(failing, info.differences)
    explained = by_statement(info.differences)
    out += ["", f"## Mismatches ({len(failing)})", ""]
    if not failing:
        out.append("None.")
    by_family: dict[str, list[Outcome]] = {}
    for outcome in failing:
        by_family.setdefault(outcome.statement.family, []).append(outcome)
    for family in sorted(by_family, key=lambda f: (-len(by_family[f]), f)):
        members = by_family[family]
        out += [f"### {family} ({len(members)})", ""]
        out += ["| id | statement | why | reason kept | stand-in | Trino |",
                "|---|---|---|---|---|---|"]
        for o in sorted(members, key=lambda o: o.statement.id):
            difference = explained.get(o.statement.id)
            kept = f"[{difference.key}](#{difference.key})" if difference else "**none yet**"
            out.append(
                f"| {o.statement.id.split(':')[1]} | `{md_cell(cut(o.statement.sql))}` | {o.why} | "
                f"{kept} | {md_cell(cut(describe(o.standin)))} | {md_cell(cut(describe(o.trino)))} |"
            )
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def differences_text(failing: list[Outcome], kept: list[Difference]) -> list[str]:
    """The reasons, each with how many of its statements still fail; then how many failing
    statements have no reason yet (work left, or a reason to write)."""
    failing_ids = {o.statement.id for o in failing}
    explained = sum(1 for o in failing if o.statement.id in by_statement(kept))
    out = ["", "## Differences kept, and why", "",
           f"{explained} of the {len(failing)} mismatches below are kept on purpose, each for "
           "the reason given here (tests/parity/differences.toml); "
           f"{len(failing) - explained} have no reason yet: they are work left.", ""]
    for difference in kept:
        still = sum(1 for s in difference.statements if s in failing_ids)
        out += [f"<a id=\"{difference.key}\"></a>**{difference.key}** "
                f"({still} of {len(difference.statements)} statements still differ): "
                f"{difference.reason}", ""]
    return out


def median_or_none(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f} %" if whole else "–"


def fmt_ratio(ratio: float | None) -> str:
    return "–" if ratio is None else f"{ratio:.2f}"
