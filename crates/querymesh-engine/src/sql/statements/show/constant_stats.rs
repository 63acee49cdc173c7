//! `SHOW STATS FOR (VALUES …)` and `SHOW STATS FOR (SELECT <constants>)`. Trino's optimizer
//! folds such a query into one VALUES node, whose statistics its ValuesStatsRule computes from
//! the rows themselves (core/trino-main/.../cost/ValuesStatsRule.java, printed by
//! ShowStatsRewrite): per column, no `data_size` (it sets no row size), the distinct non-null
//! values, the fraction of nulls, and the least and greatest value of a type with a numeric
//! representation; a column without a non-null value has Trino's zero estimate (`data_size`
//! and `distinct_values_count` 0, `nulls_fraction` 1). Checked against Trino 476, whose
//! printing of the bounds this reproduces: integers and dates as their text, doubles and
//! decimals as Java's Double.toString (`0.1`, `1.0E-5`), reals as Float.toString, booleans as
//! `true`/`false`, timestamps as their text in UTC for those with a zone, an infinite bound as
//! null. Array, map and row values are never equal to each other there (Java's identity), so
//! each counts as distinct.
//!
//! Only what Trino certainly folds is answered this way: VALUES, or a SELECT of deterministic
//! scalar expressions without FROM or any other clause. Aggregates, windows, subqueries and
//! random() make Trino estimate instead, and the caller refuses them with the other queries.

use sqlparser::tokenizer::Token;

use super::Cursor;
use crate::SessionContext;
use crate::catalog::Catalogs;
use crate::error::{ErrorName, Position, TrinoError, error_at};
use crate::sql::{Plan, plan};
use crate::types::TrinoType;

/// Words that make a query more than one folded VALUES node: at the top level, its clauses; at
/// any depth, a subquery or a window.
const CLAUSES: &[&str] = &[
    "FROM",
    "WHERE",
    "GROUP",
    "HAVING",
    "ORDER",
    "LIMIT",
    "OFFSET",
    "FETCH",
    "UNION",
    "INTERSECT",
    "EXCEPT",
    "WINDOW",
];
const ANYWHERE: &[&str] = &["SELECT", "VALUES", "OVER", "LATERAL", "UNNEST", "TABLE"];

/// A constant query inside SHOW STATS: its text, and where it starts in the statement.
pub(super) struct ConstantQuery<'s> {
    text: &'s str,
    at: Position,
}

/// `(VALUES …)` or `(SELECT …)` of constants, ending the statement, taken from `c`; `None`
/// (nothing taken) for any other query.
pub(super) fn constant_query<'s>(c: &mut Cursor<'_>, sql: &'s str) -> Option<ConstantQuery<'s>> {
    let mut probe = Cursor::new(c.rest());
    probe.take();
    let first = probe.peek()?.span.start;
    if !(probe.keyword("VALUES") || probe.keyword("SELECT")) {
        return None;
    }
    let mut depth = 0usize;
    let closing = loop {
        let token = probe.take()?;
        match &token.token {
            Token::LParen => depth += 1,
            Token::RParen if depth == 0 => break token.span.start,
            Token::RParen => depth -= 1,
            Token::Word(w) if w.quote_style.is_none() => {
                let word = w.value.to_ascii_uppercase();
                let clause = depth == 0 && CLAUSES.contains(&word.as_str());
                if clause || ANYWHERE.contains(&word.as_str()) {
                    return None;
                }
                let called = probe.peek().is_some_and(|t| t.token == Token::LParen);
                if called && !folded_call(&w.value) {
                    return None;
                }
            }
            _ => {}
        }
    };
    if probe.peek().is_some_and(|t| t.token != Token::SemiColon) {
        return None;
    }
    let text = sql.get(
        crate::sql::syntax::byte_offset(sql, Position::from(first))
            ..crate::sql::syntax::byte_offset(sql, Position::from(closing)),
    )?;
    for _ in 0..probe.taken() {
        c.take();
    }
    Some(ConstantQuery {
        text,
        at: Position::from(first),
    })
}

/// Whether Trino folds a call of `name` into constant rows: a deterministic scalar function,
/// or syntax called like one (CAST, ROW, MAP, …), which the registry does not hold.
fn folded_call(name: &str) -> bool {
    use querymesh_functions::entry::Kind;
    querymesh_functions::registry::lookup(&name.to_ascii_lowercase())
        .is_none_or(|f| f.deterministic && matches!(f.kind, Kind::Scalar | Kind::SpecialForm))
}

