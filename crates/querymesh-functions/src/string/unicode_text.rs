//! `normalize(string[, form])` and `word_stem(word[, lang])` (Trino docs functions/string;
//! StringFunctions.normalize, WordStemFunction), run by
//! querymesh-functions/src/string/sqlite/unicode_text.rs.
//!
//! The form of `normalize(s, NFD)` is a word of the grammar, not an expression: the respelling
//! (querymesh-engine's sql/respell.rs) hands it here as a string constant.

use querymesh_values::error::{ErrorName, error_at};
use querymesh_values::sqlite_expr::SqlExpr;
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;

use super::sqlite::unicode_text::{QM_NORMALIZE, QM_WORD_STEM};
use crate::context::LowerContext;
use crate::entry::{FunctionDef, Lower, LowerResult, Typing, scalar};
use crate::{Call, is_string_or_null};

pub const FUNCTIONS: &[FunctionDef] = &[
    scalar(
        "normalize",
        &[
            ("varchar(x)", "varchar"),
            ("varchar(x), varchar(y)", "varchar"),
        ],
        Typing::ByLowering,
        Lower::Scalar(normalize),
        "Transforms the string to normalized form",
    ),
    scalar(
        "word_stem",
        &[
            ("varchar(x)", "varchar(x)"),
            ("varchar(x), varchar(2)", "varchar(x)"),
        ],
        Typing::ByLowering,
        Lower::Scalar(word_stem),
        "Returns the stem of a word in the given language",
    ),
];

/// The forms Trino's grammar accepts (SqlBase.g4 `normalForm`).
const FORMS: [&str; 4] = ["NFC", "NFD", "NFKC", "NFKD"];

fn normalize(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let (s, form) = match c.args.as_slice() {
        [s] => (s, "NFC"),
        [s, form] => match FORMS
            .iter()
            .find(|f| form.sql.text_literal().as_deref() == Some(**f))
        {
            Some(f) => (s, *f),
            None => {
                return Err(error_at(
                    ErrorName::SyntaxError,
                    c.at,
                    "mismatched input. Expecting: 'NFC', 'NFD', 'NFKC', 'NFKD'",
                ));
            }
        },
        _ => return Ok(None),
    };
    if !is_string_or_null(&s.ty) {
        return Ok(None);
    }
    Ok(Some(Typed::new(
        QM_NORMALIZE.call([s.sql.clone(), SqlExpr::text(form)]),
        TrinoType::Varchar(None),
    )))
}

/// word_stem(varchar(x)) is a varchar(x); a NULL word a varchar(0).
fn word_stem(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    if !c.args.iter().all(|a| is_string_or_null(&a.ty)) {
        return Ok(None);
    }
    let (word, language) = match c.args.as_slice() {
        [word] => (word, SqlExpr::text("en")),
        [word, language] => (word, language.sql.clone()),
        _ => return Ok(None),
    };
    let ty = match word.ty {
        TrinoType::Varchar(n) => TrinoType::Varchar(n),
        TrinoType::Char(n) => TrinoType::Varchar(Some(n)),
        _ => TrinoType::Varchar(Some(0)),
    };
    Ok(Some(Typed::new(
        QM_WORD_STEM.call([word.sql.clone(), language]),
        ty,
    )))
}
