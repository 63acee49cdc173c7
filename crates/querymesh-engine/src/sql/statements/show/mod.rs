//! Exploration statements: SHOW CATALOGS, SHOW SCHEMAS, SHOW TABLES, SHOW COLUMNS and
//! DESCRIBE, answered from the catalogs with Trino's column names (`Catalog`, `Schema`,
//! `Table`; `Column`, `Type`, `Extra`, `Comment`), and SHOW FUNCTIONS from the function
//! registry; SHOW CREATE, SHOW GRANTS and SHOW ROLES in show_create.rs.
//!
//! With access rules in force they list only what the person may see, and refuse as Trino's
//! `checkCanShowSchemas` / `checkCanShowTables` / `checkCanShowColumns` do, after the
//! existence checks (Trino's `ShowQueriesRewrite` order). DESCRIBE needs any privilege on the
//! table, not SELECT.

use serde_json::Value;
use sqlparser::tokenizer::TokenWithSpan;

mod constant_stats;
mod create;
mod filter_estimate;
mod filtered_stats;
mod functions;
mod statistic_range;
mod stats;

use crate::catalog::{Catalogs, TableMeta};
use crate::error::{ErrorName, Position, TrinoError, error_at};
pub(super) use crate::sql::syntax::cursor::Cursor;
use crate::sql::{Body, Plan};
use crate::types::TrinoType;
use crate::{OutputColumn, SessionContext, TableAccess};

fn varchar_columns(names: &[&str]) -> Vec<OutputColumn> {
    names
        .iter()
        .map(|n| OutputColumn {
            name: n.to_string(),
            ty: TrinoType::Varchar(None),
        })
        .collect()
}

/// A SHOW … LIKE pattern: `%` any run of characters, `_` one, and with `ESCAPE 'c'`, `c`
/// before either (or itself) for the character as it is.
#[derive(Clone, Debug)]
pub(super) struct LikePattern(Vec<Piece>);

#[derive(Clone, Debug, PartialEq)]
enum Piece {
    Any,
    One,
    Char(char),
}

impl LikePattern {
    /// Refused as Trino's `like_pattern` refuses an escape: not one character, or followed by
    /// anything but `%`, `_` or itself.
    pub(super) fn new(pattern: &str, escape: Option<&str>) -> Result<Self, TrinoError> {
        let invalid = |m: &str| TrinoError::new(ErrorName::InvalidFunctionArgument, m);
        let escape = match escape {
            None => None,
            Some(e) => {
                let mut chars = e.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => Some(c),
                    _ => return Err(invalid("Escape string must be a single character")),
                }
            }
        };
        let mut pieces = Vec::new();
        let mut chars = pattern.chars();
        while let Some(c) = chars.next() {
            pieces.push(match c {
                c if Some(c) == escape => match chars.next() {
                    Some(next) if next == '%' || next == '_' || Some(next) == escape => {
                        Piece::Char(next)
                    }
                    _ => {
                        return Err(invalid(
                            "Escape character must be followed by '%', '_' or the escape character itself",
                        ));
                    }
                },
                '%' => Piece::Any,
                '_' => Piece::One,
                c => Piece::Char(c),
            });
        }
        Ok(Self(pieces))
    }

    /// Whether `text` matches, in time proportional to the pattern's length times the
    /// text's at worst (no backtracking past the last `%`), whatever the pattern.
    pub(super) fn matches(&self, text: &str) -> bool {
        let t: Vec<char> = text.chars().collect();
        let p = &self.0;
        let (mut pi, mut ti) = (0, 0);
        let mut last_any: Option<(usize, usize)> = None;
        while ti < t.len() {
            match p.get(pi) {
                Some(Piece::Any) => {
                    last_any = Some((pi, ti));
                    pi += 1;
                }
                Some(Piece::One) => {
                    pi += 1;
                    ti += 1;
                }
                Some(Piece::Char(c)) if *c == t[ti] => {
                    pi += 1;
                    ti += 1;
                }
                _ => match last_any {
                    // Let the last `%` take one more character and try again from there.
                    Some((any, taken)) => {
                        pi = any + 1;
                        ti = taken + 1;
                        last_any = Some((any, taken + 1));
                    }
                    None => return false,
                },
            }
        }
        p[pi..].iter().all(|piece| *piece == Piece::Any)
    }
}

