//! What a query knows of its session (Trino docs functions/session): `current_user`,
//! `current_groups()`, `current_catalog`, `current_schema` — constants of the plan, which the
//! plan cache keys by user, groups and session defaults — and of the server (functions/system): `version()`.

use querymesh_values::TRINO_VERSION;
use querymesh_values::sqlite_expr::SqlExpr;
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;

use super::Call;
use super::context::LowerContext;
use super::entry::{FunctionDef, Kind, Lower, LowerResult, Typing};

const fn session_value(name: &'static str, description: &'static str) -> FunctionDef {
    FunctionDef {
        name,
        kind: Kind::SpecialForm,
        signatures: &[("", "varchar")],
        typing: Typing::ByLowering,
        lower: Lower::Scalar(session_value_of),
        description,
        deterministic: true,
    }
}

pub const FUNCTIONS: &[FunctionDef] = &[
    session_value("current_user", "The user running the query"),
    session_value(
        "current_catalog",
        "The session's catalog, NULL when it has none",
    ),
    session_value(
        "current_schema",
        "The session's schema, NULL when it has none",
    ),
    // CurrentGroups (docs functions/session): the session user's groups.
    FunctionDef {
        name: "current_groups",
        kind: Kind::Scalar,
        signatures: &[("", "array(varchar)")],
        typing: Typing::ByLowering,
        lower: Lower::Scalar(current_groups),
        description: "Current groups of current user",
        deterministic: true,
    },
    // Hidden in Trino (`SHOW FUNCTIONS` does not list it), as a special form is here.
    FunctionDef {
        name: "version",
        kind: Kind::SpecialForm,
        signatures: &[("", "varchar")],
        typing: Typing::ByLowering,
        lower: Lower::Scalar(version),
        description: "Return server version",
        deterministic: true,
    },
];

fn version(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    Ok(c.args
        .is_empty()
        .then(|| Typed::new(SqlExpr::text(TRINO_VERSION), TrinoType::Varchar(None))))
}

/// The groups as an array literal: JSON text of strings (the element form of varchar).
fn current_groups(ctx: &mut dyn LowerContext, c: &Call) -> LowerResult {
    if !c.args.is_empty() {
        return Ok(None);
    }
    let groups = serde_json::Value::from(ctx.current_groups()).to_string();
    Ok(Some(Typed::new(
        SqlExpr::text(groups),
        TrinoType::Array(Box::new(TrinoType::Varchar(None))),
    )))
}

fn session_value_of(ctx: &mut dyn LowerContext, c: &Call) -> LowerResult {
    if !c.args.is_empty() {
        return Ok(None);
    }
    let value = match c.name.as_str() {
        "current_user" => ctx.current_user(),
        "current_catalog" => ctx.current_catalog(),
        _ => ctx.current_schema(),
    };
    Ok(Some(Typed::new(
        value.map_or(SqlExpr::Null, SqlExpr::text),
        TrinoType::Varchar(None),
    )))
}
