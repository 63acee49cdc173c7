//! One matching attempt from one row: the program run by threads in preference order, one
//! row at a time (Trino's Matcher, a Thompson-style NFA with thread lists).
//!
//! Each step, every live thread (most preferred first) asks whether the row may take the label
//! its instruction wants; those that may advance through splits, jumps, saves and anchors to
//! their next label or to `Done`, in the order that keeps them sorted by preference. A thread
//! reaching `Done` is a match, preferred over every thread behind it (they are dropped) and
//! over none ahead (they run on, and a match they find replaces it). A thread arriving where an
//! interchangeable thread already came this step is dropped: the earlier one is preferred and
//! will do whatever it could. That also ends loops that match nothing (the thread meets
//! itself) and keeps the work polynomial when conditions do not tell threads apart.

use std::ops::Range;

use super::conditions::{LabelConditions, PartialMatch, UpcomingLabels};
use super::error::MatchError;
use super::partition::MatchLimits;
use super::pattern::Label;
use super::program::{Instruction, Program};
use super::trail::{LabelTrail, LabelsId, SaveTrail, SavesId};

/// A successful attempt: its labels from its first row on, and the rows its exclusions cover.
#[derive(Debug)]
pub(super) struct Found {
    pub labels: Vec<Label>,
    pub excluded: Vec<Range<usize>>,
}

/// Where one attempt is: the partition, its start, the match number it would get.
#[derive(Clone, Copy, Debug)]
pub(super) struct AttemptAt {
    pub start_row: usize,
    pub row_count: usize,
    pub match_number: u64,
}

#[derive(Clone, Copy, Debug)]
struct Thread {
    pointer: usize,
    labels: LabelsId,
    saves: SavesId,
}

/// The steps a partition's matching may still take (every instruction a thread passes, every
/// condition asked, every comparison of threads).
#[derive(Debug)]
pub(super) struct Budget {
    left: u64,
    limit: u64,
}

impl Budget {
    pub fn new(limit: u64) -> Self {
        Self { left: limit, limit }
    }

    fn spend<E>(&mut self) -> Result<(), MatchError<E>> {
        match self.left.checked_sub(1) {
            Some(left) => {
                self.left = left;
                Ok(())
            }
            None => Err(MatchError::TooMuchWork { limit: self.limit }),
        }
    }
}

/// The program and what its runs reuse from one attempt to the next.
pub(super) struct Matcher<'p> {
    program: &'p Program,
    max_threads: usize,
    max_stored: usize,
    label_trail: LabelTrail,
    save_trail: SaveTrail,
    /// Per instruction, the labels of the threads that reached it this step.
    arrivals: Vec<Vec<LabelsId>>,
    /// The instructions with arrivals, to clear them without a sweep.
    reached: Vec<usize>,
    pending: Vec<(Thread, usize)>,
    current: Vec<Thread>,
    next: Vec<Thread>,
}

impl<'p> Matcher<'p> {
    pub fn new(program: &'p Program, limits: &MatchLimits) -> Self {
        Self {
            program,
            max_threads: limits.max_threads,
            max_stored: limits.max_stored,
            label_trail: LabelTrail::default(),
            save_trail: SaveTrail::default(),
            arrivals: vec![Vec::new(); program.instructions().len()],
            reached: Vec::new(),
            pending: Vec::new(),
            current: Vec::new(),
            next: Vec::new(),
        }
    }

    /// The preferred match starting at `at.start_row`, if any.
    pub fn run<C: LabelConditions>(
        &mut self,
        at: AttemptAt,
        conditions: &mut C,
        budget: &mut Budget,
    ) -> Result<Option<Found>, MatchError<C::Error>> {
        self.label_trail.clear();
        self.save_trail.clear();
        self.current.clear();
        self.next.clear();
        self.clear_arrivals();
        let input_length = at.row_count.saturating_sub(at.start_row);
        let first = Thread {
            pointer: 0,
            labels: LabelTrail::EMPTY,
            saves: SaveTrail::NONE,
        };
        self.advance(first, 0, 0, at, &*conditions, budget)?;
        std::mem::swap(&mut self.current, &mut self.next);

        let mut found = None;
        for index in 0..input_length {
            if self.current.is_empty() {
                break;
            }
            self.clear_arrivals();
            let threads = std::mem::take(&mut self.current);
            for thread in &threads {
                match self.program.at(thread.pointer) {
                    Instruction::MatchLabel(label) => {
                        budget.spend()?;
                        let so_far = PartialMatch::new(
                            at.match_number,
                            at.start_row,
                            &self.label_trail,
                            thread.labels,
                        );
                        let holds = conditions
                            .holds(at.start_row + index, label, &so_far)
                            .map_err(MatchError::Condition)?;
                        if holds {
                            let labelled = Thread {
                                pointer: thread.pointer + 1,
                                labels: self.label_trail.extend(thread.labels, label),
                                saves: thread.saves,
                            };
                            self.advance(
                                labelled,
                                labelled.pointer,
                                index + 1,
                                at,
                                &*conditions,
                                budget,
                            )?;
                        }
                    }
                    Instruction::Done => {
                        // Every thread behind this one is less preferred than its match.
                        found = Some(self.found(thread, at.start_row));
                        break;
                    }
                    _ => {}
                }
            }
            let mut spent = threads;
            spent.clear();
            self.current = std::mem::replace(&mut self.next, spent);
            self.check_size()?;
        }
        // After the last row only a thread at `Done` can still match.
        if let Some(thread) = self
            .current
            .iter()
            .find(|thread| self.program.at(thread.pointer) == Instruction::Done)
        {
            found = Some(self.found(thread, at.start_row));
        }
        Ok(found)
    }

