//! `SHOW STATS FOR (SELECT … FROM table WHERE …)`: Trino's estimate of a filtered table
//! (https://trino.io/docs/476/sql/show-stats.html). The table's statistics are computed by a
//! query, as for `SHOW STATS FOR table`, and the filter's arithmetic (filter_estimate.rs) is
//! applied to them once they are read. Checked against Trino 476.
//!
//! The tpch connector takes part of some filters itself (TpchMetadata.applyFilter and
//! getTableStatistics): a filter on `orders.orderstatus` selects the statistics of those
//! statuses' rows (with no distinct counts but the status's own), and one on `part.type` or
//! `part.container` leaves the statistics as they are; neither is estimated again.

use std::sync::Arc;

use serde_json::Value;
use sqlparser::tokenizer::Token;

use super::Cursor;
use super::filter_estimate::{
    ColumnEstimate, Comparison, Discreteness, Estimate, Predicate, filter,
};
use crate::catalog::ColumnMeta;
use crate::error::{ErrorName, InternalError, TrinoError};
use crate::sql::{Body, Finish, Plan};
use crate::types::TrinoType;

/// A comparison's operator as written, the column on its left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Op {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Op {
    fn flipped(self) -> Self {
        match self {
            Op::Lt => Op::Gt,
            Op::Le => Op::Ge,
            Op::Gt => Op::Lt,
            Op::Ge => Op::Le,
            other => other,
        }
    }

    fn holds(self, ordering: std::cmp::Ordering) -> bool {
        use std::cmp::Ordering::{Equal, Greater, Less};
        match self {
            Op::Eq => ordering == Equal,
            Op::Ne => ordering != Equal,
            Op::Lt => ordering == Less,
            Op::Le => ordering != Greater,
            Op::Gt => ordering == Greater,
            Op::Ge => ordering != Less,
        }
    }
}

/// A literal as written.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Literal {
    /// Its digits, with a leading `-` if negative.
    Number(String),
    Text(String),
    /// `DATE '…'`'s text.
    Date(String),
}

/// One conjunct of the WHERE clause as written.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Conjunct {
    pub column: String,
    pub test: Test,
}

#[derive(Clone, Debug, PartialEq)]
pub(super) enum Test {
    Compare(Op, Literal),
    Between(Literal, Literal),
    In(Vec<Literal>),
    IsNull {
        negated: bool,
    },
    /// Terms ORed, not all equalities of one column.
    Or(Vec<Conjunct>),
}

/// `cond [AND cond]…` up to the `ORDER` or `)` that ends it; `None` for anything else (OR,
/// expressions, columns compared with columns, …), which the caller refuses.
pub(super) fn conjuncts(probe: &mut Cursor<'_>) -> Option<Vec<Conjunct>> {
    let first = if probe.peek().is_some_and(|t| t.token == Token::LParen) {
        vec![group(probe)?]
    } else {
        disjunction(probe)?
    };
    // `a = 1 OR a = 2` alone; OR beside AND is left to Trino's precedence, and refused.
    if first.len() > 1 {
        if probe.keyword("AND") {
            return None;
        }
        return Some(vec![one_of(first)?]);
    }
    let mut all = first;
    while probe.keyword("AND") {
        let next = match probe.peek().map(|t| &t.token) {
            Some(Token::LParen) => group(probe)?,
            _ => conjunct(probe)?,
        };
        all.push(next);
    }
    Some(all)
}

/// `(term [OR term]…)` as one term.
fn group(probe: &mut Cursor<'_>) -> Option<Conjunct> {
    expect(probe, &Token::LParen)?;
    let terms = disjunction(probe)?;
    expect(probe, &Token::RParen)?;
    one_of(terms)
}

/// `term [OR term]…`, its terms as read.
fn disjunction(probe: &mut Cursor<'_>) -> Option<Vec<Conjunct>> {
    let mut terms = vec![conjunct(probe)?];
    while probe.keyword("OR") {
        terms.push(conjunct(probe)?);
    }
    Some(terms)
}