/// The statistics of the constant `query`, computed over its rows.
pub(super) fn show_constant_stats(
    query: ConstantQuery<'_>,
    catalogs: &Catalogs,
    session: &SessionContext,
) -> Result<Plan, TrinoError> {
    // Analysed where it stands in the statement, so that its errors are placed there.
    let (line, column) = (query.at.line as usize, query.at.column as usize);
    let padding = "\n".repeat(line.saturating_sub(1)) + &" ".repeat(column.saturating_sub(1));
    let columns = plan(catalogs, &(padding + query.text), session)?.columns;
    let names: Vec<String> = (1..=columns.len()).map(|i| format!("c{i}")).collect();
    let from = format!("({}) AS q({})", query.text, names.join(", "));
    let mut rows = Vec::new();
    for (column, name) in columns.iter().zip(&names) {
        let (distinct, bound) = measures(&column.ty).ok_or_else(|| {
            error_at(
                ErrorName::NotSupported,
                None,
                format!(
                    "SHOW STATS FOR a query with a {} column is not supported by the QueryMesh \
                     stand-in",
                    column.ty
                ),
            )
        })?;
        // The column's measures first (n rows, nn non-null, d distinct, lo and hi bounds), then
        // printed as ShowStatsRewrite prints them.
        let (lo, hi) = match bound {
            Bound::None => ("NULL", "NULL"),
            _ => ("min(v)", "max(v)"),
        };
        rows.push(format!(
            "SELECT {label}, CASE WHEN nn = 0 THEN 0e0 END, CAST(d AS double), \
             CAST(n - nn AS double) / n, CAST(NULL AS double), {low}, {high} \
             FROM (SELECT count(*) AS n, count(v) AS nn, {distinct} AS d, {lo} AS lo, \
             {hi} AS hi FROM (SELECT {name} AS v FROM {from}))",
            label = querymesh_values::sqlite_text::sql_string(&column.name),
            low = bound.printed("lo"),
            high = bound.printed("hi"),
        ));
    }
    super::stats::with_row_count(rows, &from, catalogs, session)
}

/// How a column's distinct values are counted (`v` its value) and how its bounds print; `None`
/// for a type the stand-in cannot compare (sketches, shapes) or whose printing it does not
/// reproduce (timestamps finer than Trino's statistics keep).
fn measures(ty: &TrinoType) -> Option<(&'static str, Bound)> {
    let distinct = match ty {
        // Java's equality of arrays, maps and rows is identity: each value is distinct.
        TrinoType::Array(_) | TrinoType::Map(..) | TrinoType::Row(_) => "count(v)",
        // Not comparable in SQL; equal there when their text is.
        TrinoType::Json => "count(DISTINCT json_format(v))",
        ty if ty.is_orderable() => "count(DISTINCT v)",
        _ => return None,
    };
    let bound = match ty {
        TrinoType::TinyInt
        | TrinoType::SmallInt
        | TrinoType::Integer
        | TrinoType::BigInt
        | TrinoType::Date
        | TrinoType::Boolean => Bound::Text,
        TrinoType::Timestamp(p) if *p <= 6 => Bound::Text,
        TrinoType::TimestampTz(p) if *p <= 3 => Bound::UtcText,
        TrinoType::Timestamp(_) | TrinoType::TimestampTz(_) => return None,
        TrinoType::Double | TrinoType::Real => Bound::JavaDouble,
        // A decimal's bound prints as the double it becomes (Double.toString: `0.1`).
        TrinoType::Decimal { .. } => Bound::DecimalAsDouble,
        _ => Bound::None,
    };
    Some((distinct, bound))
}

/// How ShowStatsRewrite prints a bound, which statistics hold as a double.
#[derive(Clone, Copy)]
enum Bound {
    /// Integers, dates, booleans and timestamps: their text.
    Text,
    /// A timestamp with a zone: its text in UTC.
    UtcText,
    /// Doubles as Java's Double.toString, reals as Float.toString; an infinite bound is
    /// unknown.
    JavaDouble,
    /// A decimal as the double it becomes.
    DecimalAsDouble,
    /// A type without a numeric representation (text, arrays, times, …): unknown.
    None,
}

impl Bound {
    /// The Trino SQL printing the bound held in column `v`.
    fn printed(self, v: &str) -> String {
        match self {
            Bound::Text => format!("CAST({v} AS varchar)"),
            Bound::UtcText => format!("CAST(at_timezone({v}, 'UTC') AS varchar)"),
            Bound::JavaDouble => {
                format!("CASE WHEN is_finite({v}) THEN format('%s', {v}) END")
            }
            Bound::DecimalAsDouble => Bound::JavaDouble.printed(&format!("CAST({v} AS double)")),
            Bound::None => "CAST(NULL AS varchar)".to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The query text `constant_query` takes from `SHOW STATS FOR <rest>`, if any.
    fn taken(rest: &str) -> Option<String> {
        let sql = format!("SHOW STATS FOR {rest}");
        let (_, tokens) = crate::sql::syntax::tokenize(&sql).expect("tokens");
        let mut c = Cursor::after(&tokens, 3);
        constant_query(&mut c, &sql).map(|q| q.text.to_string())
    }

    #[test]
    fn only_what_trino_folds_into_values_is_taken() {
        for folded in [
            "(SELECT 1)",
            "(VALUES (1, 'a'), (2, 'b'))",
            "(SELECT extract(YEAR FROM DATE '2020-05-01'), substring('abc' FROM 2))",
            "(SELECT CAST(ROW(1) AS ROW(a integer)), coalesce(NULL, 1), abs(-3))",
            "(SELECT 1);",
        ] {
            let inner = folded.trim_end_matches(';');
            let expected = &inner[1..inner.len() - 1];
            assert_eq!(taken(folded).as_deref(), Some(expected), "{folded}");
        }
        for estimated in [
            "(SELECT max(1))",
            "(SELECT count(*))",
            "(SELECT random())",
            "(SELECT row_number() OVER ())",
            "(SELECT (SELECT 1))",
            "(SELECT 1 WHERE true)",
            "(SELECT 1 UNION ALL SELECT 2)",
            "(VALUES 1 ORDER BY 1)",
            "(SELECT x FROM (VALUES 1) t(x))",
            "(SELECT 1) t",
            "(SELECT 1",
            "tpch.tiny.nation",
        ] {
            assert_eq!(taken(estimated), None, "{estimated}");
        }
    }
}
