//! `qm_json_table(input, spec, vars)`: JSON_TABLE's rows (Trino docs functions/json
//! "json_table"; JsonTableProcessingFunction) as one JSON array the engine unnests with
//! `json_each`. Each row holds, per level of the [`TableSpec`], the item its columns read
//! (its JSON text as a JSON string) and its ordinality (1-based among the items its path gave
//! for the parent item), both `null` where the plan pads the level.
//!
//! Errors: a row path or NESTED path that fails (input not JSON, a structural error in strict
//! mode) gives no items under `EMPTY ON ERROR` (the default) and fails the query under
//! `ERROR ON ERROR`, as Trino 476 answers. A NULL input gives no rows.

use querymesh_values::error::ErrorName;
use rusqlite::Connection;
use rusqlite::types::ValueRef;

use super::value::Json;
use super::{FLAGS, define, fail, reserve, sql_json_items, text_arg, write_string};
use crate::json::path::Path;
use crate::json::table::{Plan, TableSpec};

/// One output row: per level, its item's text and ordinality.
type Row = Vec<Option<(String, i64)>>;

struct Evaluation<'s> {
    spec: &'s TableSpec,
    paths: Vec<Path>,
}

impl Evaluation<'_> {
    /// The items of level `level`'s path over `item` (a NESTED path; the row path is
    /// evaluated with the PASSING values in [`table_rows`]).
    fn items(&self, level: usize, item: &Json) -> rusqlite::Result<Vec<Json>> {
        let Some(path) = self.paths.get(level) else {
            return Ok(Vec::new());
        };
        match path.evaluate(item) {
            Ok(items) => Ok(items),
            Err(e) if self.spec.error_on_error => Err(fail(
                ErrorName::PathEvaluationError,
                format!("path evaluation failed: structural error: {e}"),
            )),
            Err(_) => Ok(Vec::new()),
        }
    }

    fn empty_row(&self) -> Row {
        vec![None; self.paths.len()]
    }

    /// The rows of `plan` over `item`; `given` are the items of the plan's top level, when
    /// already evaluated (the row path's).
    fn rows(
        &self,
        plan: &Plan,
        item: &Json,
        given: Option<Vec<Json>>,
    ) -> rusqlite::Result<Vec<Row>> {
        match plan {
            Plan::Leaf(level) => {
                let items = match given {
                    Some(items) => items,
                    None => self.items(*level, item)?,
                };
                let mut out = Vec::with_capacity(items.len());
                for (i, it) in items.iter().enumerate() {
                    out.push(self.row_with(self.empty_row(), *level, it, i)?);
                }
                Ok(out)
            }
            Plan::Join {
                level,
                outer,
                child,
            } => {
                let items = match given {
                    Some(items) => items,
                    None => self.items(*level, item)?,
                };
                let mut out = Vec::new();
                for (i, it) in items.iter().enumerate() {
                    let children = self.rows(child, it, None)?;
                    if children.is_empty() {
                        if *outer {
                            out.push(self.row_with(self.empty_row(), *level, it, i)?);
                        }
                        continue;
                    }
                    for row in children {
                        out.push(self.row_with(row, *level, it, i)?);
                    }
                }
                Ok(out)
            }
            Plan::Union(plans) => {
                let mut out = Vec::new();
                for p in plans {
                    out.extend(self.rows(p, item, None)?);
                }
                Ok(out)
            }
            Plan::Cross(plans) => {
                let mut out = vec![self.empty_row()];
                for p in plans {
                    let rows = self.rows(p, item, None)?;
                    let mut next = Vec::with_capacity(out.len().saturating_mul(rows.len()));
                    for left in &out {
                        for right in &rows {
                            let merged: Row = left
                                .iter()
                                .zip(right)
                                .map(|(l, r)| r.clone().or_else(|| l.clone()))
                                .collect();
                            reserve(row_size(&merged))?;
                            next.push(merged);
                        }
                    }
                    out = next;
                }
                Ok(out)
            }
        }
    }

    /// `row` with level `level` set to `item`, the `index`-th of its path's items.
    fn row_with(
        &self,
        mut row: Row,
        level: usize,
        item: &Json,
        index: usize,
    ) -> rusqlite::Result<Row> {
        let text = item.compact();
        reserve(text.len().saturating_add(16))?;
        if let Some(slot) = row.get_mut(level) {
            *slot = Some((text, index as i64 + 1));
        }
        Ok(row)
    }
}

