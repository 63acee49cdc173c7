//! The compiled program (TestIrRowPatternToProgramRewriter) and the rewrites before it
//! (IrRowPatternFlattener's and IrPatternAlternationOptimizer's documented examples). The
//! layout is what makes preference and pruning Trino's, so it is pinned instruction by
//! instruction.

use crate::sql::match_recognize::{
    Instruction, Label, PatternLabels, Program, Quantifier, RowPattern, parse_pattern,
};

/// `A`…`E` are labels 0…4, as in Trino's test.
fn labels() -> PatternLabels {
    PatternLabels::new(["A", "B", "C", "D", "E"])
}

fn render(program: &Program, labels: &PatternLabels) -> String {
    let words: Vec<String> = program
        .instructions()
        .iter()
        .map(|instruction| match instruction {
            Instruction::MatchLabel(label) => labels.name(*label).unwrap_or("?").to_owned(),
            Instruction::Split { first, second } => format!("split({first},{second})"),
            Instruction::Jump(target) => format!("jump({target})"),
            Instruction::Save => "save".to_owned(),
            Instruction::MatchStart => "start".to_owned(),
            Instruction::MatchEnd => "end".to_owned(),
            Instruction::Done => "done".to_owned(),
        })
        .collect();
    words.join(" ")
}

fn compiled(pattern: &str) -> String {
    let mut labels = labels();
    let pattern = parse_pattern(pattern, &mut labels).expect("parses");
    render(&Program::compile(&pattern).expect("compiles"), &labels)
}

#[test]
fn single_forms() {
    assert_eq!(compiled("A"), "A done");
    assert_eq!(compiled("()"), "done");
    assert_eq!(compiled("^"), "start done");
    assert_eq!(compiled("$"), "end done");
    assert_eq!(compiled("{- A -}"), "save A save done");
    assert_eq!(compiled("A B"), "A B done");
    assert_eq!(compiled("A B C D"), "A B C D done");
}

#[test]
fn alternation_and_permutation() {
    assert_eq!(compiled("A | B"), "split(1,3) A jump(4) B done");
    assert_eq!(
        compiled("A | B | C | D"),
        "split(1,3) A jump(10) split(4,6) B jump(10) split(7,9) C jump(10) D done"
    );
    assert_eq!(compiled("PERMUTE(A, B)"), "split(1,4) A B jump(6) B A done");
    assert_eq!(
        compiled("PERMUTE(A, B, C)"),
        "split(1,5) A B C jump(28) split(6,10) A C B jump(28) split(11,15) B A C jump(28) \
         split(16,20) B C A jump(28) split(21,25) C A B jump(28) C B A done"
    );
}

#[test]
fn quantifiers() {
    let cases = [
        ("A*", "split(1,3) A split(1,3) done"),
        ("A*?", "split(3,1) A split(3,1) done"),
        ("A+", "A split(0,2) done"),
        ("A+?", "A split(2,0) done"),
        ("A?", "split(1,2) A done"),
        ("A??", "split(2,1) A done"),
        ("A{0,}", "split(1,3) A split(1,3) done"),
        ("A{,}?", "split(3,1) A split(3,1) done"),
        ("A{3,}", "A A A split(2,4) done"),
        ("A{3,}?", "A A A split(4,2) done"),
        ("A{,3}", "split(1,6) A split(3,6) A split(5,6) A done"),
        ("A{0,3}?", "split(6,1) A split(6,3) A split(6,5) A done"),
        ("A{3}", "A A A done"),
        ("A{3,3}?", "A A A done"),
        ("A{2,4}", "A A split(3,6) A split(5,6) A done"),
        ("A{2,4}?", "A A split(6,3) A split(6,5) A done"),
    ];
    for (pattern, expected) in cases {
        assert_eq!(compiled(pattern), expected, "PATTERN ({pattern})");
    }
    // `{0,0}` cannot be written (its upper bound is refused), but compiles to nothing.
    let never = RowPattern::quantified(
        RowPattern::Label(Label(0)),
        Quantifier::range(0, Some(0), true),
    );
    let program = Program::compile(&never).expect("compiles");
    assert_eq!(render(&program, &labels()), "done");
}

/// The rewrites: nested alternations and concatenations inlined, empty parts dropped,
/// nested exclusions merged, an empty alternative turned into `?` on its neighbour.
#[test]
fn rewrites_before_compiling() {
    let cases = [
        (
            "A | (B | C)",
            "split(1,3) A jump(7) split(4,6) B jump(7) C done",
        ),
        ("A (() B)", "A B done"),
        ("() (() A)", "A done"),
        ("(() ()) ()", "done"),
        ("PERMUTE((), A)", "A done"),
        ("PERMUTE((), ())", "done"),
        ("()*", "done"),
        ("{- {- A -} B -}", "save A B save done"),
        // (A | ()) → A?; (() | A) → A??
        ("A | ()", "split(1,2) A done"),
        ("() | A", "split(2,1) A done"),
        // A | () | B → A? | B, after dropping redundant empty alternatives.
        (
            "(A | ()) | ((() | B) | ())",
            "split(1,4) split(2,3) A jump(5) B done",
        ),
        ("() | A | B", "split(1,4) split(3,2) A jump(5) B done"),
    ];
    for (pattern, expected) in cases {
        let expected: String = expected.split_whitespace().collect::<Vec<_>>().join(" ");
        assert_eq!(compiled(pattern), expected, "PATTERN ({pattern})");
    }
}

/// What may be bounded is: PERMUTE of many parts and huge repetitions are refused, not
/// compiled into millions of instructions.
#[test]
fn oversized_programs_are_refused() {
    for pattern in [
        "PERMUTE(A, B, C, D, E, F, G, H, I, J)",
        "A{200000}",
        "(A{1000}){1000}",
    ] {
        let mut labels = labels();
        let parsed = parse_pattern(pattern, &mut labels).expect("parses");
        let error = Program::compile(&parsed).expect_err("too large");
        assert!(error.message.contains("too large"), "{pattern}: {error}");
    }
}