/// SQL LIKE with `%` and `_` and no escape (SHOW SESSION LIKE).
pub(super) fn like(pattern: &str, text: &str) -> bool {
    LikePattern::new(pattern, None).is_ok_and(|p| p.matches(text))
}

impl Cursor<'_> {
    /// `[LIKE 'pattern' [ESCAPE 'c']]`.
    pub(super) fn like_pattern(&mut self) -> Result<Option<LikePattern>, TrinoError> {
        match self.like_text()? {
            Some((pattern, escape)) => LikePattern::new(&pattern, escape.as_deref()).map(Some),
            None => Ok(None),
        }
    }
}

pub(super) fn rows(columns: &[&str], values: Vec<Vec<String>>, reads: Vec<TableAccess>) -> Plan {
    Plan {
        columns: varchar_columns(columns),
        reads,
        session_update: None,
        body: Body::Rows(
            values
                .into_iter()
                .map(|r| r.into_iter().map(Value::from).collect())
                .collect(),
        ),
    }
}

/// Trino's `AccessDeniedException`: PERMISSION_DENIED, without a location.
pub(super) fn denied(what: String) -> TrinoError {
    TrinoError::new(
        ErrorName::PermissionDenied,
        format!("Access Denied: {what}"),
    )
}

pub(super) fn check_catalog(
    catalogs: &Catalogs,
    catalog: &str,
    at: Option<Position>,
) -> Result<(), TrinoError> {
    if catalogs.has_catalog(catalog) {
        Ok(())
    } else {
        Err(error_at(
            ErrorName::CatalogNotFound,
            at,
            format!("Catalog '{catalog}' not found"),
        ))
    }
}

/// MISSING_CATALOG_NAME: a name without its catalog and no session catalog.
pub(super) fn missing_catalog(at: Option<Position>) -> TrinoError {
    error_at(
        ErrorName::MissingCatalogName,
        at,
        "Catalog must be specified when session catalog is not set",
    )
}

/// Whether `tokens` are a SHOW statement (`Some(false)`) or DESCRIBE (`Some(true)`).
pub(super) fn recognise(tokens: &[TokenWithSpan]) -> Option<bool> {
    let mut c = Cursor::new(tokens);
    let describe = c.keyword("DESCRIBE") || c.keyword("DESC");
    (describe || c.keyword("SHOW")).then_some(describe)
}

/// Answers a SHOW or DESCRIBE statement.
pub(crate) fn plan(
    describe: bool,
    tokens: &[TokenWithSpan],
    sql: &str,
    catalogs: &Catalogs,
    session: &SessionContext,
) -> Result<Plan, TrinoError> {
    let mut c = Cursor::after(tokens, 1);
    show(&mut c, describe, sql, catalogs, session)
}

