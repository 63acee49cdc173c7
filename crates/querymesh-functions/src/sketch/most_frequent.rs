//! stream-lib's `StreamSummary` (Metwally, Agrawal and El Abbadi's Space-Saving), as Trino's
//! `ApproximateMostFrequentHistogram` runs it for approx_most_frequent (docs
//! functions/aggregate): at most `capacity` counters; a value not counted yet takes over the
//! oldest counter of the smallest count when all are taken. Counters of one count form a
//! bucket, in the order they joined it; the top k are read from the largest count down,
//! each bucket oldest first — which decides the ties Trino keeps.

use std::collections::{BTreeMap, HashMap};
use std::hash::Hash;

#[derive(Clone, Debug)]
struct Counter<K> {
    item: K,
    count: i64,
    /// When it joined its bucket: a bucket lists its counters by this.
    joined: u64,
}

#[derive(Clone, Debug)]
pub struct StreamSummary<K> {
    capacity: usize,
    counters: Vec<Counter<K>>,
    by_item: HashMap<K, usize>,
    /// count → (joined → counter).
    buckets: BTreeMap<i64, BTreeMap<u64, usize>>,
    next_join: u64,
}

impl<K: Clone + Eq + Hash> StreamSummary<K> {
    pub fn new(capacity: usize) -> StreamSummary<K> {
        StreamSummary {
            capacity,
            counters: Vec::new(),
            by_item: HashMap::new(),
            buckets: BTreeMap::new(),
            next_join: 0,
        }
    }

    fn join(&mut self, at: usize, count: i64) {
        let joined = self.next_join;
        self.next_join += 1;
        self.counters[at].count = count;
        self.counters[at].joined = joined;
        self.buckets.entry(count).or_default().insert(joined, at);
    }

    fn leave(&mut self, at: usize) {
        let (count, joined) = (self.counters[at].count, self.counters[at].joined);
        if let Some(bucket) = self.buckets.get_mut(&count) {
            bucket.remove(&joined);
            if bucket.is_empty() {
                self.buckets.remove(&count);
            }
        }
    }

    /// Counts `item` `increment` more times (StreamSummary.offer). `false`: no counter could
    /// take it (a capacity of 0, which Trino fails on).
    pub fn offer(&mut self, item: K, increment: i64) -> bool {
        let at = match self.by_item.get(&item) {
            Some(&at) => at,
            None if self.counters.len() < self.capacity => {
                self.counters.push(Counter {
                    item: item.clone(),
                    count: 0,
                    joined: 0,
                });
                let at = self.counters.len() - 1;
                self.by_item.insert(item, at);
                self.join(at, 0);
                at
            }
            None => {
                let Some(oldest_of_min) = self
                    .buckets
                    .values()
                    .next()
                    .and_then(|bucket| bucket.values().next().copied())
                else {
                    return false;
                };
                let dropped =
                    std::mem::replace(&mut self.counters[oldest_of_min].item, item.clone());
                self.by_item.remove(&dropped);
                self.by_item.insert(item, oldest_of_min);
                oldest_of_min
            }
        };
        let count = self.counters[at].count.saturating_add(increment);
        self.leave(at);
        self.join(at, count);
        true
    }

    /// The `k` largest counters: by count, then oldest in their bucket first.
    pub fn top(&self, k: usize) -> Vec<(K, i64)> {
        self.buckets
            .iter()
            .rev()
            .flat_map(|(count, bucket)| {
                bucket
                    .values()
                    .map(move |at| (self.counters[*at].item.clone(), *count))
            })
            .take(k)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_exact_counts_within_capacity() {
        let mut s = StreamSummary::new(10);
        for v in [1, 2, 2, 3, 3, 3] {
            s.offer(v, 1);
        }
        assert_eq!(s.top(2), vec![(3, 3), (2, 2)]);
    }

    #[test]
    fn a_new_value_takes_over_the_oldest_smallest_counter() {
        let mut s = StreamSummary::new(2);
        for v in [1, 1, 2, 3] {
            s.offer(v, 1);
        }
        // 3 replaced 2 (count 1) and counts 2.
        assert_eq!(s.top(2), vec![(1, 2), (3, 2)]);
    }
}
