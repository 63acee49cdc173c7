//! Color functions (Trino docs functions/color, ColorFunctions): the `color` type, `rgb`,
//! `color` (a name or `#rgb`, or interpolated between two colors), `render` and `bar`, which
//! write ANSI escapes as Trino does. A color is stored as an INTEGER (hsb.rs); `color` is
//! comparable for equality but not orderable (ColorType).

pub mod hsb;
pub mod sqlite;

use querymesh_values::error::{ErrorName, error_at};
use querymesh_values::typed::Typed;
use querymesh_values::types::{TrinoType, UNBOUNDED_VARCHAR};

use super::Call;
use super::context::LowerContext;
use super::entry::{FunctionDef, Lower, LowerResult, Typing, scalar};

pub use hsb::protocol_text;

pub const FUNCTIONS: &[FunctionDef] = &[
    scalar(
        "rgb",
        &[("bigint, bigint, bigint", "color")],
        Typing::Resolved,
        Lower::Template("qm_rgb({0}, {1}, {2})"),
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
        1 => "qm_color",
        3 => "qm_color_between",
        5 => "qm_color_scale",
        _ => return Ok(None),
    };
    Ok(Some(Typed::new(
        format!("{f}({})", c.sql().join(", ")),
        TrinoType::Color,
    )))
}

/// render(value, color) by the value's type: varchar(x) gives varchar(x + 15) (the escapes'
/// 15 characters), bigint varchar(35), double varchar(41), render(boolean) varchar(16) (a
/// green ✓ or a red ✗). A bare NULL fits three signatures, which Trino refuses as ambiguous.
fn render(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let [value, color] = c.args.as_slice() else {
        let [flag] = c.args.as_slice() else {
            return Ok(None);
        };
        let sql = format!(
            "CASE WHEN {0} IS NULL THEN NULL WHEN {0} THEN qm_render('\u{2713}', -3) ELSE qm_render('\u{2717}', -2) END",
            flag.sql
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
        TrinoType::BigInt => (format!("CAST({} AS TEXT)", value.sql).into(), c.returns()),
        // Double.toString, as Trino renders a double.
        _ => (format!("qm_java_double({})", value.sql).into(), c.returns()),
    };
    Ok(Some(Typed::new(
        format!("qm_render({text}, {})", color.sql),
        ty,
    )))
}

/// bar(x, width) is bar(x, width, rgb(255, 0, 0), rgb(0, 255, 0)).
fn bar(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let sql = match c.sql().as_slice() {
        [x, width] => format!("qm_bar({x}, {width}, {}, {})", 0xff0000, 0x00ff00),
        [x, width, low, high] => format!("qm_bar({x}, {width}, {low}, {high})"),
        _ => return Ok(None),
    };
    Ok(Some(Typed::new(sql, TrinoType::Varchar(None))))
}
