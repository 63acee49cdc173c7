//! Color functions (Trino docs functions/color, ColorFunctions): the `color` type, `rgb`,
//! `color` (a name or `#rgb`, or interpolated between two colors), `render` and `bar`, which
//! write ANSI escapes as Trino does. A color is stored as an INTEGER (hsb.rs); `color` is
//! comparable for equality but not orderable (ColorType).

pub mod hsb;
pub mod sqlite;

use querymesh_values::error::{ErrorName, error_at};
use querymesh_values::sqlite_expr::{Affinity, SqlExpr};
use querymesh_values::typed::Typed;
use querymesh_values::types::{TrinoType, UNBOUNDED_VARCHAR};

use super::Call;
use super::context::LowerContext;
use super::entry::{FunctionDef, Lower, LowerResult, Typing, calls, scalar};
use super::udf::numbers::QM_JAVA_DOUBLE;
use sqlite::{QM_BAR, QM_COLOR, QM_COLOR_BETWEEN, QM_COLOR_SCALE, QM_RENDER, QM_RGB};

pub use hsb::protocol_text;

pub const FUNCTIONS: &[FunctionDef] = &[
    scalar(
        "rgb",
        &[("bigint, bigint, bigint", "color")],
        Typing::Resolved,
        calls!(QM_RGB),
        "Returns the color specified by the red, green and blue components",
    ),
    scalar(
        "color",
        &[
            ("varchar(x)", "color"),
            ("double, double, double, color, color", "color"),
            ("double, color, color", "color"),
        ],
        Typing::Resolved,
        Lower::Scalar(color),
        "Returns a color for a name or #rgb, or between two colors",
    ),
    scalar(
        "render",
        &[
            ("varchar(x), color", "varchar(y)"),
            ("bigint, color", "varchar(35)"),
            ("double, color", "varchar(41)"),
            ("boolean", "varchar(16)"),
        ],
        Typing::Resolved,
        Lower::Scalar(render),
        "Renders a value in a color with ANSI escapes",
    ),
    scalar(
        "bar",
        &[
            ("double, bigint", "varchar"),
            ("double, bigint, color, color", "varchar"),
        ],
        Typing::Resolved,
        Lower::Scalar(bar),
        "Renders a bar of the given width, filled to the given fraction",
    ),
];

fn color(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let f = match c.args.len() {
        1 => QM_COLOR,
        3 => QM_COLOR_BETWEEN,
        5 => QM_COLOR_SCALE,
        _ => return Ok(None),
    };
    Ok(Some(Typed::new(f.call(c.arg_exprs()), TrinoType::Color)))
}

/// render(value, color) by the value's type: varchar(x) gives varchar(x + 15) (the escapes'
/// 15 characters), bigint varchar(35), double varchar(41), render(boolean) varchar(16) (a
/// green ✓ or a red ✗). A bare NULL fits three signatures, which Trino refuses as ambiguous.
fn render(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let [value, color] = c.args.as_slice() else {
        let [flag] = c.args.as_slice() else {
            return Ok(None);
        };
        let mark =
            |m: &str, color: i64| QM_RENDER.call([SqlExpr::text(m), SqlExpr::Integer(color)]);
        let sql = SqlExpr::case_when(
            vec![
                (SqlExpr::is_null(flag.sql.clone()), SqlExpr::Null),
                (flag.sql.clone(), mark("\u{2713}", -3)),
            ],
            Some(mark("\u{2717}", -2)),
        );
        return Ok(Some(Typed::new(sql, c.returns())));
    };
    let (text, ty) = match &value.ty {
        TrinoType::Unknown => {
            return Err(error_at(
                ErrorName::AmbiguousFunctionCall,
                c.at,
                "Could not choose a best candidate operator. Explicit type casts must be added.",
            ));
        }
        TrinoType::Varchar(n) => (
            value.sql.clone(),
            TrinoType::Varchar(
                n.map(|n| u64::from(n) + 15)
                    .filter(|n| *n < u64::from(UNBOUNDED_VARCHAR))
                    .map(|n| n as u32),
            ),
        ),
        TrinoType::BigInt => (
            SqlExpr::cast(value.sql.clone(), Affinity::Text),
            c.returns(),
        ),
        // Double.toString, as Trino renders a double.
        _ => (QM_JAVA_DOUBLE.call([value.sql.clone()]), c.returns()),
    };
    Ok(Some(Typed::new(
        QM_RENDER.call([text, color.sql.clone()]),
        ty,
    )))
}

/// bar(x, width) is bar(x, width, rgb(255, 0, 0), rgb(0, 255, 0)).
fn bar(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let mut args = c.arg_exprs();
    match args.len() {
        2 => args.extend([SqlExpr::Integer(0xff0000), SqlExpr::Integer(0x00ff00)]),
        4 => {}
        _ => return Ok(None),
    }
    Ok(Some(Typed::new(
        QM_BAR.call(args),
        TrinoType::Varchar(None),
    )))
}