/// Terms ORed as Trino's planner reads them: equalities (or IN lists) of one column are that
/// column's IN list (DomainTranslator); any other disjunction is refused.
fn one_of(terms: Vec<Conjunct>) -> Option<Conjunct> {
    if terms.len() == 1 {
        return terms.into_iter().next();
    }
    let column = terms.first()?.column.clone();
    let equalities = terms.iter().all(|term| {
        term.column == column && matches!(term.test, Test::Compare(Op::Eq, _) | Test::In(_))
    });
    if !equalities {
        return Some(Conjunct {
            column,
            test: Test::Or(terms),
        });
    }
    let mut values = Vec::new();
    for term in terms {
        match term.test {
            Test::Compare(Op::Eq, value) => values.push(value),
            Test::In(list) => values.extend(list),
            _ => return None,
        }
    }
    Some(Conjunct {
        column,
        test: Test::In(values),
    })
}

fn conjunct(probe: &mut Cursor<'_>) -> Option<Conjunct> {
    if let Some(column) = column_name(probe) {
        if probe.keyword("IS") {
            let negated = probe.keyword("NOT");
            probe.keyword("NULL").then_some(())?;
            return Some(Conjunct {
                column,
                test: Test::IsNull { negated },
            });
        }
        if probe.keyword("BETWEEN") {
            let low = literal(probe)?;
            probe.keyword("AND").then_some(())?;
            let high = literal(probe)?;
            return Some(Conjunct {
                column,
                test: Test::Between(low, high),
            });
        }
        if probe.keyword("IN") {
            expect(probe, &Token::LParen)?;
            let mut values = vec![literal(probe)?];
            while probe.peek().is_some_and(|t| t.token == Token::Comma) {
                probe.take();
                values.push(literal(probe)?);
            }
            expect(probe, &Token::RParen)?;
            return Some(Conjunct {
                column,
                test: Test::In(values),
            });
        }
        let op = operator(probe)?;
        let value = literal(probe)?;
        return Some(Conjunct {
            column,
            test: Test::Compare(op, value),
        });
    }
    let value = literal(probe)?;
    let op = operator(probe)?.flipped();
    let column = column_name(probe)?;
    Some(Conjunct {
        column,
        test: Test::Compare(op, value),
    })
}

fn expect(probe: &mut Cursor<'_>, token: &Token) -> Option<()> {
    (probe.take().map(|t| &t.token) == Some(token)).then_some(())
}

/// A column's name (not a keyword that starts a literal).
fn column_name(probe: &mut Cursor<'_>) -> Option<String> {
    let Some(Token::Word(w)) = probe.peek().map(|t| &t.token) else {
        return None;
    };
    if w.quote_style.is_none()
        && ["DATE", "NOT", "NULL", "TRUE", "FALSE", "CAST"]
            .iter()
            .any(|k| w.value.eq_ignore_ascii_case(k))
    {
        return None;
    }
    // Trino's names are case-insensitive, quoted or not.
    let name = w.value.to_lowercase();
    probe.take();
    // A qualified name or a call is more than a column.
    match probe.peek().map(|t| &t.token) {
        Some(Token::Period | Token::LParen) => None,
        _ => Some(name),
    }
}

fn operator(probe: &mut Cursor<'_>) -> Option<Op> {
    let op = match probe.take().map(|t| &t.token)? {
        Token::Eq => Op::Eq,
        Token::Neq => Op::Ne,
        Token::Lt => Op::Lt,
        Token::LtEq => Op::Le,
        Token::Gt => Op::Gt,
        Token::GtEq => Op::Ge,
        _ => return None,
    };
    Some(op)
}

