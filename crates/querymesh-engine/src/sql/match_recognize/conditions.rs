//! What the matcher asks of the DEFINE clause: [`LabelConditions`], answered over a
//! [`PartialMatch`] (the labels given to the match's rows so far).

use std::cell::OnceCell;

use super::label_set::LabelSet;
use super::pattern::Label;
use super::program::Program;
use super::trail::{LabelTrail, LabelsId};

/// The DEFINE clause, as the matcher consults it.
pub trait LabelConditions {
    type Error;

    /// Whether `row` may be labelled `label`, the match's earlier rows being labelled as
    /// `so_far` says (`row` is `so_far.current_row()`). A condition may navigate (PREV, NEXT,
    /// FIRST, LAST, `A.value`), aggregate over a label's rows, and call CLASSIFIER and
    /// MATCH_NUMBER, all in RUNNING semantics: `row` counts as labelled `label`, rows after it
    /// as not matched. A label without a DEFINE holds on every row. An error stops the
    /// matching and is passed on.
    fn holds(
        &mut self,
        row: usize,
        label: Label,
        so_far: &PartialMatch<'_>,
    ) -> Result<bool, Self::Error>;

    /// Whether two partial matches that reached the same point of the pattern at the same row,
    /// with different labels, must fare alike from here on: then the later (less preferred)
    /// one is dropped. Trino's ThreadEquivalence answers from what the conditions of the
    /// `upcoming` labels look at (the rows their label-qualified navigations reach, the labels
    /// their CLASSIFIER calls see, the rows their aggregations cover). Answering true wrongly
    /// loses matches; the default, never, is always right but lets patterns like `(A | B)*`
    /// branch exponentially (up to [`super::MatchLimits::max_threads`]). Partial matches with
    /// the same labels are always interchangeable and never asked about.
    fn interchangeable(
        &self,
        first: &PartialMatch<'_>,
        second: &PartialMatch<'_>,
        upcoming: &UpcomingLabels<'_>,
    ) -> bool {
        let _ = (first, second, upcoming);
        false
    }
}

/// A match in progress: which row it started at, and how its rows so far are labelled.
#[derive(Debug)]
pub struct PartialMatch<'a> {
    match_number: u64,
    start_row: usize,
    trail: &'a LabelTrail,
    labels_id: LabelsId,
    /// The labels as a slice, built the first time a condition asks for them: most
    /// conditions never do.
    labels: OnceCell<Vec<Label>>,
}

impl<'a> PartialMatch<'a> {
    pub(super) fn new(
        match_number: u64,
        start_row: usize,
        trail: &'a LabelTrail,
        labels_id: LabelsId,
    ) -> Self {
        Self {
            match_number,
            start_row,
            trail,
            labels_id,
            labels: OnceCell::new(),
        }
    }

    /// MATCH_NUMBER(): the number the match will have if it succeeds.
    pub fn match_number(&self) -> u64 {
        self.match_number
    }

    pub fn start_row(&self) -> usize {
        self.start_row
    }

    /// How many rows are labelled so far.
    pub fn len(&self) -> usize {
        self.trail.len(self.labels_id) as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The row the next label is for.
    pub fn current_row(&self) -> usize {
        self.start_row + self.len()
    }

    /// The labels of rows `start_row()..current_row()`, in order.
    pub fn labels(&self) -> &[Label] {
        self.labels
            .get_or_init(|| self.trail.collect(self.labels_id))
    }

    /// The label of `row`, if the match has labelled it.
    pub fn label_of_row(&self, row: usize) -> Option<Label> {
        let offset = row.checked_sub(self.start_row)?;
        self.labels().get(offset).copied()
    }

    /// The label of the last row labelled so far, without building the slice.
    pub fn last_label(&self) -> Option<Label> {
        self.trail.last(self.labels_id)
    }

    /// Whether both have the same labels (one comparison).
    pub fn same_labels(&self, other: &PartialMatch<'_>) -> bool {
        std::ptr::eq(self.trail, other.trail) && self.labels_id == other.labels_id
            || self.labels() == other.labels()
    }
}

/// The labels that may still be matched from where two partial matches meet, computed when
/// first asked for.
#[derive(Debug)]
pub struct UpcomingLabels<'a> {
    program: &'a Program,
    pointer: usize,
}

impl<'a> UpcomingLabels<'a> {
    pub(super) fn new(program: &'a Program, pointer: usize) -> Self {
        Self { program, pointer }
    }

    pub fn labels(&self) -> &'a LabelSet {
        self.program.upcoming_labels(self.pointer)
    }
}
