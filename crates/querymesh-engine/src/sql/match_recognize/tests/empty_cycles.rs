//! TestRowPatternMatching.testEmptyCycle: loops that can match nothing end instead of
//! spinning, quantified anchors included. Over `90, 80, 70, 70` with `B AS B.value <
//! PREV(B.value)` (true on rows 2 and 3).

use super::{Case, falls};

/// (pattern, Trino's output).
const EMPTY_CYCLES: &[(&str, &str)] = &[
    ("()* | B", "1/1/- 2/2/- 3/3/- 4/4/-"),
    ("()+ | B", "1/1/- 2/2/- 3/3/- 4/4/-"),
    ("(){5,} | B", "1/1/- 2/2/- 3/3/- 4/4/-"),
    ("B | ()*", "1/1/- 2/2/B 3/3/B 4/4/-"),
    ("(B ()*)*", "1/1/- 2/2/B 3/2/B 4/3/-"),
    ("(B ()*)*?", "1/1/- 2/2/- 3/3/- 4/4/-"),
    // Quantified anchors.
    ("^* | B", "1/1/- 2/2/- 3/3/- 4/4/-"),
    ("^+ | B", "1/1/- 2/2/B 3/3/B"),
    ("^* A B", "1/1/A 2/1/B"),
    ("$* | B", "1/1/- 2/2/- 3/3/- 4/4/-"),
    ("$+ | B", "2/1/B 3/2/B"),
    ("B A $+", "3/1/B 4/1/A"),
];

#[test]
fn empty_loops_end() {
    for (pattern, expected) in EMPTY_CYCLES {
        let case = Case::new(&[90, 80, 70, 70], pattern)
            .define("B", falls)
            .all_rows();
        assert_eq!(case.all_rows_output(), *expected, "PATTERN ({pattern})");
    }
}

/// Loops of loops that match nothing, in the middle of a pattern: `(A* | B*)* C` and
/// `((A?)*)* C` match the rows they can and end.
#[test]
fn nested_empty_loops_end() {
    for pattern in ["(A* | B*)* C", "((A?)*)* C", "(()|A)* C"] {
        let case = Case::new(&[1, 1, 2], pattern)
            .define("A", |row| row.value() == 1)
            .define("B", |_| false)
            .define("C", |row| row.value() == 2)
            .all_rows();
        assert_eq!(
            case.all_rows_output(),
            "1/1/A 2/1/A 3/1/C",
            "PATTERN ({pattern})"
        );
    }
}
