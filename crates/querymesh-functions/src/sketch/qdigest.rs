//! airlift's `QuantileDigest` (Trino's `qdigest(T)`; docs functions/qdigest), kept, compressed
//! and serialized as it does, so that the bytes and the quantiles are Trino's.
//!
//! The digest is a binary trie over the 64 bits of each value (its sign bit flipped, so the
//! bits order as the values do): a node at level L covers the values sharing its bits above
//! L, and holds a weight. A value's weight goes to its leaf (level 0); compression folds a
//! node's children into it while the three together weigh less than
//! ⌊total / ⌊(root's level + 1) / max error⌋⌋, which bounds the digest's size whatever the
//! input. Serialized little-endian: format 0, the max error, alpha (0: no decay), the
//! landmark (0), min, max, the node count, then each node in post-order: a byte (its level,
//! less one for a branch, shifted over two flags: has left, has right), its weight and its
//! bits.

use super::bytes::{Reader, Unreadable};

const MAX_BITS: u32 = 64;
const ZERO_WEIGHT_THRESHOLD: f64 = 1e-5;
const FORMAT: u8 = 0;
const HAS_LEFT: u8 = 1;
const HAS_RIGHT: u8 = 2;
const NONE: usize = usize::MAX;
/// Bytes of one serialized node: its structure byte, weight and bits.
const NODE_BYTES: usize = 17;

#[derive(Clone, Debug)]
struct Node {
    count: f64,
    level: u8,
    /// The value's bits with the sign bit flipped.
    bits: u64,
    left: usize,
    right: usize,
}

#[derive(Clone, Debug)]
pub struct QuantileDigest {
    max_error: f64,
    weighted_count: f64,
    min: i64,
    max: i64,
    root: usize,
    nodes: Vec<Node>,
    /// Slots of removed nodes, reused first (the structure never depends on which slot).
    free: Vec<usize>,
}

fn to_bits(value: i64) -> u64 {
    (value as u64) ^ (1 << 63)
}

fn from_bits(bits: u64) -> i64 {
    (bits ^ (1 << 63)) as i64
}

fn branch_mask(level: u8) -> u64 {
    1u64 << (level - 1)
}

fn in_same_subtree(a: u64, b: u64, level: u32) -> bool {
    level == MAX_BITS || (a >> level) == (b >> level)
}

impl QuantileDigest {
    pub fn new(max_error: f64) -> QuantileDigest {
        QuantileDigest {
            max_error,
            weighted_count: 0.0,
            min: i64::MAX,
            max: i64::MIN,
            root: NONE,
            nodes: Vec::new(),
            free: Vec::new(),
        }
    }

    pub fn read(bytes: &[u8]) -> Result<QuantileDigest, Unreadable> {
        let mut input = Reader::new(bytes);
        if input.u8()? != FORMAT {
            return Err(Unreadable::new("Invalid format"));
        }
        let max_error = input.f64()?;
        let alpha = input.f64()?;
        input.i64()?;
        if alpha != 0.0 {
            return Err(Unreadable::new(
                "A decaying quantile digest is not supported by the stand-in",
            ));
        }
        let min = input.i64()?;
        let max = input.i64()?;
        let count = input.i32()?;
        let height = MAX_BITS - (min ^ max).leading_zeros() + 1;
        if height < 64 && i64::from(count) > (1i64 << height) - 1 {
            return Err(Unreadable::new(
                "Too many nodes in deserialized tree. Possible corruption",
            ));
        }
        let count = usize::try_from(count).map_err(|_| Unreadable::new(format!("{count}")))?;
        // Checked before allocating, so a corrupt count cannot make the digest large.
        let body = input.bytes(count.saturating_mul(NODE_BYTES))?;
        // airlift reads no further: bytes after the nodes are ignored, as it ignores them.
        let mut digest = QuantileDigest::new(max_error);
        digest.min = min;
        digest.max = max;
        let mut stack: Vec<usize> = Vec::new();
        let mut nodes = Reader::new(body);
        for index in 0..count {
            let structure = nodes.u8()?;
            let has_left = structure & HAS_LEFT != 0;
            let has_right = structure & HAS_RIGHT != 0;
            let mut level = (structure >> 2) & 0b11_1111;
            if has_left || has_right {
                level += 1;
            }
            let popped = |stack: &mut Vec<usize>, has: bool| -> Result<usize, Unreadable> {
                if !has {
                    return Ok(NONE);
                }
                stack.pop().ok_or_else(|| {
                    Unreadable::new("Tree is corrupted. Expected a single root node")
                })
            };
            let right = popped(&mut stack, has_right)?;
            let left = popped(&mut stack, has_left)?;
            stack.push(index);
            let count = nodes.f64()?;
            let bits = nodes.i64()? as u64;
            digest.weighted_count += count;
            digest.nodes.push(Node {
                count,
                level,
                bits,
                left,
                right,
            });
        }
        if count != 0 && stack.len() != 1 {
            return Err(Unreadable::new(
                "Tree is corrupted. Expected a single root node",
            ));
        }
        digest.root = if count == 0 { NONE } else { count - 1 };
        Ok(digest)
    }