/// The statement after SHOW (or DESCRIBE), by its first keyword.
fn show(
    c: &mut Cursor<'_>,
    describe: bool,
    sql: &str,
    catalogs: &Catalogs,
    session: &SessionContext,
) -> Result<Plan, TrinoError> {
    if describe || c.keyword("COLUMNS") {
        return show_columns(c, describe, catalogs, session);
    }
    if c.keyword("CATALOGS") {
        return show_catalogs(c, catalogs, session);
    }
    if c.keyword("SCHEMAS") {
        return show_schemas(c, catalogs, session);
    }
    if c.keyword("TABLES") {
        return show_tables(c, catalogs, session);
    }
    if c.keyword("FUNCTIONS") {
        return functions::show_functions(c, session);
    }
    if c.keyword("STATS") {
        return stats::show_stats(c, sql, catalogs, session);
    }
    if c.keyword("CREATE") {
        return create::show_create(c, catalogs, session);
    }
    if c.keyword("GRANTS") {
        return create::show_grants(c, catalogs, session);
    }
    if c.keyword("ROLES") || (c.keyword("CURRENT") && c.keyword("ROLES")) {
        return create::show_roles(c);
    }
    if c.keyword("ROLE") {
        return create::show_role_grants(c, catalogs);
    }
    // What Trino's grammar (SqlBase.g4) takes after SHOW, as its parser lists it.
    const SHOWABLE: &[&str] = &[
        "CATALOGS",
        "COLUMNS",
        "CREATE",
        "CURRENT",
        "FUNCTIONS",
        "GRANTS",
        "ROLE",
        "ROLES",
        "SCHEMAS",
        "SESSION",
        "STATS",
        "TABLES",
    ];
    let found = c
        .peek()
        .map_or("<EOF>".to_string(), |t| t.token.to_string());
    let expecting: Vec<String> = SHOWABLE.iter().map(|w| format!("'{w}'")).collect();
    Err(error_at(
        ErrorName::SyntaxError,
        c.location(),
        format!(
            "mismatched input '{found}'. Expecting: {}",
            expecting.join(", ")
        ),
    ))
}

/// DESCRIBE t, SHOW COLUMNS FROM t: the table's columns the person sees.
fn show_columns(
    c: &mut Cursor<'_>,
    describe: bool,
    catalogs: &Catalogs,
    session: &SessionContext,
) -> Result<Plan, TrinoError> {
    if !(describe || c.keyword("FROM") || c.keyword("IN")) {
        return Err(c.error());
    }
    let at = c.location();
    let name = c.name()?;
    // SHOW COLUMNS FROM t [LIKE pattern]; DESCRIBE takes no pattern (SqlBase.g4).
    let pattern = if describe { None } else { c.like_pattern()? };
    c.end()?;
    let (catalog, schema, table, meta) = existing_table(&name, at, catalogs, session)?;
    let viewer = session.viewer.as_ref();
    if viewer.is_some_and(|v| !v.may_show_columns(&catalog, &schema, &table)) {
        return Err(denied(format!(
            "Cannot show columns of table {catalog}.{schema}.{table}"
        )));
    }
    let values = meta
        .listed_columns()
        .filter(|col| viewer.is_none_or(|v| v.sees_column(&catalog, &schema, &table, &col.name)))
        .filter(|col| pattern.as_ref().is_none_or(|p| p.matches(&col.name)))
        .map(|col| {
            vec![
                col.name.clone(),
                col.ty.to_string(),
                String::new(),
                String::new(),
            ]
        })
        .collect();
    Ok(rows(
        &["Column", "Type", "Extra", "Comment"],
        values,
        Vec::new(),
    ))
}

/// The table `name` names (completed from the session), checked to exist as Trino's
/// `ShowQueriesRewrite` checks: catalog, schema, then table.
pub(super) fn existing_table<'c>(
    name: &[String],
    at: Option<Position>,
    catalogs: &'c Catalogs,
    session: &SessionContext,
) -> Result<(String, String, String, &'c TableMeta), TrinoError> {
    let (catalog, schema, table) = qualified_table(name, at, session)?;
    check_catalog(catalogs, &catalog, at)?;
    // A listed tpch schema not generated yet has its tables' metadata (DESCRIBE tpch.sf1.orders
    // answers as in Trino); an unlisted one (`sf10`) is only told to be generated.
    let unavailable = catalogs.unavailable(&catalog, &schema);
    if let Some(message) = unavailable.filter(|_| !catalogs.has_schema(&catalog, &schema)) {
        return Err(error_at(ErrorName::TableNotFound, at, message));
    }
    if !catalogs.has_schema(&catalog, &schema) {
        return Err(error_at(
            ErrorName::SchemaNotFound,
            at,
            format!("Schema '{schema}' does not exist"),
        ));
    }
    let meta = catalogs.table(&catalog, &schema, &table).ok_or_else(|| {
        error_at(
            ErrorName::TableNotFound,
            at,
            format!("Table '{catalog}.{schema}.{table}' does not exist"),
        )
    })?;
    Ok((catalog, schema, table, meta))
}

