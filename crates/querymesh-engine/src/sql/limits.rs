//! How large a statement may be, so that no statement can overflow a thread's stack.
//!
//! Trino's parser turns a `StackOverflowError` into `line 1:1: statement is too large (stack
//! overflow while parsing)`, a SYNTAX_ERROR (trinodb/trino `SqlParser.invokeParser`;
//! `TestSqlParser.testStackOverflowStatement` feeds it thousands of `x = y OR …`). Rust cannot
//! catch an overflow, so the stand-in refuses with the same error before one could happen:
//!
//! - sqlparser bounds its own recursion (a nesting of parentheses, functions, subqueries…),
//!   but builds a chain of operators (`1 + 1 + …`, `a AND b AND …`, `… UNION ALL …`) in a
//!   loop, as a tree as deep as the chain is long, which every later walk of the tree
//!   (spans, the analysis, dropping it) would follow down. [`check_chains`] bounds those
//!   chains from the tokens, before parsing, to [`MAX_CHAIN`].
//! - The analysis walks binary operator chains and set operations in loops; everything else
//!   it recurses into is guarded by [`StackBudget`], which measures the stack it has used.
//!
//! Queries run on threads with 2 MiB stacks (tokio's workers and blocking pool), and the
//! analysis happens on an async worker; the bounds leave room for the caller's frames in an
//! unoptimised build, where frames are largest.

use sqlparser::keywords::Keyword;
use sqlparser::tokenizer::{Token, TokenWithSpan};

use crate::error::{ErrorName, Position, TrinoError};

/// The longest chain of operators (or of set operations) a statement may hold along one path
/// of its syntax tree; real queries stay far below it. Dropping a tree this deep fits a
/// worker's stack with room to spare in a debug build (tests/sandbox/querymesh/statement_limits/in_the_engine.rs
/// runs the deepest on a 2 MiB thread; they pass on 1.25 MiB too), and the analysis finds
/// positions without following a chain down (analyze.rs `location`).
pub const MAX_CHAIN: usize = 4_000;

/// The stack the analysis may use at least, measured from where it starts: half a worker's.
/// On a stack grown for a deep statement ([`with_stack_for`]) it may use all but
/// [`STACK_MARGIN`] of what is left.
const ANALYSIS_STACK_BYTES: usize = 1 << 20;

/// What the analysis leaves of a grown stack for the frames it returns through.
const STACK_MARGIN: usize = 256 << 10;

/// The deepest nesting a statement may have (parentheses and brackets, CASE … END, runs of
/// prefix operators): Trino 476's parser takes about 1,469 parentheses or CASTs, 717 CASEs,
/// 675 nested function calls, 383 derived tables (measured: its JVM stack decides), and
/// refuses deeper with `statement is too large`.
pub const MAX_NESTING: usize = 1_500;

/// sqlparser's recursion limit: a level of nesting costs it one to three.
pub const PARSER_RECURSION_LIMIT: usize = 4 * MAX_NESTING;

/// Nesting up to this is planned on the caller's stack, as any statement was before; an
/// unoptimised analysis takes several times the stack per level.
const SHALLOW: usize = if cfg!(debug_assertions) { 8 } else { 20 };

/// The stack a level of nesting may take in sqlparser and the analysis: a subquery costs the
/// analysis about 20 KiB optimised, several times that unoptimised (the debug build CI's parity
/// run uses).
const STACK_PER_LEVEL: usize = if cfg!(debug_assertions) {
    160 << 10
} else {
    64 << 10
};

/// The least a grown stack holds: enough that [`StackBudget`] knows it for a grown one and
/// lets the analysis use it all.
const GROWN_AT_LEAST: usize = 8 << 20;

