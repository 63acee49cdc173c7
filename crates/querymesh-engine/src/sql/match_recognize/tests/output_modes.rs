//! TestRowPatternMatching.testOutputModes and testEmptyMatches: what each ROWS PER MATCH
//! option outputs for matches, empty matches and unmatched rows. Over `90, 80, 70, 70` with
//! `B AS B.value < PREV(B.value)` (true on rows 2 and 3).

use super::{AfterMatchSkip, Case, RowsPerMatch, falls};

fn case(pattern: &str, rows_per_match: RowsPerMatch) -> Case {
    Case::new(&[90, 80, 70, 70], pattern)
        .define("B", falls)
        .rows_per_match(rows_per_match)
}

/// ONE ROW PER MATCH (the default) shows empty matches and omits unmatched rows.
#[test]
fn one_row_per_match() {
    assert_eq!(
        case("B*", RowsPerMatch::OneRow).one_row_output(),
        "1/-/- 2/3/B 3/-/-"
    );
    assert_eq!(
        case("B*", RowsPerMatch::default()).one_row_output(),
        "1/-/- 2/3/B 3/-/-"
    );
    assert_eq!(case("B+", RowsPerMatch::OneRow).one_row_output(), "1/3/B");
}

/// ALL ROWS PER MATCH [SHOW EMPTY MATCHES]: a row per matched row, one per empty match.
#[test]
fn all_rows_show_empty_matches() {
    let show = RowsPerMatch::AllRowsShowEmptyMatches;
    assert_eq!(
        case("B*", show).all_rows_output(),
        "1/1/- 2/2/B 3/2/B 4/3/-"
    );
    assert_eq!(case("B+", show).all_rows_output(), "2/1/B 3/1/B");
}

/// OMIT EMPTY MATCHES: empty matches output nothing but are still numbered.
#[test]
fn all_rows_omit_empty_matches() {
    let omit = RowsPerMatch::AllRowsOmitEmptyMatches;
    assert_eq!(case("B*", omit).all_rows_output(), "2/2/B 3/2/B");
    assert_eq!(case("B+", omit).all_rows_output(), "2/1/B 3/1/B");
}

/// WITH UNMATCHED ROWS: a row, without a match number, for each row in no match.
#[test]
fn all_rows_with_unmatched_rows() {
    let with_unmatched = RowsPerMatch::AllRowsWithUnmatchedRows;
    assert_eq!(
        case("B+", with_unmatched).all_rows_output(),
        "1/-/- 2/1/B 3/1/B 4/-/-"
    );
    // Empty matches are shown as matches, not as unmatched rows.
    assert_eq!(
        case("B*", with_unmatched).all_rows_output(),
        "1/1/- 2/2/B 3/2/B 4/3/-"
    );
}

/// testEmptyMatches: with SKIP TO NEXT ROW, rows 4 and 5 start no match, but are not
/// unmatched rows: an earlier match covers them.
#[test]
fn rows_inside_an_earlier_match_are_not_unmatched() {
    let case = Case::new(&[100, 100, 90, 80, 70, 100], "A B{2}")
        .define("B", falls)
        .rows_per_match(RowsPerMatch::AllRowsWithUnmatchedRows)
        .skip(AfterMatchSkip::ToNextRow);
    assert_eq!(
        case.all_rows_output(),
        "1/-/- 2/1/A 3/1/B 4/1/B 3/2/A 4/2/B 5/2/B 6/-/-"
    );
}

/// The docs: WITH UNMATCHED ROWS and SKIP PAST LAST ROW give exactly one row per input row.
#[test]
fn one_output_row_per_input_row() {
    let case = Case::new(&[5, 4, 3, 6, 7, 2, 8], "B+")
        .define("B", falls)
        .rows_per_match(RowsPerMatch::AllRowsWithUnmatchedRows);
    assert_eq!(
        case.all_rows_output(),
        "1/-/- 2/1/B 3/1/B 4/-/- 5/-/- 6/2/B 7/-/-"
    );
}
