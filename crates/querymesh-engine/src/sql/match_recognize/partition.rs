//! Every match in one partition (Trino's PatternRecognitionPartition, for MATCH_RECOGNIZE):
//! an attempt at each row in order that no earlier match skipped, numbered matches, `AFTER
//! MATCH SKIP` and what `ROWS PER MATCH` keeps (docs sql/match-recognize.md "Rows per match",
//! "After match skip").

use std::ops::Range;

use super::conditions::LabelConditions;
use super::error::{MatchError, PatternError, PatternErrorKind};
use super::label_set::LabelSet;
use super::matcher::{AttemptAt, Budget, Matcher};
use super::pattern::{Label, RowPattern};
use super::program::Program;

/// Where matching resumes after a non-empty match (after an empty match or none it is always
/// the next row).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum AfterMatchSkip {
    /// The default: the row after the match's last.
    #[default]
    PastLastRow,
    /// The match's second row: matches may overlap.
    ToNextRow,
    /// The first row labelled with one of these (a primary variable, or a `SUBSET`'s union).
    ToFirst(LabelSet),
    /// The last row labelled with one of these; `SKIP TO x` means `SKIP TO LAST x`.
    ToLast(LabelSet),
}

/// What a match produces.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RowsPerMatch {
    /// The default: a row per match, empty matches included.
    #[default]
    OneRow,
    /// Every row of a match not excluded, and a row for each empty match.
    AllRowsShowEmptyMatches,
    /// Every row of a match not excluded; empty matches produce nothing (but are numbered).
    AllRowsOmitEmptyMatches,
    /// As `AllRowsShowEmptyMatches`, plus a row for each row in no match.
    AllRowsWithUnmatchedRows,
}

impl RowsPerMatch {
    pub fn shows_empty_matches(self) -> bool {
        self != RowsPerMatch::AllRowsOmitEmptyMatches
    }

    pub fn shows_unmatched_rows(self) -> bool {
        self == RowsPerMatch::AllRowsWithUnmatchedRows
    }
}

/// How much work one partition's matching may do before it fails instead of running on:
/// Trino has only its memory limits, which a pathological pattern reaches after a long time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchLimits {
    /// Partial matches alive at once (Trino's threads).
    pub max_threads: usize,
    /// Steps in one partition: instructions passed, conditions asked, threads compared.
    pub max_work: u64,
    /// Labels and saved positions one attempt keeps for its partial matches (each about 20
    /// bytes; forks share what they had in common).
    pub max_stored: usize,
}

impl Default for MatchLimits {
    fn default() -> Self {
        Self {
            max_threads: 10_000,
            max_work: 200_000_000,
            max_stored: 5_000_000,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MatchOptions {
    pub skip: AfterMatchSkip,
    pub rows_per_match: RowsPerMatch,
    pub limits: MatchLimits,
}

/// One match, empty or not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match {
    /// MATCH_NUMBER(): from 1, counting every match of the partition, empty ones included.
    pub number: u64,
    /// The row the match starts at (for an empty match, the row it is reported at).
    pub start: usize,
    /// The label of each row from `start` on; none for an empty match.
    pub labels: Vec<Label>,
    /// Rows matched inside `{- … -}`: left out of `ALL ROWS PER MATCH`, still part of the
    /// match for MEASURES and for `AFTER MATCH SKIP`.
    pub excluded: Vec<Range<usize>>,
}

impl Match {
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// The row after the last.
    pub fn end(&self) -> usize {
        self.start + self.labels.len()
    }

    pub fn label_of_row(&self, row: usize) -> Option<Label> {
        self.labels.get(row.checked_sub(self.start)?).copied()
    }

    pub fn is_excluded(&self, row: usize) -> bool {
        self.excluded.iter().any(|range| range.contains(&row))
    }

    /// Every row of the match with its label, in order.
    pub fn assignments(&self) -> impl Iterator<Item = (usize, Label)> + '_ {
        (self.start..).zip(self.labels.iter().copied())
    }

    /// The rows `ALL ROWS PER MATCH` outputs for a non-empty match: those not excluded. (An
    /// empty match outputs one row, at `start`, with no label.)
    pub fn output_rows(&self) -> impl Iterator<Item = (usize, Label)> + '_ {
        self.assignments()
            .filter(|(row, _)| !self.is_excluded(*row))
    }
}

/// What one partition produces, in output order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Match(Match),
    /// `WITH UNMATCHED ROWS`: a row no match covers (measures null).
    Unmatched {
        row: usize,
    },
}

