//! `WITH SESSION name = value [, …] query` (Trino 476, docs sql/select.md "WITH SESSION"): the
//! query runs with these session properties set, for itself only. Checked as Trino 476 checks
//! them: an unknown name at its value ("Session property 'x' does not exist"), a name twice
//! ("… already set", at the second), a value of another type than the property's ("Unable to
//! set session property 'p' to ''5'': Cannot cast type varchar(1) to integer"), a malformed
//! duration at its value. Values are literals here (Trino takes constant expressions).

use sqlparser::tokenizer::{Token, TokenWithSpan};

use super::{Kind, TIME_ZONE_ID, check_value, does_not_exist, property};
use crate::SessionContext;
use crate::error::{ErrorName, Position, TrinoError};
use crate::sql::syntax::token::{at, end_of, mismatched, qualified_name, upper_word};
use crate::types::TrinoType;

/// The statement's properties and the position of its query, if `tokens` (significant ones)
/// start with `WITH SESSION`: the session with them set, and the token index the query
/// starts at.
pub fn with_session(
    tokens: &[TokenWithSpan],
    sql: &str,
    session: &SessionContext,
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
        let (value, shown, ty) = literal(entry.value)?;
        let name = entry.name;
        let known = (name == TIME_ZONE_ID).then_some(Kind::Varchar);
        let Some(kind) = known.or_else(|| property(&name).map(|p| p.kind)) else {
            return Err(does_not_exist(Some(value_at), &name));
        };
        if set.iter().any(|(n, _)| *n == name) {
            return Err(TrinoError::at(
                ErrorName::InvalidSessionProperty,
                at(entry.name_token),
                format!("Session property '{name}' already set"),
            ));
        }
        if !accepts(kind, ty) {
            return Err(TrinoError::new(
                ErrorName::InvalidSessionProperty,
                format!(
                    "Unable to set session property '{name}' to '{shown}': Cannot cast type {} to {}",
                    ty.name(&value),
                    kind.type_name()
                ),
            ));
        }
        let value = match property(&name) {
            None => {
                // The session's zone: one Trino knows.
                querymesh_functions::datetime::time_zone::sqlite::zone(&value)
                    .map(|z| z.id)
                    .map_err(|m| TrinoError::at(ErrorName::InvalidSessionProperty, value_at, m))?
            }
            Some(_) if kind == Kind::Duration && super::parse_duration(&value).is_none() => {
                return Err(TrinoError::at(
                    ErrorName::InvalidSessionProperty,
                    value_at,
                    format!("duration is not a valid data duration string: {value}"),
                ));
            }
            Some(p) => {
                if let Some(error) = super::below_minimum(p, &value, value_at) {
                    return Err(error);
                }
                check_value(p, &value)
                    .map_err(|m| TrinoError::new(ErrorName::InvalidSessionProperty, m))?
            }
        };
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

/// A literal's type, as far as a property's type cares.
#[derive(Clone, Copy, PartialEq)]
enum Literal {
    Text,
    Integer,
    Decimal,
    Double,
    Boolean,
}

impl Literal {
    /// Trino's name of the literal's type, for the message.
    fn name(self, value: &str) -> String {
        let ty = match self {
            Literal::Text => TrinoType::Varchar(Some(
                u32::try_from(value.chars().count()).unwrap_or(u32::MAX),
            )),
            Literal::Integer if value.parse::<i32>().is_ok() => TrinoType::Integer,
            Literal::Integer => TrinoType::BigInt,
            Literal::Decimal => {
                let digits = value.replace(['.', '-'], "");
                let scale = value.split_once('.').map_or(0, |(_, f)| f.len());
                let precision = digits.trim_start_matches('0').len().max(scale).max(1);
                TrinoType::Decimal {
                    precision: u8::try_from(precision).unwrap_or(u8::MAX),
                    scale: u8::try_from(scale).unwrap_or(u8::MAX),
                }
            }
            Literal::Double => TrinoType::Double,
            Literal::Boolean => TrinoType::Boolean,
        };
        ty.display_name()
    }
}

/// The value (as a property holds it), its text as written, and its type; a value that is
/// not a literal is refused (Trino evaluates constant expressions there).
fn literal(tokens: &[TokenWithSpan]) -> Result<(String, String, Literal), TrinoError> {
    let refused = || {
        TrinoError::at(
            ErrorName::NotSupported,
            tokens.first().map_or(Position { line: 1, column: 1 }, at),
            "WITH SESSION takes literal values in the QueryMesh stand-in",
        )
    };
    let (sign, token) = match tokens {
        [only] => ("", only),
        [sign, number] if sign.token == Token::Minus => ("-", number),
        [sign, number] if sign.token == Token::Plus => ("", number),
        _ => return Err(refused()),
    };
    match &token.token {
        Token::SingleQuotedString(s) if sign.is_empty() && tokens.len() == 1 => Ok((
            s.clone(),
            format!("'{}'", s.replace('\'', "''")),
            Literal::Text,
        )),
        Token::Number(n, _) => {
            let n = format!("{sign}{n}");
            let ty = if n.contains(['e', 'E']) {
                Literal::Double
            } else if n.contains('.') {
                Literal::Decimal
            } else if n.parse::<i64>().is_ok() {
                Literal::Integer
            } else {
                return Err(TrinoError::at(
                    ErrorName::SyntaxError,
                    at(&tokens[0]),
                    format!("Invalid numeric literal: {n}"),
                ));
            };
            // Trino prints the value as its literal: `DECIMAL '2.5'`.
            let shown = match ty {
                Literal::Decimal => format!("DECIMAL '{n}'"),
                _ => n.clone(),
            };
            Ok((n, shown, ty))
        }
        Token::Word(w)
            if tokens.len() == 1
                && w.quote_style.is_none()
                && ["TRUE", "FALSE"].contains(&w.value.to_ascii_uppercase().as_str()) =>
        {
            let value = w.value.to_ascii_lowercase();
            Ok((value, w.value.to_ascii_uppercase(), Literal::Boolean))
        }
        _ => Err(refused()),
    }
}

/// Whether a literal of type `ty` coerces to the property's type (Trino's implicit casts).
fn accepts(kind: Kind, ty: Literal) -> bool {
    match kind {
        Kind::Boolean => ty == Literal::Boolean,
        Kind::Integer | Kind::Bigint => ty == Literal::Integer,
        Kind::Double => matches!(ty, Literal::Integer | Literal::Decimal | Literal::Double),
        Kind::Duration | Kind::Varchar => ty == Literal::Text,
    }
}
