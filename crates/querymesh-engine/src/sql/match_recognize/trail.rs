//! What each partial match carries: the labels of its rows and the positions its exclusions
//! saved, as shared trails rather than per-thread arrays. A fork then costs nothing, where
//! copying arrays (as Trino's Captures does) costs the match's length at every split; and
//! since equal label sequences share one node, "same labels" is one comparison.

use super::pattern::Label;

/// A label sequence: an index into [`LabelTrail`]. [`LabelTrail::EMPTY`] is the empty one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct LabelsId(u32);

#[derive(Debug)]
struct LabelNode {
    parent: LabelsId,
    label: Label,
    length: u32,
    /// The sequences extending this one by a label, as a list: a node has few (one per
    /// label the pattern can match next), so a walk beats hashing.
    first_extension: LabelsId,
    next_sibling: LabelsId,
}

/// Every label sequence the threads of one attempt have built, each stored once.
#[derive(Debug)]
pub(super) struct LabelTrail {
    nodes: Vec<LabelNode>,
    /// The extensions of the empty sequence, which has no node.
    first_root_extension: LabelsId,
}

impl Default for LabelTrail {
    fn default() -> Self {
        Self {
            nodes: Vec::new(),
            first_root_extension: Self::EMPTY,
        }
    }
}

impl LabelTrail {
    pub const EMPTY: LabelsId = LabelsId(u32::MAX);

    pub fn clear(&mut self) {
        self.nodes.clear();
        self.first_root_extension = Self::EMPTY;
    }

    /// `labels` followed by `label`: the same id for the same sequence.
    pub fn extend(&mut self, labels: LabelsId, label: Label) -> LabelsId {
        let first = match self.node(labels) {
            Some(node) => node.first_extension,
            None => self.first_root_extension,
        };
        let mut at = first;
        while let Some(node) = self.node(at) {
            if node.label == label {
                return at;
            }
            at = node.next_sibling;
        }
        let id = LabelsId(u32::try_from(self.nodes.len()).unwrap_or(u32::MAX - 1));
        let length = self.len(labels).saturating_add(1);
        self.nodes.push(LabelNode {
            parent: labels,
            label,
            length,
            first_extension: Self::EMPTY,
            next_sibling: first,
        });
        match self.nodes.get_mut(labels.0 as usize) {
            Some(parent) => parent.first_extension = id,
            None => self.first_root_extension = id,
        }
        id
    }

    /// How many sequences are stored.
    pub fn stored(&self) -> usize {
        self.nodes.len()
    }

    pub fn len(&self, labels: LabelsId) -> u32 {
        self.node(labels).map_or(0, |node| node.length)
    }

    pub fn last(&self, labels: LabelsId) -> Option<Label> {
        self.node(labels).map(|node| node.label)
    }

    /// The sequence, first row first.
    pub fn collect(&self, labels: LabelsId) -> Vec<Label> {
        let mut sequence = Vec::with_capacity(self.len(labels) as usize);
        let mut at = labels;
        while let Some(node) = self.node(at) {
            sequence.push(node.label);
            at = node.parent;
        }
        sequence.reverse();
        sequence
    }

    fn node(&self, labels: LabelsId) -> Option<&LabelNode> {
        self.nodes.get(labels.0 as usize)
    }
}

/// The positions a thread's `Save` instructions recorded: an index into [`SaveTrail`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct SavesId(u32);

#[derive(Debug, Default)]
pub(super) struct SaveTrail {
    /// Each save: the one before it, and the position (rows from the match's start).
    saves: Vec<(SavesId, usize)>,
}

impl SaveTrail {
    pub const NONE: SavesId = SavesId(u32::MAX);

    pub fn clear(&mut self) {
        self.saves.clear();
    }

    pub fn stored(&self) -> usize {
        self.saves.len()
    }

    pub fn push(&mut self, previous: SavesId, position: usize) -> SavesId {
        let id = SavesId(u32::try_from(self.saves.len()).unwrap_or(u32::MAX - 1));
        self.saves.push((previous, position));
        id
    }

    /// The positions, earliest first.
    pub fn collect(&self, saves: SavesId) -> Vec<usize> {
        let mut positions = Vec::new();
        let mut at = saves;
        while let Some(&(previous, position)) = self.saves.get(at.0 as usize) {
            positions.push(position);
            at = previous;
        }
        positions.reverse();
        positions
    }
}
