//! URL functions (Trino docs functions/url), run by querymesh-functions/src/url/sqlite.rs. Trino types the parts
//! as the input's varchar(x); url_encode may grow a value twelvefold.

pub mod sqlite;

use querymesh_values::typed::Typed;
use querymesh_values::types::{TrinoType, UNBOUNDED_VARCHAR};

use super::Call;
use super::context::LowerContext;
use super::entry::{FunctionDef, Lower, LowerResult, Typing, calls, scalar};
use sqlite::{
    QM_URL_DECODE, QM_URL_ENCODE, QM_URL_FRAGMENT, QM_URL_HOST, QM_URL_PARAMETER, QM_URL_PATH,
    QM_URL_PORT, QM_URL_PROTOCOL, QM_URL_QUERY,
};

const PART: &[(&str, &str)] = &[("varchar(x)", "varchar(x)")];

const fn part(name: &'static str, description: &'static str) -> FunctionDef {
    scalar(
        name,
        PART,
        Typing::Resolved,
        Lower::Scalar(url_part),
        description,
    )
}

pub const FUNCTIONS: &[FunctionDef] = &[
    part("url_extract_protocol", "Extract protocol from url"),
    part("url_extract_host", "Extract host from url"),
    part("url_extract_path", "Extract part from url"),
    part("url_extract_query", "Extract query from url"),
    part("url_extract_fragment", "Extract fragment from url"),
    scalar(
        "url_extract_port",
        &[("varchar(x)", "bigint")],
        Typing::Resolved,
        calls!(QM_URL_PORT),
        "Extract port from url",
    ),
    scalar(
        "url_extract_parameter",
        &[("varchar(x), varchar(y)", "varchar(x)")],
        Typing::Resolved,
        Lower::Scalar(url_part),
        "Extract query parameter from url",
    ),
    scalar(
        "url_encode",
        &[("varchar(x)", "varchar(y)")],
        Typing::Resolved,
        Lower::Scalar(url_encode),
        "Escape a string for use in URL query parameter names and values",
    ),
    scalar(
        "url_decode",
        PART,
        Typing::Resolved,
        Lower::Scalar(url_part),
        "Unescape a URL-encoded string",
    ),
];

/// The varchar(x) the url argument binds: a char(n) as varchar(n), a NULL literal as varchar(0)
/// (`url_extract_host(NULL)` is a varchar(0) in Trino 476, as `lower(NULL)` is).
fn varchar_of(t: &Typed) -> TrinoType {
    match &t.ty {
        TrinoType::Char(n) => TrinoType::Varchar(Some(*n)),
        TrinoType::Unknown => TrinoType::Varchar(Some(0)),
        TrinoType::Varchar(n) => TrinoType::Varchar(*n),
        _ => TrinoType::Varchar(None),
    }
}

fn url_part(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let f = match c.name.as_str() {
        "url_extract_protocol" => QM_URL_PROTOCOL,
        "url_extract_host" => QM_URL_HOST,
        "url_extract_path" => QM_URL_PATH,
        "url_extract_query" => QM_URL_QUERY,
        "url_extract_fragment" => QM_URL_FRAGMENT,
        "url_extract_parameter" => QM_URL_PARAMETER,
        "url_decode" => QM_URL_DECODE,
        _ => return Ok(None),
    };
    let Some(url) = c.args.first() else {
        return Ok(None);
    };
    Ok(Some(Typed::new(f.call(c.arg_exprs()), varchar_of(url))))
}

/// varchar(min(2147483647, x * 12)) (UrlFunctions.urlEncode's constraint).
fn url_encode(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let [value] = c.args.as_slice() else {
        return Ok(None);
    };
    let ty = match varchar_of(value) {
        TrinoType::Varchar(Some(n)) => TrinoType::Varchar(
            Some(u64::from(n).saturating_mul(12))
                .filter(|n| *n < u64::from(UNBOUNDED_VARCHAR))
                .map(|n| n as u32),
        ),
        other => other,
    };
    Ok(Some(Typed::new(
        QM_URL_ENCODE.call([value.sql.clone()]),
        ty,
    )))
}