fn row_size(row: &Row) -> usize {
    row.iter()
        .map(|l| l.as_ref().map_or(8, |(t, _)| t.len() + 16))
        .sum()
}

/// The rows of the JSON_TABLE `spec` over `input` with the PASSING values `vars` (a JSON
/// object's text), as the text of a JSON array of rows.
fn table_rows(input: &str, spec: &TableSpec, vars: &str) -> rusqlite::Result<String> {
    let mut paths = Vec::with_capacity(spec.paths.len());
    for p in &spec.paths {
        // The paths were checked when the query was analysed; a failure here is the same.
        paths.push(
            Path::parse(p)
                .map_err(|_| fail(ErrorName::InvalidPath, format!("Invalid JSON path: '{p}'")))?,
        );
    }
    let root_path = spec.paths.first().map_or("lax $", String::as_str);
    let root_items = match sql_json_items(input, root_path, vars)? {
        Ok(items) => items,
        Err(e) if spec.error_on_error => return Err(e.error()),
        Err(_) => Vec::new(),
    };
    let evaluation = Evaluation { spec, paths };
    let rows = evaluation.rows(&spec.plan, &Json::Null, Some(root_items))?;
    let mut out = String::from("[");
    for (i, row) in rows.iter().enumerate() {
        reserve(row_size(row))?;
        if i > 0 {
            out.push(',');
        }
        out.push('[');
        for (j, level) in row.iter().enumerate() {
            if j > 0 {
                out.push(',');
            }
            match level {
                Some((text, ordinal)) => {
                    write_string(&mut out, text);
                    out.push_str(&format!(",{ordinal}"));
                }
                None => out.push_str("null,null"),
            }
        }
        out.push(']');
    }
    out.push(']');
    Ok(out)
}

/// `text` in UTF-16 or UTF-32, little-endian (JSON_TABLE's `FORMAT JSON ENCODING UTF16`
/// varbinary columns).
fn encoded(text: &str, encoding: &str) -> Vec<u8> {
    match encoding {
        "utf16" => text.encode_utf16().flat_map(u16::to_le_bytes).collect(),
        "utf32" => text
            .chars()
            .flat_map(|c| u32::from(c).to_le_bytes())
            .collect(),
        _ => text.as_bytes().to_vec(),
    }
}

/// `bytes` read as text in `encoding`'s little-endian code units, as Trino reads a varbinary
/// `FORMAT JSON ENCODING UTF16 | UTF32`; None when they are not such text.
fn decoded(bytes: &[u8], encoding: &str) -> Option<String> {
    match encoding {
        "utf16" => {
            let units: Vec<u16> = bytes
                .chunks(2)
                .map(|c| c.try_into().ok().map(u16::from_le_bytes))
                .collect::<Option<_>>()?;
            String::from_utf16(&units).ok()
        }
        "utf32" => bytes
            .chunks(4)
            .map(|c| {
                c.try_into()
                    .ok()
                    .map(u32::from_le_bytes)
                    .and_then(char::from_u32)
            })
            .collect(),
        _ => String::from_utf8(bytes.to_vec()).ok(),
    }
}

