//! A pattern compiled to the program the matcher's threads run (Trino's Program, built by
//! IrRowPatternToProgramRewriter). The layout decides preference: a `Split` tries its first
//! target before its second, so a greedy quantifier points its first target back into the
//! loop and a reluctant one out of it, and an alternation tries its parts left to right.

use std::sync::OnceLock;

use super::error::PatternError;
use super::label_set::LabelSet;
use super::normalize::normalize;
use super::pattern::{Anchor, Label, Quantifier, RowPattern};

/// The most instructions a pattern may compile to. `A{n}` compiles to `n` copies of `A` and
/// `PERMUTE` of `k` parts to `k!` orders; Trino bounds neither but by its memory.
pub const MAX_INSTRUCTIONS: usize = 100_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Instruction {
    /// Consume the current row, labelled so, if its condition holds.
    MatchLabel(Label),
    /// Continue at both, `first` preferred.
    Split {
        first: usize,
        second: usize,
    },
    Jump(usize),
    /// Record the current position: exclusions are pairs of saves.
    Save,
    /// `^`: only at the partition's first row.
    MatchStart,
    /// `$`: only after the partition's last row.
    MatchEnd,
    Done,
}

#[derive(Debug)]
pub struct Program {
    instructions: Vec<Instruction>,
    /// For each instruction, the labels some path from it can still match, computed when
    /// first asked for (only pruning by label conditions asks).
    upcoming: Vec<OnceLock<LabelSet>>,
}

impl Program {
    /// Compiles `pattern` after Trino's rewrites ([`normalize`]).
    pub fn compile(pattern: &RowPattern) -> Result<Program, PatternError> {
        let mut compiler = Compiler::default();
        compiler.pattern(&normalize(pattern))?;
        compiler.push(Instruction::Done)?;
        let upcoming = compiler
            .instructions
            .iter()
            .map(|_| OnceLock::new())
            .collect();
        Ok(Program {
            instructions: compiler.instructions,
            upcoming,
        })
    }

    pub fn instructions(&self) -> &[Instruction] {
        &self.instructions
    }

    pub(super) fn at(&self, pointer: usize) -> Instruction {
        self.instructions
            .get(pointer)
            .copied()
            .unwrap_or(Instruction::Done)
    }

    /// The labels a thread at `pointer` may still match (Trino's ThreadEquivalence
    /// `reachableLabels`): only their conditions can tell two threads there apart.
    pub fn upcoming_labels(&self, pointer: usize) -> &LabelSet {
        static NONE: OnceLock<LabelSet> = OnceLock::new();
        match self.upcoming.get(pointer) {
            Some(cell) => cell.get_or_init(|| self.reachable_labels(pointer)),
            None => NONE.get_or_init(LabelSet::new),
        }
    }

    fn reachable_labels(&self, from: usize) -> LabelSet {
        let mut labels = LabelSet::new();
        let mut seen = vec![false; self.instructions.len()];
        let mut pending = vec![from];
        while let Some(pointer) = pending.pop() {
            match seen.get_mut(pointer) {
                Some(visited) if !*visited => *visited = true,
                _ => continue,
            }
            match self.at(pointer) {
                Instruction::MatchLabel(label) => {
                    labels.insert(label);
                    pending.push(pointer + 1);
                }
                Instruction::Split { first, second } => pending.extend([first, second]),
                Instruction::Jump(target) => pending.push(target),
                Instruction::Save | Instruction::MatchStart | Instruction::MatchEnd => {
                    pending.push(pointer + 1)
                }
                Instruction::Done => {}
            }
        }
        labels
    }
}

#[derive(Default)]
struct Compiler {
    instructions: Vec<Instruction>,
}

impl Compiler {
    fn push(&mut self, instruction: Instruction) -> Result<usize, PatternError> {
        if self.instructions.len() >= MAX_INSTRUCTIONS {
            return Err(PatternError::too_large(format!(
                "Row pattern is too large: it compiles to more than {MAX_INSTRUCTIONS} instructions"
            )));
        }
        self.instructions.push(instruction);
        Ok(self.instructions.len() - 1)
    }

    fn next(&self) -> usize {
        self.instructions.len()
    }

    fn set(&mut self, at: usize, instruction: Instruction) {
        if let Some(slot) = self.instructions.get_mut(at) {
            *slot = instruction;
        }
    }

