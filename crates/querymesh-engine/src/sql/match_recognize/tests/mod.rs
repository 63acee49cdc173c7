//! The matcher against Trino's own tests, each case citing the test it reproduces: the rows are
//! a column of integers (the tests' `value`), the DEFINE conditions closures over them, and the
//! expected output Trino's, written compactly (see [`Case::all_rows_output`] and [`Case::one_row_output`]).
//!
//! - `parse`: the pattern text, Trino's refusals.
//! - `program`: the rewrites and the compiled program (TestIrRowPatternToProgramRewriter).
//! - `machine`: one attempt over rows of letters (TestPatternMatchingMachine).
//! - `row_pattern_matching`: whole partitions (TestRowPatternMatching), in the files
//!   `quantifiers`, `exclusions`, `empty_cycles`, `output_modes`, `skip` and `navigation`.
//! - `docs_example`: the docs' `A B+ C+ D+` query; `bounds`: errors passed on, the limits,
//!   and pathological patterns that must finish fast.

mod bounds;
mod docs_example;
mod empty_cycles;
mod exclusions;
mod machine;
mod navigation;
mod output_modes;
mod parse;
mod program;
mod quantifiers;
mod row_pattern_matching;
mod skip;

use super::{
    AfterMatchSkip, Label, LabelConditions, LabelSet, MatchError, MatchLimits, MatchOptions,
    Outcome, PartialMatch, PatternLabels, Program, RowsPerMatch, UpcomingLabels, match_partition,
    parse_pattern,
};

type Condition = Box<dyn Fn(&Row<'_>) -> Result<bool, String>>;

/// When two partial matches meeting at an instruction are interchangeable (the conditions'
/// side of Trino's ThreadEquivalence).
type Pruning =
    Box<dyn Fn(&PartialMatch<'_>, &PartialMatch<'_>, &UpcomingLabels<'_>, &PatternLabels) -> bool>;

/// A DEFINE condition's view of the row it decides on.
pub(super) struct Row<'a> {
    values: &'a [i64],
    row: usize,
    label: Label,
    so_far: &'a PartialMatch<'a>,
    labels: &'a PatternLabels,
}

impl Row<'_> {
    /// `value`: the current row's.
    pub fn value(&self) -> i64 {
        self.values.get(self.row).copied().unwrap_or_default()
    }

    /// `value` at any row of the partition; null outside it.
    pub fn value_at(&self, row: Option<usize>) -> Option<i64> {
        self.values.get(row?).copied()
    }

    /// `PREV(value)`.
    pub fn prev(&self) -> Option<i64> {
        self.value_at(self.row.checked_sub(1))
    }

    /// The match's rows so far and the current one, with their labels (RUNNING semantics).
    fn running(&self) -> Vec<(usize, Label)> {
        let mut rows: Vec<(usize, Label)> = (self.so_far.start_row()..)
            .zip(self.so_far.labels().iter().copied())
            .collect();
        rows.push((self.row, self.label));
        rows
    }

    fn in_variable(&self, label: Label, variable: &[&str]) -> bool {
        self.labels
            .name(label)
            .is_some_and(|name| variable.contains(&name))
    }

    /// The last row labelled with one of `variable` (`LAST(U.value)`'s row; `A.value` is
    /// `LAST(A.value)`).
    pub fn last_row_of(&self, variable: &[&str]) -> Option<usize> {
        self.running()
            .into_iter()
            .rev()
            .find(|(_, label)| self.in_variable(*label, variable))
            .map(|(row, _)| row)
    }

    /// The first row labelled with one of `variable`.
    pub fn first_row_of(&self, variable: &[&str]) -> Option<usize> {
        self.running()
            .into_iter()
            .find(|(_, label)| self.in_variable(*label, variable))
            .map(|(row, _)| row)
    }

    /// The label of a row of the match so far (the current row's is the one being tried):
    /// `CLASSIFIER()` navigated to `row`; null outside the match or past the current row.
    pub fn classifier_at(&self, row: Option<usize>) -> Option<&str> {
        let row = row?;
        let label = self
            .running()
            .into_iter()
            .find(|(at, _)| *at == row)
            .map(|(_, label)| label)?;
        self.labels.name(label)
    }

    /// The first row of the match so far (`FIRST(CLASSIFIER(), n)` counts from it).
    pub fn match_start(&self) -> usize {
        self.so_far.start_row()
    }

    pub fn row(&self) -> usize {
        self.row
    }

    pub fn match_number(&self) -> u64 {
        self.so_far.match_number()
    }
}

