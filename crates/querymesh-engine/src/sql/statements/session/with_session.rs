//! `WITH SESSION name = value [, …] query` (Trino 476, docs sql/select.md "WITH SESSION"): the
//! query runs with these session properties set, for itself only. Checked as Trino 476 checks
//! them: an unknown name at its value ("Session property 'x' does not exist"), a name twice
//! ("… already set", at the second), a value of another type than the property's ("Unable to
//! set session property 'p' to ''5'': Cannot cast type varchar(1) to integer"), a malformed
//! duration at its value. Values are literals here (Trino takes constant expressions).

use sqlparser::tokenizer::{Token, TokenWithSpan};

use super::values::{checked_value, known};
use crate::SessionContext;
use crate::error::{ErrorName, TrinoError};
use crate::sql::syntax::token::{at, end_of, mismatched, qualified_name, upper_word};

/// The statement's properties and the position of its query, if `tokens` (significant ones)
/// start with `WITH SESSION`: the session with them set, and the token index the query
/// starts at.
pub fn with_session(
    tokens: &[TokenWithSpan],
    sql: &str,
    session: &SessionContext,
    is_catalog: &dyn Fn(&str) -> bool,
) -> Result<Option<(SessionContext, usize)>, TrinoError> {
    if upper_word(tokens.first()).as_deref() != Some("WITH")
        || !matches!(tokens.get(1).map(|t| &t.token), Some(Token::Word(w))
            if w.quote_style.is_none() && w.value.eq_ignore_ascii_case("SESSION"))
    {
        return Ok(None);
    }
    // `WITH session AS (…)` and `WITH session (a) AS (…)` name a WITH query `session`.
    let property_follows = matches!(tokens.get(2).map(|t| &t.token), Some(Token::Word(w))
            if !(w.quote_style.is_none() && w.value.eq_ignore_ascii_case("AS")));
    if !property_follows {
        return Ok(None);
    }
    let (entries, query) = read_entries(tokens, sql)?;
    let end = end_of(sql);
    let mut set: Vec<(String, String)> = Vec::new();
    for entry in entries {
        let value_at = entry.value.first().map_or(end, at);
        let name = entry.name;
        if set.iter().any(|(n, _)| *n == name) && known(&name) {
            return Err(TrinoError::at(
                ErrorName::InvalidSessionProperty,
                at(entry.name_token),
                format!("Session property '{name}' already set"),
            ));
        }
        let value = checked_value(&name, entry.value, value_at, is_catalog, "WITH SESSION")?;
        set.push((name, value));
    }
    if tokens.get(query).is_none() {
        return Err(mismatched(None, end, "',', 'WITH', <query>"));
    }
    let mut changed = session.clone();
    for (name, value) in set {
        changed.properties.retain(|(n, _)| *n != name);
        changed.properties.push((name, value));
    }
    Ok(Some((changed, query)))
}

/// One `name = value` of the clause, as written.
struct Entry<'t> {
    name: String,
    name_token: &'t TokenWithSpan,
    /// The value's tokens: a literal, maybe signed.
    value: &'t [TokenWithSpan],
}

/// The clause's entries and the index of the token its query starts at, read as Trino's
/// grammar reads them (its syntax errors come before any check of a property).
fn read_entries<'t>(
    tokens: &'t [TokenWithSpan],
    sql: &str,
) -> Result<(Vec<Entry<'t>>, usize), TrinoError> {
    let end = end_of(sql);
    let mut entries = Vec::new();
    let mut i = 2;
    loop {
        let Some(name_token) = tokens.get(i) else {
            return Err(mismatched(None, end, "<identifier>"));
        };
        // A query's first word is no property's name.
        let reserved = matches!(&name_token.token, Token::Word(w) if w.quote_style.is_none()
            && ["SELECT", "WITH", "VALUES", "TABLE"]
                .iter()
                .any(|k| w.value.eq_ignore_ascii_case(k)));
        if reserved || !matches!(name_token.token, Token::Word(_)) {
            return Err(mismatched(Some(name_token), end, "<identifier>"));
        }
        let (name, after) = qualified_name(tokens, i, end)?;
        if tokens.get(after).is_none_or(|t| t.token != Token::Eq) {
            return Err(mismatched(tokens.get(after), end, "'.', '='"));
        }
        let start = after + 1;
        let signed = matches!(
            tokens.get(start).map(|t| &t.token),
            Some(Token::Minus | Token::Plus)
        );
        let value_end = start + usize::from(signed) + 1;
        if tokens.get(value_end - 1).is_none() {
            return Err(mismatched(None, end, "<expression>"));
        }
        entries.push(Entry {
            name,
            name_token,
            value: &tokens[start..value_end],
        });
        i = value_end;
        if tokens.get(i).is_some_and(|t| t.token == Token::Comma) {
            i += 1;
            continue;
        }
        let starts_query = match tokens.get(i).map(|t| &t.token) {
            None => true,
            Some(Token::LParen) => true,
            Some(_) => matches!(
                upper_word(tokens.get(i)).as_deref(),
                Some("SELECT" | "WITH" | "VALUES" | "TABLE")
            ),
        };
        if !starts_query {
            // An expression (`5 + 1`) Trino evaluates; the stand-in takes literals.
            let operator = matches!(
                tokens.get(i).map(|t| &t.token),
                Some(
                    Token::Plus
                        | Token::Minus
                        | Token::Mul
                        | Token::Div
                        | Token::Mod
                        | Token::StringConcat
                )
            );
            if operator {
                return Err(TrinoError::at(
                    ErrorName::NotSupported,
                    entries.last().and_then(|e| e.value.first()).map_or(end, at),
                    "WITH SESSION takes literal values in the QueryMesh stand-in",
                ));
            }
            return Err(mismatched(tokens.get(i), end, "',', 'WITH', <query>"));
        }
        return Ok((entries, i));
    }
}