    /// Compresses, then writes (QuantileDigest.serialize).
    pub fn write(&mut self) -> Vec<u8> {
        self.compress();
        let order = self.post_order(false);
        let mut out = Vec::with_capacity(45 + NODE_BYTES * order.len());
        out.push(FORMAT);
        out.extend_from_slice(&self.max_error.to_le_bytes());
        out.extend_from_slice(&0f64.to_le_bytes());
        out.extend_from_slice(&0i64.to_le_bytes());
        out.extend_from_slice(&self.min.to_le_bytes());
        out.extend_from_slice(&self.max.to_le_bytes());
        out.extend_from_slice(&(order.len() as i32).to_le_bytes());
        for at in order {
            let node = &self.nodes[at];
            let mut structure = node.level.saturating_sub(1) << 2;
            if node.left != NONE {
                structure |= HAS_LEFT;
            }
            if node.right != NONE {
                structure |= HAS_RIGHT;
            }
            out.push(structure);
            out.extend_from_slice(&node.count.to_le_bytes());
            out.extend_from_slice(&node.bits.to_le_bytes());
        }
        out
    }

    pub fn count(&self) -> f64 {
        self.weighted_count
    }

    /// Adds `weight` (> 0) of `value`.
    pub fn add(&mut self, value: i64, weight: f64) {
        self.max = self.max.max(value);
        self.min = self.min.min(value);
        let previous = self.weighted_count;
        self.insert(to_bits(value), weight);
        let factor = self.compression_factor() as i64;
        if (previous as i64) / factor != (self.weighted_count as i64) / factor {
            self.compress();
        }
    }

    pub fn merge(&mut self, other: &QuantileDigest) {
        self.root = self.merge_nodes(self.root, other, other.root);
        self.max = self.max.max(other.max);
        self.min = self.min.min(other.min);
        self.compress();
    }

    /// The value at quantile `q` (airlift's getQuantile: an upper bound, capped at the max).
    pub fn quantile(&self, q: f64) -> Result<i64, Unreadable> {
        if !(0.0..=1.0).contains(&q) {
            return Err(Unreadable::new("quantile must be between [0,1]"));
        }
        let mut sum = 0.0;
        for at in self.post_order(false) {
            sum += self.nodes[at].count;
            if sum > q * self.weighted_count {
                return Ok(self.upper_bound(at).min(self.max));
            }
        }
        Ok(self.max)
    }

