//! The developer's own data as more catalogs (`[[querymesh.catalogs]]`): a SQLite file
//! attached read-only, or a folder of CSV files loaded into an in-memory database. Every
//! column gets a Trino type, declared in `types` or inferred.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags};
use serde::{Deserialize, Serialize};

use super::catalog::{ColumnMeta, SqliteTable, TableMeta};
use super::types::TrinoType;

/// A catalog.schema backed by a SQLite file or a folder of CSV files.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CatalogSource {
    pub catalog: String,
    pub schema: String,
    /// A SQLite database file, attached read-only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sqlite: Option<PathBuf>,
    /// A folder of `*.csv` files with a header row, one table per file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub csv_dir: Option<PathBuf>,
    /// Declared Trino types, `"table.column" = "double"`; other columns are inferred.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub types: BTreeMap<String, String>,
}

/// A source ready to attach: its SQLite name, URI, tables, and (for CSV) the connection that
/// keeps its in-memory database alive.
pub struct Loaded {
    pub attach_name: String,
    pub uri: String,
    pub tables: Vec<TableMeta>,
    pub keeper: Option<Connection>,
    /// Each view (lower-case) and the tables of the file it reads, lower-case.
    pub view_reads: Vec<(String, Vec<String>)>,
    /// Each view (lower-case) and its `CREATE VIEW` statement, for reading it as Trino SQL.
    pub view_sql: Vec<(String, String)>,
}

/// The tables each view of `conn`'s main database reads, through other views too, as
/// SQLite's authorizer reports them while it compiles `SELECT * FROM view`: row filters and
/// column masks on those tables must not be bypassed by reading the view.
fn view_reads(conn: &mut Connection) -> rusqlite::Result<Vec<(String, Vec<String>)>> {
    use rusqlite::hooks::{AuthAction, AuthContext, Authorization};
    use std::sync::{Arc, Mutex};
    let views: Vec<String> = {
        let mut views = conn.prepare("SELECT name FROM sqlite_schema WHERE type = 'view'")?;
        views
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?
    };
    let seen = Arc::new(Mutex::new(Vec::<String>::new()));
    let collect = seen.clone();
    conn.authorizer(Some(move |ctx: AuthContext<'_>| {
        if let AuthAction::Read { table_name, .. } = ctx.action {
            let mut seen = collect.lock().unwrap_or_else(|p| p.into_inner());
            let name = table_name.to_lowercase();
            if !seen.contains(&name) {
                seen.push(name);
            }
        }
        Authorization::Allow
    }))?;
    let mut out = Vec::new();
    for view in views {
        seen.lock().unwrap_or_else(|p| p.into_inner()).clear();
        let compiled = conn.prepare(&format!("SELECT * FROM \"{}\"", view.replace('"', "\"\"")));
        let view = view.to_lowercase();
        let mut tables = std::mem::take(&mut *seen.lock().unwrap_or_else(|p| p.into_inner()));
        tables.retain(|t| *t != view);
        // A view SQLite cannot compile fails when queried; it reads nothing meanwhile.
        drop(compiled);
        out.push((view, tables));
    }
    conn.authorizer(None::<fn(AuthContext<'_>) -> Authorization>)?;
    Ok(out)
}

/// Each view of `conn`'s main database (lower-case) and its `CREATE VIEW` statement.
fn view_sql(conn: &Connection) -> rusqlite::Result<Vec<(String, String)>> {
    let mut views = conn
        .prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'view' AND sql IS NOT NULL")?;
    views
        .query_map([], |r| {
            Ok((r.get::<_, String>(0)?.to_lowercase(), r.get(1)?))
        })?
        .collect()
}

fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && !name.starts_with(|c: char| c.is_ascii_digit())
}

/// `file:` URI for a path, escaping what URIs reserve.
pub fn file_uri(path: &Path, query: &str) -> String {
    let text = path.to_string_lossy();
    let mut out = String::from("file:");
    for c in text.chars() {
        match c {
            '%' => out.push_str("%25"),
            '?' => out.push_str("%3f"),
            '#' => out.push_str("%23"),
            c => out.push(c),
        }
    }
    format!("{out}?{query}")
}

