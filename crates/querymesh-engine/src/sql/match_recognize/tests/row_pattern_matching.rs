//! TestRowPatternMatching (trinodb/trino core/trino-main/src/test/java/io/trino/sql/query):
//! the basic pattern forms, labels and partitions.

use super::{Case, falls, falls_or_stays, rises, stays};

/// testSimpleQuery: `A B+ C+` over a V-shaped series finds two matches.
#[test]
fn simple_query() {
    let case = Case::new(&[90, 80, 70, 80, 90, 50, 40, 60], "A B+ C+")
        .define("B", falls)
        .define("C", rises)
        .all_rows();
    assert_eq!(
        case.all_rows_output(),
        "1/1/A 2/1/B 3/1/B 4/1/C 5/1/C 6/2/A 7/2/B 8/2/C"
    );
}

const FOUR_ROWS: [i64; 4] = [90, 80, 70, 70];

/// testRowPattern: each form of row pattern over `90, 80, 70, 70`.
#[test]
fn row_pattern_forms() {
    let case = |pattern: &str| {
        Case::new(&FOUR_ROWS, pattern)
            .define("A", |_| true)
            .all_rows()
    };
    // The empty pattern, in the preferred branch, wins at every row.
    assert_eq!(case("() | A").all_rows_output(), "1/1/- 2/2/- 3/3/- 4/4/-");
    // Anchors.
    assert_eq!(case("^A").all_rows_output(), "1/1/A");
    assert_eq!(case("A^").all_rows_output(), "");
    assert_eq!(case("^A^").all_rows_output(), "");
    assert_eq!(case("A$").all_rows_output(), "4/1/A");
    assert_eq!(case("$A").all_rows_output(), "");
    assert_eq!(case("$A$").all_rows_output(), "");
}

/// testRowPattern: concatenation and grouping.
#[test]
fn concatenation_and_grouping() {
    for pattern in ["A B C", "((A) (B (C)))"] {
        let case = Case::new(&FOUR_ROWS, pattern)
            .define("B", falls)
            .define("C", stays)
            .all_rows();
        assert_eq!(case.all_rows_output(), "2/1/A 3/1/B 4/1/C", "{pattern}");
    }
}

/// testRowPattern: of the alternatives that match, the first declared wins.
#[test]
fn alternation_prefers_the_left() {
    let case = Case::new(&FOUR_ROWS, "B | C | A")
        .define("B", falls)
        .define("C", falls_or_stays)
        .all_rows();
    assert_eq!(case.all_rows_output(), "1/1/A 2/2/B 3/3/B 4/4/C");
}

/// testRowPattern: of the permutations that match, the first in lexicographic order wins.
#[test]
fn permutation_prefers_lexicographic_order() {
    let case = Case::new(&FOUR_ROWS, "PERMUTE(B, C)")
        .define("B", falls)
        .define("C", falls)
        .all_rows();
    assert_eq!(case.all_rows_output(), "2/1/B 3/1/C");
}

/// testUnionVariable: `(L | H) A`, the label decided by the value.
#[test]
fn alternation_decided_by_conditions() {
    let case = Case::new(&[90, 80, 70, 80], "(L | H) A")
        .define("A", |row| row.value() == 80)
        .define("L", |row| row.value() < 80)
        .define("H", |row| row.value() > 80)
        .all_rows();
    assert_eq!(case.all_rows_output(), "1/1/H 2/1/A 3/2/L 4/2/A");
}

/// testCaseSensitiveLabels: an unquoted label is upper-cased, a quoted one kept.
#[test]
fn case_sensitive_labels() {
    let case = Case::new(&[90, 80, 70, 80], "a \"b\"+ C+")
        .define("b", falls)
        .define("C", rises)
        .all_rows();
    assert_eq!(case.all_rows_output(), "1/1/A 2/1/b 3/1/b 4/1/C");
}

/// testPartitioningAndOrdering: each partition is matched on its own, numbered from 1; an
/// empty partition has no matches.
#[test]
fn partitions_are_matched_apart() {
    let partition = |values: &[i64]| Case::new(values, "B+").define("B", falls).all_rows();
    // p1 ordered by id: 90, 80, 70, 80, 90, 80.
    assert_eq!(
        partition(&[90, 80, 70, 80, 90, 80]).all_rows_output(),
        "2/1/B 3/1/B 6/2/B"
    );
    assert_eq!(partition(&[20, 20, 10]).all_rows_output(), "3/1/B");
    assert_eq!(partition(&[50, 60, 70]).all_rows_output(), "");
    assert_eq!(partition(&[]).all_rows_output(), "");
}

/// testMultipleMatchRecognize: `PATTERN (A)`, A always true: a match per row.
#[test]
fn single_label_matches_every_row() {
    let case = Case::new(&[1, 2, 3], "A").define("A", |_| true).all_rows();
    assert_eq!(case.all_rows_output(), "1/1/A 2/2/A 3/3/A");
}
