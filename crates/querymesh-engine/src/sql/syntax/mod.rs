//! The first stage: Trino SQL text as tokens, checked and rewritten where sqlparser's grammar
//! is not Trino's, ready for sqlparser to parse (the statements stage reads the statement's
//! kind from the same tokens).
//!
//! - [`dialect`]: Trino's dialect for sqlparser's tokenizer and parser.
//! - `token`: the one copy of the token helpers the passes and the statements share;
//!   `cursor`: the statements' reader over them.
//! - Checks, refusing what Trino's grammar refuses where sqlparser is more lenient: `lexical`
//!   (reserved words as aliases, chained predicates, identifiers starting with a digit, a
//!   CALL without a procedure name), `row_count` (LIMIT / OFFSET / FETCH).
//! - Rewrites, each Trino spelling sqlparser cannot read made one it reads to the same tree,
//!   every added token carrying the place of those it stands for: `respell`, `cast_types`
//!   (complex types in CAST), `json_syntax` (the SQL/JSON functions' clauses), `json_table`
//!   (JSON_TABLE in FROM, its names and plan checked), `table_functions` (table arguments
//!   and descriptors).
//!
//! The analysis reads the rewrites' marks back (`cast_types::placeholder_type`,
//! `json_syntax::marker_text`, `respell::literal_type`, `json_table::Shape`,
//! `table_functions::MARK`).

pub(crate) mod cast_types;
mod corresponding;
pub(crate) mod cursor;
pub mod dialect;
pub(crate) mod json_syntax;
pub(crate) mod json_table;
pub(crate) mod lexical;
pub(crate) mod respell;
pub(crate) mod routines;
mod row_count;
pub(crate) mod table_functions;
pub(crate) mod token;
mod unicode_strings;
pub(crate) mod wildcard_aliases;

use sqlparser::parser::ParserError;
use sqlparser::tokenizer::{Token, TokenWithSpan, Tokenizer};

use crate::error::{ErrorName, Position, TrinoError, error_at};
use dialect::TrinoDialect;
use token::end_of;

/// All tokens (for the parser) and the significant ones (for the checks before parsing).
pub(crate) fn tokenize(sql: &str) -> Result<(Vec<TokenWithSpan>, Vec<TokenWithSpan>), TrinoError> {
    let mut all = Tokenizer::new(&TrinoDialect, sql)
        .tokenize_with_location()
        .map_err(|e| syntax_error(ParserError::TokenizerError(e.to_string()), sql))?;
    unicode_strings::decode(&mut all)?;
    unicode_strings::split_separated_exponents(&mut all)?;
    let significant = all
        .iter()
        .filter(|t| token::is_significant(t))
        .cloned()
        .collect();
    Ok((all, significant))
}

/// What Trino's lexer refuses of a statement as a whole: nothing at all, a second statement
/// after `;`, and `==`; `tokens` are the significant ones. The statement's first token.
pub(crate) fn check_one_statement(tokens: &[TokenWithSpan]) -> Result<&TokenWithSpan, TrinoError> {
    let Some(first) = tokens.first() else {
        return Err(TrinoError::at(
            ErrorName::SyntaxError,
            Position::new(1, 1),
            "mismatched input '<EOF>'. Expecting: 'SELECT', 'WITH', 'VALUES', 'SHOW', 'DESCRIBE'",
        ));
    };
    // Trino takes exactly one statement, without a terminating semicolon (an inline routine's
    // body, EXPLAINed here, holds its own: the routines' reader checks them).
    let routines = tokens.windows(2).any(routines::recognise);
    if let Some(semi) = tokens
        .iter()
        .find(|t| t.token == Token::SemiColon)
        .filter(|_| !routines)
    {
        return Err(TrinoError::at(
            ErrorName::SyntaxError,
            Position::from(semi.span.start),
            "mismatched input ';'. Expecting: <EOF>",
        ));
    }
    // Trino's lexer has no `==`: it reads `=` `=` and refuses the second.
    if let Some(double) = tokens.iter().find(|t| t.token == Token::DoubleEq) {
        let at = Position::from(double.span.start);
        return Err(TrinoError::at(
            ErrorName::SyntaxError,
            Position::new(at.line, at.column + 1),
            "mismatched input '='. Expecting: <expression>",
        ));
    }
    Ok(first)
}