/// A declared type name (`bigint`, `double`, `varchar`, `varchar(20)`, `date`, `boolean`, …).
pub fn parse_type_name(name: &str) -> Option<TrinoType> {
    let n = name.trim().to_lowercase();
    Some(match n.as_str() {
        "bigint" => TrinoType::BigInt,
        "integer" | "int" => TrinoType::Integer,
        "smallint" => TrinoType::SmallInt,
        "tinyint" => TrinoType::TinyInt,
        "double" => TrinoType::Double,
        "real" => TrinoType::Real,
        "boolean" => TrinoType::Boolean,
        "date" => TrinoType::Date,
        "varchar" => TrinoType::Varchar(None),
        other => {
            let len = other
                .strip_prefix("varchar(")?
                .strip_suffix(')')?
                .trim()
                .parse()
                .ok()?;
            TrinoType::Varchar(Some(len))
        }
    })
}

/// The Trino type for a SQLite declared column type (SQLite's affinity rules, plus DATE).
fn from_declared(decl: &str) -> TrinoType {
    let d = decl.to_uppercase();
    if d.contains("INT") {
        TrinoType::BigInt
    } else if d.contains("REAL")
        || d.contains("FLOA")
        || d.contains("DOUB")
        || d.contains("NUM")
        || d.contains("DEC")
    {
        TrinoType::Double
    } else if d.contains("BOOL") {
        TrinoType::Boolean
    } else if d == "DATE" {
        TrinoType::Date
    } else {
        TrinoType::Varchar(None)
    }
}

fn storage(ty: &TrinoType) -> &'static str {
    match ty {
        t if t.is_integral() => "INTEGER",
        TrinoType::Boolean => "INTEGER",
        TrinoType::Double | TrinoType::Real => "REAL",
        _ => "TEXT",
    }
}

fn declared(
    source: &CatalogSource,
    table: &str,
    column: &str,
) -> Result<Option<TrinoType>, String> {
    match source.types.get(&format!("{table}.{column}")) {
        None => Ok(None),
        Some(name) => parse_type_name(name)
            .map(Some)
            .ok_or_else(|| format!("unknown type `{name}` declared for {table}.{column}")),
    }
}

/// Why a developer's catalog could not be loaded, named by its `catalog.schema`.
#[derive(Debug, thiserror::Error)]
#[error("querymesh catalog {catalog}.{schema}: {problem}")]
pub struct SourceError {
    pub catalog: String,
    pub schema: String,
    pub problem: SourceProblem,
}

#[derive(Debug, thiserror::Error)]
pub enum SourceProblem {
    #[error("catalog and schema names must be lower-case letters, digits and _")]
    InvalidName,
    #[error("that name is reserved")]
    Reserved,
    #[error("give exactly one of `sqlite` or `csv_dir`")]
    NotExactlyOneSource,
    /// Reading the file or directory: what failed, with the path it names.
    #[error("{0}")]
    Load(String),
}

pub fn load(source: &CatalogSource, index: usize) -> Result<Loaded, SourceError> {
    // Loading opens SQLite: count its memory from the first (memory.rs).
    super::memory::install();
    let fail = |problem| SourceError {
        catalog: source.catalog.clone(),
        schema: source.schema.clone(),
        problem,
    };
    if !valid_name(&source.catalog) || !valid_name(&source.schema) {
        return Err(fail(SourceProblem::InvalidName));
    }
    if source.catalog == "tpch" || source.schema == "information_schema" {
        return Err(fail(SourceProblem::Reserved));
    }
    let attach_name = format!("src_{index}");
    match (&source.sqlite, &source.csv_dir) {
        (Some(path), None) => load_sqlite(source, path, attach_name),
        (None, Some(dir)) => load_csv_dir(source, dir, attach_name),
        _ => return Err(fail(SourceProblem::NotExactlyOneSource)),
    }
    .map_err(|e| fail(SourceProblem::Load(e)))
}