fn literal(probe: &mut Cursor<'_>) -> Option<Literal> {
    let negative = probe.peek().is_some_and(|t| t.token == Token::Minus);
    if negative {
        probe.take();
    }
    match &probe.take()?.token {
        Token::Number(digits, _) => Some(Literal::Number(if negative {
            format!("-{digits}")
        } else {
            digits.clone()
        })),
        Token::SingleQuotedString(text) if !negative => Some(Literal::Text(text.clone())),
        Token::Word(w)
            if !negative && w.quote_style.is_none() && w.value.eq_ignore_ascii_case("DATE") =>
        {
            match &probe.take()?.token {
                Token::SingleQuotedString(text) => Some(Literal::Date(text.clone())),
                _ => None,
            }
        }
        _ => None,
    }
}

/// What a column is to the estimate: how its literals become doubles, how its distinct values
/// are bounded, and how its bounds print.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Integer,
    Decimal(u8),
    Double,
    Real,
    Date,
    Text,
}

impl Kind {
    fn of(ty: &TrinoType) -> Option<Self> {
        Some(match ty {
            TrinoType::TinyInt | TrinoType::SmallInt | TrinoType::Integer | TrinoType::BigInt => {
                Kind::Integer
            }
            TrinoType::Decimal { scale, .. } => Kind::Decimal(*scale),
            TrinoType::Double => Kind::Double,
            TrinoType::Real => Kind::Real,
            TrinoType::Date => Kind::Date,
            TrinoType::Varchar(_) => Kind::Text,
            _ => return None,
        })
    }

    fn discreteness(self) -> Discreteness {
        match self {
            Kind::Integer | Kind::Date => Discreteness::Whole,
            Kind::Decimal(scale) => Discreteness::Decimal(u32::from(scale)),
            Kind::Double | Kind::Real | Kind::Text => Discreteness::Continuous,
        }
    }

    /// The literal as the statistics hold it (`Some(None)`: a value without a numeric
    /// representation), or `None` when comparing it needs a cast of the column, which Trino
    /// estimates otherwise.
    fn value(self, literal: &Literal) -> Option<Option<f64>> {
        match (self, literal) {
            // `1.0` beside an integer column is 1 (UnwrapCastInComparison).
            (Kind::Integer, Literal::Number(digits)) if digits.contains('.') => {
                let (whole, _) = digits.split_once('.')?;
                (!fractional(digits))
                    .then(|| whole.parse::<i64>().ok().map(|v| Some(v as f64)))
                    .flatten()
            }
            (Kind::Integer, Literal::Number(digits)) => {
                digits.parse::<i64>().ok().map(|v| Some(v as f64))
            }
            (Kind::Decimal(scale), Literal::Number(digits)) => {
                let fraction = digits.split_once('.').map_or(0, |(_, f)| f.len());
                let plain = !digits.contains(['e', 'E']);
                (plain && fraction <= usize::from(scale))
                    .then(|| digits.parse::<f64>().ok().map(Some))
                    .flatten()
            }
            (Kind::Double, Literal::Number(digits)) => digits.parse::<f64>().ok().map(Some),
            (Kind::Real, Literal::Number(digits)) => {
                digits.parse::<f32>().ok().map(|v| Some(f64::from(v)))
            }
            (Kind::Date, Literal::Date(text)) => {
                crate::sql::calendar::parse_date(text.trim()).map(|d| Some(d as f64))
            }
            (Kind::Text, Literal::Text(_)) => Some(None),
            _ => None,
        }
    }

    /// A bound as ShowStatsRewrite prints it; infinite or unknown bounds print null.
    fn printed(self, bound: f64) -> Value {
        if !bound.is_finite() {
            return Value::Null;
        }
        use querymesh_values::java_number::{double_to_string, float_to_string};
        Value::from(match self {
            Kind::Integer => format!("{}", bound.round() as i64),
            Kind::Decimal(_) | Kind::Double => double_to_string(bound),
            Kind::Real => float_to_string(bound as f32),
            Kind::Date => crate::sql::calendar::format_date(bound.round() as i64),
            Kind::Text => return Value::Null,
        })
    }

