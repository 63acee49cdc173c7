//! MATCH_RECOGNIZE's row pattern matching, with Trino's semantics (docs
//! sql/match-recognize.md): the pattern, parsed and compiled, and the matcher that finds a
//! partition's matches given the DEFINE conditions. No SQL here: the analysis parses the
//! clause, evaluates the conditions and measures, and builds the output rows.
//!
//! # Layout
//!
//! - `pattern`: the row pattern as a tree ([`RowPattern`]), its labels ([`PatternLabels`]);
//!   `label_set`: a set of labels ([`LabelSet`], a `SUBSET` union or a skip target).
//! - `lexer` and `parse`: the text inside `PATTERN ( … )` into a tree ([`parse_pattern`]), with
//!   Trino's messages for what it refuses ([`PatternError`], in `error`).
//! - `normalize` and `program`: Trino's rewrites of the tree, then its compilation into a
//!   [`Program`] of splits, jumps, saves, anchors and labels, whose layout is the preference.
//! - `conditions`: what the matcher asks of DEFINE ([`LabelConditions`]) about a match in
//!   progress ([`PartialMatch`]); `trail`: the labels and saves threads share.
//! - `matcher`: one attempt from one row, threads in preference order (Trino's Matcher);
//!   `partition`: every attempt of a partition, match numbers, `AFTER MATCH SKIP` and `ROWS
//!   PER MATCH` ([`match_partition`]).
//!
//! A pattern goes `parse_pattern` → [`Program::compile`] → [`match_partition`], once per
//! partition, with conditions that can see the partition's rows.

mod conditions;
mod error;
mod label_set;
mod lexer;
mod matcher;
mod normalize;
mod parse;
mod partition;
mod pattern;
mod program;
mod trail;

#[cfg(test)]
mod tests;

pub use conditions::{LabelConditions, PartialMatch, UpcomingLabels};
pub use error::{
    MatchError, PatternError, PatternErrorKind, SKIP_TARGET_ABSENT, SKIP_TO_FIRST_ROW,
};
pub use label_set::LabelSet;
pub use parse::{MAX_NESTING, parse_pattern};
pub use partition::{
    AfterMatchSkip, Match, MatchLimits, MatchOptions, Outcome, RowsPerMatch, check_exclusions,
    match_at, match_partition,
};
pub use pattern::{Anchor, Label, PatternLabels, Quantifier, RowPattern, canonical_name};
pub use program::{Instruction, MAX_INSTRUCTIONS, Program};