/// The checks of a query's tokens before parsing, then the rewrites of `all_tokens` (every
/// token, whitespace included) into what sqlparser parses.
pub(crate) fn prepare_query(
    sql: &str,
    all_tokens: &mut Vec<TokenWithSpan>,
    tokens: &[TokenWithSpan],
) -> Result<(), TrinoError> {
    row_count::check_row_count_clauses(tokens, sql)?;
    crate::sql::limits::check_chains(tokens)?;
    respell::respell(all_tokens);
    corresponding::rewrite(all_tokens)?;
    wildcard_aliases::rewrite(all_tokens);
    cast_types::replace_cast_types(all_tokens);
    json_table::rewrite(all_tokens)?;
    json_syntax::rewrite(all_tokens);
    table_functions::rewrite(all_tokens);
    Ok(())
}

/// The rewrites an expression alone takes (a row filter or column mask of the rules file).
pub(crate) fn prepare_expression(all_tokens: &mut Vec<TokenWithSpan>) {
    respell::respell(all_tokens);
    cast_types::replace_cast_types(all_tokens);
    json_syntax::rewrite(all_tokens);
}

/// sqlparser's error as Trino's SYNTAX_ERROR.
pub(crate) fn syntax_error(e: ParserError, sql: &str) -> TrinoError {
    syntax_error_near(e, sql, None)
}

/// [`syntax_error`], placed at `fallback` when sqlparser's message names no place:
/// `Expected: X, found: Y at Line: L, Column: C` → `line L:C: mismatched input 'Y'. Expecting: X`.
pub(crate) fn syntax_error_near(
    e: ParserError,
    sql: &str,
    fallback: Option<Position>,
) -> TrinoError {
    let message = match e {
        ParserError::ParserError(m) | ParserError::TokenizerError(m) => m,
        ParserError::RecursionLimitExceeded => return crate::sql::limits::too_large(),
    };
    let (text, location) = match message.rsplit_once(" at Line: ") {
        Some((text, loc)) => {
            let mut nums = loc
                .split(", Column: ")
                .map(|n| n.trim().parse::<u64>().ok());
            let line = nums.next().flatten();
            let column = nums.next().flatten();
            (
                text.to_string(),
                line.zip(column).map(|(l, c)| Position::new(l, c)),
            )
        }
        None => (message.clone(), fallback),
    };
    // sqlparser's "Expected an expression, found: FROM" (a select list left empty) places
    // itself at the token after FROM; `fallback` has found FROM itself.
    let (text, location) = match text.strip_prefix("Expected an expression, found: ") {
        Some(found) => (
            format!("Expected: <expression>, found: {found}"),
            fallback.or(location),
        ),
        None => (text, location),
    };
    let text = match text
        .strip_prefix("Expected: ")
        .and_then(|t| t.rsplit_once(", found: "))
    {
        Some((expected, "EOF")) => {
            return TrinoError::at(
                ErrorName::SyntaxError,
                end_of(sql),
                format!("mismatched input '<EOF>'. Expecting: {expected}"),
            );
        }
        Some((expected, found)) => {
            // Trino names the end of the statement <EOF>.
            let expected = expected.replace("end of statement", "<EOF>");
            format!("mismatched input '{found}'. Expecting: {expected}")
        }
        None => text,
    };
    error_at(ErrorName::SyntaxError, location, text)
}

/// The byte offset of a 1-based (line, column-in-characters) position.
pub(crate) fn byte_offset(text: &str, Position { line, column }: Position) -> usize {
    let mut offset = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i as u64 + 1 == line {
            return offset
                + l.char_indices()
                    .nth(column.saturating_sub(1) as usize)
                    .map(|(b, _)| b)
                    .unwrap_or(l.len());
        }
        offset += l.len();
    }
    text.len()
}
