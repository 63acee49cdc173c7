//! `WITH SESSION name = value [, …] query` (Trino 476, docs sql/select.md "WITH SESSION"): the
//! query runs with these session properties set, for itself only. Checked as Trino 476 checks
//! them: an unknown name at its value ("Session property 'x' does not exist"), a name twice
//! ("… already set", at the second), a value of another type than the property's ("Unable to
//! set session property 'p' to ''5'': Cannot cast type varchar(1) to integer"), a malformed
//! duration at its value. Values are literals here (Trino takes constant expressions).

use sqlparser::tokenizer::{Token, TokenWithSpan};

use super::{Kind, TIME_ZONE_ID, check_value, does_not_exist, property};
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
) -> Result<Option<(SessionContext, usize)>, TrinoError> {
    if upper_word(tokens.first()).as_deref() != Some("WITH")
        || !matches!(tokens.get(1).map(|t| &t.token), Some(Token::Word(w))
            if w.quote_style.is_none() && w.value.eq_ignore_ascii_case("SESSION"))
    {
        return Ok(None);
    }
    // `WITH session AS (…)` and `WITH session (a) AS (…)` name a WITH query `session`.
    let property_follows = matches!(tokens.get(2).map(|t| &t.token), Some(Token::Word(w))
            if !(w.quote_style.is_none() && w.value.eq_ignore_ascii_case("AS")))
        && matches!(
            tokens.get(3).map(|t| &t.token),
            Some(Token::Eq | Token::Period)
        );
    if !property_follows {
        return Ok(None);
    }
    let end = end_of(sql);
    let mut set: Vec<(String, String)> = Vec::new();
    let mut i = 2;
    loop {
        let name_token = tokens.get(i);
        let (name, after) = qualified_name(tokens, i, end)?;
        if tokens.get(after).is_none_or(|t| t.token != Token::Eq) {
            return Err(mismatched(tokens.get(after), end, "'.', '='"));
        }
        let value_token = tokens.get(after + 1);
        let value_at = value_token.map(at);
        let (value, shown, ty) = literal(value_token).ok_or_else(|| {
            TrinoError::at(
                ErrorName::NotSupported,
                value_at.unwrap_or(end),
                "WITH SESSION takes literal values in the QueryMesh stand-in",
            )
        })?;
        let known = (name == TIME_ZONE_ID).then_some(Kind::Varchar);
        let kind = match known.or_else(|| property(&name).map(|p| p.kind)) {
            Some(kind) => kind,
            None => return Err(does_not_exist(value_at, &name)),
        };
        if set.iter().any(|(n, _)| *n == name) {
            return Err(TrinoError::at(
                ErrorName::InvalidSessionProperty,
                name_token.map_or(end, at),
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
            Some(p) if kind == Kind::Duration && super::parse_duration(&value).is_none() => {
                let _ = p;
                return Err(TrinoError::at(
                    ErrorName::InvalidSessionProperty,
                    value_at.unwrap_or(end),
                    format!("duration is not a valid data duration string: {value}"),
                ));
            }
            Some(p) => check_value(p, &value)
                .map_err(|m| TrinoError::new(ErrorName::InvalidSessionProperty, m))?,
            None => value,
        };
        set.push((name, value));
        i = after + 2;
        match tokens.get(i).map(|t| &t.token) {
            Some(Token::Comma) => i += 1,
            _ => break,
        }
    }
    let mut changed = session.clone();
    for (name, value) in set {
        changed.properties.retain(|(n, _)| *n != name);
        changed.properties.push((name, value));
    }
    Ok(Some((changed, i)))
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
        match self {
            Literal::Text => format!("varchar({})", value.chars().count()),
            Literal::Integer if value.parse::<i32>().is_ok() => "integer".into(),
            Literal::Integer => "bigint".into(),
            Literal::Decimal => {
                let digits = value.replace(['.', '-'], "");
                let scale = value.split_once('.').map_or(0, |(_, f)| f.len());
                format!(
                    "decimal({},{scale})",
                    digits.trim_start_matches('0').len().max(scale).max(1)
                )
            }
            Literal::Double => "double".into(),
            Literal::Boolean => "boolean".into(),
        }
    }
}

/// The value (as a property holds it), its text as written, and its type.
fn literal(token: Option<&TokenWithSpan>) -> Option<(String, String, Literal)> {
    match &token?.token {
        Token::SingleQuotedString(s) => Some((
            s.clone(),
            format!("'{}'", s.replace('\'', "''")),
            Literal::Text,
        )),
        Token::Number(n, _) => {
            let ty = if n.contains(['e', 'E']) {
                Literal::Double
            } else if n.contains('.') {
                Literal::Decimal
            } else {
                Literal::Integer
            };
            // Trino prints the value as its literal: `DECIMAL '2.5'`.
            let shown = match ty {
                Literal::Decimal => format!("DECIMAL '{n}'"),
                _ => n.clone(),
            };
            Some((n.clone(), shown, ty))
        }
        Token::Word(w)
            if w.quote_style.is_none()
                && ["TRUE", "FALSE"].contains(&w.value.to_ascii_uppercase().as_str()) =>
        {
            let value = w.value.to_ascii_lowercase();
            Some((
                value.clone(),
                w.value.to_ascii_uppercase(),
                Literal::Boolean,
            ))
        }
        _ => None,
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
