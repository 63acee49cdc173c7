//! TestRowPatternMatching.testExclusionSyntax: rows matched inside `{- … -}` are part of the
//! match but not of `ALL ROWS PER MATCH` output. Over `90, 80, 70, 80, 90, 50, 40, 60` with
//! `B AS B.value < PREV(B.value)`, `C AS C.value > PREV(C.value)`.

use super::{Case, RowsPerMatch, falls, rises};
use crate::sql::match_recognize::{PatternLabels, check_exclusions, parse_pattern};

/// (pattern, Trino's output).
const EXCLUDED: &[(&str, &str)] = &[
    // No exclusion: every matched row.
    ("A B+ C+", "1/1/A 2/1/B 3/1/B 4/1/C 5/1/C 6/2/A 7/2/B 8/2/C"),
    ("A {- B+ -} C+", "1/1/A 4/1/C 5/1/C 6/2/A 8/2/C"),
    // Adjacent exclusions.
    ("{- A -} {- B+ -} C+", "4/1/C 5/1/C 8/2/C"),
    // Nested: the outermost decides.
    ("A {- {- B+ -} C+ -}", "1/1/A 6/2/A"),
    // Everything excluded: matches, but nothing to output.
    ("{- A B+ C+ -}", ""),
    // An excluded empty pattern excludes nothing.
    (
        "A B+ {- ()* -} C+",
        "1/1/A 2/1/B 3/1/B 4/1/C 5/1/C 6/2/A 7/2/B 8/2/C",
    ),
    // Quantified exclusions.
    ("A {- B -}+ {- C -}+", "1/1/A 6/2/A"),
    ("A {- B -}* {- C -}*", "1/1/A 6/2/A"),
    ("A {- B -}{1,2} {- C -}{1,2}", "1/1/A 6/2/A"),
    ("A {- C -}{2,3} {- B -}{2,3}", "3/1/A"),
];

#[test]
fn excluded_rows_are_not_output() {
    for (pattern, expected) in EXCLUDED {
        let case = Case::new(&[90, 80, 70, 80, 90, 50, 40, 60], pattern)
            .define("B", falls)
            .define("C", rises)
            .all_rows();
        assert_eq!(case.all_rows_output(), *expected, "PATTERN ({pattern})");
    }
}

/// The excluded rows still count for ONE ROW PER MATCH: the match ends where it ends.
#[test]
fn excluded_rows_stay_in_the_match() {
    let case = Case::new(&[90, 80, 70, 80, 90, 50, 40, 60], "{- A B+ C+ -}")
        .define("B", falls)
        .define("C", rises);
    assert_eq!(case.one_row_output(), "1/5/C 2/8/C");
}

/// PatternRecognitionAnalyzer.validatePatternExclusions: no exclusions with `WITH UNMATCHED
/// ROWS`; other modes allow them.
#[test]
fn exclusions_refused_with_unmatched_rows() {
    let pattern = parse_pattern("A {- B -}", &mut PatternLabels::default()).expect("parses");
    let error =
        check_exclusions(&pattern, RowsPerMatch::AllRowsWithUnmatchedRows).expect_err("refused");
    assert_eq!(
        error.message,
        "Pattern exclusion syntax is not allowed when ALL ROWS PER MATCH WITH UNMATCHED ROWS is specified"
    );
    assert!(check_exclusions(&pattern, RowsPerMatch::AllRowsShowEmptyMatches).is_ok());
    let plain = parse_pattern("A B", &mut PatternLabels::default()).expect("parses");
    assert!(check_exclusions(&plain, RowsPerMatch::AllRowsWithUnmatchedRows).is_ok());
}
