//! A small bounded map that forgets its least recently used entry when full: the memory
//! behind the plan cache and the verified-token cache, both a few hundred entries, so finding
//! the entry to evict by a scan (only when inserting into a full map) costs less than keeping
//! a linked order on every hit.

use std::borrow::Borrow;
use std::collections::HashMap;
use std::hash::Hash;

pub struct Lru<K, V> {
    entries: HashMap<K, Entry<V>>,
    capacity: usize,
    /// Bumped on every use; an entry's `used` is the clock when it was last used.
    clock: u64,
}

struct Entry<V> {
    value: V,
    used: u64,
}

impl<K: Hash + Eq + Clone, V> Lru<K, V> {
    /// A map of at most `capacity` entries (at least one), growing as they come: the
    /// verified-token cache's full table is ~600 KB, for a sandbox that may see ten tokens.
    pub fn new(capacity: usize) -> Self {
        let capacity = capacity.max(1);
        Self {
            entries: HashMap::new(),
            capacity,
            clock: 0,
        }
    }

    pub fn get<Q>(&mut self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.clock += 1;
        let clock = self.clock;
        self.entries.get_mut(key).map(|entry| {
            entry.used = clock;
            &entry.value
        })
    }

    /// Inserts or replaces `key`, first evicting the least recently used entry when full.
    pub fn insert(&mut self, key: K, value: V) {
        self.clock += 1;
        if self.entries.len() >= self.capacity && !self.entries.contains_key(&key) {
            let oldest = self
                .entries
                .iter()
                .min_by_key(|(_, entry)| entry.used)
                .map(|(key, _)| key.clone());
            if let Some(oldest) = oldest {
                self.entries.remove(&oldest);
            }
        }
        let used = self.clock;
        self.entries.insert(key, Entry { value, used });
    }

    pub fn remove<Q>(&mut self, key: &Q)
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.entries.remove(key);
    }

    /// How many entries it holds.
    /// How many entries it holds now.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stays_within_its_capacity_and_evicts_the_least_recently_used() {
        let mut lru = Lru::new(3);
        for i in 0..3 {
            lru.insert(i, i * 10);
        }
        // 0 is used again, so 1 is now the least recently used.
        assert_eq!(lru.get(&0), Some(&0));
        lru.insert(3, 30);
        assert_eq!(lru.len(), 3);
        assert_eq!(lru.get(&1), None);
        assert_eq!(lru.get(&0), Some(&0));
        assert_eq!(lru.get(&2), Some(&20));
        assert_eq!(lru.get(&3), Some(&30));
        for i in 100..1_000 {
            lru.insert(i, i);
            assert!(lru.len() <= 3);
        }
        assert_eq!(lru.get(&999), Some(&999));
    }

    #[test]
    fn replacing_a_key_evicts_nothing() {
        let mut lru = Lru::new(2);
        lru.insert("a", 1);
        lru.insert("b", 2);
        lru.insert("a", 3);
        assert_eq!(lru.get("a"), Some(&3));
        assert_eq!(lru.get("b"), Some(&2));
        lru.remove("a");
        assert_eq!(lru.get("a"), None);
        assert_eq!(lru.len(), 1);
    }
}