pub(super) fn register(conn: &Connection) -> rusqlite::Result<()> {
    define(conn, super::QM_JSON_DECODED.name(), 2, FLAGS, |ctx| {
        let (ValueRef::Blob(bytes), Some(encoding)) = (ctx.get_raw(0), text_arg(ctx.get_raw(1)))
        else {
            return Ok(None);
        };
        reserve(bytes.len().saturating_mul(2))?;
        decoded(bytes, &encoding).map(Some).ok_or_else(|| {
            fail(
                ErrorName::JsonInputConversionError,
                "conversion to JSON failed: ",
            )
        })
    })?;
    define(conn, super::QM_JSON_ENCODED.name(), 2, FLAGS, |ctx| {
        let (Some(text), Some(encoding)) = (text_arg(ctx.get_raw(0)), text_arg(ctx.get_raw(1)))
        else {
            return Ok(None);
        };
        reserve(text.len().saturating_mul(4))?;
        Ok(Some(encoded(&text, &encoding)))
    })?;
    define(conn, super::QM_JSON_TABLE.name(), 3, FLAGS, |ctx| {
        let (Some(input), Some(spec)) = (text_arg(ctx.get_raw(0)), text_arg(ctx.get_raw(1))) else {
            return Ok(Some("[]".to_string()));
        };
        let Some(spec) = TableSpec::from_text(&spec) else {
            return Err(fail(
                ErrorName::GenericInternalError,
                "Invalid JSON_TABLE plan",
            ));
        };
        let vars = text_arg(ctx.get_raw(2)).unwrap_or_default();
        table_rows(&input, &spec, &vars).map(Some)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(paths: &[&str], plan: Plan) -> TableSpec {
        TableSpec {
            paths: paths.iter().map(|p| p.to_string()).collect(),
            plan,
            error_on_error: false,
        }
    }

    fn join(level: usize, outer: bool, child: Plan) -> Plan {
        Plan::Join {
            level,
            outer,
            child: Box::new(child),
        }
    }

    #[test]
    fn ordinality_counts_items_per_parent() {
        // Trino 476: '[[1,2],[3]]', 'lax $[*]' with NESTED PATH 'lax $[*]': (1,1) (1,2) (2,1).
        let s = spec(&["lax $[*]", "lax $[*]"], join(0, true, Plan::Leaf(1)));
        assert_eq!(
            table_rows("[[1,2],[3]]", &s, "{}").ok(),
            Some(r#"[["[1,2]",1,"1",1],["[1,2]",1,"2",2],["[3]",2,"3",1]]"#.to_string())
        );
    }

    #[test]
    fn outer_and_inner_joins_with_the_docs_example() {
        // docs functions/json "json_table": '[]', PLAN (root OUTER nested) gives one row,
        // INNER none.
        let outer = spec(&["lax $", "lax $[*]"], join(0, true, Plan::Leaf(1)));
        assert_eq!(
            table_rows("[]", &outer, "{}").ok(),
            Some(r#"[["[]",1,null,null]]"#.to_string())
        );
        let inner = spec(&["lax $", "lax $[*]"], join(0, false, Plan::Leaf(1)));
        assert_eq!(table_rows("[]", &inner, "{}").ok(), Some("[]".to_string()));
    }

    #[test]
    fn union_and_cross_of_siblings() {
        let union = spec(
            &["lax $[*]", "lax $", "lax $"],
            join(0, true, Plan::Union(vec![Plan::Leaf(1), Plan::Leaf(2)])),
        );
        assert_eq!(
            table_rows("[7]", &union, "{}").ok(),
            Some(r#"[["7",1,"7",1,null,null],["7",1,null,null,"7",1]]"#.to_string())
        );
        let cross = spec(
            &["lax $", "lax $[*]", "lax $[*]"],
            join(0, true, Plan::Cross(vec![Plan::Leaf(1), Plan::Leaf(2)])),
        );
        assert_eq!(
            table_rows("[1,2]", &cross, "{}")
                .map(|t| t.matches("],[").count() + 1)
                .ok(),
            Some(4)
        );
    }

    #[test]
    fn encodings_are_little_endian() {
        // Trino 476: '[1,2]' FORMAT JSON ENCODING UTF16 is X'5B0031002C0032005D00'.
        assert_eq!(encoded("[1]", "utf16"), vec![0x5B, 0, 0x31, 0, 0x5D, 0]);
        assert_eq!(encoded("1", "utf32"), vec![0x31, 0, 0, 0]);
    }

    #[test]
    fn errors_follow_the_table_on_error() {
        let mut s = spec(&["strict $.x"], Plan::Leaf(0));
        assert_eq!(table_rows("[1]", &s, "{}").ok(), Some("[]".to_string()));
        assert_eq!(
            table_rows("not json", &s, "{}").ok(),
            Some("[]".to_string())
        );
        s.error_on_error = true;
        assert!(table_rows("[1]", &s, "{}").is_err());
        assert!(table_rows("not json", &s, "{}").is_err());
    }
}
