//! The session a statement changes and the session properties: `SET SESSION name = value`,
//! `RESET SESSION name` and `SHOW SESSION [LIKE pattern]` (Trino's SetSessionTask,
//! ResetSessionTask and ShowQueriesRewrite).
//!
//! As in Trino, the server keeps no session: SET answers `X-Trino-Set-Session: name=value`,
//! RESET `X-Trino-Clear-Session: name`, and the client sends the values back in
//! `X-Trino-Session` with every query. The properties are Trino 476's system session
//! properties (statements/session/properties.rs), with Trino's types and defaults; an unknown name is
//! refused as Trino refuses it.
//! `query_max_run_time` and `query_max_execution_time` take effect (the lower of them and the
//! sandbox's own `[querymesh] query_time_limit_secs` stops the query); the others describe a
//! distributed engine the stand-in doesn't have, so setting them changes nothing but
//! SHOW SESSION.

use std::time::Duration;

use querymesh_values::typed::Constant;
use serde_json::Value;
use sqlparser::ast::DateTimeField;
use sqlparser::tokenizer::{Token, TokenWithSpan};

mod properties;
mod values;
pub mod with_session;

use crate::error::{ErrorName, Position, TrinoError};
use crate::sql::syntax::token::{at, end_of, mismatched, qualified_name, upper_word};
use crate::sql::{Body, Plan};
use crate::types::TrinoType;
use crate::{OutputColumn, SessionContext};
use properties::PROPERTIES;

/// The session change a statement asks the client to make.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SessionUpdate {
    /// USE: `catalog` only when the statement named one, as Trino sets `setCatalog`.
    Use {
        catalog: Option<String>,
        schema: String,
    },
    SetProperty {
        name: String,
        value: String,
    },
    ResetProperty {
        name: String,
    },
    /// SET ROLE ALL | NONE: the system role the client is to send (`X-Trino-Set-Role:
    /// system=ALL`).
    SetRole {
        role: String,
    },
    /// A statement that changed nothing, as Trino's `DROP TABLE IF EXISTS` of a missing table
    /// ends: no session change, Trino's `updateType`.
    Nothing {
        update_type: &'static str,
    },
}

impl SessionUpdate {
    /// The `updateType` Trino reports for the statement.
    pub fn update_type(&self) -> &'static str {
        match self {
            Self::Use { .. } => "USE",
            Self::SetProperty { name, .. } if name == TIME_ZONE_ID => "SET TIME ZONE",
            Self::SetProperty { .. } => "SET SESSION",
            Self::ResetProperty { .. } => "RESET SESSION",
            Self::SetRole { .. } => "SET ROLE",
            Self::Nothing { update_type } => update_type,
        }
    }
}

#[derive(Clone, Copy, PartialEq)]
pub(super) enum Kind {
    Boolean,
    Integer,
    Bigint,
    Double,
    /// A varchar holding a duration (`100.00d`), checked as one.
    Duration,
    Varchar,
}

impl Kind {
    /// The type SHOW SESSION names (a duration is a varchar in Trino).
    fn type_name(self) -> &'static str {
        match self {
            Kind::Boolean => "boolean",
            Kind::Integer => "integer",
            Kind::Bigint => "bigint",
            Kind::Double => "double",
            Kind::Duration | Kind::Varchar => "varchar",
        }
    }
}

pub(super) struct Property {
    pub(super) name: &'static str,
    pub(super) kind: Kind,
    pub(super) default: &'static str,
    pub(super) description: &'static str,
}

/// The stand-in unrolls a recursive WITH query this many steps at most (the SQL grows with it).
pub const MAX_RECURSION_DEPTH: usize = 100;

fn property(name: &str) -> Option<&'static Property> {
    PROPERTIES.iter().find(|p| p.name == name)
}

fn does_not_exist(at: Option<Position>, name: &str) -> TrinoError {
    let message = format!("Session property '{name}' does not exist");
    match at {
        Some(at) => TrinoError::at(ErrorName::InvalidSessionProperty, at, message),
        None => TrinoError::new(ErrorName::InvalidSessionProperty, message),
    }
}