/// `name` (`t`, `s.t` or `c.s.t`) completed from the session's catalog and schema.
pub(super) fn qualified_table(
    name: &[String],
    at: Option<Position>,
    session: &SessionContext,
) -> Result<(String, String, String), TrinoError> {
    Ok(match name {
        // The schema is checked before the catalog (MetadataUtil.createQualifiedObjectName).
        [t] => {
            let schema = session.schema.clone().ok_or_else(|| {
                error_at(
                    ErrorName::MissingSchemaName,
                    at,
                    "Schema must be specified when session schema is not set",
                )
            })?;
            (
                session.catalog.clone().ok_or_else(|| missing_catalog(at))?,
                schema,
                t.clone(),
            )
        }
        [s, t] => (
            session.catalog.clone().ok_or_else(|| missing_catalog(at))?,
            s.clone(),
            t.clone(),
        ),
        [c, s, t] => (c.clone(), s.clone(), t.clone()),
        _ => {
            return Err(error_at(
                ErrorName::SyntaxError,
                at,
                "Too many dots in table name",
            ));
        }
    })
}

/// SHOW CATALOGS [LIKE p].
fn show_catalogs(
    c: &mut Cursor<'_>,
    catalogs: &Catalogs,
    session: &SessionContext,
) -> Result<Plan, TrinoError> {
    let pattern = c.like_pattern()?;
    c.end()?;
    let viewer = session.viewer.as_ref();
    let visible: Vec<&str> = catalogs
        .catalog_names()
        .filter(|n| viewer.is_none_or(|v| v.sees_catalog(n)))
        .collect();
    // Trino's rewrite filters a VALUES list of the catalogs the person sees: the column is a
    // varchar as long as the longest of them, whatever the pattern keeps.
    let longest = visible.iter().map(|n| n.chars().count()).max().unwrap_or(0);
    let values = visible
        .into_iter()
        .filter(|n| pattern.as_ref().is_none_or(|p| p.matches(n)))
        .map(|n| vec![n.to_string()])
        .collect();
    let mut plan = rows(&["Catalog"], values, Vec::new());
    plan.columns[0].ty = TrinoType::Varchar(Some(longest as u32));
    Ok(plan)
}

/// SHOW SCHEMAS [FROM catalog] [LIKE p].
fn show_schemas(
    c: &mut Cursor<'_>,
    catalogs: &Catalogs,
    session: &SessionContext,
) -> Result<Plan, TrinoError> {
    let at = c.location();
    let catalog = if c.keyword("FROM") || c.keyword("IN") {
        let name = c.name()?;
        let [catalog] = name.as_slice() else {
            return Err(error_at(ErrorName::SyntaxError, at, "mismatched input '.'"));
        };
        catalog.clone()
    } else {
        session
            .catalog
            .clone()
            .ok_or_else(|| missing_catalog(c.location()))?
    };
    let pattern = c.like_pattern()?;
    c.end()?;
    // Trino checks access before it looks the catalog up.
    let viewer = session.viewer.as_ref();
    if viewer.is_some_and(|v| !v.sees_catalog(&catalog)) {
        return Err(denied("Cannot show schemas".into()));
    }
    check_catalog(catalogs, &catalog, at)?;
    let values = catalogs
        .schema_names(&catalog)
        .filter(|n| viewer.is_none_or(|v| v.sees_schema(&catalog, n)))
        .filter(|n| pattern.as_ref().is_none_or(|p| p.matches(n)))
        .map(|n| vec![n.to_string()])
        .collect();
    Ok(rows(&["Schema"], values, Vec::new()))
}

