//! TestRowPatternMatching.testPatternQuantifiers: every quantifier, greedy and reluctant, over
//! `90, 80, 70, 70` with `B AS B.value <= PREV(B.value)` (true on rows 2 to 4).

use super::{Case, falls_or_stays};

/// (pattern, Trino's output).
const QUANTIFIED: &[(&str, &str)] = &[
    ("B*", "1/1/- 2/2/B 3/2/B 4/2/B"),
    ("B*?", "1/1/- 2/2/- 3/3/- 4/4/-"),
    ("B+", "2/1/B 3/1/B 4/1/B"),
    ("B+?", "2/1/B 3/2/B 4/3/B"),
    ("B?", "1/1/- 2/2/B 3/3/B 4/4/B"),
    ("B??", "1/1/- 2/2/- 3/3/- 4/4/-"),
    ("B{,}", "1/1/- 2/2/B 3/2/B 4/2/B"),
    ("B{,}?", "1/1/- 2/2/- 3/3/- 4/4/-"),
    ("B{1,}", "2/1/B 3/1/B 4/1/B"),
    ("B{1,}?", "2/1/B 3/2/B 4/3/B"),
    ("B{2,}", "2/1/B 3/1/B 4/1/B"),
    ("B{2,}?", "2/1/B 3/1/B"),
    ("B{5,}", ""),
    ("B{5,}?", ""),
    ("B{,1}", "1/1/- 2/2/B 3/3/B 4/4/B"),
    ("B{,1}?", "1/1/- 2/2/- 3/3/- 4/4/-"),
    ("B{,2}", "1/1/- 2/2/B 3/2/B 4/3/B"),
    ("B{,2}?", "1/1/- 2/2/- 3/3/- 4/4/-"),
    ("B{,5}", "1/1/- 2/2/B 3/2/B 4/2/B"),
    ("B{,5}?", "1/1/- 2/2/- 3/3/- 4/4/-"),
    ("B{1,1}", "2/1/B 3/2/B 4/3/B"),
    ("B{1,1}?", "2/1/B 3/2/B 4/3/B"),
    ("B{1,5}", "2/1/B 3/1/B 4/1/B"),
    ("B{1,5}?", "2/1/B 3/2/B 4/3/B"),
    ("B{5,7}", ""),
    ("B{5,7}?", ""),
    ("B{1}", "2/1/B 3/2/B 4/3/B"),
    ("B{1}?", "2/1/B 3/2/B 4/3/B"),
    ("B{2}", "2/1/B 3/1/B"),
    ("B{2}?", "2/1/B 3/1/B"),
    ("B{5}", ""),
    ("B{5}?", ""),
];

#[test]
fn greedy_and_reluctant_quantifiers() {
    for (pattern, expected) in QUANTIFIED {
        let case = Case::new(&[90, 80, 70, 70], pattern)
            .define("B", falls_or_stays)
            .all_rows();
        assert_eq!(case.all_rows_output(), *expected, "PATTERN ({pattern})");
    }
}

/// Greedy versus reluctant inside a longer pattern: `A+ B` against `A+? B`, where every row
/// could be A and only the value 0 can be B.
#[test]
fn reluctant_stops_at_the_first_way_to_go_on() {
    let values = [1, 2, 0, 3, 0];
    let greedy = Case::new(&values, "A+ B")
        .define("B", |row| row.value() == 0)
        .all_rows();
    assert_eq!(greedy.all_rows_output(), "1/1/A 2/1/A 3/1/A 4/1/A 5/1/B");
    let reluctant = Case::new(&values, "A+? B")
        .define("B", |row| row.value() == 0)
        .all_rows();
    assert_eq!(reluctant.all_rows_output(), "1/1/A 2/1/A 3/1/B 4/2/A 5/2/B");
}
