//! JSON_TABLE in FROM (Trino docs functions/json "json_table"; TestJsonTable): a JSON
//! value's items as rows, lowered to SQLite's `json_each` over `qm_json_table`'s rows
//! (querymesh-functions json/sqlite/table.rs), as UNNEST is (sql/unnest.rs); its input may
//! read the FROM items before it.
//!
//! - `grammar`: the token pass that reads Trino's syntax into a table function sqlparser
//!   parses; `plan`: its names and plan checked, the default plan built.
//! - Here: the analysis. Each level's item is a hidden varchar column the value columns'
//!   json_value / json_query calls read (Trino evaluates a column so, over its level's
//!   item); `FOR ORDINALITY` reads the level's ordinal. Columns are named as Trino
//!   canonicalizes them (`a` is `A`, `"a"` stays `a`).

pub(crate) use crate::sql::syntax::json_table as grammar;

use querymesh_functions::json::path::{Path, PathError, variable_names};
use querymesh_functions::json::sqlite::{QM_JSON_ENCODED, QM_JSON_TABLE};
use querymesh_functions::json::table::TableSpec;
use querymesh_values::sqlite_expr::{FromItem, SqlExpr, builtin};
use sqlparser::ast::{
    Expr, FunctionArg, FunctionArgExpr, ObjectName, ObjectNamePart, TableAlias, Value,
};

use crate::error::{ErrorName, Position, TrinoError, error_at};
use crate::sql::analyze::scope::{Clause, Column, ExprContext, Relation, Scope};
use crate::sql::analyze::{Analyzer, location};
use crate::types::TrinoType;
use grammar::{ITEM_MARK, Shape, TABLE_NAME};

/// Part `i` of the JSON array a `qm_json_table` row is: `json_extract(alias."value", '$[i]')`.
fn item_part(alias: &str, i: usize) -> SqlExpr {
    let value = SqlExpr::column(Some(alias), "value");
    builtin::JSON_EXTRACT.call([value, SqlExpr::text(format!("$[{i}]"))])
}

/// Whether a table reference `name(args…)` is a JSON_TABLE the token pass rewrote.
pub(in crate::sql) fn is_json_table(name: &ObjectName) -> bool {
    matches!(name.0.as_slice(), [ObjectNamePart::Identifier(i)]
        if i.quote_style == Some('"') && i.value == TABLE_NAME)
}

fn malformed(at: Option<Position>) -> TrinoError {
    error_at(
        ErrorName::SyntaxError,
        at,
        "mismatched input: this is not JSON_TABLE's syntax",
    )
}

fn not_supported_correlation(at: Option<Position>) -> TrinoError {
    error_at(
        ErrorName::NotSupported,
        at,
        "Given correlated subquery is not supported",
    )
}

/// The error a shape carries, as the analysis raises it.
fn shape_error((name, text, line, column): &(String, String, u64, u64)) -> TrinoError {
    let name = match name.as_str() {
        "DUPLICATE_COLUMN_OR_PATH_NAME" => ErrorName::DuplicateColumnOrPathName,
        "MISSING_PATH_NAME" => ErrorName::MissingPathName,
        "INVALID_PLAN" => ErrorName::InvalidPlan,
        "SYNTAX_ERROR" => ErrorName::SyntaxError,
        _ => ErrorName::GenericUserError,
    };
    let at = (*line > 0).then(|| Position::new(*line, *column));
    error_at(name, at, text.clone())
}

/// A NESTED path, checked as a row path is; it sees no PASSING value (Trino 476: `$k` in a
/// NESTED path is INVALID_PATH even when the row path has `PASSING 1 AS "k"`).
fn check_nested_path(path: &str, at: Option<Position>) -> Result<(), TrinoError> {
    if let Err(e) = Path::parse(path) {
        return Err(match e {
            PathError::Syntax(_, m) => error_at(ErrorName::SyntaxError, at, m),
            PathError::Unsupported(_, m) => error_at(ErrorName::NotSupported, at, m),
        });
    }
    if let Some(name) = variable_names(path).into_iter().next() {
        return Err(error_at(
            ErrorName::InvalidPath,
            at,
            format!("no value passed for parameter {name}"),
        ));
    }
    Ok(())
}

