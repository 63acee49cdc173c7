//! The pattern text: Trino's grammar (SqlBase.g4 `rowPattern`), label names as Trino
//! canonicalises them, and the messages of what it refuses (PatternRecognitionAnalyzer's for
//! quantifier bounds, the parser's for syntax).

use crate::sql::match_recognize::{
    Anchor, Label, PatternErrorKind, PatternLabels, Quantifier, RowPattern, parse_pattern,
};

fn parsed(text: &str) -> (RowPattern, PatternLabels) {
    let mut labels = PatternLabels::default();
    let pattern =
        parse_pattern(text, &mut labels).unwrap_or_else(|error| panic!("{text}: {error}"));
    (pattern, labels)
}

fn refused(text: &str) -> (PatternErrorKind, String) {
    let error = parse_pattern(text, &mut PatternLabels::default()).expect_err(text);
    (error.kind, error.message)
}

/// The brief's example and the docs': precedence (quantifier over concatenation over
/// alternation), every primary, labels numbered in order of first appearance.
#[test]
fn tree_of_a_full_pattern() {
    let (pattern, labels) = parsed("(A | B){2,3}? ^ {- C -} PERMUTE(A, B) $ ()");
    let [a, b, c] = [Label(0), Label(1), Label(2)];
    assert_eq!(labels, PatternLabels::new(["A", "B", "C"]));
    assert_eq!(
        pattern,
        RowPattern::Concatenation(vec![
            RowPattern::quantified(
                RowPattern::Alternation(vec![RowPattern::Label(a), RowPattern::Label(b)]),
                Quantifier::range(2, Some(3), false),
            ),
            RowPattern::Anchor(Anchor::PartitionStart),
            RowPattern::excluded(RowPattern::Label(c)),
            RowPattern::Permutation(vec![RowPattern::Label(a), RowPattern::Label(b)]),
            RowPattern::Anchor(Anchor::PartitionEnd),
            RowPattern::Empty,
        ])
    );
    assert_eq!(parsed("A B+ C+ D+").0.to_string(), "(L0 L1+ L2+ L3+)");
    assert_eq!(parsed("A B | C D").0.to_string(), "((L0 L1) | (L2 L3))");
}

/// Every quantifier and its reluctant form.
#[test]
fn quantifiers() {
    let cases = [
        ("A*", Quantifier::zero_or_more(true)),
        ("A*?", Quantifier::zero_or_more(false)),
        ("A+", Quantifier::one_or_more(true)),
        ("A+?", Quantifier::one_or_more(false)),
        ("A?", Quantifier::zero_or_one(true)),
        ("A??", Quantifier::zero_or_one(false)),
        ("A{3}", Quantifier::range(3, Some(3), true)),
        ("A{3}?", Quantifier::range(3, Some(3), false)),
        ("A{3,}", Quantifier::range(3, None, true)),
        ("A{,5}", Quantifier::range(0, Some(5), true)),
        ("A{ 2 , 5 }?", Quantifier::range(2, Some(5), false)),
        ("A{,}", Quantifier::range(0, None, true)),
        ("A{1_000}", Quantifier::range(1000, Some(1000), true)),
        ("A{0x10}", Quantifier::range(16, Some(16), true)),
    ];
    for (text, quantifier) in cases {
        assert_eq!(
            parsed(text).0,
            RowPattern::quantified(RowPattern::Label(Label(0)), quantifier),
            "{text}"
        );
    }
}

/// An unquoted name is upper-cased, a quoted one kept as written (testCaseSensitiveLabels);
/// names the caller knows keep their indices, new ones are added.
#[test]
fn label_names() {
    let mut labels = PatternLabels::new(["C", "b"]);
    let pattern = parse_pattern("a \"b\"+ c \"A\" \"x\"\"y\"", &mut labels).expect("parses");
    assert_eq!(labels, PatternLabels::new(["C", "b", "A", "x\"y"]));
    assert_eq!(pattern.to_string(), "(L2 L1+ L0 L2 L3)");
}

/// Comments and white space between tokens.
#[test]
fn comments_and_spaces() {
    let (pattern, _) = parsed("A /* first */ B -- then\n C");
    assert_eq!(pattern.to_string(), "(L0 L1 L2)");
}