    /// A bound as the table's statistics print it (see `stats::column_row`).
    fn parsed(self, printed: &Value) -> Option<f64> {
        let text = printed.as_str()?;
        match self {
            Kind::Date => crate::sql::calendar::parse_date(text).map(|d| d as f64),
            Kind::Text => None,
            _ => text.parse::<f64>().ok(),
        }
    }
}

/// A filter the estimate can follow: its predicates over the table's columns, and the
/// statuses of `orders` the tpch connector selects, if it does.
pub(super) struct Filter {
    predicates: Vec<Predicate>,
    pub statuses: Option<Vec<&'static str>>,
}

/// The statuses of tpch's orders (TpchMetadata.ORDER_STATUS_VALUES).
const ORDER_STATUSES: [&str; 3] = ["F", "O", "P"];

/// `conjuncts` over `columns` of `catalog.table`, or `None` for one the estimate cannot
/// follow (a literal that needs a cast of the column, a column of another type).
pub(super) fn resolve(
    conjuncts: &[Conjunct],
    columns: &[&ColumnMeta],
    catalog: &str,
    table: &str,
) -> Option<Filter> {
    let tpch = |name: &str| catalog == "tpch" && table == name;
    let mut predicates = Vec::new();
    let mut statuses: Option<Vec<&'static str>> = None;
    for conjunct in conjuncts {
        let column = columns.iter().position(|c| c.name == conjunct.column)?;
        if let Test::Or(terms) = &conjunct.test {
            // The connector's own columns inside a disjunction: not modelled.
            let special = |name: &str| {
                (tpch("orders") && name == "orderstatus")
                    || (tpch("part") && (name == "type" || name == "container"))
            };
            if terms.iter().any(|t| special(&t.column)) {
                return None;
            }
        } else if tpch("orders") && conjunct.column == "orderstatus" {
            let kept = statuses.get_or_insert_with(|| ORDER_STATUSES.to_vec());
            kept.retain(|status| text_holds(&conjunct.test, status));
            continue;
        }
        if tpch("part") && (conjunct.column == "type" || conjunct.column == "container") {
            continue;
        }
        predicates.push(predicate(conjunct, column, columns)?);
    }
    // Every status selected is no selection (avoidTrivialOrderStatusRestriction).
    let statuses = statuses.filter(|kept| kept.len() < ORDER_STATUSES.len());
    Some(Filter {
        predicates,
        statuses,
    })
}

/// Whether a number's text is a decimal with a non-zero fraction (`1.5`, not `1.0`).
fn fractional(digits: &str) -> bool {
    !digits.contains(['e', 'E'])
        && digits
            .split_once('.')
            .is_some_and(|(_, fraction)| fraction.bytes().any(|b| b != b'0'))
}

/// The bounds of `values` when they are two or more consecutive whole values of a discrete
/// kind.
fn consecutive(kind: Kind, values: &[Option<f64>]) -> Option<(f64, f64)> {
    if !matches!(kind, Kind::Integer | Kind::Date) || values.len() < 2 {
        return None;
    }
    let mut sorted: Vec<f64> = values.iter().copied().collect::<Option<_>>()?;
    sorted.sort_by(|a, b| a.total_cmp(b));
    let steps = sorted.windows(2).all(|w| w[1] - w[0] == 1.0);
    Some((*sorted.first()?, *sorted.last()?)).filter(|_| steps)
}

