//! A session property's value as SET SESSION and WITH SESSION take it: a literal, checked
//! against the property's type as Trino 476 checks it ("Unable to set session property 'p' to
//! ''5'': Cannot cast type varchar(1) to integer"; a malformed duration at its value), and an
//! unknown name refused where Trino refuses it (at the value; a catalog that does not exist
//! first, as CATALOG_NOT_FOUND: the stand-in's catalogs have no session properties).

use sqlparser::tokenizer::{Token, TokenWithSpan};

use super::{
    Kind, TIME_ZONE_ID, below_minimum, check_value, does_not_exist, parse_duration, property,
};
use crate::error::{ErrorName, Position, TrinoError};
use crate::sql::syntax::token::at;
use crate::types::TrinoType;

/// Whether `name` is a property the stand-in knows (or the session's time zone).
pub(super) fn known(name: &str) -> bool {
    name == TIME_ZONE_ID || property(name).is_some()
}

/// The error of an unknown property `name` at `at`: its catalog's absence first.
pub(super) fn unknown(name: &str, at: Position, is_catalog: &dyn Fn(&str) -> bool) -> TrinoError {
    match name.split_once('.') {
        Some((catalog, _)) if !is_catalog(catalog) => TrinoError::at(
            ErrorName::CatalogNotFound,
            at,
            format!("Catalog '{catalog}' not found"),
        ),
        _ => does_not_exist(Some(at), name),
    }
}

/// The value property `name` is set to by the literal `tokens` (at `value_at`), as the
/// property holds it; `clause` names the statement in a refusal of a non-literal.
pub(super) fn checked_value(
    name: &str,
    tokens: &[TokenWithSpan],
    value_at: Position,
    is_catalog: &dyn Fn(&str) -> bool,
    clause: &str,
) -> Result<String, TrinoError> {
    let known = (name == TIME_ZONE_ID).then_some(Kind::Varchar);
    let Some(kind) = known.or_else(|| property(name).map(|p| p.kind)) else {
        return Err(unknown(name, value_at, is_catalog));
    };
    let (value, shown, ty) = literal(tokens, clause)?;
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
    match property(name) {
        None => {
            // The session's zone: one Trino knows.
            querymesh_functions::datetime::time_zone::sqlite::zone(&value)
                .map(|z| z.id)
                .map_err(|m| TrinoError::at(ErrorName::InvalidSessionProperty, value_at, m))
        }
        Some(_) if kind == Kind::Duration && parse_duration(&value).is_none() => {
            Err(TrinoError::at(
                ErrorName::InvalidSessionProperty,
                value_at,
                format!("duration is not a valid data duration string: {value}"),
            ))
        }
        Some(p) => {
            if let Some(error) = below_minimum(p, &value, value_at) {
                return Err(error);
            }
            check_value(p, &value)
                .map_err(|m| TrinoError::new(ErrorName::InvalidSessionProperty, m))
        }
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
fn literal(
    tokens: &[TokenWithSpan],
    clause: &str,
) -> Result<(String, String, Literal), TrinoError> {
    let refused = || {
        TrinoError::at(
            ErrorName::NotSupported,
            tokens.first().map_or(Position { line: 1, column: 1 }, at),
            format!("{clause} takes literal values in the QueryMesh stand-in"),
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
