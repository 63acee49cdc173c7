//! Errors from the conditions are passed on; the work is bounded: patterns that would take
//! exponential time by backtracking finish within small budgets, and what cannot (conditions
//! that tell every label sequence apart) fails at the limits instead of running on.

use super::{Case, MatchError, MatchLimits};

/// A condition's error stops the matching and comes back as it was.
#[test]
fn condition_errors_are_passed_on() {
    let case = Case::new(&[3, 2, 0, 1], "A B+").define_fallible("B", |row| {
        if row.value() == 0 {
            return Err("Division by zero".to_owned());
        }
        Ok(10 / row.value() > 0)
    });
    assert_eq!(
        case.error(),
        MatchError::Condition("Division by zero".to_owned())
    );
}

fn small_budget() -> MatchLimits {
    MatchLimits {
        max_threads: 100,
        max_work: 1_000_000,
        ..MatchLimits::default()
    }
}

/// `(A*)*` over 2,000 rows: the empty inner loop ends at once; one match of every row, in
/// linear work.
#[test]
fn nested_star_is_linear() {
    let values = vec![1; 2000];
    let case = Case::new(&values, "(A*)*")
        .define("A", |_| true)
        .limits(MatchLimits {
            max_threads: 10,
            max_work: 100_000,
            ..MatchLimits::default()
        });
    assert_eq!(case.one_row_output(), "1/2000/A");
}

/// `(A | A)* B` over 2,000 rows where B never holds: both alternatives give the same labels,
/// so one thread survives each step; every row starts an attempt that runs to the end, in
/// quadratic work overall, without a match.
#[test]
fn duplicate_alternatives_without_a_match() {
    let values = vec![1; 2000];
    let case = Case::new(&values, "(A | A)* B")
        .define("B", |_| false)
        .limits(MatchLimits {
            max_threads: 10,
            max_work: 40_000_000,
            ..MatchLimits::default()
        })
        .all_rows();
    assert_eq!(case.all_rows_output(), "");
}

/// The same pattern when the last row is B: one match of every row.
#[test]
fn duplicate_alternatives_with_a_match() {
    let mut values = vec![1; 2000];
    values.push(2);
    let case = Case::new(&values, "(A | A)* B")
        .define("A", |row| row.value() == 1)
        .define("B", |row| row.value() == 2)
        .limits(small_budget());
    assert_eq!(case.one_row_output(), "1/2001/B");
}

/// testPotentiallyExponentialMatch: `(A+)+ B` over twenty rows, none of them B.
#[test]
fn nested_plus_without_a_match() {
    let values = vec![1; 20];
    for label_blind in [false, true] {
        let mut case = Case::new(&values, "(A+)+ B")
            .define("A", |row| row.value() == 1)
            .define("B", |row| row.value() == 2)
            .limits(small_budget())
            .all_rows();
        if label_blind {
            case = case.label_blind();
        }
        assert_eq!(case.all_rows_output(), "");
    }
}

/// `(A | B)* C` over 2,000 rows where A and B always hold and C never: when the conditions
/// say nothing about labels, partial matches meeting at an instruction are interchangeable
/// and the work stays quadratic…
#[test]
fn label_blind_alternation_is_polynomial() {
    let values = vec![1; 2000];
    let case = Case::new(&values, "(A | B)* C")
        .define("C", |_| false)
        .label_blind()
        .limits(MatchLimits {
            max_threads: 10,
            max_work: 60_000_000,
            ..MatchLimits::default()
        })
        .all_rows();
    assert_eq!(case.all_rows_output(), "");
}

/// …but when they may look at labels, every label sequence is a different partial match:
/// the matching fails at the thread limit instead of growing exponentially.
#[test]
fn label_sensitive_alternation_hits_the_thread_limit() {
    let values = vec![1; 2000];
    let case = Case::new(&values, "(A | B)* C")
        .define("C", |_| false)
        .limits(MatchLimits {
            max_threads: 1000,
            max_work: 100_000_000,
            ..MatchLimits::default()
        });
    assert_eq!(case.error(), MatchError::TooManyThreads { limit: 1000 });
    assert_eq!(
        case.error().to_string(),
        "Row pattern matching exceeded the limit of 1000 simultaneous partial matches"
    );
}

/// A partition whose matching needs more steps than allowed fails instead of running on.
#[test]
fn work_limit() {
    let values = vec![1; 3000];
    let case = Case::new(&values, "A* B")
        .define("B", |_| false)
        .limits(MatchLimits {
            max_threads: 10,
            max_work: 100_000,
            ..MatchLimits::default()
        });
    assert_eq!(case.error(), MatchError::TooMuchWork { limit: 100_000 });
}

/// An attempt that keeps more labels than allowed (a long match) fails instead of growing.
#[test]
fn stored_labels_limit() {
    let values = vec![1; 3000];
    let case = Case::new(&values, "A+ B")
        .define("B", |_| false)
        .limits(MatchLimits {
            max_stored: 1000,
            ..MatchLimits::default()
        });
    assert_eq!(case.error(), MatchError::TooMuchStored { limit: 1000 });
}