    /// The share of the weight below `value`'s node, or `None` outside the digest's min and
    /// max (quantile_at_value: the count of the histogram's first bucket over the total).
    pub fn quantile_at(&self, value: i64) -> Option<f64> {
        if self.weighted_count == 0.0 || value > self.kept_max() || value < self.kept_min() {
            return None;
        }
        let mut sum = 0.0;
        for at in self.post_order(false) {
            if value <= self.upper_bound(at) {
                break;
            }
            sum += self.nodes[at].count;
        }
        Some(sum / self.weighted_count)
    }

    /// getMin: the lower bound of the first node of any weight, at least the min seen.
    fn kept_min(&self) -> i64 {
        let first = self
            .post_order(false)
            .into_iter()
            .find(|at| self.nodes[*at].count >= ZERO_WEIGHT_THRESHOLD);
        let chosen = first.map_or(self.min, |at| self.lower_bound(at));
        self.min.max(chosen)
    }

    /// getMax: the upper bound of the last node of any weight, at most the max seen.
    fn kept_max(&self) -> i64 {
        let last = self
            .post_order(true)
            .into_iter()
            .find(|at| self.nodes[*at].count >= ZERO_WEIGHT_THRESHOLD);
        let chosen = last.map_or(self.max, |at| self.upper_bound(at));
        self.max.min(chosen)
    }

    fn level_mask(&self, at: usize) -> u64 {
        match self.nodes[at].level {
            0 => 0,
            level => u64::MAX >> (MAX_BITS - u32::from(level)),
        }
    }

    fn upper_bound(&self, at: usize) -> i64 {
        from_bits(self.nodes[at].bits | self.level_mask(at))
    }

    fn lower_bound(&self, at: usize) -> i64 {
        from_bits(self.nodes[at].bits & !self.level_mask(at))
    }

    fn compression_factor(&self) -> i32 {
        if self.root == NONE {
            return 1;
        }
        (((f64::from(self.nodes[self.root].level) + 1.0) / self.max_error) as i32).max(1)
    }

    /// The nodes under the root in post-order, left first (or right first, `reverse`).
    fn post_order(&self, reverse: bool) -> Vec<usize> {
        let mut out = Vec::new();
        if self.root == NONE {
            return out;
        }
        // Each node is pushed twice: first to visit its children, then to emit it.
        let mut stack = vec![(self.root, false)];
        while let Some((at, children_done)) = stack.pop() {
            if children_done {
                out.push(at);
                continue;
            }
            stack.push((at, true));
            let node = &self.nodes[at];
            let (first, second) = if reverse {
                (node.right, node.left)
            } else {
                (node.left, node.right)
            };
            for child in [second, first] {
                if child != NONE {
                    stack.push((child, false));
                }
            }
        }
        out
    }

    fn compress(&mut self) {
        let bound = (self.weighted_count / f64::from(self.compression_factor())).floor();
        for at in self.post_order(false) {
            let (left, right) = (self.nodes[at].left, self.nodes[at].right);
            if left == NONE && right == NONE {
                continue;
            }
            let left_count = if left == NONE {
                0.0
            } else {
                self.nodes[left].count
            };
            let right_count = if right == NONE {
                0.0
            } else {
                self.nodes[right].count
            };
            let fold = self.nodes[at].count + left_count + right_count < bound;
            if left != NONE && (fold || left_count < ZERO_WEIGHT_THRESHOLD) {
                self.nodes[at].left = self.try_remove(left);
                self.nodes[at].count += left_count;
            }
            if right != NONE && (fold || right_count < ZERO_WEIGHT_THRESHOLD) {
                self.nodes[at].right = self.try_remove(right);
                self.nodes[at].count += right_count;
            }
        }
        if self.root != NONE && self.nodes[self.root].count < ZERO_WEIGHT_THRESHOLD {
            self.root = self.try_remove(self.root);
        }
    }

