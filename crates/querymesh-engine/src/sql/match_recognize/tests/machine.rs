//! TestPatternMatchingMachine: one attempt from the first row over rows that are letters,
//! label X holding exactly on the rows that are the letter X. Checks the labels of the match
//! and its exclusions (Trino's captures: the saved positions, in pairs).

use crate::sql::match_recognize::{
    Label, LabelConditions, MatchLimits, PartialMatch, PatternLabels, Program, match_at,
    parse_pattern,
};

struct Letters {
    input: Vec<char>,
    labels: PatternLabels,
}

impl LabelConditions for Letters {
    type Error = String;

    fn holds(&mut self, row: usize, label: Label, _: &PartialMatch<'_>) -> Result<bool, String> {
        let letter = self.input.get(row).map(char::to_string);
        Ok(letter.as_deref() == self.labels.name(label))
    }
}

/// The labels of the match from row 0 as letters, and its captures; `None` without a match.
fn run(pattern: &str, input: &str) -> Option<(String, Vec<usize>)> {
    let mut labels = PatternLabels::new(["A", "B", "C", "D", "E"]);
    let pattern = parse_pattern(pattern, &mut labels).expect("parses");
    let program = Program::compile(&pattern).expect("compiles");
    let mut letters = Letters {
        input: input.chars().collect(),
        labels,
    };
    let found = match_at(
        &program,
        input.len(),
        0,
        1,
        &MatchLimits::default(),
        &mut letters,
    )
    .expect("runs")?;
    let text = found
        .labels
        .iter()
        .map(|label| letters.labels.name(*label).unwrap_or("?"))
        .collect();
    let captures = found
        .excluded
        .iter()
        .flat_map(|range| [range.start, range.end])
        .collect();
    Some((text, captures))
}

fn captures(pattern: &str, input: &str) -> Vec<usize> {
    run(pattern, input).expect("a match").1
}

fn labels(pattern: &str, input: &str) -> String {
    run(pattern, input).expect("a match").0
}

/// testCaptures
#[test]
fn captures_of_exclusions() {
    assert_eq!(captures("{- A -} B", "ABCD"), [0, 1]);
    assert_eq!(captures("{- A B -}", "ABCD"), [0, 2]);
    assert_eq!(captures("A {- B -}", "ABCD"), [1, 2]);
    assert_eq!(captures("A {- B -}*", "ABBBCD"), [1, 2, 2, 3, 3, 4]);
    assert_eq!(captures("A {- B* -}", "ABBBCD"), [1, 4]);
    assert_eq!(
        captures("A {- B -}* C {- D* -}", "ABBCDDDE"),
        [1, 2, 2, 3, 4, 7]
    );
    assert_eq!(
        captures("A ({- B C -} D {- E -})*", "ABCDEBCDEBCDE"),
        [1, 3, 4, 5, 5, 7, 8, 9, 9, 11, 12, 13]
    );
}

/// testMatchWithoutCaptures, testEmptyMatch, testNoMatch
#[test]
fn matches_without_captures() {
    assert_eq!(captures("A B", "ABCD"), Vec::<usize>::new());
    assert_eq!(run("()", "ABCD"), Some((String::new(), Vec::new())));
    assert_eq!(run("A", "B"), None);
}

/// testLabels
#[test]
fn labels_of_the_preferred_match() {
    assert_eq!(labels("A B", "ABCD"), "AB");
    assert_eq!(labels("A* B", "AABCD"), "AAB");
    assert_eq!(labels("A* B", "BCD"), "B");
    assert_eq!(labels("^ A B", "ABCD"), "AB");
    assert_eq!(labels("A B $", "AB"), "AB");
    assert_eq!(labels("{- A -} B", "ABCD"), "AB");
    assert_eq!(labels("A B | B C", "ABCD"), "AB");
    assert_eq!(labels("PERMUTE(A, B, C)", "ABCD"), "ABC");
    assert_eq!(labels("A B?", "ABCD"), "AB");
    assert_eq!(labels("A B??", "ABCD"), "A");
}

/// testLongMatch: a long greedy match, and `^(A+)+$` against A… B, which backtracking would
/// take exponential time to reject.
#[test]
fn long_matches() {
    assert_eq!(labels("A*", "AAAAAAAAAA"), "AAAAAAAAAA");
    let input = format!("{}B", "A".repeat(41));
    assert_eq!(run("^ (A+)+ $", &input), None);
}

/// PERMUTE tries its orders lexicographically: B C A is the first of A B C's orders that
/// matches `BCA`; with every order possible the first wins.
#[test]
fn permutation_orders() {
    assert_eq!(labels("PERMUTE(A, B, C)", "BCA"), "BCA");
    assert_eq!(labels("PERMUTE(A, B, C)", "CBA"), "CBA");
    assert_eq!(labels("PERMUTE(A, B | C)", "CA"), "CA");
    assert_eq!(run("PERMUTE(A, B, C)", "ABA"), None);
}
