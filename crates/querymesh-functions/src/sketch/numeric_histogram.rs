//! Trino's `NumericHistogram` (numeric_histogram; docs functions/aggregate, "Approximate
//! aggregate functions"): an approximate histogram of at most `buckets` (value, weight)
//! pairs after Ben-Haim and Tom-Tov's streaming algorithm. Values are buffered (100 beyond
//! the buckets, DoubleHistogramAggregation.ENTRY_BUFFER_SIZE); when the buffer is full, equal
//! values are summed, and while too many buckets are left the two neighbours whose merge
//! costs least (their weight times their squared distance times their weights' proportions)
//! become one at their weighted mean. The memory is bounded by the buckets and the buffer.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

const ENTRY_BUFFER_SIZE: usize = 100;

#[derive(Clone, Debug)]
pub struct NumericHistogram {
    max_buckets: usize,
    values: Vec<f64>,
    weights: Vec<f64>,
}

/// Java's `Doubles.compare`: -0.0 below 0.0, NaN above everything.
fn compare(a: f64, b: f64) -> Ordering {
    a.total_cmp(&b)
}

fn penalty(value: f64, weight: f64, right_value: f64, right_weight: f64) -> f64 {
    let total = weight + right_weight;
    let squared = (value - right_value) * (value - right_value);
    total * squared * (weight * right_weight) / (total * total)
}

/// One bucket in the merge queue; merging replaces entries (the old ones become invalid).
struct Entry {
    id: usize,
    value: f64,
    weight: f64,
    valid: bool,
    left: Option<usize>,
    right: Option<usize>,
}

/// The queue's order: by penalty, then by the bucket's id (Entry.compareTo).
#[derive(PartialEq)]
struct Key(f64, usize, usize);

impl Eq for Key {}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Key {
    fn cmp(&self, other: &Self) -> Ordering {
        compare(self.0, other.0)
            .then(self.1.cmp(&other.1))
            .then(self.2.cmp(&other.2))
    }
}

struct Queue {
    entries: Vec<Entry>,
    heap: BinaryHeap<Reverse<Key>>,
}

impl Queue {
    /// A new entry linked between `left` and `right` (Entry's constructor links them back).
    fn add(
        &mut self,
        id: usize,
        value: f64,
        weight: f64,
        left: Option<usize>,
        right: Option<usize>,
    ) -> usize {
        let at = self.entries.len();
        let penalty = match right {
            Some(r) => penalty(value, weight, self.entries[r].value, self.entries[r].weight),
            None => f64::INFINITY,
        };
        self.entries.push(Entry {
            id,
            value,
            weight,
            valid: true,
            left,
            right,
        });
        if let Some(r) = right {
            self.entries[r].left = Some(at);
        }
        if let Some(l) = left {
            self.entries[l].right = Some(at);
        }
        self.heap.push(Reverse(Key(penalty, id, at)));
        at
    }
}

impl NumericHistogram {
    pub fn new(max_buckets: usize) -> NumericHistogram {
        NumericHistogram {
            max_buckets,
            values: Vec::new(),
            weights: Vec::new(),
        }
    }

    pub fn add(&mut self, value: f64, weight: f64) {
        if self.values.len() == self.max_buckets + ENTRY_BUFFER_SIZE {
            self.compact();
        }
        self.values.push(value);
        self.weights.push(weight);
    }

    /// The buckets, in ascending order of value (NumericHistogram.getBuckets).
    pub fn buckets(&mut self) -> Vec<(f64, f64)> {
        self.compact();
        self.values
            .iter()
            .copied()
            .zip(self.weights.iter().copied())
            .collect()
    }

    fn sort(&mut self) {
        let mut pairs: Vec<(f64, f64)> = self
            .values
            .iter()
            .copied()
            .zip(self.weights.iter().copied())
            .collect();
        pairs.sort_by(|a, b| compare(a.0, b.0));
        self.values = pairs.iter().map(|p| p.0).collect();
        self.weights = pairs.iter().map(|p| p.1).collect();
    }

    fn merge_same_buckets(&mut self) {
        self.sort();
        let mut current = 0;
        for i in 1..self.values.len() {
            if self.values[current] == self.values[i] {
                self.weights[current] += self.weights[i];
            } else {
                current += 1;
                self.values[current] = self.values[i];
                self.weights[current] = self.weights[i];
            }
        }
        let kept = (current + 1).min(self.values.len());
        self.values.truncate(kept);
        self.weights.truncate(kept);
    }

    fn compact(&mut self) {
        self.merge_same_buckets();
        if self.values.len() > self.max_buckets {
            self.merge_buckets();
        }
    }

    fn merge_buckets(&mut self) {
        let n = self.values.len();
        let mut queue = Queue {
            entries: Vec::with_capacity(3 * n),
            heap: BinaryHeap::with_capacity(3 * n),
        };
        let mut right = queue.add(n - 1, self.values[n - 1], self.weights[n - 1], None, None);
        for i in (0..n - 1).rev() {
            right = queue.add(i, self.values[i], self.weights[i], None, Some(right));
        }
        let mut count = n;
        while count > self.max_buckets {
            let Some(Reverse(Key(_, _, current))) = queue.heap.pop() else {
                break;
            };
            if !queue.entries[current].valid {
                continue;
            }
            // The last bucket's penalty is infinite, so the first valid one has a right.
            let Some(right) = queue.entries[current].right else {
                break;
            };
            count -= 1;
            // Polled, it leaves the queue: the merged entry takes its place.
            queue.entries[current].valid = false;
            let (c, r) = (&queue.entries[current], &queue.entries[right]);
            let weight = c.weight + r.weight;
            let value = (c.value * c.weight + r.value * r.weight) / weight;
            let (id, left, beyond) = (c.id, c.left, r.right);
            queue.entries[right].valid = false;
            let merged = queue.add(id, value, weight, None, beyond);
            if let Some(left) = left {
                queue.entries[left].valid = false;
                let l = &queue.entries[left];
                let (l_id, l_value, l_weight, l_left) = (l.id, l.value, l.weight, l.left);
                queue.add(l_id, l_value, l_weight, l_left, Some(merged));
            }
        }
        let mut kept: Vec<(f64, f64)> = queue
            .entries
            .iter()
            .filter(|e| e.valid)
            .map(|e| (e.value, e.weight))
            .collect();
        kept.sort_by(|a, b| compare(a.0, b.0));
        self.values = kept.iter().map(|p| p.0).collect();
        self.weights = kept.iter().map(|p| p.1).collect();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Trino 476: numeric_histogram(3, x) over 1, 2, 5, 6, 10 is {1.5: 2, 5.5: 2, 10: 1}.
    #[test]
    fn merges_the_cheapest_neighbours_as_trino() {
        let mut h = NumericHistogram::new(3);
        for x in [1.0, 2.0, 5.0, 6.0, 10.0] {
            h.add(x, 1.0);
        }
        assert_eq!(h.buckets(), vec![(1.5, 2.0), (5.5, 2.0), (10.0, 1.0)]);
    }

    #[test]
    fn weights_pull_the_merged_value() {
        // numeric_histogram(2, x, w): {1.3333333333333333: 3.0, 6.6: 5.0}.
        let mut h = NumericHistogram::new(2);
        for (x, w) in [(1.0, 2.0), (2.0, 1.0), (5.0, 1.0), (6.0, 3.0), (10.0, 1.0)] {
            h.add(x, w);
        }
        assert_eq!(h.buckets(), vec![(4.0 / 3.0, 3.0), (6.6, 5.0)]);
    }
}
