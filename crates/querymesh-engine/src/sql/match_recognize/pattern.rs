//! The row pattern of `PATTERN ( … )` as a tree, and the names of its primary pattern
//! variables (Trino docs, sql/match-recognize.md "Row pattern syntax").

use std::collections::BTreeSet;
use std::fmt;

/// A primary pattern variable: its index in the [`PatternLabels`] the pattern was parsed with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Label(pub u32);

impl Label {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The canonical names of the primary pattern variables, in index order. The caller may seed
/// it (with the DEFINE'd names, say); parsing a pattern adds the names it meets for the first
/// time, because a variable without a definition is legal and always true.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PatternLabels {
    names: Vec<String>,
}

impl PatternLabels {
    /// Labels with these canonical names (see [`canonical_name`]), in this order.
    pub fn new<I, S>(names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut labels = Self::default();
        for name in names {
            labels.resolve_or_add(&name.into());
        }
        labels
    }

    /// The label with this canonical name, added at the end if it is new.
    pub fn resolve_or_add(&mut self, canonical: &str) -> Label {
        if let Some(label) = self.find(canonical) {
            return label;
        }
        self.names.push(canonical.to_owned());
        Label(u32::try_from(self.names.len() - 1).unwrap_or(u32::MAX))
    }

    pub fn find(&self, canonical: &str) -> Option<Label> {
        let index = self.names.iter().position(|name| name == canonical)?;
        u32::try_from(index).ok().map(Label)
    }

    /// The canonical name, as `CLASSIFIER()` returns it.
    pub fn name(&self, label: Label) -> Option<&str> {
        self.names.get(label.index()).map(String::as_str)
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

/// A label's name as Trino compares it (`Identifier.getCanonicalValue`): an unquoted
/// identifier upper-cased, a delimited one (`"b"`) as written.
pub fn canonical_name(identifier: &str, delimited: bool) -> String {
    if delimited {
        identifier.to_owned()
    } else {
        identifier.to_ascii_uppercase()
    }
}

/// `^` and `$`: they match no row, only a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// `^`: before the partition's first row.
    PartitionStart,
    /// `$`: after the partition's last row.
    PartitionEnd,
}

/// How many times a sub-pattern repeats, and which count is preferred.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quantifier {
    pub min: u32,
    /// `None`: unbounded.
    pub max: Option<u32>,
    /// Greedy prefers more repetitions; reluctant (a trailing `?`) fewer.
    pub greedy: bool,
}

impl Quantifier {
    /// `*` (`*?` when not greedy).
    pub const fn zero_or_more(greedy: bool) -> Self {
        Self {
            min: 0,
            max: None,
            greedy,
        }
    }

    /// `+` (`+?`).
    pub const fn one_or_more(greedy: bool) -> Self {
        Self {
            min: 1,
            max: None,
            greedy,
        }
    }

    /// `?` (`??`).
    pub const fn zero_or_one(greedy: bool) -> Self {
        Self {
            min: 0,
            max: Some(1),
            greedy,
        }
    }

    /// `{n}`, `{n,}`, `{,m}`, `{n,m}` (each with a trailing `?` when not greedy).
    pub const fn range(min: u32, max: Option<u32>, greedy: bool) -> Self {
        Self { min, max, greedy }
    }
}

/// A row pattern. Parentheses only shape the tree: `((A) (B (C)))` is the concatenation of
/// `A`, `B` and `C`, as Trino's own syntax tree has it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RowPattern {
    Label(Label),
    /// `()`: matches no rows.
    Empty,
    Anchor(Anchor),
    Concatenation(Vec<RowPattern>),
    /// `A | B`: the leftmost alternative that leads to a match is preferred.
    Alternation(Vec<RowPattern>),
    /// `PERMUTE(A, B, …)`: every order, preferred in the lexicographic order of the list.
    Permutation(Vec<RowPattern>),
    /// `{- … -}`: matched as a group, left out of `ALL ROWS PER MATCH` output.
    Exclusion(Box<RowPattern>),
    Quantified {
        pattern: Box<RowPattern>,
        quantifier: Quantifier,
    },
}