/// A Trino duration (`30s`, `1.5m`, `100.00d`; airlift's Duration.valueOf).
pub fn parse_duration(text: &str) -> Option<Duration> {
    let text = text.trim();
    let split = text.find(|c: char| c.is_ascii_alphabetic())?;
    let (number, unit) = text.split_at(split);
    let value: f64 = number
        .trim()
        .parse()
        .ok()
        .filter(|v: &f64| v.is_finite() && *v >= 0.0)?;
    let seconds = match unit {
        "ns" => 1e-9,
        "us" => 1e-6,
        "ms" => 1e-3,
        "s" => 1.0,
        "m" => 60.0,
        "h" => 3600.0,
        "d" => 86400.0,
        _ => return None,
    };
    Duration::try_from_secs_f64(value * seconds).ok()
}

/// Trino's own bounds of a property's value, checked where the value stands
/// (SystemSessionProperties' validators; each message checked against Trino 476).
fn below_minimum(p: &Property, value: &str, at: Position) -> Option<TrinoError> {
    let number = value.parse::<i64>().ok()?;
    let message = match p.name {
        "max_recursion_depth" | "max_drivers_per_task" | "max_writer_task_count" if number < 1 => {
            format!("{} must be equal or greater than 1", p.name)
        }
        "task_concurrency" | "task_max_writer_count"
            if !(number > 0 && (number & (number - 1)) == 0) =>
        {
            format!("{} must be a power of 2: {number}", p.name)
        }
        _ => return None,
    };
    Some(TrinoError::at(
        ErrorName::InvalidSessionProperty,
        at,
        message,
    ))
}

/// Checks `value` against the property's type (Trino: "Unable to set session property …").
fn check_value(p: &Property, value: &str) -> Result<String, String> {
    if p.name == "max_recursion_depth"
        && !value
            .parse::<usize>()
            .is_ok_and(|d| (1..=MAX_RECURSION_DEPTH).contains(&d))
    {
        return Err(format!(
            "Unable to set session property 'max_recursion_depth' to '{value}': the QueryMesh stand-in takes 1 to {MAX_RECURSION_DEPTH}"
        ));
    }
    let ok = match p.kind {
        Kind::Boolean => matches!(value.to_ascii_lowercase().as_str(), "true" | "false"),
        Kind::Integer => value.parse::<i32>().is_ok(),
        Kind::Bigint => value.parse::<i64>().is_ok(),
        Kind::Double => value.parse::<f64>().is_ok_and(f64::is_finite),
        Kind::Duration => parse_duration(value).is_some(),
        Kind::Varchar => true,
    };
    if ok {
        Ok(if p.kind == Kind::Boolean {
            value.to_ascii_lowercase()
        } else {
            value.to_string()
        })
    } else {
        Err(format!(
            "Unable to set session property '{}' to '{value}': {}",
            p.name,
            match p.kind {
                Kind::Boolean => "Invalid boolean value",
                Kind::Integer | Kind::Bigint => "Invalid integer value",
                Kind::Double => "Invalid double value",
                _ => "Invalid duration",
            }
        ))
    }
}

/// The lower of the session's query_max_run_time and query_max_execution_time, if set.
pub fn time_limit(session: &SessionContext) -> Option<Duration> {
    session
        .properties
        .iter()
        .filter(|(n, _)| n == "query_max_run_time" || n == "query_max_execution_time")
        .filter_map(|(_, v)| parse_duration(v))
        .min()
}

/// The statements of the session, by their first words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Form {
    /// `SET TIME ZONE …`
    SetTimeZone,
    /// `SET ROLE …`
    SetRole,
    /// `SET SESSION name = value`
    Set,
    /// `RESET SESSION name`
    Reset,
    /// `SHOW SESSION [LIKE pattern]`
    Show,
}