    fn pattern(&mut self, pattern: &RowPattern) -> Result<(), PatternError> {
        match pattern {
            RowPattern::Label(label) => self.push(Instruction::MatchLabel(*label)).map(drop),
            RowPattern::Empty => Ok(()),
            RowPattern::Anchor(Anchor::PartitionStart) => {
                self.push(Instruction::MatchStart).map(drop)
            }
            RowPattern::Anchor(Anchor::PartitionEnd) => self.push(Instruction::MatchEnd).map(drop),
            RowPattern::Exclusion(inner) => {
                self.push(Instruction::Save)?;
                self.pattern(inner)?;
                self.push(Instruction::Save).map(drop)
            }
            RowPattern::Concatenation(parts) => {
                parts.iter().try_for_each(|part| self.pattern(part))
            }
            RowPattern::Alternation(parts) => {
                let alternatives: Vec<&[RowPattern]> =
                    parts.iter().map(std::slice::from_ref).collect();
                self.alternation(&alternatives)
            }
            RowPattern::Permutation(parts) => self.permutation(parts),
            RowPattern::Quantified {
                pattern,
                quantifier,
            } => match quantifier.max {
                Some(max) => self.range(pattern, *quantifier, max),
                None => self.looping(pattern, *quantifier),
            },
        }
    }

    /// Each alternative but the last behind a split whose second target is the next one; all
    /// jump to the end.
    fn alternation(&mut self, alternatives: &[&[RowPattern]]) -> Result<(), PatternError> {
        let Some((last, leading)) = alternatives.split_last() else {
            return Ok(());
        };
        let mut jumps = Vec::new();
        for alternative in leading {
            let split = self.push(Instruction::Jump(0))?;
            for part in *alternative {
                self.pattern(part)?;
            }
            jumps.push(self.push(Instruction::Jump(0))?);
            let second = self.next();
            self.set(
                split,
                Instruction::Split {
                    first: split + 1,
                    second,
                },
            );
        }
        for part in *last {
            self.pattern(part)?;
        }
        let end = self.next();
        for jump in jumps {
            self.set(jump, Instruction::Jump(end));
        }
        Ok(())
    }

    /// The alternation of every order of `parts`, in lexicographic order of their positions.
    fn permutation(&mut self, parts: &[RowPattern]) -> Result<(), PatternError> {
        let mut order: Vec<usize> = (0..parts.len()).collect();
        let mut orders: Vec<Vec<RowPattern>> = Vec::new();
        loop {
            // Each order compiles to at least one instruction per part: stop early when the
            // orders alone would pass the bound.
            if orders.len().saturating_mul(parts.len()) > MAX_INSTRUCTIONS {
                return Err(PatternError::too_large(format!(
                    "Row pattern is too large: it compiles to more than {MAX_INSTRUCTIONS} instructions"
                )));
            }
            orders.push(
                order
                    .iter()
                    .filter_map(|&i| parts.get(i).cloned())
                    .collect(),
            );
            if !next_permutation(&mut order) {
                break;
            }
        }
        let alternatives: Vec<&[RowPattern]> = orders.iter().map(Vec::as_slice).collect();
        self.alternation(&alternatives)
    }

    /// `{n,}`: `n` copies (at least one), the last repeated; `{0,}`: a split around a loop.
    fn looping(
        &mut self,
        pattern: &RowPattern,
        quantifier: Quantifier,
    ) -> Result<(), PatternError> {
        if quantifier.min == 0 {
            let guard = self.push(Instruction::Jump(0))?;
            let body = self.next();
            self.pattern(pattern)?;
            self.loop_back(body, quantifier.greedy)?;
            let exit = self.next();
            self.set(guard, split(body, exit, quantifier.greedy));
            return Ok(());
        }
        let mut last_copy = self.next();
        for _ in 0..quantifier.min {
            last_copy = self.next();
            self.pattern(pattern)?;
        }
        self.loop_back(last_copy, quantifier.greedy)
    }

    fn loop_back(&mut self, body: usize, greedy: bool) -> Result<(), PatternError> {
        let exit = self.next() + 1;
        self.push(split(body, exit, greedy)).map(drop)
    }

    /// `{n,m}`: `n` copies, then `m - n` optional ones, each behind a split to the end.
    fn range(
        &mut self,
        pattern: &RowPattern,
        quantifier: Quantifier,
        max: u32,
    ) -> Result<(), PatternError> {
        for _ in 0..quantifier.min {
            self.pattern(pattern)?;
        }
        let mut guards = Vec::new();
        for _ in quantifier.min..max {
            guards.push(self.push(Instruction::Jump(0))?);
            self.pattern(pattern)?;
        }
        let end = self.next();
        for guard in guards {
            self.set(guard, split(guard + 1, end, quantifier.greedy));
        }
        Ok(())
    }
}

/// A split into a repetition (`more`) or past it, preferring more when greedy.
fn split(more: usize, fewer: usize, greedy: bool) -> Instruction {
    if greedy {
        Instruction::Split {
            first: more,
            second: fewer,
        }
    } else {
        Instruction::Split {
            first: fewer,
            second: more,
        }
    }
}

/// Rearranges `order` into the next permutation in lexicographic order; false after the last.
fn next_permutation(order: &mut [usize]) -> bool {
    let Some(pivot) = order.windows(2).rposition(|pair| pair[0] < pair[1]) else {
        return false;
    };
    let Some(successor) = order.iter().rposition(|&value| value > order[pivot]) else {
        return false;
    };
    order.swap(pivot, successor);
    order[pivot + 1..].reverse();
    true
}