impl RowPattern {
    pub fn quantified(pattern: RowPattern, quantifier: Quantifier) -> Self {
        Self::Quantified {
            pattern: Box::new(pattern),
            quantifier,
        }
    }

    pub fn excluded(pattern: RowPattern) -> Self {
        Self::Exclusion(Box::new(pattern))
    }

    /// The primary pattern variables it names.
    pub fn labels(&self) -> BTreeSet<Label> {
        let mut labels = BTreeSet::new();
        self.visit(&mut |node| {
            if let RowPattern::Label(label) = node {
                labels.insert(*label);
            }
        });
        labels
    }

    /// Whether it holds `{- … -}`, which `ALL ROWS PER MATCH WITH UNMATCHED ROWS` forbids
    /// ([`super::check_exclusions`]).
    pub fn has_exclusion(&self) -> bool {
        let mut found = false;
        self.visit(&mut |node| found |= matches!(node, RowPattern::Exclusion(_)));
        found
    }

    /// Whether it holds `^` or `$`, which a window's pattern may not.
    pub fn has_anchor(&self) -> bool {
        let mut found = false;
        self.visit(&mut |node| found |= matches!(node, RowPattern::Anchor(_)));
        found
    }

    pub(super) fn children(&self) -> &[RowPattern] {
        match self {
            RowPattern::Label(_) | RowPattern::Empty | RowPattern::Anchor(_) => &[],
            RowPattern::Concatenation(parts)
            | RowPattern::Alternation(parts)
            | RowPattern::Permutation(parts) => parts,
            RowPattern::Exclusion(pattern) | RowPattern::Quantified { pattern, .. } => {
                std::slice::from_ref(pattern.as_ref())
            }
        }
    }

    /// Every node, parents before children.
    fn visit(&self, action: &mut impl FnMut(&RowPattern)) {
        action(self);
        for child in self.children() {
            child.visit(action);
        }
    }
}

/// Trino's pattern syntax, with labels by index (`L0`, `L1`, …): for messages and tests.
impl fmt::Display for RowPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn list(f: &mut fmt::Formatter<'_>, parts: &[RowPattern], separator: &str) -> fmt::Result {
            for (index, part) in parts.iter().enumerate() {
                if index > 0 {
                    f.write_str(separator)?;
                }
                write!(f, "{part}")?;
            }
            Ok(())
        }
        match self {
            RowPattern::Label(label) => write!(f, "L{}", label.0),
            RowPattern::Empty => f.write_str("()"),
            RowPattern::Anchor(Anchor::PartitionStart) => f.write_str("^"),
            RowPattern::Anchor(Anchor::PartitionEnd) => f.write_str("$"),
            RowPattern::Concatenation(parts) => {
                f.write_str("(")?;
                list(f, parts, " ")?;
                f.write_str(")")
            }
            RowPattern::Alternation(parts) => {
                f.write_str("(")?;
                list(f, parts, " | ")?;
                f.write_str(")")
            }
            RowPattern::Permutation(parts) => {
                f.write_str("PERMUTE(")?;
                list(f, parts, ", ")?;
                f.write_str(")")
            }
            RowPattern::Exclusion(pattern) => write!(f, "{{- {pattern} -}}"),
            RowPattern::Quantified {
                pattern,
                quantifier,
            } => {
                write!(f, "{pattern}")?;
                match (quantifier.min, quantifier.max) {
                    (0, None) => f.write_str("*")?,
                    (1, None) => f.write_str("+")?,
                    (0, Some(1)) => f.write_str("?")?,
                    (min, None) => write!(f, "{{{min},}}")?,
                    (min, Some(max)) if min == max => write!(f, "{{{min}}}")?,
                    (min, Some(max)) => write!(f, "{{{min},{max}}}")?,
                }
                if !quantifier.greedy {
                    f.write_str("?")?;
                }
                Ok(())
            }
        }
    }
}