/// One conjunct of a column the connector does not take, as the cost model's term; `None`
/// for one it has no model for.
fn predicate(conjunct: &Conjunct, column: usize, columns: &[&ColumnMeta]) -> Option<Predicate> {
    let kind = Kind::of(&columns.get(column)?.ty)?;
    let value = |literal: &Literal| kind.value(literal);
    Some(match &conjunct.test {
        // An integer column beside a decimal with a fraction (UnwrapCastInComparison): no
        // row is equal, its calculator cannot estimate `<>`, and a range holds the integers
        // within it.
        Test::Compare(op, Literal::Number(digits))
            if kind == Kind::Integer && fractional(digits) =>
        {
            // A range unwraps to the integers it holds: `x > 1.5` is `x >= 2`, `x < 1.5`
            // is `x < 2`, both estimated at the ceiling.
            let ceiling = digits.parse::<f64>().ok()?.ceil();
            match op {
                Op::Eq => Predicate::Never { column },
                Op::Ne => Predicate::Unknown { column },
                Op::Gt | Op::Ge => Predicate::Compare {
                    column,
                    op: Comparison::Greater,
                    value: Some(ceiling),
                },
                Op::Lt | Op::Le => Predicate::Compare {
                    column,
                    op: Comparison::Less,
                    value: Some(ceiling),
                },
            }
        }
        Test::Compare(op, literal) => Predicate::Compare {
            column,
            op: match op {
                Op::Eq => Comparison::Equal,
                Op::Ne => Comparison::NotEqual,
                Op::Lt | Op::Le => Comparison::Less,
                Op::Gt | Op::Ge => Comparison::Greater,
            },
            value: value(literal)?,
        },
        // Text bounds have no numeric value: Trino cannot estimate the term.
        Test::Between(low, high) => match (value(low)?, value(high)?) {
            (None, _) | (_, None) => Predicate::Unknown { column },
            (low, high) => Predicate::Between { column, low, high },
        },
        Test::In(literals) => {
            // Each value once, as the list's domain holds it.
            let mut distinct: Vec<&Literal> = Vec::new();
            for literal in literals {
                let seen = distinct.iter().any(|d| match (value(d), value(literal)) {
                    (Some(Some(a)), Some(Some(b))) => a == b,
                    _ => *d == literal,
                });
                if !seen {
                    distinct.push(literal);
                }
            }
            let values: Vec<Option<f64>> =
                distinct.into_iter().map(value).collect::<Option<_>>()?;
            match consecutive(kind, &values) {
                // Consecutive integers or days are one range to Trino's DomainTranslator:
                // `x IN (1, 2)` is estimated as `x BETWEEN 1 AND 2`.
                Some((low, high)) => Predicate::Between {
                    column,
                    low: Some(low),
                    high: Some(high),
                },
                None => Predicate::In { column, values },
            }
        }
        Test::IsNull { negated } => Predicate::IsNull {
            column,
            negated: *negated,
        },
        Test::Or(terms) => Predicate::Or(
            terms
                .iter()
                .map(|term| {
                    let column = columns.iter().position(|c| c.name == term.column)?;
                    predicate(term, column, columns)
                })
                .collect::<Option<_>>()?,
        ),
    })
}

/// Whether `status` passes `test` (a text comparison, as the connector's domain decides it).
fn text_holds(test: &Test, status: &str) -> bool {
    let text = |literal: &Literal| match literal {
        Literal::Text(t) => Some(t.clone()),
        _ => None,
    };
    let compare =
        |op: Op, literal: &Literal| text(literal).is_some_and(|t| op.holds(status.cmp(t.as_str())));
    match test {
        Test::Compare(op, literal) => compare(*op, literal),
        Test::Between(low, high) => compare(Op::Ge, low) && compare(Op::Le, high),
        Test::In(literals) => literals.iter().any(|l| compare(Op::Eq, l)),
        Test::IsNull { negated } => *negated,
        Test::Or(terms) => terms.iter().any(|t| text_holds(&t.test, status)),
    }
}