impl Analyzer<'_> {
    /// The rewritten `JSON_TABLE(…) [AS alias (c1, …)]`; `relations` holds the FROM items
    /// before it, which its input, PASSING values and DEFAULT values may read.
    pub(in crate::sql) fn json_table(
        &mut self,
        args: &[FunctionArg],
        alias: Option<&TableAlias>,
        at: Option<Position>,
        outer: Option<&Scope<'_>>,
        relations: &mut Vec<Relation>,
    ) -> Result<FromItem, TrinoError> {
        // Trino 476 cannot decorrelate a JSON_TABLE that reads an enclosing query's columns
        // (`WHERE EXISTS (SELECT 1 FROM JSON_TABLE(json_array(n.nationkey), …))`): one that
        // fails alone for want of a column but reads with the enclosing scopes is refused so.
        if outer.is_some()
            && let Err(e) = self.json_table_in(args, alias, at, None, &mut relations.clone())
            && e.name == ErrorName::ColumnNotFound
            && self
                .json_table_in(args, alias, at, outer, &mut relations.clone())
                .is_ok()
        {
            return Err(not_supported_correlation(at));
        }
        self.json_table_in(args, alias, at, outer, relations)
    }

    fn json_table_in(
        &mut self,
        args: &[FunctionArg],
        alias: Option<&TableAlias>,
        at: Option<Position>,
        outer: Option<&Scope<'_>>,
        relations: &mut Vec<Relation>,
    ) -> Result<FromItem, TrinoError> {
        let mut values = args.iter().map(|a| match a {
            FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) => Some(e),
            _ => None,
        });
        let shape = match values.next().flatten() {
            Some(Expr::Value(v)) => match &v.value {
                Value::SingleQuotedString(s) => serde_json::from_str::<Shape>(s).ok(),
                _ => None,
            },
            _ => None,
        };
        let Some(shape) = shape else {
            return Err(malformed(at));
        };
        if let Some(e) = &shape.error {
            return Err(shape_error(e));
        }
        let Some(plan) = shape.plan.clone() else {
            return Err(malformed(at));
        };
        let Some(Some(Expr::Function(source))) = values.next() else {
            return Err(malformed(at));
        };
        let scope = Scope::new(relations.clone(), outer);
        let cx = ExprContext {
            scope: &scope,
            clause: Clause::On,
            in_aggregate: false,
            group_keys: None,
        };
        let (input, vars) = self.json_table_source(source, &cx)?;
        for path in shape.paths.iter().skip(1) {
            check_nested_path(path, at)?;
        }
        let sql_alias = self.alias("jt");
        // Each level's item (its JSON text) and ordinal, as json_each's row holds them.
        let items: Vec<Column> = (0..shape.paths.len())
            .map(|level| Column {
                name: format!("{ITEM_MARK}{level}"),
                ty: TrinoType::Varchar(None),
                sql: item_part(&sql_alias, 2 * level),
                read: None,
                hidden: false,
                unlisted: true,
                planning_refusal: None,
            })
            .collect();
        let mut with_items = relations.clone();
        with_items.push(Relation {
            names: Vec::new(),
            columns: items,
        });
        let item_scope = Scope::new(with_items, outer);
        let item_cx = ExprContext {
            scope: &item_scope,
            ..cx
        };
        let mut columns = Vec::with_capacity(shape.columns.len());
        for c in &shape.columns {
            let (sql, ty) = if c.ordinality {
                (item_part(&sql_alias, 2 * c.level + 1), TrinoType::BigInt)
            } else {
                let Some(Some(e)) = values.next() else {
                    return Err(malformed(at));
                };
                let t = self.expr(e, &item_cx)?;
                if let Some(format) = &c.format
                    && let Some(encoding) = format.strip_prefix("json encoding ")
                {
                    if t.ty != TrinoType::Varbinary {
                        return Err(error_at(
                            ErrorName::TypeMismatch,
                            location(e),
                            format!(
                                "Cannot output JSON value as {} using formatting {}",
                                t.ty,
                                format.to_uppercase()
                            ),
                        ));
                    }
                    // The JSON text in the encoding's little-endian code units
                    // (TestJsonTable: UTF_16LE).
                    if encoding != "utf8" {
                        let encoded = QM_JSON_ENCODED.call([t.sql, SqlExpr::text(encoding)]);
                        (encoded, t.ty)
                    } else {
                        (t.sql, t.ty)
                    }
                } else {
                    (t.sql, t.ty)
                }
            };
            columns.push(Column {
                name: c.name.clone(),
                ty,
                sql,
                read: None,
                hidden: false,
                unlisted: false,
                planning_refusal: None,
            });
        }
        let spec = TableSpec {
            paths: shape.paths.clone(),
            plan,
            error_on_error: shape.error_on_error,
        };
        relations.push(self.aliased(columns, Vec::new(), alias)?);
        // `vars` is the SQL/JSON helpers' text (calls/sql_json.rs), not yet a tree.
        let rows = QM_JSON_TABLE.call([input.sql, SqlExpr::text(spec.to_text()), vars]);
        Ok(FromItem::Function {
            function: builtin::JSON_EACH,
            args: vec![rows],
            alias: Some(sql_alias),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::grammar::rewrite;
    use super::*;
    use sqlparser::tokenizer::Tokenizer;

    fn rewritten(sql: &str) -> Result<String, TrinoError> {
        let dialect = sqlparser::dialect::GenericDialect {};
        let mut tokens = Tokenizer::new(&dialect, sql)
            .tokenize_with_location()
            .unwrap_or_default();
        rewrite(&mut tokens)?;
        Ok(tokens
            .iter()
            .map(|t| t.token.to_string().replace(ITEM_MARK, "@"))
            .collect())
    }

    fn shape_of(sql: &str) -> Option<Shape> {
        let text = rewritten(sql).ok()?;
        let start = text.find("('")? + 2;
        let end = text[start..].find("',json_exists")? + start;
        serde_json::from_str(&text[start..end].replace("''", "'")).ok()
    }

    #[test]
    fn columns_become_json_value_and_json_query_calls() {
        let text = rewritten(
            "SELECT * FROM JSON_TABLE('[1]', 'lax $[*]' COLUMNS (a bigint PATH 'lax $' DEFAULT 0 ON EMPTY, \
             \"b\" varchar FORMAT JSON WITH WRAPPER) ERROR ON ERROR)",
        )
        .unwrap_or_default()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
        assert!(text.contains(
            "json_value(\"@0\",'lax $' RETURNING bigint DEFAULT 0 ON EMPTY ERROR ON ERROR)"
        ));
        assert!(text.contains(
            "json_query(\"@0\",'lax $.\"b\"' RETURNING varchar WITH WRAPPER ERROR ON ERROR)"
        ));
        assert!(text.contains("json_exists('[1]','lax $[*]' )"));
    }

    #[test]
    fn names_and_plans_are_checked() {
        // Trino 476: DUPLICATE_COLUMN_OR_PATH_NAME, MISSING_PATH_NAME, INVALID_PLAN.
        let error = |sql: &str| shape_of(sql).and_then(|s| s.error).map(|e| e.0);
        assert_eq!(
            error("SELECT * FROM JSON_TABLE('[1]', 'lax $' COLUMNS (a bigint, a varchar))"),
            Some("DUPLICATE_COLUMN_OR_PATH_NAME".into())
        );
        assert_eq!(
            error("SELECT * FROM JSON_TABLE('[1]', 'lax $' COLUMNS (a bigint) PLAN (x))"),
            Some("MISSING_PATH_NAME".into())
        );
        let nested = "SELECT * FROM JSON_TABLE('[1]', 'lax $' AS x COLUMNS (a bigint, \
             NESTED PATH 'lax $' AS y COLUMNS (b bigint), NESTED PATH 'lax $' AS z COLUMNS (c bigint))";
        assert_eq!(
            error(&format!("{nested} PLAN (x OUTER y))")),
            Some("INVALID_PLAN".into())
        );
        assert_eq!(
            error(&format!("{nested} PLAN (x OUTER (y UNION y)))")),
            Some("INVALID_PLAN".into())
        );
        assert_eq!(
            error(&format!("{nested} PLAN (x OUTER (y CROSS z)))")),
            None
        );
        assert!(rewritten(&format!("{nested} PLAN (x OUTER y UNION z))")).is_err());
        assert!(rewritten("SELECT * FROM JSON_TABLE('[1]', 'lax $' COLUMNS ())").is_err());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 512, ..Default::default() })]

        /// Any arrangement of JSON_TABLE's words rewrites or fails without a panic.
        #[test]
        fn arbitrary_words_never_panic(
            words in proptest::collection::vec(
                proptest::sample::select(vec![
                    "json_table(", "(", ")", ",", "x", "'lax $'", "COLUMNS", "NESTED", "PATH",
                    "AS", "FOR", "ORDINALITY", "bigint", "FORMAT", "JSON", "PLAN", "DEFAULT",
                    "OUTER", "INNER", "UNION", "CROSS", "ERROR", "EMPTY", "ON", "PASSING",
                ]),
                0..24,
            )
        ) {
            let _ = rewritten(&format!("SELECT * FROM {}", words.join(" ")));
        }
    }
}
