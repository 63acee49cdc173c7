//! `DESCRIBE OUTPUT name` and `DESCRIBE INPUT name`: what a prepared statement will answer
//! and which parameters it takes, without running it. Trino's JDBC driver asks them for
//! `PreparedStatement.getMetaData()` and `getParameterMetaData()`, and database tools call
//! those before a statement runs.
//!
//! As in Trino (`DescribeOutputRewrite`, `DescribeInputRewrite`), the statement is analysed
//! with its `?` parameters unbound, and the answer is a query over a VALUES list:
//! - OUTPUT: one row per output column (`Column Name`, `Catalog`, `Schema`, `Table` the
//!   column comes straight from or empty, `Type`, `Type Size` of a fixed-width type or 0,
//!   `Aliased`); none (as `LIMIT 0` over a row of NULLs) for a statement without output.
//! - INPUT: one row per parameter (`Position` from 0, `Type` it was coerced to, or
//!   `unknown`), ordered by position.

use std::collections::HashMap;

use querymesh_values::sqlite_text::sql_string;
use sqlparser::ast::{Expr, Value};
use sqlparser::tokenizer::Token;

use super::query::{merged_reads, parse_query_tokens};
use crate::catalog::Catalogs;
use crate::error::{ErrorName, Position, TrinoError, error_at};
use crate::sql::analyze::scope::{Column, Scope};
use crate::sql::analyze::{Analyzer, location};
use crate::sql::syntax::tokenize;
use crate::sql::{Plan, plan};
use crate::types::TrinoType;
use crate::{OutputColumn, SessionContext, TableAccess};

/// Which of the two statements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Described {
    Output,
    Input,
}

/// What the analysis learns about a described statement (the analyser's `describing`).
#[derive(Debug, Default)]
pub struct Describing {
    /// Each `?` met, by its place in the text, with the type the analysis coerced it to.
    parameters: Vec<(Position, Option<TrinoType>)>,
    /// The tables the columns of derived tables and WITH queries come from, by the SQL that
    /// reads them (`t3."c1"`), as Trino's fields carry their origin through a subquery.
    derived: HashMap<String, [String; 3]>,
}

/// Where an output column comes from (Trino's `Field` origin table and `isAliased`).
#[derive(Clone, Debug, Default)]
pub struct Origin {
    /// Catalog, schema and table of a column selected by name straight from a table.
    pub table: Option<[String; 3]>,
    pub aliased: bool,
}

impl Describing {
    /// A `?` met at `at`: a value of unknown type until something coerces it.
    pub(crate) fn met(&mut self, at: Option<Position>) {
        if let Some(at) = at
            && !self.parameters.iter().any(|(p, _)| *p == at)
        {
            self.parameters.push((at, None));
        }
    }

    /// The `?` at `at` is coerced to `ty` (the first coercion counts, as Trino records one).
    pub(crate) fn coerced(&mut self, at: Option<Position>, ty: &TrinoType) {
        let Some(at) = at else { return };
        if *ty == TrinoType::Unknown {
            return;
        }
        match self.parameters.iter_mut().find(|(p, _)| *p == at) {
            Some((_, known @ None)) => *known = Some(ty.clone()),
            Some(_) => {}
            None => self.parameters.push((at, Some(ty.clone()))),
        }
    }
}

/// Whether `e` is a `?` parameter.
pub(crate) fn is_parameter(e: &Expr) -> bool {
    matches!(e, Expr::Value(v) if matches!(v.value, Value::Placeholder(_)))
}