/// How deep `tokens` (the significant ones) nest their syntax tree, estimated from above:
/// the open parentheses, brackets and CASEs, plus the run of prefix operators (`- - 1`,
/// `NOT NOT x`) at each point.
pub fn nesting(tokens: &[TokenWithSpan]) -> usize {
    let (mut depth, mut deepest, mut prefixes) = (0usize, 0usize, 0usize);
    let mut operand_expected = true;
    for t in tokens {
        let word = |k: Keyword| matches!(&t.token, Token::Word(w) if w.quote_style.is_none() && w.keyword == k);
        let prefix = operand_expected
            && (matches!(t.token, Token::Minus | Token::Plus) || word(Keyword::NOT));
        prefixes = if prefix { prefixes + 1 } else { 0 };
        match &t.token {
            Token::LParen | Token::LBracket => depth += 1,
            Token::RParen | Token::RBracket => depth = depth.saturating_sub(1),
            _ if word(Keyword::CASE) => depth += 1,
            _ if word(Keyword::END) => depth = depth.saturating_sub(1),
            _ => {}
        }
        deepest = deepest.max(depth + prefixes);
        operand_expected = !matches!(
            t.token,
            Token::Number(..) | Token::SingleQuotedString(_) | Token::RParen | Token::RBracket
        ) && !matches!(&t.token, Token::Word(w) if w.keyword == Keyword::NoKeyword || w.quote_style.is_some());
    }
    deepest
}

/// Refuses a statement nested deeper than [`MAX_NESTING`], as Trino's parser would.
pub fn check_nesting(nesting: usize) -> Result<(), TrinoError> {
    if nesting > MAX_NESTING {
        return Err(too_large());
    }
    Ok(())
}

/// `f` (the parse and analysis of a statement `nesting` deep) on a stack that holds it: a
/// shallow statement on the caller's, a deep one on a segment grown for it (stacker), so a
/// deep statement is planned as Trino would plan it and none can overflow a worker's stack.
pub fn with_stack_for<R>(nesting: usize, f: impl FnOnce() -> R) -> R {
    if nesting <= SHALLOW {
        return f();
    }
    stacker::grow(GROWN_AT_LEAST + nesting * STACK_PER_LEVEL, f)
}

/// The most terms the stand-in puts in one compound SELECT; longer runs of one set operation
/// become a tree of compounds of at most this many. SQLite takes at most 500
/// (`SQLITE_MAX_COMPOUND_SELECT`) and recurses once per term (about 1 KiB each), and into a
/// term's subquery from within that recursion, so only a tree keeps its stack shallow.
pub const SQLITE_COMPOUND_TERMS: usize = 100;

/// The deepest container a result column may hold. A row's values come back from SQLite as
/// JSON text and are read with serde_json, which stops at 128 levels: a deeper value answered
/// null, silently. Refused instead, before it runs.
pub const MAX_OUTPUT_DEPTH: usize = 127;

/// Refuses a statement whose output holds containers nested deeper than [`MAX_OUTPUT_DEPTH`].
pub fn check_output_depth(columns: &[crate::OutputColumn]) -> Result<(), TrinoError> {
    let Some((column, depth)) = columns
        .iter()
        .map(|c| (c, c.ty.depth()))
        .find(|(_, depth)| *depth > MAX_OUTPUT_DEPTH)
    else {
        return Ok(());
    };
    Err(TrinoError::new(
        ErrorName::NotSupported,
        format!(
            "The QueryMesh stand-in answers arrays, maps and rows nested at most \
             {MAX_OUTPUT_DEPTH} deep: column {} nests {depth}",
            column.name
        ),
    ))
}

/// Trino's refusal of a statement its parser's stack cannot hold.
pub fn too_large() -> TrinoError {
    TrinoError::at(
        ErrorName::SyntaxError,
        Position::new(1, 1),
        "statement is too large (stack overflow while parsing)",
    )
}