/// `value < PREV(value)`: false when there is no previous row, as a null comparison.
pub(super) fn falls(row: &Row<'_>) -> bool {
    row.prev().is_some_and(|prev| row.value() < prev)
}

/// `value > PREV(value)`.
pub(super) fn rises(row: &Row<'_>) -> bool {
    row.prev().is_some_and(|prev| row.value() > prev)
}

/// `value <= PREV(value)`.
pub(super) fn falls_or_stays(row: &Row<'_>) -> bool {
    row.prev().is_some_and(|prev| row.value() <= prev)
}

/// `value = PREV(value)`.
pub(super) fn stays(row: &Row<'_>) -> bool {
    row.prev() == Some(row.value())
}

/// A partition, a pattern, its DEFINE conditions and the options of one MATCH_RECOGNIZE.
pub(super) struct Case {
    values: Vec<i64>,
    pattern: String,
    labels: PatternLabels,
    conditions: Vec<(String, Condition)>,
    options: MatchOptions,
    /// `None`: partial matches with different labels are never interchangeable.
    pruning: Option<Pruning>,
}

impl Case {
    pub fn new(values: &[i64], pattern: &str) -> Self {
        Self {
            values: values.to_vec(),
            pattern: pattern.to_owned(),
            labels: PatternLabels::default(),
            conditions: Vec::new(),
            options: MatchOptions::default(),
            pruning: None,
        }
    }

