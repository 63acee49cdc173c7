//! The example of Trino's docs (sql/match-recognize.md): a V-shape over `totalprice`,
//!
//! ```text
//! MEASURES A.totalprice AS starting_price, LAST(B.totalprice) AS bottom_price,
//!          LAST(U.totalprice) AS top_price
//! ONE ROW PER MATCH  AFTER MATCH SKIP PAST LAST ROW  PATTERN (A B+ C+ D+)  SUBSET U = (C, D)
//! DEFINE B AS totalprice < PREV(totalprice),
//!        C AS totalprice > PREV(totalprice) AND totalprice <= A.totalprice,
//!        D AS totalprice > PREV(totalprice)
//! ```
//!
//! over one customer's orders. The union variable U is the caller's: a set of labels, here
//! for the measure and for `AFTER MATCH SKIP TO LAST U`.

use super::{Case, LabelSet, Outcome, falls, rises};

const PRICES: [i64; 15] = [
    100, 90, 80, 85, 95, 105, 110, 50, 40, 60, 45, 70, 60, 65, 75,
];

fn v_shape(pattern: &str) -> Case {
    Case::new(&PRICES, pattern)
        .define("B", falls)
        .define("C", |row| {
            let start = row.value_at(row.last_row_of(&["A"]));
            rises(row) && start.is_some_and(|start| row.value() <= start)
        })
        .define("D", rises)
}

/// (MATCH_NUMBER, starting_price, bottom_price, top_price) of each match.
fn measures(case: &Case) -> Vec<(u64, i64, i64, i64)> {
    let (outcomes, labels) = case.run();
    let label = |name: &str| labels.find(name).expect("a label");
    let union: LabelSet = [label("C"), label("D")].into_iter().collect();
    let price = |row: usize| PRICES[row];
    outcomes
        .expect("matches")
        .iter()
        .filter_map(|outcome| match outcome {
            Outcome::Match(found) => Some(found),
            Outcome::Unmatched { .. } => None,
        })
        .map(|found| {
            let last_of = |wanted: &dyn Fn(super::Label) -> bool| {
                found
                    .assignments()
                    .filter(|(_, l)| wanted(*l))
                    .last()
                    .map(|(row, _)| price(row))
                    .expect("labelled row")
            };
            (
                found.number,
                last_of(&|l| l == label("A")),
                last_of(&|l| l == label("B")),
                last_of(&|l| union.contains(l)),
            )
        })
        .collect()
}

#[test]
fn one_row_per_v_shape() {
    let case = v_shape("A B+ C+ D+");
    assert_eq!(case.one_row_output(), "1/7/D 2/15/D");
    assert_eq!(measures(&case), [(1, 100, 80, 110), (2, 70, 60, 75)]);
}

/// The docs' exclusion variant: `PATTERN (A {- B+ C+ -} D+)` with ALL ROWS PER MATCH outputs
/// the starting row and the rising tail.
#[test]
fn all_rows_without_the_excluded_middle() {
    let case = v_shape("A {- B+ C+ -} D+").all_rows();
    assert_eq!(case.all_rows_output(), "1/1/A 6/1/D 7/1/D 12/2/A 15/2/D");
}

/// `AFTER MATCH SKIP TO LAST U` resumes at the match's last row, where no V starts.
#[test]
fn skip_to_last_of_the_union() {
    let case = v_shape("A B+ C+ D+").skip_to_last(&["C", "D"]);
    assert_eq!(case.one_row_output(), "1/7/D 2/15/D");
}