    fn check_size<E>(&self) -> Result<(), MatchError<E>> {
        if self.current.len() > self.max_threads {
            return Err(MatchError::TooManyThreads {
                limit: self.max_threads,
            });
        }
        if self.label_trail.stored() + self.save_trail.stored() > self.max_stored {
            return Err(MatchError::TooMuchStored {
                limit: self.max_stored,
            });
        }
        Ok(())
    }

    /// Follows `thread` from `pointer` through everything that consumes no row, depth first
    /// with a split's first target first, queueing each thread that reaches a label or `Done`
    /// in `next`: in preference order.
    fn advance<C: LabelConditions>(
        &mut self,
        thread: Thread,
        pointer: usize,
        input_index: usize,
        at: AttemptAt,
        conditions: &C,
        budget: &mut Budget,
    ) -> Result<(), MatchError<C::Error>> {
        let input_length = at.row_count.saturating_sub(at.start_row);
        self.pending.push((thread, pointer));
        while let Some((mut thread, pointer)) = self.pending.pop() {
            budget.spend()?;
            if self.met_interchangeable(pointer, thread.labels, at, conditions, budget)? {
                continue;
            }
            if let Some(arrivals) = self.arrivals.get_mut(pointer) {
                if arrivals.is_empty() {
                    self.reached.push(pointer);
                }
                arrivals.push(thread.labels);
            }
            match self.program.at(pointer) {
                Instruction::MatchStart => {
                    if input_index == 0 && at.start_row == 0 {
                        self.pending.push((thread, pointer + 1));
                    }
                }
                Instruction::MatchEnd => {
                    if input_index == input_length {
                        self.pending.push((thread, pointer + 1));
                    }
                }
                Instruction::Jump(target) => self.pending.push((thread, target)),
                Instruction::Split { first, second } => {
                    // Popped in reverse: the first target, and all it leads to, goes first.
                    self.pending.push((thread, second));
                    self.pending.push((thread, first));
                }
                Instruction::Save => {
                    thread.saves = self.save_trail.push(thread.saves, input_index);
                    self.pending.push((thread, pointer + 1));
                }
                Instruction::MatchLabel(_) | Instruction::Done => {
                    thread.pointer = pointer;
                    self.next.push(thread);
                }
            }
        }
        Ok(())
    }

    /// Whether a thread with `labels` arriving at `pointer` meets one that came earlier this
    /// step and is interchangeable with it.
    fn met_interchangeable<C: LabelConditions>(
        &self,
        pointer: usize,
        labels: LabelsId,
        at: AttemptAt,
        conditions: &C,
        budget: &mut Budget,
    ) -> Result<bool, MatchError<C::Error>> {
        let Some(arrivals) = self
            .arrivals
            .get(pointer)
            .filter(|arrivals| !arrivals.is_empty())
        else {
            return Ok(false);
        };
        if arrivals.contains(&labels) {
            return Ok(true);
        }
        let partial =
            |labels| PartialMatch::new(at.match_number, at.start_row, &self.label_trail, labels);
        let arriving = partial(labels);
        let upcoming = UpcomingLabels::new(self.program, pointer);
        for &earlier in arrivals {
            budget.spend()?;
            if conditions.interchangeable(&partial(earlier), &arriving, &upcoming) {
                return Ok(true);
            }
        }
        Ok(false)
    }

    fn clear_arrivals(&mut self) {
        for pointer in self.reached.drain(..) {
            if let Some(arrivals) = self.arrivals.get_mut(pointer) {
                arrivals.clear();
            }
        }
    }

    fn found(&self, thread: &Thread, start_row: usize) -> Found {
        let saves = self.save_trail.collect(thread.saves);
        let excluded = saves
            .chunks_exact(2)
            .map(|pair| start_row + pair[0]..start_row + pair[1])
            .collect();
        Found {
            labels: self.label_trail.collect(thread.labels),
            excluded,
        }
    }
}