/// A SQLite column: name, declared type, NOT NULL.
type DeclaredColumn = (String, String, bool);

fn load_sqlite(source: &CatalogSource, path: &Path, attach_name: String) -> Result<Loaded, String> {
    let path =
        std::fs::canonicalize(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let uri = file_uri(&path, "mode=ro");
    let mut conn = Connection::open_with_flags(
        &uri,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI,
    )
    .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let read = || -> rusqlite::Result<Vec<(String, Vec<DeclaredColumn>)>> {
        let mut names = conn.prepare("SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' ORDER BY name")?;
        let names: Vec<String> = names
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        let mut out = Vec::new();
        for name in names {
            let mut info = conn.prepare(
                "SELECT name, type, \"notnull\" FROM pragma_table_info(?1) ORDER BY cid",
            )?;
            let cols = info
                .query_map([&name], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get::<_, i64>(2)? != 0))
                })?
                .collect::<Result<_, _>>()?;
            out.push((name, cols));
        }
        Ok(out)
    };
    let found = read().map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let view_reads =
        view_reads(&mut conn).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let view_sql = view_sql(&conn).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut tables = Vec::new();
    for (name, cols) in found {
        let table = name.to_lowercase();
        let mut columns = Vec::new();
        for (col, decl, not_null) in cols {
            let col_name = col.to_lowercase();
            let ty = match declared(source, &table, &col_name)? {
                Some(t) => t,
                None => from_declared(&decl),
            };
            columns.push(ColumnMeta {
                hidden: false,
                name: col_name,
                ty,
                nullable: !not_null,
            });
        }
        tables.push(TableMeta {
            catalog: source.catalog.clone(),
            schema: source.schema.clone(),
            sqlite: SqliteTable::Attached {
                database: attach_name.clone(),
                table: name,
            },
            name: table,
            columns,
        });
    }
    Ok(Loaded {
        attach_name,
        uri,
        tables,
        keeper: None,
        view_reads,
        view_sql,
    })
}

/// RFC 4180 fields: quoted fields may hold commas, quotes (`""`) and newlines.
pub fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    field.push('"');
                    chars.next();
                }
                '"' => quoted = false,
                c => field.push(c),
            }
            continue;
        }
        match c {
            '"' => quoted = true,
            ',' => row.push(std::mem::take(&mut field)),
            '\r' => {}
            '\n' => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            c => field.push(c),
        }
    }
    if !field.is_empty() || !row.is_empty() {
        row.push(field);
        rows.push(row);
    }
    rows.retain(|r| !(r.len() == 1 && r[0].is_empty()));
    rows
}

fn infer(values: impl Iterator<Item = String> + Clone) -> TrinoType {
    let present = values.filter(|v| !v.is_empty());
    let all = |f: fn(&str) -> bool| present.clone().all(|v| f(&v));
    if present.clone().next().is_none() {
        TrinoType::Varchar(None)
    } else if all(|v| v.parse::<i64>().is_ok()) {
        TrinoType::BigInt
    } else if all(|v| v.parse::<f64>().is_ok()) {
        TrinoType::Double
    } else if all(|v| v.eq_ignore_ascii_case("true") || v.eq_ignore_ascii_case("false")) {
        TrinoType::Boolean
    } else if all(|v| v.len() == 10 && querymesh_values::calendar::parse_date(v).is_some()) {
        TrinoType::Date
    } else {
        TrinoType::Varchar(None)
    }
}

fn stored(value: &str, ty: &TrinoType) -> rusqlite::types::Value {
    use rusqlite::types::Value;
    if value.is_empty() {
        return Value::Null;
    }
    match ty {
        t if t.is_integral() => value.parse().map_or(Value::Null, Value::Integer),
        TrinoType::Double | TrinoType::Real => value.parse().map_or(Value::Null, Value::Real),
        TrinoType::Boolean => Value::Integer(i64::from(value.eq_ignore_ascii_case("true"))),
        _ => Value::Text(value.to_string()),
    }
}