/// SHOW TABLES [FROM [catalog.]schema] [LIKE p].
fn show_tables(
    c: &mut Cursor<'_>,
    catalogs: &Catalogs,
    session: &SessionContext,
) -> Result<Plan, TrinoError> {
    let at = c.location();
    let (catalog, schema) = if c.keyword("FROM") || c.keyword("IN") {
        let at = c.location();
        match c.name()?.as_slice() {
            [s] => (
                session.catalog.clone().ok_or_else(|| missing_catalog(at))?,
                s.clone(),
            ),
            [cat, s] => (cat.clone(), s.clone()),
            _ => {
                return Err(error_at(
                    ErrorName::SyntaxError,
                    at,
                    "Too many dots in schema name",
                ));
            }
        }
    } else {
        (
            session.catalog.clone().ok_or_else(|| missing_catalog(at))?,
            session.schema.clone().ok_or_else(|| {
                error_at(
                    ErrorName::MissingSchemaName,
                    at,
                    "Schema must be specified when session schema is not set",
                )
            })?,
        )
    };
    let pattern = c.like_pattern()?;
    c.end()?;
    // Trino checks access first, then that the catalog and schema exist.
    let viewer = session.viewer.as_ref();
    if viewer.is_some_and(|v| !v.sees_schema(&catalog, &schema)) {
        return Err(denied(format!(
            "Cannot show tables of schema {catalog}.{schema}"
        )));
    }
    if !catalogs.has_catalog(&catalog) {
        return Err(error_at(
            ErrorName::CatalogNotFound,
            at,
            format!("Catalog '{catalog}' does not exist"),
        ));
    }
    let unavailable = catalogs.unavailable(&catalog, &schema);
    if let Some(message) = unavailable.filter(|_| !catalogs.has_schema(&catalog, &schema)) {
        return Err(error_at(ErrorName::SchemaNotFound, at, message));
    }
    if !catalogs.has_schema(&catalog, &schema) {
        return Err(error_at(
            ErrorName::SchemaNotFound,
            at,
            format!("Schema '{schema}' does not exist"),
        ));
    }
    let values = catalogs
        .tables_in(&catalog, &schema)
        .filter(|t| viewer.is_none_or(|v| v.sees_table(&catalog, &schema, &t.name)))
        .filter(|t| pattern.as_ref().is_none_or(|p| p.matches(&t.name)))
        .map(|t| vec![t.name.clone()])
        .collect();
    Ok(rows(&["Table"], values, Vec::new()))
}

#[cfg(test)]
mod like_tests {
    use super::LikePattern;

    fn matches(pattern: &str, escape: Option<&str>, text: &str) -> bool {
        LikePattern::new(pattern, escape)
            .expect("a pattern")
            .matches(text)
    }

    #[test]
    fn wildcards_and_escapes_match_as_trinos_like() {
        assert!(matches("t%", None, "tpch"));
        assert!(matches("sys_em", None, "system"));
        assert!(!matches("sys_em", None, "systems"));
        assert!(matches("%a%b%", None, "xxaxxbxx"));
        assert!(matches("x\\_%", Some("\\"), "x_y"));
        assert!(!matches("x\\_%", Some("\\"), "xay"));
        assert!(matches("100!%", Some("!"), "100%"));
        assert!(matches("a!!", Some("!"), "a!"));
    }

    #[test]
    fn a_pattern_of_many_percents_answers_at_once() {
        // Backtracking into every `%` would take exponential time here.
        let pattern = format!("{}b", "%a".repeat(40));
        assert!(!matches(&pattern, None, &"a".repeat(60)));
    }

    #[test]
    fn bad_escapes_are_trinos_errors() {
        for (pattern, escape, message) in [
            ("a", Some("ab"), "Escape string must be a single character"),
            ("a", Some(""), "Escape string must be a single character"),
            (
                "!a",
                Some("!"),
                "Escape character must be followed by '%', '_' or the escape character itself",
            ),
            (
                "a!",
                Some("!"),
                "Escape character must be followed by '%', '_' or the escape character itself",
            ),
        ] {
            let error = LikePattern::new(pattern, escape).expect_err(pattern);
            assert_eq!(error.message(), message);
        }
    }
}