/// Finds every match in a partition of `row_count` rows (already ordered), as Trino does: an
/// attempt starts at each row that no earlier match skipped; the first match in preference
/// order wins; the outcomes are what `options.rows_per_match` outputs, in order.
pub fn match_partition<C: LabelConditions>(
    row_count: usize,
    program: &Program,
    options: &MatchOptions,
    conditions: &mut C,
) -> Result<Vec<Outcome>, MatchError<C::Error>> {
    let mut matcher = Matcher::new(program, &options.limits);
    let mut budget = Budget::new(options.limits.max_work);
    let mut outcomes = Vec::new();
    let mut match_number = 1;
    // The first row an attempt may start at.
    let mut resume_at = 0;
    // The rows up to here belong to some non-empty match: never "unmatched".
    let mut matched_until = 0;
    for row in 0..row_count {
        if row < resume_at {
            continue;
        }
        let at = AttemptAt {
            start_row: row,
            row_count,
            match_number,
        };
        let Some(found) = matcher.run(at, conditions, &mut budget)? else {
            if options.rows_per_match.shows_unmatched_rows() && row >= matched_until {
                outcomes.push(Outcome::Unmatched { row });
            }
            resume_at = row + 1;
            continue;
        };
        let found = Match {
            number: match_number,
            start: row,
            labels: found.labels,
            excluded: found.excluded,
        };
        match_number += 1;
        if found.is_empty() {
            resume_at = row + 1;
            if options.rows_per_match.shows_empty_matches() {
                outcomes.push(Outcome::Match(found));
            }
            continue;
        }
        matched_until = matched_until.max(found.end());
        resume_at = resume_after(&found, &options.skip)?;
        outcomes.push(Outcome::Match(found));
    }
    Ok(outcomes)
}

/// The preferred match starting at `start_row` alone, numbered `match_number`, over the rows
/// before `search_end` (the partition's end for MATCH_RECOGNIZE, where `$` matches; a frame's
/// end for a window). `^` matches only when `start_row` is 0, the partition's first row.
pub fn match_at<C: LabelConditions>(
    program: &Program,
    search_end: usize,
    start_row: usize,
    match_number: u64,
    limits: &MatchLimits,
    conditions: &mut C,
) -> Result<Option<Match>, MatchError<C::Error>> {
    let mut matcher = Matcher::new(program, limits);
    let mut budget = Budget::new(limits.max_work);
    let at = AttemptAt {
        start_row,
        row_count: search_end,
        match_number,
    };
    let found = matcher.run(at, conditions, &mut budget)?;
    Ok(found.map(|found| Match {
        number: match_number,
        start: start_row,
        labels: found.labels,
        excluded: found.excluded,
    }))
}

/// The row at which `AFTER MATCH SKIP` resumes matching after `found` (non-empty).
fn resume_after<E>(found: &Match, skip: &AfterMatchSkip) -> Result<usize, MatchError<E>> {
    let target = match skip {
        AfterMatchSkip::PastLastRow => return Ok(found.end()),
        AfterMatchSkip::ToNextRow => return Ok(found.start + 1),
        AfterMatchSkip::ToFirst(set) => found.assignments().find(|(_, label)| set.contains(*label)),
        AfterMatchSkip::ToLast(set) => found
            .assignments()
            .filter(|(_, label)| set.contains(*label))
            .last(),
    };
    match target {
        None => Err(MatchError::SkipTargetAbsent {
            match_number: found.number,
        }),
        Some((row, _)) if row == found.start => Err(MatchError::SkipToFirstRow {
            match_number: found.number,
        }),
        Some((row, _)) => Ok(row),
    }
}

/// Trino's analysis: `{- … -}` cannot go with `ALL ROWS PER MATCH WITH UNMATCHED ROWS`
/// (PatternRecognitionAnalyzer.validatePatternExclusions).
pub fn check_exclusions(
    pattern: &RowPattern,
    rows_per_match: RowsPerMatch,
) -> Result<(), PatternError> {
    if rows_per_match.shows_unmatched_rows() && pattern.has_exclusion() {
        return Err(PatternError {
            message: "Pattern exclusion syntax is not allowed when ALL ROWS PER MATCH WITH UNMATCHED ROWS is specified".to_owned(),
            offset: None,
            kind: PatternErrorKind::InvalidRowPattern,
        });
    }
    Ok(())
}
