//! Room in the in-memory stores that people and clients fill (pending sign-ins, codes, SSO and
//! platform sessions, custom people): each holds at most so many entries, and the oldest goes
//! when a new one needs its place, so no flood of sign-ins grows the process without bound.

use std::collections::HashMap;
use std::hash::Hash;

/// The key of the entry with the smallest `age` (the oldest), if `map` holds `max` or more.
pub fn evictable<K: Clone + Eq + Hash, V>(
    map: &HashMap<K, V>,
    max: usize,
    age: impl Fn(&V) -> u64,
) -> Option<K> {
    if map.len() < max {
        return None;
    }
    map.iter()
        .min_by_key(|(_, v)| age(v))
        .map(|(k, _)| k.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_full_map_gives_up_its_oldest() {
        let mut map = HashMap::from([("b", 2), ("a", 1), ("c", 3)]);
        assert_eq!(evictable(&map, 4, |v| *v), None);
        assert_eq!(evictable(&map, 3, |v| *v), Some("a"));
        map.remove("a");
        assert_eq!(evictable(&map, 2, |v| *v), Some("b"));
    }
}
