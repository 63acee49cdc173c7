//! TestRowPatternMatching.testAfterMatchSkip (and testSubqueries' SKIP TO NEXT ROW): where
//! matching resumes, and Trino's two errors. Over `90, 80, 70, 80, 70, 80` with `PATTERN (A B+
//! C+ D?)`, `SUBSET U = (C, D)`, `B AS B.value < PREV(B.value)`, `C AS C.value >
//! PREV(C.value)`, `D AS false`.

use super::{AfterMatchSkip, Case, MatchError, falls, rises};
use crate::sql::match_recognize::{SKIP_TARGET_ABSENT, SKIP_TO_FIRST_ROW};

fn case() -> Case {
    Case::new(&[90, 80, 70, 80, 70, 80], "A B+ C+ D?")
        .define("B", falls)
        .define("C", rises)
        .define("D", |_| false)
        .all_rows()
}

#[test]
fn past_last_row() {
    let expected = "1/1/A 2/1/B 3/1/B 4/1/C";
    assert_eq!(case().all_rows_output(), expected);
    assert_eq!(
        case().skip(AfterMatchSkip::PastLastRow).all_rows_output(),
        expected
    );
}

/// Resumes at row 2: two more matches, at rows 2 and 4.
#[test]
fn to_next_row() {
    assert_eq!(
        case().skip(AfterMatchSkip::ToNextRow).all_rows_output(),
        "1/1/A 2/1/B 3/1/B 4/1/C 2/2/A 3/2/B 4/2/C 4/3/A 5/3/B 6/3/C"
    );
}

/// TO FIRST C resumes at row 4; TO LAST B (also written TO B) at row 3, where no match
/// starts, then at row 4; TO U (LAST of C or D) at row 4.
#[test]
fn to_first_and_last_of_a_variable() {
    let expected = "1/1/A 2/1/B 3/1/B 4/1/C 4/2/A 5/2/B 6/2/C";
    assert_eq!(case().skip_to_first(&["C"]).all_rows_output(), expected);
    assert_eq!(case().skip_to_last(&["B"]).all_rows_output(), expected);
    assert_eq!(case().skip_to_last(&["C", "D"]).all_rows_output(), expected);
}

/// TO FIRST of a union: the first row labelled with any of its variables.
#[test]
fn to_first_of_a_union() {
    // The first B or C of the first match is row 2, of the second row 3 (where no match
    // starts: B+ needs a fall).
    assert_eq!(
        case().skip_to_first(&["B", "C"]).all_rows_output(),
        "1/1/A 2/1/B 3/1/B 4/1/C 2/2/A 3/2/B 4/2/C 4/3/A 5/3/B 6/3/C"
    );
}

/// Skipping to the match's first row would loop for ever: Trino fails.
#[test]
fn skip_to_the_first_row_fails() {
    let error = case().skip_to_last(&["A"]).error();
    assert_eq!(error, MatchError::SkipToFirstRow { match_number: 1 });
    assert_eq!(error.to_string(), SKIP_TO_FIRST_ROW);
    assert_eq!(
        error.to_string(),
        "AFTER MATCH SKIP failed: cannot skip to first row of match"
    );
    assert_eq!(
        case().skip_to_first(&["A"]).error(),
        MatchError::SkipToFirstRow { match_number: 1 }
    );
}

/// Skipping to a variable the match does not have fails.
#[test]
fn skip_to_an_absent_variable_fails() {
    let error = case().skip_to_last(&["D"]).error();
    assert_eq!(error, MatchError::SkipTargetAbsent { match_number: 1 });
    assert_eq!(
        error.to_string(),
        "AFTER MATCH SKIP failed: pattern variable is not present in match"
    );
    assert_eq!(error.to_string(), SKIP_TARGET_ABSENT);
    assert_eq!(
        case().skip_to_first(&["D"]).error(),
        MatchError::SkipTargetAbsent { match_number: 1 }
    );
}

/// The errors come only with a match: without one there is nothing to skip from.
#[test]
fn no_skip_error_without_a_match() {
    let case = Case::new(&[1, 2, 3], "A B")
        .define("B", |_| false)
        .skip_to_first(&["A"])
        .all_rows();
    assert_eq!(case.all_rows_output(), "");
}

/// An empty match resumes at the next row whatever the skip mode: no skip error.
#[test]
fn empty_matches_never_skip() {
    let case = Case::new(&[1, 2], "A*")
        .define("A", |_| false)
        .skip_to_first(&["A"])
        .all_rows();
    assert_eq!(case.all_rows_output(), "1/1/- 2/2/-");
}

/// testSubqueries: ONE ROW PER MATCH with SKIP TO NEXT ROW and `A+`, A always true: a match
/// from every row to the end.
#[test]
fn to_next_row_with_one_row_per_match() {
    let case = Case::new(&[100, 200, 300, 400], "A+")
        .define("A", |_| true)
        .skip(AfterMatchSkip::ToNextRow);
    assert_eq!(case.one_row_output(), "1/4/A 2/4/A 3/4/A 4/4/A");
}