/// PatternRecognitionAnalyzer's checks of range quantifiers, in its words and order.
#[test]
fn quantifier_bounds_refused() {
    let out_of_range = PatternErrorKind::NumericValueOutOfRange;
    let cases = [
        (
            "A{0}",
            out_of_range,
            "Pattern quantifier upper bound must be greater than or equal to 1",
        ),
        (
            "A{,0}",
            out_of_range,
            "Pattern quantifier upper bound must be greater than or equal to 1",
        ),
        (
            "A{2147483648}",
            out_of_range,
            "Pattern quantifier lower bound must not exceed 2147483647",
        ),
        (
            "A{1,2147483648}",
            out_of_range,
            "Pattern quantifier upper bound must not exceed 2147483647",
        ),
        (
            "A{3,2}",
            PatternErrorKind::InvalidRange,
            "Pattern quantifier lower bound must not exceed upper bound",
        ),
        // The first refused quantifier in the text is reported.
        (
            "A{3,2} B{0}",
            PatternErrorKind::InvalidRange,
            "Pattern quantifier lower bound must not exceed upper bound",
        ),
    ];
    for (text, kind, message) in cases {
        assert_eq!(refused(text), (kind, message.to_owned()), "{text}");
    }
    // Bounds that are fine.
    assert!(parse_pattern("A{2147483647} B{0,1}", &mut PatternLabels::default()).is_ok());
}

/// Syntax errors, reported before any bound error, with where they are.
#[test]
fn syntax_refused() {
    let syntax = PatternErrorKind::Syntax;
    let cases = [
        (
            "",
            "mismatched input '<EOF>'. Expecting: '$', '(', '^', '{-', 'PERMUTE', <identifier>",
        ),
        (
            "A |",
            "mismatched input '<EOF>'. Expecting: '$', '(', '^', '{-', 'PERMUTE', <identifier>",
        ),
        ("(A", "mismatched input '<EOF>'. Expecting: ')', '|'"),
        (
            "A )",
            "mismatched input ')'. Expecting: '|', <EOF>, '$', '(', '^', '{-', 'PERMUTE', <identifier>",
        ),
        (
            "A**",
            "mismatched input '*'. Expecting: '|', <EOF>, '$', '(', '^', '{-', 'PERMUTE', <identifier>",
        ),
        (
            "A???",
            "mismatched input '?'. Expecting: '|', <EOF>, '$', '(', '^', '{-', 'PERMUTE', <identifier>",
        ),
        ("{- A", "mismatched input '<EOF>'. Expecting: '-}', '|'"),
        (
            "PERMUTE()",
            "mismatched input ')'. Expecting: '$', '(', '^', '{-', 'PERMUTE', <identifier>",
        ),
        ("A{2 B", "mismatched input 'B'. Expecting: ',', '}'"),
        ("A{0} B{", "mismatched input '<EOF>'. Expecting: ',', '}'"),
        ("A - B", "token recognition error at: '-'"),
        (
            "A `b`",
            "backquoted identifiers are not supported; use double quotes to quote identifiers",
        ),
        ("A \"\"", "Zero-length delimited identifier not allowed"),
        (
            "1A",
            "identifiers must not start with a digit; surround the identifier with double quotes",
        ),
        (
            "A{99999999999999999999}",
            "Invalid numeric literal: 99999999999999999999",
        ),
    ];
    for (text, message) in cases {
        assert_eq!(refused(text), (syntax, message.to_owned()), "{text:?}");
    }
    let error = parse_pattern("A (B", &mut PatternLabels::default()).expect_err("refused");
    assert_eq!(error.offset, Some(4));
}

/// Nesting is bounded, so that no pattern can overflow the stack.
#[test]
fn nesting_bounded() {
    let deep = format!("{}A{}", "(".repeat(1000), ")".repeat(1000));
    let (kind, message) = refused(&deep);
    assert_eq!(kind, PatternErrorKind::TooLarge);
    assert_eq!(message, "Row pattern is nested more than 200 levels deep");
    let fine = format!("{}A{}", "(".repeat(150), ")*".repeat(150));
    assert!(parse_pattern(&fine, &mut PatternLabels::default()).is_ok());
}
