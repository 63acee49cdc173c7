//! The rewrites Trino's planner applies to a pattern before compiling it (the rule
//! OptimizeRowPattern: IrRowPatternFlattener, then IrPatternAlternationOptimizer, until
//! nothing changes). They keep what matches, but they shape the program, and with it which
//! partial matches meet at the same instruction and are pruned, so they are reproduced here.

use super::pattern::{Quantifier, RowPattern};

/// `pattern` as Trino compiles it.
pub fn normalize(pattern: &RowPattern) -> RowPattern {
    let mut current = pattern.clone();
    loop {
        let next = replace_empty_alternatives(flatten(&current, false));
        if next == current {
            return next;
        }
        current = next;
    }
}

/// Nested exclusions dropped (the outermost one decides what is left out), nested
/// alternations and concatenations inlined, empty parts removed where they change nothing.
fn flatten(pattern: &RowPattern, in_exclusion: bool) -> RowPattern {
    let children = |parts: &[RowPattern]| -> Vec<RowPattern> {
        parts
            .iter()
            .map(|part| flatten(part, in_exclusion))
            .collect()
    };
    match pattern {
        RowPattern::Label(_) | RowPattern::Anchor(_) | RowPattern::Empty => pattern.clone(),
        RowPattern::Exclusion(inner) => {
            let inner = flatten(inner, true);
            if in_exclusion {
                inner
            } else {
                RowPattern::excluded(inner)
            }
        }
        RowPattern::Alternation(parts) => {
            let mut flat = Vec::new();
            for part in children(parts) {
                match part {
                    RowPattern::Alternation(nested) => flat.extend(nested),
                    other => flat.push(other),
                }
            }
            // An empty alternative after the first can never be chosen: the first wins.
            let mut seen_empty = false;
            flat.retain(|part| {
                let redundant = seen_empty && *part == RowPattern::Empty;
                seen_empty |= *part == RowPattern::Empty;
                !redundant
            });
            if flat == [RowPattern::Empty] {
                return RowPattern::Empty;
            }
            RowPattern::Alternation(flat)
        }
        RowPattern::Concatenation(parts) => {
            let mut flat = Vec::new();
            for part in children(parts) {
                match part {
                    RowPattern::Concatenation(nested) => flat.extend(nested),
                    RowPattern::Empty => {}
                    other => flat.push(other),
                }
            }
            collapse(flat, RowPattern::Concatenation)
        }
        RowPattern::Permutation(parts) => {
            let flat = children(parts)
                .into_iter()
                .filter(|part| *part != RowPattern::Empty)
                .collect();
            collapse(flat, RowPattern::Permutation)
        }
        RowPattern::Quantified {
            pattern,
            quantifier,
        } => match flatten(pattern, in_exclusion) {
            RowPattern::Empty => RowPattern::Empty,
            inner => RowPattern::quantified(inner, *quantifier),
        },
    }
}

/// No parts: empty; one part: that part.
fn collapse(mut parts: Vec<RowPattern>, combine: fn(Vec<RowPattern>) -> RowPattern) -> RowPattern {
    match parts.len() {
        0 => RowPattern::Empty,
        1 => parts.pop().unwrap_or(RowPattern::Empty),
        _ => combine(parts),
    }
}

/// An empty alternative becomes a `?` on its neighbour: `() | A` is `A??` (empty preferred),
/// `A | ()` is `A?`, `A | B | () | C` is `A | B? | C`.
fn replace_empty_alternatives(pattern: RowPattern) -> RowPattern {
    let rewrite_all =
        |parts: Vec<RowPattern>| parts.into_iter().map(replace_empty_alternatives).collect();
    match pattern {
        RowPattern::Label(_) | RowPattern::Anchor(_) | RowPattern::Empty => pattern,
        RowPattern::Exclusion(inner) => RowPattern::excluded(replace_empty_alternatives(*inner)),
        RowPattern::Concatenation(parts) => RowPattern::Concatenation(rewrite_all(parts)),
        RowPattern::Permutation(parts) => RowPattern::Permutation(rewrite_all(parts)),
        RowPattern::Quantified {
            pattern,
            quantifier,
        } => RowPattern::quantified(replace_empty_alternatives(*pattern), quantifier),
        RowPattern::Alternation(parts) => {
            let mut parts: Vec<RowPattern> = rewrite_all(parts);
            let Some(empty) = parts.iter().position(|part| *part == RowPattern::Empty) else {
                return RowPattern::Alternation(parts);
            };
            parts.remove(empty);
            // The neighbour is the next part when the empty one leads, the previous otherwise.
            let (neighbour, greedy) = if empty == 0 {
                (0, false)
            } else {
                (empty - 1, true)
            };
            if let Some(part) = parts.get_mut(neighbour) {
                let taken = std::mem::replace(part, RowPattern::Empty);
                *part = RowPattern::quantified(taken, Quantifier::zero_or_one(greedy));
            }
            collapse(parts, RowPattern::Alternation)
        }
    }
}