/// The plan: `sql` yields the table's statistics rows (one per column of `columns`, in
/// order, then the row count), and the answer is the estimate of `filter` over them, for the
/// columns at `shown`.
pub(super) fn estimated(
    plan: Plan,
    columns: &[&ColumnMeta],
    shown: Vec<usize>,
    wanted: Filter,
) -> Result<Plan, TrinoError> {
    let Body::Sql(sql) = plan.body else {
        // The statistics are always one query: anything else is the stand-in's bug, and an
        // answer without the filter would be a wrong one.
        return Err(TrinoError::new(
            ErrorName::GenericInternalError,
            "internal error in the QueryMesh stand-in: SHOW STATS planned no statistics query",
        ));
    };
    let kinds: Vec<Option<Kind>> = columns.iter().map(|c| Kind::of(&c.ty)).collect();
    let names: Vec<String> = columns.iter().map(|c| c.name.clone()).collect();
    let predicates = wanted.predicates;
    let finish = move |rows: Vec<Vec<Value>>| {
        let Some(input) = table_estimate(&rows, &kinds) else {
            return Err(InternalError::new(
                "a table's statistics came back in another shape than SHOW STATS planned",
            ));
        };
        let discreteness: Vec<Discreteness> = kinds
            .iter()
            .map(|k| k.map_or(Discreteness::Continuous, Kind::discreteness))
            .collect();
        let output = filter(&input, &predicates, &discreteness);
        let number = |x: f64| {
            if x.is_nan() {
                Value::Null
            } else {
                Value::from(x)
            }
        };
        let mut answer: Vec<Vec<Value>> = shown
            .iter()
            .map(|&i| {
                let stats = output.columns[i];
                let kind = kinds[i].unwrap_or(Kind::Text);
                vec![
                    Value::from(names[i].clone()),
                    number(stats.row_size * output.rows * (1.0 - stats.nulls_fraction)),
                    number(stats.distinct),
                    number(stats.nulls_fraction),
                    Value::Null,
                    kind.printed(stats.low),
                    kind.printed(stats.high),
                ]
            })
            .collect();
        answer.push(vec![
            Value::Null,
            Value::Null,
            Value::Null,
            Value::Null,
            number(output.rows),
            Value::Null,
            Value::Null,
        ]);
        Ok(answer)
    };
    Ok(Plan {
        body: Body::Derived {
            sql,
            finish: Finish(Arc::new(finish)),
        },
        ..plan
    })
}

