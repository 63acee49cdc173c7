//! URL functions (Trino docs functions/url), run by querymesh-functions/src/url/sqlite.rs. Trino types the parts
//! as the input's varchar(x); url_encode may grow a value twelvefold.

pub mod sqlite;

use querymesh_values::typed::Typed;
use querymesh_values::types::{TrinoType, UNBOUNDED_VARCHAR};

use super::Call;
use super::context::LowerContext;
use super::entry::{FunctionDef, Lower, LowerResult, Typing, scalar};

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
        Lower::Template("qm_url_port({0})"),
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
        "url_extract_protocol" => "qm_url_protocol",
        "url_extract_host" => "qm_url_host",
        "url_extract_path" => "qm_url_path",
        "url_extract_query" => "qm_url_query",
        "url_extract_fragment" => "qm_url_fragment",
        "url_extract_parameter" => "qm_url_parameter",
        "url_decode" => "qm_url_decode",
        _ => return Ok(None),
    };
    let Some(url) = c.args.first() else {
        return Ok(None);
    };
    Ok(Some(Typed::new(
        format!("{f}({})", c.sql().join(", ")),
        varchar_of(url),
    )))
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
        format!("qm_url_encode({})", value.sql),
        ty,
    )))
}