/// Which statement of the session `tokens` are, if one.
pub(crate) fn recognise(tokens: &[TokenWithSpan]) -> Option<Form> {
    let first = upper_word(tokens.first())?;
    if first == "SET"
        && upper_word(tokens.get(1)).as_deref() == Some("TIME")
        && upper_word(tokens.get(2)).as_deref() == Some("ZONE")
    {
        return Some(Form::SetTimeZone);
    }
    if first == "SET" && upper_word(tokens.get(1)).as_deref() == Some("ROLE") {
        return Some(Form::SetRole);
    }
    if upper_word(tokens.get(1)).as_deref() != Some("SESSION") {
        return None;
    }
    match first.as_str() {
        "SET" => Some(Form::Set),
        "RESET" => Some(Form::Reset),
        "SHOW" => Some(Form::Show),
        _ => None,
    }
}

/// Plans SET SESSION, RESET SESSION, SHOW SESSION or SET TIME ZONE.
pub(crate) fn plan(
    form: Form,
    tokens: &[TokenWithSpan],
    sql: &str,
    session: &SessionContext,
    is_catalog: &dyn Fn(&str) -> bool,
) -> Result<Plan, TrinoError> {
    let end = end_of(sql);
    match form {
        Form::SetTimeZone => set_time_zone(tokens, end),
        Form::SetRole => set_role(tokens, end),
        Form::Set => set(tokens, end, is_catalog),
        Form::Reset => reset(tokens, end, is_catalog),
        Form::Show => show(tokens, end, session),
    }
}

/// SET SESSION name = literal: checked as WITH SESSION checks its values (values.rs), an
/// unknown name at the value, as Trino places it.
fn set(
    tokens: &[TokenWithSpan],
    end: Position,
    is_catalog: &dyn Fn(&str) -> bool,
) -> Result<Plan, TrinoError> {
    let (name, i) = qualified_name(tokens, 2, end)?;
    if tokens.get(i).is_none_or(|t| t.token != Token::Eq) {
        return Err(mismatched(tokens.get(i), end, "'.', '='"));
    }
    let value = tokens.get(i + 1..).unwrap_or_default();
    if value.is_empty() {
        return Err(mismatched(None, end, "<expression>"));
    }
    let value_at = at(&value[0]);
    let value = values::checked_value(&name, value, value_at, is_catalog, "SET SESSION")?;
    Ok(Plan::without_output(Some(SessionUpdate::SetProperty {
        name,
        value,
    })))
}

/// The hidden system session property SET TIME ZONE sets (SystemSessionProperties
/// .TIME_ZONE_ID); it overrides X-Trino-Time-Zone (sql/zoned.rs).
pub const TIME_ZONE_ID: &str = "time_zone_id";

/// `SET TIME ZONE 'zone'` / `SET TIME ZONE LOCAL` (SetTimeZoneTask: the zone checked, then
/// `X-Trino-Set-Session: time_zone_id=…`; LOCAL is the server's zone, UTC here).
fn set_time_zone(tokens: &[TokenWithSpan], end: Position) -> Result<Plan, TrinoError> {
    let value_token = tokens.get(3);
    let value = match value_token.map(|t| &t.token) {
        Some(Token::SingleQuotedString(s)) => {
            querymesh_functions::datetime::time_zone::sqlite::zone(s)
                .map(|z| z.id)
                .map_err(|m| {
                    TrinoError::at(ErrorName::NotSupported, value_token.map_or(end, at), m)
                })?
        }
        _ if upper_word(value_token).as_deref() == Some("LOCAL") => "UTC".to_string(),
        _ if upper_word(value_token).as_deref() == Some("INTERVAL") => {
            return interval_zone(tokens, end);
        }
        _ => {
            return Err(TrinoError::at(
                ErrorName::NotSupported,
                value_token.map_or(end, at),
                "SET TIME ZONE takes a zone name or LOCAL in the QueryMesh stand-in",
            ));
        }
    };
    if let Some(extra) = tokens.get(4) {
        return Err(mismatched(Some(extra), end, "<EOF>"));
    }
    Ok(Plan::without_output(Some(SessionUpdate::SetProperty {
        name: TIME_ZONE_ID.into(),
        value,
    })))
}