/// The table's statistics rows as the model's estimate (TableScanStatsRule); `None` if they
/// are not the rows `stats::column_row` makes.
fn table_estimate(rows: &[Vec<Value>], kinds: &[Option<Kind>]) -> Option<Estimate> {
    let (count, columns) = rows.split_last()?;
    if columns.len() != kinds.len() {
        return None;
    }
    let double = |v: &Value| v.as_f64().unwrap_or(f64::NAN);
    let total = double(count.get(4)?);
    let columns = columns
        .iter()
        .zip(kinds)
        .map(|(row, kind)| {
            let nulls = row.get(3).and_then(Value::as_f64).unwrap_or(0.0);
            let non_null = total * (1.0 - nulls);
            let size = double(row.get(1)?);
            let bound = |i: usize, infinite: f64| match kind {
                Some(kind) => row.get(i).and_then(|v| kind.parsed(v)).unwrap_or(infinite),
                None => infinite,
            };
            Some(ColumnEstimate {
                low: bound(5, f64::NEG_INFINITY),
                high: bound(6, f64::INFINITY),
                distinct: double(row.get(2)?),
                nulls_fraction: nulls,
                row_size: if non_null == 0.0 {
                    0.0
                } else {
                    size / non_null
                },
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some(Estimate {
        rows: total,
        columns,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Statistics rows of another shape than planned are the stand-in's fault, not an answer.
    #[test]
    fn rows_of_another_shape_fail_rather_than_answer_unfiltered() {
        let column = ColumnMeta {
            name: "regionkey".into(),
            ty: TrinoType::BigInt,
            nullable: false,
            hidden: false,
        };
        let plan = Plan {
            columns: Vec::new(),
            reads: Vec::new(),
            body: Body::Sql("SELECT 1".into()),
            session_update: None,
        };
        let wanted = Filter {
            predicates: Vec::new(),
            statuses: None,
        };
        let planned = estimated(plan, &[&column], vec![0], wanted).expect("planned");
        let Body::Derived { finish, .. } = planned.body else {
            panic!("SHOW STATS of a filter is derived from the statistics query");
        };
        assert!((finish.0)(vec![vec![Value::from("not statistics")]]).is_err());
        let not_a_query = Plan {
            columns: Vec::new(),
            reads: Vec::new(),
            body: Body::Rows(Vec::new()),
            session_update: None,
        };
        let wanted = Filter {
            predicates: Vec::new(),
            statuses: None,
        };
        let refused = estimated(not_a_query, &[&column], vec![0], wanted).err();
        assert_eq!(
            refused.map(|e| e.name),
            Some(ErrorName::GenericInternalError)
        );
    }

    fn read(where_clause: &str) -> Option<Vec<Conjunct>> {
        let sql = format!("{where_clause})");
        let (_, tokens) = crate::sql::syntax::tokenize(&sql).expect("tokens");
        let mut probe = Cursor::new(&tokens);
        let found = conjuncts(&mut probe)?;
        (probe.peek().map(|t| &t.token) == Some(&Token::RParen)).then_some(found)
    }

    #[test]
    fn filters_the_estimate_follows_are_read() {
        let read_one = |text: &str| read(text).map(|mut c| c.remove(0));
        assert_eq!(
            read_one("2 < regionkey"),
            Some(Conjunct {
                column: "regionkey".into(),
                test: Test::Compare(Op::Gt, Literal::Number("2".into())),
            })
        );
        assert_eq!(
            read_one("OrderDate >= DATE '1995-01-01'").map(|c| c.test),
            Some(Test::Compare(Op::Ge, Literal::Date("1995-01-01".into())))
        );
        assert_eq!(
            read_one("x IN ('a', 'b')").map(|c| c.test),
            Some(Test::In(vec![
                Literal::Text("a".into()),
                Literal::Text("b".into())
            ]))
        );
        assert_eq!(
            read("a = -1 AND b IS NOT NULL AND c BETWEEN 1 AND 2").map(|c| c.len()),
            Some(3)
        );
        // ORed equalities of one column are its IN list; other disjunctions stay ORs.
        assert_eq!(
            read_one("a = 1 OR a = 2").map(|c| c.test),
            Some(Test::In(vec![
                Literal::Number("1".into()),
                Literal::Number("2".into())
            ]))
        );
        assert!(matches!(
            read_one("(a = 1 OR b = 2)").map(|c| c.test),
            Some(Test::Or(terms)) if terms.len() == 2
        ));
        for other in [
            "a = 1 OR b = 2 AND c = 3",
            "a = 1 OR b + 1 = 2",
            "a = b",
            "abs(a) = 1",
            "t.a = 1",
            "a + 1 = 2",
            "a LIKE 'x%'",
            "NOT a = 1",
            "((a = 1))",
        ] {
            assert_eq!(read(other), None, "{other}");
        }
    }

    #[test]
    fn order_statuses_are_selected_as_the_connectors_domain() {
        let kept = |test: Test| {
            ORDER_STATUSES
                .iter()
                .filter(|s| text_holds(&test, s))
                .copied()
                .collect::<Vec<_>>()
        };
        let text = |t: &str| Literal::Text(t.into());
        assert_eq!(kept(Test::Compare(Op::Eq, text("F"))), ["F"]);
        assert_eq!(kept(Test::Compare(Op::Gt, text("F"))), ["O", "P"]);
        assert_eq!(kept(Test::In(vec![text("P"), text("X")])), ["P"]);
        assert!(kept(Test::IsNull { negated: false }).is_empty());
    }
}
