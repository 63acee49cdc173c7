//! A set of primary pattern variables: a union variable (`SUBSET U = (C, D)`) as the target
//! of `AFTER MATCH SKIP`, or the labels a program can still match from an instruction.

use super::pattern::Label;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LabelSet {
    /// Bit `i % 64` of word `i / 64` is set when `Label(i)` is in the set.
    words: Vec<u64>,
}

impl LabelSet {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn insert(&mut self, label: Label) {
        let (word, bit) = position(label);
        if self.words.len() <= word {
            self.words.resize(word + 1, 0);
        }
        if let Some(slot) = self.words.get_mut(word) {
            *slot |= bit;
        }
    }

    pub fn contains(&self, label: Label) -> bool {
        let (word, bit) = position(label);
        self.words.get(word).is_some_and(|slot| slot & bit != 0)
    }

    pub fn union_with(&mut self, other: &LabelSet) {
        if self.words.len() < other.words.len() {
            self.words.resize(other.words.len(), 0);
        }
        for (slot, bits) in self.words.iter_mut().zip(&other.words) {
            *slot |= bits;
        }
    }

    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|word| *word == 0)
    }

    /// The labels, in index order.
    pub fn iter(&self) -> impl Iterator<Item = Label> + '_ {
        self.words.iter().enumerate().flat_map(|(word, bits)| {
            (0..64u32)
                .filter(move |bit| bits & (1u64 << bit) != 0)
                .map(move |bit| Label((word as u32) * 64 + bit))
        })
    }
}

impl FromIterator<Label> for LabelSet {
    fn from_iter<I: IntoIterator<Item = Label>>(labels: I) -> Self {
        let mut set = Self::new();
        for label in labels {
            set.insert(label);
        }
        set
    }
}

fn position(label: Label) -> (usize, u64) {
    (label.index() / 64, 1u64 << (label.0 % 64))
}