impl Analyzer<'_> {
    /// The table a select item comes straight from: a column named bare or qualified.
    pub(crate) fn origin_of(&self, scope: &Scope<'_>, e: &Expr) -> Option<[String; 3]> {
        let parts: Vec<String> = match e {
            Expr::Identifier(i) => vec![i.value.to_lowercase()],
            Expr::CompoundIdentifier(parts) => {
                parts.iter().map(|p| p.value.to_lowercase()).collect()
            }
            _ => return None,
        };
        let resolved = scope.resolve(&parts, None).ok()?;
        (resolved.depth == 0 && !resolved.is_output)
            .then(|| self.origin_of_column(&resolved.column))
            .flatten()
    }

    /// The table `column` comes from: its own table read, or a subquery's origin.
    pub(crate) fn origin_of_column(&self, column: &Column) -> Option<[String; 3]> {
        match column.read.and_then(|i| self.reads.get(i)) {
            Some(r) => Some([r.catalog.clone(), r.schema.clone(), r.table.clone()]),
            None => self
                .describing
                .as_ref()?
                .derived
                .get(&column.sql.to_string())
                .cloned(),
        }
    }

    /// Remembers the origins of a derived table's or WITH query's columns.
    pub(crate) fn note_origins(&mut self, columns: &[Column], origins: &[Origin]) {
        let Some(describing) = &mut self.describing else {
            return;
        };
        for (column, origin) in columns.iter().zip(origins) {
            if let Some(table) = &origin.table {
                describing
                    .derived
                    .insert(column.sql.to_string(), table.clone());
            }
        }
    }

    /// Notes that `e`, when it is a `?` of a described statement, is coerced to `ty`.
    pub(crate) fn parameter_coerced(&mut self, e: &Expr, ty: &TrinoType) {
        if let Some(describing) = &mut self.describing
            && is_parameter(e)
        {
            describing.coerced(location(e), ty);
        }
    }
}

/// The plan answering `DESCRIBE OUTPUT` or `DESCRIBE INPUT` of `statement`; its reads are
/// the statement's, so the person needs the access running it would need.
pub fn describe(
    catalogs: &Catalogs,
    statement: &str,
    session: &SessionContext,
    described: Described,
) -> Result<Plan, TrinoError> {
    let analysed = analyse(catalogs, statement, session)?;
    let answer = match described {
        Described::Output => output_query(&analysed.columns),
        Described::Input => input_query(&analysed.parameters),
    };
    let mut answer = plan(catalogs, &answer, session)?;
    answer.reads = analysed.reads;
    Ok(answer)
}

/// A described statement once analysed.
struct Analysed {
    columns: Vec<(OutputColumn, Origin)>,
    /// The type of each `?`, in order (None: nothing coerced it).
    parameters: Vec<Option<TrinoType>>,
    reads: Vec<TableAccess>,
}

fn analyse(
    catalogs: &Catalogs,
    statement: &str,
    session: &SessionContext,
) -> Result<Analysed, TrinoError> {
    let (all_tokens, significant) = tokenize(statement)?;
    let placeholders: Vec<Position> = significant
        .iter()
        .filter(|t| matches!(&t.token, Token::Placeholder(p) if p == "?"))
        .map(|t| Position::from(t.span.start))
        .collect();
    let first = significant.first().and_then(|t| match &t.token {
        Token::Word(w) if w.quote_style.is_none() => Some(w.value.to_ascii_uppercase()),
        Token::LParen => Some("(".into()),
        _ => None,
    });
    let is_query = matches!(
        first.as_deref(),
        Some("SELECT" | "WITH" | "VALUES" | "TABLE" | "(")
    );
    let first_at = significant.first().map(|t| Position::from(t.span.start));
    if first.as_deref() == Some("USE") {
        return Err(error_at(
            ErrorName::NotSupported,
            first_at,
            "USE statement is not supported",
        ));
    }
    if !is_query {
        // SHOW, DESCRIBE and EXPLAIN answer rows of their own; SET and RESET SESSION none
        // (Trino's root scope of a statement that is not a query has no fields).
        let plan = plan(catalogs, statement, session)?;
        let columns = match first.as_deref() {
            Some("SET" | "RESET") => Vec::new(),
            _ => plan
                .columns
                .into_iter()
                .map(|c| (c, Origin::default()))
                .collect(),
        };
        return Ok(Analysed {
            columns,
            parameters: vec![None; placeholders.len()],
            reads: plan.reads,
        });
    }
    let query = parse_query_tokens(statement, all_tokens, &significant, first_at)?;
    let mut analyzer = Analyzer::new(catalogs, session, &significant);
    analyzer.describing = Some(Describing::default());
    let block = analyzer.query(&query, None)?;
    let describing = analyzer.describing.take().unwrap_or_default();
    let origins = block.origins;
    let columns = block
        .columns
        .into_iter()
        .enumerate()
        .map(|(i, (name, ty))| {
            let origin = origins.get(i).cloned().unwrap_or_default();
            let name = crate::sql::analyze::shown_name(name, i);
            (OutputColumn { name, ty }, origin)
        })
        .collect();
    let parameters = placeholders
        .iter()
        .map(|at| {
            describing
                .parameters
                .iter()
                .find(|(p, _)| p == at)
                .and_then(|(_, ty)| ty.clone())
        })
        .collect();
    Ok(Analysed {
        columns,
        parameters,
        reads: merged_reads(analyzer.reads),
    })
}

