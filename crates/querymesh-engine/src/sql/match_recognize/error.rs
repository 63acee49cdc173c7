//! What can go wrong: a pattern Trino refuses ([`PatternError`], at analysis) and a matching
//! that fails ([`MatchError`], at execution).

use std::fmt;

/// A pattern refused: its text does not parse, or Trino's analysis rejects it. The message is
/// Trino's where Trino has one; `offset` is the byte in the pattern's text it points at, for
/// the caller to turn into the statement's `line L:C`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternError {
    pub message: String,
    pub offset: Option<usize>,
    pub kind: PatternErrorKind,
}

/// Which of Trino's error codes a [`PatternError`] stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PatternErrorKind {
    /// SYNTAX_ERROR: the parser's.
    Syntax,
    /// NUMERIC_VALUE_OUT_OF_RANGE: a quantifier bound out of range.
    NumericValueOutOfRange,
    /// INVALID_RANGE: a quantifier's lower bound above its upper one.
    InvalidRange,
    /// INVALID_ROW_PATTERN: exclusion with `WITH UNMATCHED ROWS`.
    InvalidRowPattern,
    /// The stand-in's own bound on what a pattern may compile to (Trino has only its memory).
    TooLarge,
}

impl PatternError {
    pub(super) fn new(kind: PatternErrorKind, message: impl Into<String>, offset: usize) -> Self {
        Self {
            message: message.into(),
            offset: Some(offset),
            kind,
        }
    }

    pub(super) fn syntax(message: impl Into<String>, offset: usize) -> Self {
        Self::new(PatternErrorKind::Syntax, message, offset)
    }

    pub(super) fn too_large(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            offset: None,
            kind: PatternErrorKind::TooLarge,
        }
    }
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for PatternError {}

/// Trino's message (GENERIC_USER_ERROR) when `AFTER MATCH SKIP TO [FIRST | LAST] x` names a
/// variable no row of the match has (PatternRecognitionPartition.skipAfterMatch).
pub const SKIP_TARGET_ABSENT: &str =
    "AFTER MATCH SKIP failed: pattern variable is not present in match";

/// Trino's message (GENERIC_USER_ERROR) when `AFTER MATCH SKIP TO …` would resume at the
/// match's first row, and so loop for ever.
pub const SKIP_TO_FIRST_ROW: &str = "AFTER MATCH SKIP failed: cannot skip to first row of match";

/// A partition's matching failed. `E` is the label conditions' own error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatchError<E> {
    /// A DEFINE condition failed (a division by zero, say): passed on as it came.
    Condition(E),
    /// [`SKIP_TARGET_ABSENT`]; `match_number` is the match that raised it.
    SkipTargetAbsent { match_number: u64 },
    /// [`SKIP_TO_FIRST_ROW`].
    SkipToFirstRow { match_number: u64 },
    /// More partial matches alive at once than [`super::MatchLimits::max_threads`]: the
    /// pattern and conditions branch exponentially.
    TooManyThreads { limit: usize },
    /// More steps than [`super::MatchLimits::max_work`] in one partition.
    TooMuchWork { limit: u64 },
    /// More labels and saves kept than [`super::MatchLimits::max_stored`] in one attempt.
    TooMuchStored { limit: usize },
}

impl<E: fmt::Display> fmt::Display for MatchError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::Condition(error) => write!(f, "{error}"),
            MatchError::SkipTargetAbsent { .. } => f.write_str(SKIP_TARGET_ABSENT),
            MatchError::SkipToFirstRow { .. } => f.write_str(SKIP_TO_FIRST_ROW),
            MatchError::TooManyThreads { limit } => write!(
                f,
                "Row pattern matching exceeded the limit of {limit} simultaneous partial matches"
            ),
            MatchError::TooMuchWork { limit } => write!(
                f,
                "Row pattern matching exceeded the limit of {limit} steps in one partition"
            ),
            MatchError::TooMuchStored { limit } => write!(
                f,
                "Row pattern matching exceeded the limit of {limit} labels stored for one match"
            ),
        }
    }
}

impl<E: fmt::Debug + fmt::Display> std::error::Error for MatchError<E> {}