    fn insert(&mut self, bits: u64, count: f64) {
        if count < ZERO_WEIGHT_THRESHOLD {
            return;
        }
        let (mut parent, mut last_branch, mut current) = (NONE, 0u64, self.root);
        loop {
            if current == NONE {
                let leaf = self.create_node(bits, 0, count);
                self.set_child(parent, last_branch, leaf);
                return;
            }
            let (current_bits, level) = (self.nodes[current].bits, self.nodes[current].level);
            if !in_same_subtree(bits, current_bits, u32::from(level)) {
                let leaf = self.create_node(bits, 0, count);
                let siblings = self.make_siblings(current, leaf);
                self.set_child(parent, last_branch, siblings);
                return;
            }
            if level == 0 && current_bits == bits {
                self.nodes[current].count += count;
                self.weighted_count += count;
                return;
            }
            let branch = bits & branch_mask(level);
            parent = current;
            last_branch = branch;
            current = if branch == 0 {
                self.nodes[current].left
            } else {
                self.nodes[current].right
            };
        }
    }

    fn set_child(&mut self, parent: usize, branch: u64, child: usize) {
        if parent == NONE {
            self.root = child;
        } else if branch == 0 {
            self.nodes[parent].left = child;
        } else {
            self.nodes[parent].right = child;
        }
    }

    fn make_siblings(&mut self, first: usize, second: usize) -> usize {
        let (a, b) = (self.nodes[first].bits, self.nodes[second].bits);
        let level = (MAX_BITS - (a ^ b).leading_zeros()) as u8;
        let parent = self.create_node(a, level, 0.0);
        if a & branch_mask(level) == 0 {
            self.nodes[parent].left = first;
            self.nodes[parent].right = second;
        } else {
            self.nodes[parent].left = second;
            self.nodes[parent].right = first;
        }
        parent
    }

    fn create_node(&mut self, bits: u64, level: u8, count: f64) -> usize {
        self.weighted_count += count;
        let node = Node {
            count,
            level,
            bits,
            left: NONE,
            right: NONE,
        };
        match self.free.pop() {
            Some(at) => {
                self.nodes[at] = node;
                at
            }
            None => {
                self.nodes.push(node);
                self.nodes.len() - 1
            }
        }
    }

    fn merge_nodes(&mut self, at: usize, other: &QuantileDigest, theirs: usize) -> usize {
        if theirs == NONE {
            return at;
        }
        if at == NONE {
            return self.copy_from(other, theirs);
        }
        let their = &other.nodes[theirs];
        let (my_bits, my_level) = (self.nodes[at].bits, self.nodes[at].level);
        let their_level = their.level;
        if !in_same_subtree(my_bits, their.bits, u32::from(my_level.max(their_level))) {
            let copy = self.copy_from(other, theirs);
            return self.make_siblings(at, copy);
        }
        if my_level > their_level {
            if their.bits & branch_mask(my_level) == 0 {
                let left = self.merge_nodes(self.nodes[at].left, other, theirs);
                self.nodes[at].left = left;
            } else {
                let right = self.merge_nodes(self.nodes[at].right, other, theirs);
                self.nodes[at].right = right;
            }
            return at;
        }
        if my_level < their_level {
            let (left, right) = if my_bits & branch_mask(their_level) == 0 {
                let left = self.merge_nodes(at, other, their.left);
                (left, self.copy_from(other, their.right))
            } else {
                let left = self.copy_from(other, their.left);
                (left, self.merge_nodes(at, other, their.right))
            };
            let result = self.create_node(their.bits, their.level, their.count);
            self.nodes[result].left = left;
            self.nodes[result].right = right;
            return result;
        }
        self.weighted_count += their.count;
        self.nodes[at].count += their.count;
        let left = self.merge_nodes(self.nodes[at].left, other, their.left);
        let right = self.merge_nodes(self.nodes[at].right, other, their.right);
        self.nodes[at].left = left;
        self.nodes[at].right = right;
        at
    }