/// `SET TIME ZONE INTERVAL [-]'h[:mm]' HOUR [TO MINUTE]` (SetTimeZoneTask): the offset as a
/// zone, `+HH:MM` (UTC for none), whole minutes within ±14 hours.
fn interval_zone(tokens: &[TokenWithSpan], end: Position) -> Result<Plan, TrinoError> {
    let mut i = 4;
    let negative = match tokens.get(i).map(|t| &t.token) {
        Some(Token::Minus) => {
            i += 1;
            true
        }
        Some(Token::Plus) => {
            i += 1;
            false
        }
        _ => false,
    };
    let Some(Token::SingleQuotedString(text)) = tokens.get(i).map(|t| &t.token) else {
        return Err(mismatched(tokens.get(i), end, "<string>"));
    };
    let field = |t: Option<&TokenWithSpan>| match upper_word(t).as_deref() {
        Some("DAY") => Some(DateTimeField::Day),
        Some("HOUR") => Some(DateTimeField::Hour),
        Some("MINUTE") => Some(DateTimeField::Minute),
        Some("SECOND") => Some(DateTimeField::Second),
        _ => None,
    };
    let Some(first) = field(tokens.get(i + 1)) else {
        return Err(mismatched(
            tokens.get(i + 1),
            end,
            "'DAY', 'HOUR', 'MINUTE', 'SECOND'",
        ));
    };
    let mut next = i + 2;
    let last = if upper_word(tokens.get(next)).as_deref() == Some("TO") {
        let Some(last) = field(tokens.get(next + 1)) else {
            return Err(mismatched(
                tokens.get(next + 1),
                end,
                "'HOUR', 'MINUTE', 'SECOND'",
            ));
        };
        next += 2;
        Some(last)
    } else {
        None
    };
    if let Some(extra) = tokens.get(next) {
        return Err(mismatched(Some(extra), end, "<EOF>"));
    }
    let at_value = tokens.get(3).map(at);
    let typed =
        crate::sql::analyze::literal::interval(text, &first, last.as_ref(), negative, at_value)?;
    let Some(Constant::Millis(millis)) = typed.constant else {
        return Err(TrinoError::at(
            ErrorName::TypeMismatch,
            at_value.unwrap_or(end),
            format!(
                "Expected expression of varchar or interval day-time type, but '{text}' has {} type",
                typed.ty
            ),
        ));
    };
    if millis % 60_000 != 0 {
        return Err(TrinoError::new(
            ErrorName::InvalidLiteral,
            "Invalid TIME ZONE offset interval: interval contains seconds",
        ));
    }
    let minutes = millis / 60_000;
    if minutes.abs() > 14 * 60 {
        return Err(TrinoError::new(
            ErrorName::InvalidFunctionArgument,
            format!("Invalid offset minutes {minutes}"),
        ));
    }
    let value = if minutes == 0 {
        "UTC".to_string()
    } else {
        let sign = if minutes < 0 { '-' } else { '+' };
        format!("{sign}{:02}:{:02}", minutes.abs() / 60, minutes.abs() % 60)
    };
    Ok(Plan::without_output(Some(SessionUpdate::SetProperty {
        name: TIME_ZONE_ID.into(),
        value,
    })))
}

/// `SET ROLE (ALL | NONE | role) [IN catalog]` (SetRoleTask): the sandbox's people have the
/// system roles ALL and NONE only, and no catalog manages roles (tpch's does not).
fn set_role(tokens: &[TokenWithSpan], end: Position) -> Result<Plan, TrinoError> {
    let start = tokens.first().map_or(end, at);
    let Some(role) = tokens.get(2) else {
        return Err(mismatched(None, end, "'ALL', 'NONE', <identifier>"));
    };
    let name = match &role.token {
        Token::Word(w) => w.value.clone(),
        _ => return Err(mismatched(Some(role), end, "'ALL', 'NONE', <identifier>")),
    };
    if upper_word(tokens.get(3)).as_deref() == Some("IN") {
        let Some(Token::Word(catalog)) = tokens.get(4).map(|t| &t.token) else {
            return Err(mismatched(tokens.get(4), end, "<identifier>"));
        };
        if let Some(extra) = tokens.get(5) {
            return Err(mismatched(Some(extra), end, "<EOF>"));
        }
        return Err(TrinoError::at(
            ErrorName::NotSupported,
            start,
            format!(
                "Catalog '{}' does not support role management",
                catalog.value.to_lowercase()
            ),
        ));
    }
    if let Some(extra) = tokens.get(3) {
        return Err(mismatched(Some(extra), end, "'IN', <EOF>"));
    }
    let role = match upper_word(Some(role)).as_deref() {
        Some(keyword @ ("ALL" | "NONE")) => keyword.to_string(),
        _ => {
            return Err(TrinoError::at(
                ErrorName::RoleNotFound,
                start,
                format!("Role '{}' does not exist", name.to_lowercase()),
            ));
        }
    };
    Ok(Plan::without_output(Some(SessionUpdate::SetRole { role })))
}