fn load_csv_dir(source: &CatalogSource, dir: &Path, attach_name: String) -> Result<Loaded, String> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("csv")))
        .collect();
    files.sort();
    let uri = format!(
        "file:qm-csv-{}?mode=memory&cache=shared",
        uuid::Uuid::new_v4()
    );
    let mut keeper = Connection::open_with_flags(
        &uri,
        OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_URI,
    )
    .map_err(|e| format!("cannot create the in-memory database: {e}"))?;
    let mut tables = Vec::new();
    let tx = keeper.transaction().map_err(|e| e.to_string())?;
    for file in files {
        let table = file
            .file_stem()
            .map(|s| {
                s.to_string_lossy()
                    .to_lowercase()
                    .replace(|c: char| !(c.is_ascii_alphanumeric() || c == '_'), "_")
            })
            .unwrap_or_default();
        let text = std::fs::read_to_string(&file)
            .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        let mut rows = parse_csv(text.trim_start_matches('\u{feff}')).into_iter();
        let Some(header) = rows.next() else { continue };
        let rows: Vec<Vec<String>> = rows.collect();
        let mut columns = Vec::new();
        for (i, name) in header.iter().enumerate() {
            let col_name = name.trim().to_lowercase();
            if col_name.is_empty() || columns.iter().any(|c: &ColumnMeta| c.name == col_name) {
                return Err(format!(
                    "{}: column names must be present and distinct",
                    file.display()
                ));
            }
            let ty = match declared(source, &table, &col_name)? {
                Some(t) => t,
                None => infer(rows.iter().map(|r| r.get(i).cloned().unwrap_or_default())),
            };
            columns.push(ColumnMeta {
                hidden: false,
                name: col_name,
                ty,
                nullable: true,
            });
        }
        let defs: Vec<String> = columns
            .iter()
            .map(|c| format!("\"{}\" {}", c.name.replace('"', "\"\""), storage(&c.ty)))
            .collect();
        tx.execute_batch(&format!("CREATE TABLE \"{table}\" ({})", defs.join(", ")))
            .map_err(|e| format!("{}: {e}", file.display()))?;
        let placeholders: Vec<String> = (1..=columns.len()).map(|i| format!("?{i}")).collect();
        let mut insert = tx
            .prepare(&format!(
                "INSERT INTO \"{table}\" VALUES ({})",
                placeholders.join(", ")
            ))
            .map_err(|e| e.to_string())?;
        for (n, row) in rows.iter().enumerate() {
            if row.len() != columns.len() {
                return Err(format!(
                    "{}: line {} has {} fields, the header {}",
                    file.display(),
                    n + 2,
                    row.len(),
                    columns.len()
                ));
            }
            let values: Vec<_> = row
                .iter()
                .zip(&columns)
                .map(|(v, c)| stored(v, &c.ty))
                .collect();
            insert
                .execute(rusqlite::params_from_iter(values))
                .map_err(|e| format!("{}: {e}", file.display()))?;
        }
        tables.push(TableMeta {
            catalog: source.catalog.clone(),
            schema: source.schema.clone(),
            sqlite: SqliteTable::Attached {
                database: attach_name.clone(),
                table: table.clone(),
            },
            name: table,
            columns,
        });
    }
    tx.commit().map_err(|e| e.to_string())?;
    Ok(Loaded {
        attach_name,
        uri,
        tables,
        keeper: Some(keeper),
        view_reads: Vec::new(),
        view_sql: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_quotes_and_inference() {
        let rows = parse_csv("a,b\r\n1,\"x, \"\"y\"\"\"\n2,z\n");
        assert_eq!(
            rows,
            vec![vec!["a", "b"], vec!["1", "x, \"y\""], vec!["2", "z"]]
        );
        assert_eq!(
            infer(["1", "2"].iter().map(|s| s.to_string())),
            TrinoType::BigInt
        );
        assert_eq!(
            infer(["1", "2.5"].iter().map(|s| s.to_string())),
            TrinoType::Double
        );
        assert_eq!(
            infer(["2024-01-01", ""].iter().map(|s| s.to_string())),
            TrinoType::Date
        );
    }
}
