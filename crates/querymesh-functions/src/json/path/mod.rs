//! The SQL/JSON path language of json_exists, json_value and json_query (docs functions/json
//! "JSON path language"), as far as the stand-in goes: the `lax` / `strict` mode; `$`;
//! literals; member accessors `.key`, `."key"`, `.*` and `..key`; array accessors `[i]`,
//! `[i to j]`, `[last]`, `[last - n]`, `[*]`; filters `?( … )` with comparisons
//! (`== <> != < > <= >=`) of `@`-paths and literals, `&&`, `||`, `!`, `exists( … )`,
//! `starts with`; the item methods `size()`, `type()`, `double()`, `abs()`, `floor()`,
//! `ceiling()`; arithmetic `+ - * / %` and unary minus (bigints exactly, other numbers as
//! doubles); named variables `$name` (PASSING values, also as subscripts). `like_regex`,
//! `keyvalue()` and `datetime()` are refused at analysis with NOT_SUPPORTED rather than
//! answered differently.
//!
//! RFC 9535 JSONPath crates do not fit: they have no lax mode (automatic unwrapping and
//! wrapping of arrays, suppressed structural errors), no `last` or `to` ranges, and filters
//! of another syntax, so a translation could not keep Trino's answers.
//!
//! Lax mode (docs "JSON path modes"): an accessor that needs an object unnests an array one
//! level; one that needs an array wraps a non-array; a missing member or element is skipped.
//! Strict mode makes each of those a structural error.
//!
//! This file holds the path's tree (what a path text reads as); `parser` reads a text into it
//! (and finds its variables), `eval` runs it over a [`Json`] value.

use crate::json::sqlite::Json;

mod eval;
mod parser;

pub use parser::variable_names;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Lax,
    Strict,
}

#[derive(Clone, Debug, PartialEq)]
enum Index {
    At(i64),
    /// `last - n`
    Last(i64),
    /// `$name`: a PASSING value (an integer).
    Var(String),
}

#[derive(Clone, Debug, PartialEq)]
enum Subscript {
    One(Index),
    Range(Index, Index),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Method {
    Size,
    Type,
    Double,
    Abs,
    Floor,
    Ceiling,
}

#[derive(Clone, Debug, PartialEq)]
enum Step {
    Member(String),
    AnyMember,
    Descendant(String),
    Elements(Vec<Subscript>),
    AnyElement,
    Filter(Predicate),
    Method(Method),
}

/// A primary and its accessors: `$…`, `@…` or a literal.
#[derive(Clone, Debug, PartialEq)]
struct Expr {
    start: Start,
    steps: Vec<Step>,
}

#[derive(Clone, Debug, PartialEq)]
enum Start {
    Root,
    Current,
    Literal(Json),
    /// `$name`, a PASSING value.
    Var(String),
    /// `( … )`
    Paren(Box<Expr>),
    /// `a + b`, `a * b`, …: one number each side, in SQL semantics.
    Arith(Box<Expr>, char, Box<Expr>),
    /// `-a`: every item negated.
    Neg(Box<Expr>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cmp {
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
}

#[derive(Clone, Debug, PartialEq)]
enum Predicate {
    And(Box<Predicate>, Box<Predicate>),
    Or(Box<Predicate>, Box<Predicate>),
    Not(Box<Predicate>),
    Exists(Expr),
    Compare(Expr, Cmp, Expr),
    StartsWith(Expr, Expr),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Path {
    pub mode: Mode,
    expr: Expr,
}

/// A path the stand-in cannot read: where (a char offset into the path text) and why.
#[derive(Debug, PartialEq)]
pub enum PathError {
    /// Trino's parser would refuse it too: `mismatched input '…'`.
    Syntax(usize, String),
    /// Valid SQL/JSON, beyond what the stand-in evaluates.
    Unsupported(usize, String),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(path: &str, input: &str) -> Result<Vec<String>, String> {
        let p = Path::parse(path).map_err(|e| format!("{e:?}"))?;
        let j = Json::parse(input).ok_or_else(|| "input".to_string())?;
        Ok(p.evaluate(&j)?.iter().map(Json::compact).collect())
    }

    #[test]
    fn accessors_in_lax_and_strict_mode() {
        let input = r#"["a", "b", "c"]"#;
        assert_eq!(run("lax $[1]", input), Ok(vec![r#""b""#.to_string()]));
        assert_eq!(
            run("lax $[2 to 100]", input),
            Ok(vec![r#""c""#.to_string()])
        );
        assert_eq!(
            run("strict $[100]", input),
            Err("invalid array subscript: [100, 100] for array of size 3".into())
        );
        assert_eq!(run("lax $[last]", input), Ok(vec![r#""c""#.to_string()]));
        assert_eq!(run("lax $[last - 1, 0]", input).map(|v| v.len()), Ok(2));
        // docs: lax unwraps arrays for member accessors, wraps non-arrays for subscripts.
        let objects = r#"[{"customer": 100, "region": "AFRICA"}, {"region": "ASIA"}]"#;
        assert_eq!(run("lax $.customer", objects), Ok(vec!["100".to_string()]));
        assert!(run("strict $.customer", objects).is_err());
        assert_eq!(run("lax $.region[0]", objects).map(|v| v.len()), Ok(2));
        assert_eq!(
            run("lax $?(@.region != \"ASIA\").customer", objects),
            Ok(vec!["100".to_string()])
        );
        assert_eq!(
            run("lax $?(!exists(@.customer)).region", objects),
            Ok(vec![r#""ASIA""#.to_string()])
        );
        // TestJsonQueryFunction.testDescendantMemberAccessor
        assert_eq!(
            run(
                "lax $..c",
                r#"{"a" : {"b" : 1}, "c" :  [true, {"c" : {"c" : null}}]}"#
            ),
            Ok(vec![
                r#"[true,{"c":{"c":null}}]"#.to_string(),
                r#"{"c":null}"#.to_string(),
                "null".to_string()
            ])
        );
        assert_eq!(run("lax $.size()", "[0, 1, 2]"), Ok(vec!["3".to_string()]));
        assert_eq!(run("lax 1", "{}"), Ok(vec!["1".to_string()]));
    }

    #[test]
    fn refusals_and_syntax_errors() {
        assert!(matches!(
            Path::parse("certainly not a valid path"),
            Err(PathError::Syntax(0, m)) if m == "mismatched input 'certainly' expecting {'lax', 'strict'}"
        ));
        assert_eq!(
            variable_names(r#"lax $a + $.b ? (@ == "$x") + $c1"#),
            vec!["a", "c1"]
        );
        assert_eq!(run("lax $.a + 1", r#"{"a": 2}"#), Ok(vec!["3".to_string()]));
        assert_eq!(
            run("strict ($.a * 2.5)", r#"{"a": 2}"#),
            Ok(vec!["5.0".to_string()])
        );
        assert_eq!(
            run("lax -$[*]", "[1, -2]"),
            Ok(vec!["-1".to_string(), "2".to_string()])
        );
        assert!(run("lax 1000000000000 * 1000000000000", "{}").is_err());
        assert!(run("lax $[*] + 1", "[1, 2]").is_err());
        assert!(run("lax 1 / 0", "{}").is_err());
        assert!(matches!(
            Path::parse("lax $.keyvalue()"),
            Err(PathError::Unsupported(..))
        ));
        assert!(matches!(Path::parse("lax $["), Err(PathError::Syntax(..))));
        assert!(matches!(Path::parse("lax"), Err(PathError::Syntax(..))));
    }
}
