//! Conditions that depend on the labels already given (TestRowPatternMatching
//! testBackReference, testClassifierFunctionPastCurrentRow, testExponentialMatch): the matcher
//! must keep partial matches with different labels apart.

use super::Case;

/// testBackReference: `X AS value = A.value` needs the earlier row labelled A.
#[test]
fn back_reference_to_a() {
    let case = Case::new(&[1, 1], "(A | B)* X")
        .define("X", |row| {
            row.value_at(row.last_row_of(&["A"])) == Some(row.value())
        })
        .all_rows();
    assert_eq!(case.all_rows_output(), "1/1/A 2/1/X");
}

/// testBackReference: the same with B, which is the less preferred alternative.
#[test]
fn back_reference_to_b() {
    let case = Case::new(&[1, 1], "(A | B)* X")
        .define("X", |row| {
            row.value_at(row.last_row_of(&["B"])) == Some(row.value())
        })
        .all_rows();
    assert_eq!(case.all_rows_output(), "1/1/B 2/1/X");
}

/// testBackReference: `X AS value = PREV(LAST(A.value), 3) + FIRST(A.value) +
/// PREV(LAST(B.value), 2)`.
#[test]
fn back_reference_through_navigation() {
    let case = Case::new(&[1, 2, 3, 4, 5, 6], "(A | B)* X")
        .define("X", |row| {
            let prev_last_a = row.value_at(row.last_row_of(&["A"]).and_then(|r| r.checked_sub(3)));
            let first_a = row.value_at(row.first_row_of(&["A"]));
            let prev_last_b = row.value_at(row.last_row_of(&["B"]).and_then(|r| r.checked_sub(2)));
            match (prev_last_a, first_a, prev_last_b) {
                (Some(a), Some(b), Some(c)) => row.value() == a + b + c,
                _ => false,
            }
        })
        .all_rows();
    assert_eq!(
        case.all_rows_output(),
        "1/1/B 2/1/A 3/1/A 4/1/A 5/1/B 6/1/X"
    );
}

/// testBackReference: `X AS PREV(CLASSIFIER(U), 1) = 'A' AND LAST(CLASSIFIER(), 3) = 'B' AND
/// FIRST(CLASSIFIER(U)) = 'B'` with `SUBSET U = (A, B)`: conditions over labels only.
#[test]
fn back_reference_to_classifiers() {
    let case = Case::new(&[1, 2, 3, 4, 5], "(A | B)* X $")
        .define("X", |row| {
            let union = ["A", "B"];
            let prev_of_last_u = row.last_row_of(&union).and_then(|r| r.checked_sub(1));
            let three_back = row.row().checked_sub(3);
            row.classifier_at(prev_of_last_u) == Some("A")
                && row.classifier_at(three_back) == Some("B")
                && row.classifier_at(row.first_row_of(&union)) == Some("B")
        })
        .all_rows();
    assert_eq!(case.all_rows_output(), "1/1/B 2/1/B 3/1/A 4/1/A 5/1/X");
}

/// testClassifierFunctionPastCurrentRow: in DEFINE no row after the current one is labelled,
/// so `NEXT(CLASSIFIER()) = 'A'` is never true.
#[test]
fn no_label_past_the_current_row() {
    let case = Case::new(&[90, 80, 70, 80], "A+")
        .define("A", |row| {
            row.classifier_at(Some(row.row() + 1)) == Some("A")
        })
        .all_rows();
    assert_eq!(case.all_rows_output(), "");
}

/// testExponentialMatch: the only match, `B B B B B B B B LAST`, is the last of over 2^9
/// label sequences tried.
#[test]
fn exponential_match_is_found() {
    let case = Case::new(&[1, 2, 3, 4, 5, 6, 7, 8, 9], "(A | B)+ LAST")
        .define("LAST", |row| {
            (0..8).all(|offset| row.classifier_at(Some(row.match_start() + offset)) == Some("B"))
        })
        .all_rows();
    assert_eq!(
        case.all_rows_output(),
        "1/1/B 2/1/B 3/1/B 4/1/B 5/1/B 6/1/B 7/1/B 8/1/B 9/1/LAST"
    );
}

/// MATCH_NUMBER() in a condition: the number the match would get, empty matches counted.
#[test]
fn match_number_in_a_condition() {
    let odd = |row: &super::Row<'_>| row.match_number() % 2 == 1;
    let shown = Case::new(&[1, 2, 3, 4], "A?").define("A", odd).all_rows();
    assert_eq!(shown.all_rows_output(), "1/1/A 2/2/- 3/3/A 4/4/-");
    let omitted = Case::new(&[1, 2, 3, 4], "A?")
        .define("A", odd)
        .rows_per_match(super::RowsPerMatch::AllRowsOmitEmptyMatches);
    assert_eq!(omitted.all_rows_output(), "1/1/A 3/3/A");
}

/// A back reference over 60 rows: `X AS value = A.value + 1` after `(A | B)*`. Keeping every
/// label sequence apart is exponential and hits the thread limit; pruning as Trino's
/// ThreadEquivalence would (X, still reachable, looks only at the last row labelled A: partial
/// matches with the same last A are interchangeable) finds the preferred match, all A then X.
#[test]
fn back_reference_with_pruning_by_the_navigated_row() {
    let mut values = vec![1; 59];
    values.push(2);
    let case = || {
        Case::new(&values, "(A | B)* X")
            .define("X", |row| {
                row.value_at(row.last_row_of(&["A"])).map(|a| a + 1) == Some(row.value())
            })
            .limits(super::MatchLimits {
                max_threads: 2000,
                ..super::MatchLimits::default()
            })
    };
    assert_eq!(
        case().error(),
        super::MatchError::TooManyThreads { limit: 2000 }
    );
    let pruned = case().pruning(|first, second, upcoming, labels| {
        let Some(x) = labels.find("X") else {
            return false;
        };
        let Some(a) = labels.find("A") else {
            return false;
        };
        let last_a = |partial: &super::PartialMatch<'_>| {
            partial.labels().iter().rposition(|label| *label == a)
        };
        !upcoming.labels().contains(x) || last_a(first) == last_a(second)
    });
    assert_eq!(pruned.one_row_output(), "1/60/X");
}