/// Trino's rewrite of DESCRIBE OUTPUT, as Trino SQL.
fn output_query(columns: &[(OutputColumn, Origin)]) -> String {
    const NAMES: &str =
        r#""Column Name", "Catalog", "Schema", "Table", "Type", "Type Size", "Aliased""#;
    let rows: Vec<String> = columns
        .iter()
        .map(|(column, origin)| {
            let [catalog, schema, table] = origin.table.clone().unwrap_or_default();
            format!(
                "({}, {}, {}, {}, {}, {}, {})",
                sql_string(&column.name),
                sql_string(&catalog),
                sql_string(&schema),
                sql_string(&table),
                sql_string(&column.ty.display_name()),
                fixed_size(&column.ty),
                origin.aliased
            )
        })
        .collect();
    let types = [
        "varchar", "varchar", "varchar", "varchar", "varchar", "bigint", "boolean",
    ];
    values_query(NAMES, "Statement Output", rows, &types, "")
}

/// Trino's rewrite of DESCRIBE INPUT, as Trino SQL.
fn input_query(parameters: &[Option<TrinoType>]) -> String {
    let rows: Vec<String> = parameters
        .iter()
        .enumerate()
        .map(|(position, ty)| {
            let ty = ty.as_ref().unwrap_or(&TrinoType::Unknown).display_name();
            format!("({position}, {})", sql_string(&ty))
        })
        .collect();
    values_query(
        r#""Position", "Type""#,
        "Parameter Input",
        rows,
        &["bigint", "varchar"],
        r#" ORDER BY "Position""#,
    )
}

/// `SELECT names FROM (VALUES rows) AS alias(names)`; with no rows, one row of NULLs of
/// `types` under `LIMIT 0`, so the columns are there with their types (as Trino 476 answers).
fn values_query(
    names: &str,
    alias: &str,
    rows: Vec<String>,
    types: &[&str],
    order: &str,
) -> String {
    let (rows, limit) = if rows.is_empty() {
        let nulls: Vec<String> = types.iter().map(|t| format!("CAST(NULL AS {t})")).collect();
        (format!("({})", nulls.join(", ")), " LIMIT 0")
    } else {
        (rows.join(", "), "")
    };
    format!("SELECT {names} FROM (VALUES {rows}) AS \"{alias}\"({names}){order}{limit}")
}

/// `FixedWidthType.getFixedSize()` of Trino's type, 0 for a type of variable width.
fn fixed_size(ty: &TrinoType) -> u32 {
    match ty {
        TrinoType::Boolean | TrinoType::TinyInt | TrinoType::Unknown => 1,
        TrinoType::SmallInt => 2,
        TrinoType::Integer | TrinoType::Real | TrinoType::Date | TrinoType::Color => 4,
        TrinoType::IntervalYearToMonth => 4,
        TrinoType::BigInt | TrinoType::Double | TrinoType::IntervalDayToSecond => 8,
        TrinoType::BingTile => 8,
        TrinoType::Time(_) => 8,
        // ShortTimeWithTimeZoneType up to nanos, LongTimeWithTimeZoneType beyond.
        TrinoType::TimeTz(p) if *p <= 9 => 8,
        TrinoType::TimeTz(_) => 12,
        TrinoType::Decimal { precision, .. } if *precision <= 18 => 8,
        TrinoType::Decimal { .. } => 16,
        // Short timestamps fit one long up to micros; with a zone, up to millis.
        TrinoType::Timestamp(p) if *p <= 6 => 8,
        TrinoType::TimestampTz(p) if *p <= 3 => 8,
        TrinoType::Timestamp(_) | TrinoType::TimestampTz(_) => 12,
        TrinoType::Uuid | TrinoType::IpAddress => 16,
        TrinoType::Varchar(_)
        | TrinoType::Char(_)
        | TrinoType::Varbinary
        | TrinoType::SetDigest
        | TrinoType::Geometry
        | TrinoType::SphericalGeography
        | TrinoType::HyperLogLog
        | TrinoType::P4HyperLogLog
        | TrinoType::QDigest(_)
        | TrinoType::TDigest
        | TrinoType::Json
        | TrinoType::Array(_)
        | TrinoType::Map(..)
        | TrinoType::Row(_) => 0,
    }
}
