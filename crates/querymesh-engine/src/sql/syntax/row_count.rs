//! Trino's grammar for a query's row-count clauses, which sqlparser parses more leniently.
//!
//! Trino's `SqlBase.g4` (rule `queryNoWith`) fixes their order and shape:
//!
//! ```text
//! queryTerm [ORDER BY …] [OFFSET rowCount [ROW | ROWS]]
//!           [LIMIT (ALL | rowCount) | FETCH (FIRST | NEXT) [rowCount] (ROW | ROWS) (ONLY | WITH TIES)]
//! rowCount: INTEGER_VALUE | '?'
//! ```
//!
//! sqlparser also takes `LIMIT n OFFSET m`, `FETCH 5 ROWS ONLY`, `FETCH FIRST 5 ONLY`,
//! `FETCH FIRST 5 ROWS` and expressions as counts; Trino answers each with a SYNTAX_ERROR at
//! the first token its grammar cannot take (e.g. `line 1:31: mismatched input 'OFFSET'.
//! Expecting: <EOF>`), so the stand-in does too, before handing the text to sqlparser.
//!
//! LIMIT, OFFSET and FETCH are non-reserved words in Trino, so they are only taken for clauses
//! where the next token makes that certain (a row count, FIRST or NEXT): `SELECT limit FROM t`
//! still names a column.

use sqlparser::tokenizer::{Token, TokenWithSpan};

use super::token::{end_of, is_word, mismatched};
use crate::error::{Position, TrinoError};

/// `INTEGER_VALUE | '?'`: an integer literal (`5`, `1_000`, `0x1F`), or a placeholder.
fn is_row_count(t: Option<&TokenWithSpan>) -> bool {
    match t.map(|t| &t.token) {
        Some(Token::Number(n, _)) => crate::sql::analyze::literal::integer_literal(n).is_some(),
        Some(Token::Placeholder(p)) => p == "?",
        _ => false,
    }
}

/// A number that is not an integer (`5.5`, `1e3`): never a row count in Trino.
fn is_other_number(t: Option<&TokenWithSpan>) -> bool {
    matches!(t.map(|t| &t.token), Some(Token::Number(..))) && !is_row_count(t)
}

struct Checker<'t> {
    tokens: &'t [TokenWithSpan],
    /// Parenthesis depth before each token: inside a subquery the clause may only be followed
    /// by `)`, at the top by the end of the statement.
    depth: Vec<usize>,
    end: Position,
}

impl Checker<'_> {
    fn get(&self, i: usize) -> Option<&TokenWithSpan> {
        self.tokens.get(i)
    }

    fn mismatched(&self, i: usize, expecting: &str) -> TrinoError {
        mismatched(self.get(i), self.end, expecting)
    }

    /// What may end a query at token `i`: the statement's end, or the `)` of its subquery.
    fn end_of_query(&self, i: usize) -> &'static str {
        if self.depth.get(i).copied().unwrap_or(0) > 0 {
            "')'"
        } else {
            "<EOF>"
        }
    }

    /// After the whole row-count tail, only the end of the query may follow.
    fn expect_end(&self, i: usize, also: &str) -> Result<(), TrinoError> {
        match self.get(i).map(|t| &t.token) {
            None | Some(Token::RParen) => Ok(()),
            _ => Err(self.mismatched(i, &format!("{also}{}", self.end_of_query(i)))),
        }
    }

    /// `LIMIT (ALL | rowCount)` starting at `i`, followed by nothing of the query.
    fn limit(&self, i: usize) -> Result<(), TrinoError> {
        let count = self.get(i + 1);
        if is_other_number(count) {
            return Err(self.mismatched(i + 1, "'?', 'ALL', <integer>"));
        }
        if is_row_count(count) || is_word(count, "ALL") {
            return self.expect_end(i + 2, "");
        }
        Ok(())
    }

    /// `OFFSET rowCount [ROW | ROWS]` starting at `i`, then LIMIT, FETCH or the end.
    fn offset(&self, i: usize) -> Result<(), TrinoError> {
        let count = self.get(i + 1);
        if is_other_number(count) {
            return Err(self.mismatched(i + 1, "'?', <integer>"));
        }
        if !is_row_count(count) {
            return Ok(());
        }
        let mut next = i + 2;
        if is_word(self.get(next), "ROW") || is_word(self.get(next), "ROWS") {
            next += 1;
        }
        if is_word(self.get(next), "LIMIT") || is_word(self.get(next), "FETCH") {
            return Ok(());
        }
        self.expect_end(next, "'FETCH', 'LIMIT', ")
    }

    /// `FETCH (FIRST | NEXT) [rowCount] (ROW | ROWS) (ONLY | WITH TIES)` starting at `i`.
    fn fetch(&self, i: usize) -> Result<(), TrinoError> {
        let after = self.get(i + 1);
        let first = is_word(after, "FIRST") || is_word(after, "NEXT");
        let rows = |t| is_word(t, "ROW") || is_word(t, "ROWS");
        if !first {
            // `FETCH 5 …` or `FETCH ROWS …`: a clause without FIRST or NEXT.
            if is_row_count(after) || is_other_number(after) || rows(after) {
                return Err(self.mismatched(i + 1, "'FIRST', 'NEXT'"));
            }
            return Ok(());
        }
        let mut next = i + 2;
        if is_other_number(self.get(next)) {
            return Err(self.mismatched(next, "'?', 'ROW', 'ROWS', <integer>"));
        }
        let counted = is_row_count(self.get(next));
        if counted {
            next += 1;
        }
        if !rows(self.get(next)) {
            let expecting = if counted {
                "'ROW', 'ROWS'"
            } else {
                "'?', 'ROW', 'ROWS', <integer>"
            };
            return Err(self.mismatched(next, expecting));
        }
        next += 1;
        if is_word(self.get(next), "ONLY") {
            return self.expect_end(next + 1, "");
        }
        if is_word(self.get(next), "WITH") && is_word(self.get(next + 1), "TIES") {
            return self.expect_end(next + 2, "");
        }
        Err(self.mismatched(next, "'ONLY', 'WITH'"))
    }
}

/// Refuses row-count clauses Trino's grammar rejects; `tokens` are the significant ones.
pub fn check_row_count_clauses(tokens: &[TokenWithSpan], sql: &str) -> Result<(), TrinoError> {
    let mut depth = Vec::with_capacity(tokens.len());
    let mut open = 0usize;
    for t in tokens {
        if t.token == Token::RParen {
            open = open.saturating_sub(1);
        }
        depth.push(open);
        if t.token == Token::LParen {
            open += 1;
        }
    }
    let checker = Checker {
        tokens,
        depth,
        end: end_of(sql),
    };
    for i in 0..tokens.len() {
        // A word right after SELECT or a comma is a select item, not a clause.
        let item_position = i
            .checked_sub(1)
            .and_then(|p| tokens.get(p))
            .is_some_and(|p| p.token == Token::Comma || is_word(Some(p), "SELECT"));
        if item_position {
            continue;
        }
        let t = tokens.get(i);
        if is_word(t, "LIMIT") {
            checker.limit(i)?;
        } else if is_word(t, "OFFSET") {
            checker.offset(i)?;
        } else if is_word(t, "FETCH") {
            checker.fetch(i)?;
        }
    }
    Ok(())
}