/// RESET SESSION name: an unknown name refused at the statement, as Trino places it.
fn reset(
    tokens: &[TokenWithSpan],
    end: Position,
    is_catalog: &dyn Fn(&str) -> bool,
) -> Result<Plan, TrinoError> {
    let (name, i) = qualified_name(tokens, 2, end)?;
    if let Some(extra) = tokens.get(i) {
        return Err(mismatched(Some(extra), end, "'.', <EOF>"));
    }
    if property(&name).is_none() {
        let start = tokens.first().map_or(end, at);
        return Err(values::unknown(&name, start, is_catalog));
    }
    Ok(Plan::without_output(Some(SessionUpdate::ResetProperty {
        name,
    })))
}

fn show(
    tokens: &[TokenWithSpan],
    end: Position,
    session: &SessionContext,
) -> Result<Plan, TrinoError> {
    let pattern = match (
        upper_word(tokens.get(2)).as_deref(),
        tokens.get(3).map(|t| &t.token),
    ) {
        (None, None) if tokens.len() == 2 => None,
        (Some("LIKE"), Some(Token::SingleQuotedString(p))) if tokens.len() == 4 => Some(p.clone()),
        (Some("LIKE"), _) => return Err(mismatched(tokens.get(3), end, "<string>")),
        _ => return Err(mismatched(tokens.get(2), end, "'LIKE', <EOF>")),
    };
    // Trino answers SHOW SESSION from a VALUES of every property that LIKE then filters
    // (ShowQueriesRewrite), so each column is varchar(n), n its longest value over all of them
    // (`Name varchar(57)` even for one row or none).
    let all: Vec<[&str; 5]> = PROPERTIES
        .iter()
        .map(|p| {
            let value = session
                .properties
                .iter()
                .rev()
                .find(|(n, _)| n == p.name)
                .map_or(p.default, |(_, v)| v.as_str());
            [p.name, value, p.default, p.kind.type_name(), p.description]
        })
        .collect();
    let columns = ["Name", "Value", "Default", "Type", "Description"]
        .into_iter()
        .enumerate()
        .map(|(i, name)| OutputColumn {
            name: name.into(),
            ty: TrinoType::Varchar(Some(
                all.iter()
                    .map(|row| row[i].chars().count() as u32)
                    .max()
                    .unwrap_or(0),
            )),
        })
        .collect();
    let rows = all
        .iter()
        .filter(|row| {
            pattern
                .as_deref()
                .is_none_or(|pat| super::show::like(pat, row[0]))
        })
        .map(|row| row.iter().copied().map(Value::from).collect())
        .collect();
    Ok(Plan {
        columns,
        reads: Vec::new(),
        body: Body::Rows(rows),
        session_update: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_airlifts() {
        assert_eq!(parse_duration("30s"), Some(Duration::from_secs(30)));
        assert_eq!(parse_duration("1.5m"), Some(Duration::from_secs(90)));
        assert_eq!(
            parse_duration("100.00d"),
            Some(Duration::from_secs(8_640_000))
        );
        for bad in ["", "s", "10", "10x", "-1s", "NaNs"] {
            assert_eq!(parse_duration(bad), None, "{bad}");
        }
    }
}