/// A token that sqlparser may fold into the chain to its left (an infix or postfix
/// operator), counted generously: any symbol but brackets and separators, and the keywords
/// that continue an expression.
fn continues_expression(t: &Token) -> bool {
    match t {
        Token::Word(w) => {
            w.quote_style.is_none()
                && matches!(
                    w.keyword,
                    Keyword::AND
                        | Keyword::OR
                        | Keyword::XOR
                        | Keyword::IS
                        | Keyword::IN
                        | Keyword::NOT
                        | Keyword::BETWEEN
                        | Keyword::LIKE
                        | Keyword::ILIKE
                        | Keyword::SIMILAR
                        | Keyword::RLIKE
                        | Keyword::REGEXP
                        | Keyword::AT
                        | Keyword::COLLATE
                        | Keyword::OVERLAPS
                        | Keyword::DIV
                        | Keyword::MEMBER
                        | Keyword::OPERATOR
                        | Keyword::ESCAPE
                )
        }
        Token::Number(..)
        | Token::Char(_)
        | Token::SingleQuotedString(_)
        | Token::DoubleQuotedString(_)
        | Token::NationalStringLiteral(_)
        | Token::EscapedStringLiteral(_)
        | Token::HexStringLiteral(_)
        | Token::Placeholder(_)
        | Token::Comma
        | Token::Period
        | Token::LParen
        | Token::RParen
        | Token::SemiColon
        | Token::Whitespace(_)
        | Token::EOF => false,
        _ => true,
    }
}

fn is_set_operator(t: &Token) -> bool {
    matches!(t, Token::Word(w) if w.quote_style.is_none()
        && matches!(w.keyword, Keyword::UNION | Keyword::INTERSECT | Keyword::EXCEPT | Keyword::MINUS))
}

/// Refuses a statement whose operator chains could nest its syntax tree deeper than
/// [`MAX_CHAIN`]; `tokens` are the significant ones.
///
/// A chain never crosses a comma or a parenthesis of its own level, but its operands may
/// hold chains of their own: the bound of a comma-separated segment is its operators, plus
/// the set operations of its parenthesized group, plus the bound of the segment the group
/// opened in.
pub fn check_chains(tokens: &[TokenWithSpan]) -> Result<(), TrinoError> {
    struct Segment {
        /// The segment the enclosing `(` stands in.
        outer: Option<usize>,
        group: usize,
        operators: usize,
    }
    let mut segments = vec![Segment {
        outer: None,
        group: 0,
        operators: 0,
    }];
    // Set operations per parenthesized group; the open groups' current segments.
    let mut set_operations = vec![0usize];
    let mut open = vec![0usize];
    for t in tokens {
        let current = open.last().copied().unwrap_or(0);
        match &t.token {
            Token::LParen => {
                set_operations.push(0);
                segments.push(Segment {
                    outer: Some(current),
                    group: set_operations.len() - 1,
                    operators: 0,
                });
                open.push(segments.len() - 1);
            }
            Token::RParen if open.len() > 1 => {
                open.pop();
            }
            Token::Comma => {
                let (outer, group) = (segments[current].outer, segments[current].group);
                segments.push(Segment {
                    outer,
                    group,
                    operators: 0,
                });
                if let Some(top) = open.last_mut() {
                    *top = segments.len() - 1;
                }
            }
            token if is_set_operator(token) => {
                set_operations[segments[current].group] += 1;
            }
            token if continues_expression(token) => segments[current].operators += 1,
            _ => {}
        }
    }
    // A segment's outer segment comes before it, so one pass in order sums each path.
    let mut depth = vec![0usize; segments.len()];
    for (i, s) in segments.iter().enumerate() {
        let outer = s.outer.map_or(0, |o| depth[o]);
        depth[i] = outer + 1 + s.operators + set_operations[s.group];
        if depth[i] > MAX_CHAIN {
            return Err(too_large());
        }
    }
    Ok(())
}

/// The stack an analysis has used, measured against the address of a local at its start
/// (stacks grow down on every platform the sandbox builds for).
#[derive(Clone, Copy, Debug)]
pub struct StackBudget {
    base: usize,
    /// How much of the stack below `base` the analysis may use.
    budget: usize,
}

#[inline(always)]
fn stack_position() -> usize {
    let probe = 0u8;
    std::hint::black_box(&probe) as *const u8 as usize
}

impl StackBudget {
    pub fn start() -> Self {
        let left = stacker::remaining_stack().unwrap_or(0);
        Self {
            base: stack_position(),
            // A worker's own stack keeps the fixed share; a grown one is the statement's.
            budget: if left > 4 * ANALYSIS_STACK_BYTES {
                left - STACK_MARGIN
            } else {
                ANALYSIS_STACK_BYTES
            },
        }
    }