    fn copy_from(&mut self, other: &QuantileDigest, theirs: usize) -> usize {
        if theirs == NONE {
            return NONE;
        }
        let their = &other.nodes[theirs];
        let at = self.create_node(their.bits, their.level, their.count);
        let left = self.copy_from(other, their.left);
        let right = self.copy_from(other, their.right);
        self.nodes[at].left = left;
        self.nodes[at].right = right;
        at
    }

    /// Removes a node with at most one child (returning that child), or zeroes one with two.
    fn try_remove(&mut self, at: usize) -> usize {
        let (left, right) = (self.nodes[at].left, self.nodes[at].right);
        if left != NONE && right != NONE {
            self.nodes[at].count = 0.0;
            return at;
        }
        self.free.push(at);
        if at == self.root {
            self.root = NONE;
        }
        if left != NONE { left } else { right }
    }
}

/// Trino's `doubleToSortableLong`: a double's bits, the negatives' flipped, so the longs
/// order as the doubles do.
pub fn double_to_sortable(x: f64) -> i64 {
    let bits = if x.is_nan() {
        0x7ff8_0000_0000_0000
    } else {
        x.to_bits() as i64
    };
    bits ^ ((bits >> 63) & i64::MAX)
}

pub fn sortable_to_double(x: i64) -> f64 {
    f64::from_bits((x ^ ((x >> 63) & i64::MAX)) as u64)
}

/// Trino's `floatToSortableInt`, as the long a qdigest(real) holds.
pub fn real_to_sortable(x: f32) -> i64 {
    let bits = if x.is_nan() {
        0x7fc0_0000
    } else {
        x.to_bits() as i32
    };
    i64::from(bits ^ ((bits >> 31) & i32::MAX))
}

pub fn sortable_to_real(x: i64) -> f32 {
    let bits = x as i32;
    f32::from_bits((bits ^ ((bits >> 31) & i32::MAX)) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base64(bytes: &[u8]) -> String {
        use base64::Engine as _;
        base64::engine::general_purpose::STANDARD.encode(bytes)
    }

    // Trino 476: SELECT qdigest_agg(x) FROM (VALUES 1) t(x).
    #[test]
    fn writes_trinos_bytes_for_one_value() {
        let mut digest = QuantileDigest::new(0.01);
        digest.add(1, 1.0);
        assert_eq!(
            base64(&digest.write()),
            "AHsUrkfheoQ/AAAAAAAAAAAAAAAAAAAAAAEAAAAAAAAAAQAAAAAAAAABAAAAAAAAAAAAAPA/AQAAAAAAAIA="
        );
    }

    #[test]
    fn reads_what_it_writes_and_answers_quantiles() {
        let mut digest = QuantileDigest::new(0.01);
        for v in 1..=100 {
            digest.add(v, 1.0);
        }
        let bytes = digest.write();
        let Ok(read) = QuantileDigest::read(&bytes) else {
            panic!("reads")
        };
        assert_eq!(read.count(), 100.0);
        // Trino 476: value_at_quantile(qdigest_agg(x), 0.5) over sequence(1, 100) is 51.
        assert_eq!(read.quantile(0.5).ok(), Some(51));
        assert!(read.quantile(1.5).is_err());
        assert_eq!(read.quantile_at(1000), None);
    }

    #[test]
    fn refuses_bytes_that_are_not_a_digest() {
        assert!(QuantileDigest::read(&[0]).is_err());
        assert!(QuantileDigest::read(&[1]).is_err());
        let mut huge = vec![0u8; 45];
        huge[41..45].copy_from_slice(&i32::MAX.to_le_bytes());
        assert!(QuantileDigest::read(&huge).is_err());
    }

    #[test]
    fn sortable_bits_round_trip() {
        for x in [-2.5, 0.0, 1.0, 1e300] {
            assert_eq!(sortable_to_double(double_to_sortable(x)), x);
        }
        assert!(double_to_sortable(-1.0) < double_to_sortable(1.0));
        assert_eq!(sortable_to_real(real_to_sortable(-3.5)), -3.5);
    }
}