    pub fn define(self, name: &str, condition: impl Fn(&Row<'_>) -> bool + 'static) -> Self {
        self.define_fallible(name, move |row| Ok(condition(row)))
    }

    pub fn define_fallible(
        mut self,
        name: &str,
        condition: impl Fn(&Row<'_>) -> Result<bool, String> + 'static,
    ) -> Self {
        self.labels.resolve_or_add(name);
        self.conditions.push((name.to_owned(), Box::new(condition)));
        self
    }

    pub fn rows_per_match(mut self, rows_per_match: RowsPerMatch) -> Self {
        self.options.rows_per_match = rows_per_match;
        self
    }

    pub fn all_rows(self) -> Self {
        self.rows_per_match(RowsPerMatch::AllRowsShowEmptyMatches)
    }

    pub fn skip(mut self, skip: AfterMatchSkip) -> Self {
        self.options.skip = skip;
        self
    }

    /// `AFTER MATCH SKIP TO FIRST (variable)`, a union of these names.
    pub fn skip_to_first(self, variable: &[&str]) -> Self {
        let set = self.label_set(variable);
        self.skip(AfterMatchSkip::ToFirst(set))
    }

    /// `AFTER MATCH SKIP TO [LAST] (variable)`.
    pub fn skip_to_last(self, variable: &[&str]) -> Self {
        let set = self.label_set(variable);
        self.skip(AfterMatchSkip::ToLast(set))
    }

    pub fn limits(mut self, limits: MatchLimits) -> Self {
        self.options.limits = limits;
        self
    }

    /// The conditions never look at labels: partial matches meeting at an instruction are
    /// interchangeable (what Trino's ThreadEquivalence finds for such conditions).
    pub fn label_blind(self) -> Self {
        self.pruning(|_, _, _, _| true)
    }

    pub fn pruning(
        mut self,
        interchangeable: impl Fn(
            &PartialMatch<'_>,
            &PartialMatch<'_>,
            &UpcomingLabels<'_>,
            &PatternLabels,
        ) -> bool
        + 'static,
    ) -> Self {
        self.pruning = Some(Box::new(interchangeable));
        self
    }

    fn label_set(&self, variable: &[&str]) -> LabelSet {
        let mut labels = self.labels.clone();
        variable
            .iter()
            .map(|name| labels.resolve_or_add(name))
            .collect()
    }

    /// The outcomes, and the labels the pattern was parsed with.
    pub fn run(&self) -> (Result<Vec<Outcome>, MatchError<String>>, PatternLabels) {
        let mut labels = self.labels.clone();
        let pattern = parse_pattern(&self.pattern, &mut labels)
            .unwrap_or_else(|error| panic!("pattern {:?}: {error}", self.pattern));
        let program = Program::compile(&pattern).expect("compiles");
        let by_label = (0..labels.len())
            .map(|index| {
                let name = labels.name(Label(index as u32)).unwrap_or_default();
                self.conditions.iter().position(|(n, _)| n == name)
            })
            .collect();
        let mut conditions = Conditions {
            case: self,
            labels: &labels,
            by_label,
        };
        let outcomes = match_partition(self.values.len(), &program, &self.options, &mut conditions);
        (outcomes, labels)
    }

    /// The error the matching fails with.
    pub fn error(&self) -> MatchError<String> {
        match self.run().0 {
            Ok(outcomes) => panic!("expected an error, got {outcomes:?}"),
            Err(error) => error,
        }
    }

    /// `ALL ROWS PER MATCH` output, one `id/match/label` per row: `id` the row's 1-based
    /// number (the tests' `id`), `match` MATCH_NUMBER(), `label` CLASSIFIER(); `-` for null
    /// (an empty match's label, an unmatched row's number and label).
    pub fn all_rows_output(&self) -> String {
        let (outcomes, labels) = self.run();
        let outcomes = outcomes.unwrap_or_else(|error| panic!("matching failed: {error}"));
        let mut rows = Vec::new();
        for outcome in &outcomes {
            match outcome {
                Outcome::Unmatched { row } => rows.push(format!("{}/-/-", row + 1)),
                Outcome::Match(found) if found.is_empty() => {
                    rows.push(format!("{}/{}/-", found.start + 1, found.number))
                }
                Outcome::Match(found) => {
                    for (row, label) in found.output_rows() {
                        let name = labels.name(label).unwrap_or("?");
                        rows.push(format!("{}/{}/{name}", row + 1, found.number));
                    }
                }
            }
        }
        rows.join(" ")
    }

    /// `ONE ROW PER MATCH` output, one `match/last/label` per match: MATCH_NUMBER(), the
    /// 1-based number of its last row and that row's label (`RUNNING LAST(value)` and
    /// `CLASSIFIER()` in Trino's tests); `-` for an empty match's.
    pub fn one_row_output(&self) -> String {
        let (outcomes, labels) = self.run();
        let outcomes = outcomes.unwrap_or_else(|error| panic!("matching failed: {error}"));
        let mut rows = Vec::new();
        for outcome in &outcomes {
            let Outcome::Match(found) = outcome else {
                panic!("ONE ROW PER MATCH outputs no unmatched rows");
            };
            match found.labels.last() {
                None => rows.push(format!("{}/-/-", found.number)),
                Some(label) => rows.push(format!(
                    "{}/{}/{}",
                    found.number,
                    found.end(),
                    labels.name(*label).unwrap_or("?")
                )),
            }
        }
        rows.join(" ")
    }
}

/// The case's closures as the matcher's conditions; a label without one always holds.
struct Conditions<'c> {
    case: &'c Case,
    labels: &'c PatternLabels,
    /// Each label's condition, by its index.
    by_label: Vec<Option<usize>>,
}

impl LabelConditions for Conditions<'_> {
    type Error = String;

    fn holds(
        &mut self,
        row: usize,
        label: Label,
        so_far: &PartialMatch<'_>,
    ) -> Result<bool, String> {
        let condition = self.by_label.get(label.index()).copied().flatten();
        let Some((_, condition)) = condition.and_then(|index| self.case.conditions.get(index))
        else {
            return Ok(true);
        };
        condition(&Row {
            values: &self.case.values,
            row,
            label,
            so_far,
            labels: self.labels,
        })
    }

    fn interchangeable(
        &self,
        first: &PartialMatch<'_>,
        second: &PartialMatch<'_>,
        upcoming: &UpcomingLabels<'_>,
    ) -> bool {
        self.case
            .pruning
            .as_ref()
            .is_some_and(|pruning| pruning(first, second, upcoming, self.labels))
    }
}