    /// [`too_large`] once the analysis has used its share of the stack.
    pub fn check(&self) -> Result<(), TrinoError> {
        if self.base.saturating_sub(stack_position()) > self.budget {
            return Err(too_large());
        }
        Ok(())
    }
}

/// SQLite's refusal of a statement beyond one of its compile-time limits (64 tables in a join,
/// 2000 columns, 1000 function arguments, …; its expression depth only where a build keeps
/// SQLite's guard, which this repository's `.cargo/config.toml` turns off), as
/// a Trino error: the query is at fault, not the server, so it is a USER_ERROR, and
/// NOT_SUPPORTED because Trino would run it where the stand-in cannot (Trino's
/// StandardErrorCode: "NOT_SUPPORTED", 13, USER_ERROR).
pub fn sqlite_limit(e: &rusqlite::Error) -> Option<TrinoError> {
    // SQLite's wording, and what the answer says instead: SQLite's message may name the
    // generated statement's aliases, which are not the person's.
    const LIMITS: &[(&str, &str)] = &[
        (
            "Expression tree is too large",
            "an expression nested too deep",
        ),
        ("nested too deep", "an expression nested too deep"),
        (
            "too many terms in compound SELECT",
            "too many UNION, INTERSECT or EXCEPT terms",
        ),
        ("too many FROM clause terms", "too many relations in FROM"),
        ("tables in a join", "more than 64 tables in one join"),
        ("too many columns", "too many columns"),
        (
            "too many arguments on function",
            "too many arguments to one function",
        ),
        ("too many references to", "too many references to one name"),
        ("Recursion limit", "recursion too deep"),
        ("parser stack overflow", "nesting too deep"),
        ("string or blob too big", "a value too long"),
        ("too many SQL variables", "too many parameters"),
    ];
    let message = match e {
        rusqlite::Error::SqliteFailure(failure, message) => {
            message.clone().unwrap_or_else(|| failure.to_string())
        }
        rusqlite::Error::SqlInputError { msg, .. } => msg.clone(),
        _ => return None,
    };
    // A function's own refusal (udf::decode_error) may quote an argument that reads like one.
    if message.contains("QM!") {
        return None;
    }
    let (_, what) = LIMITS
        .iter()
        .find(|(wording, _)| message.contains(wording))?;
    Some(TrinoError::new(
        ErrorName::NotSupported,
        format!(
            "The query is too large for the QueryMesh stand-in: it exceeds a limit of SQLite, which runs it ({what})"
        ),
    ))
}

#[cfg(test)]
mod tests {
    use sqlparser::tokenizer::{Token, Tokenizer};

    use super::*;
    use crate::sql::dialect::TrinoDialect;

    fn check(sql: &str) -> Result<(), TrinoError> {
        let tokens: Vec<TokenWithSpan> = Tokenizer::new(&TrinoDialect, sql)
            .tokenize_with_location()
            .expect("tokens")
            .into_iter()
            .filter(|t| !matches!(t.token, Token::Whitespace(_)))
            .collect();
        check_chains(&tokens)
    }

    fn chain(item: &str, sep: &str, n: usize) -> String {
        vec![item; n].join(sep)
    }

    #[test]
    fn a_chain_is_bounded_along_its_path() {
        assert!(check(&format!("SELECT {}", chain("1", "+", MAX_CHAIN - 1))).is_ok());
        assert_eq!(
            check(&format!("SELECT {}", chain("1", "+", MAX_CHAIN + 1))),
            Err(too_large())
        );
        // An operand's chain adds to the chain it stands in.
        let half = chain("x", " AND ", MAX_CHAIN / 2 + 1);
        assert!(check(&format!("SELECT ({half}) AND {half}")).is_err());
        assert!(check(&format!("SELECT ({half}), {half}")).is_ok());
        // Commas end a chain of operators, not one of set operations.
        let wide = chain("x + 1", ", ", MAX_CHAIN);
        assert!(check(&format!("SELECT {wide} FROM t")).is_ok());
        let unions = chain("SELECT a, b FROM t", " UNION ALL ", MAX_CHAIN + 1);
        assert!(check(&unions).is_err());
        assert!(check(&format!("SELECT 1 IN ({})", chain("1", ", ", 100_000))).is_ok());
    }
}
