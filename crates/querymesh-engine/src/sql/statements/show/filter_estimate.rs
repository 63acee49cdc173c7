//! Trino's estimate of what a filter keeps, for `SHOW STATS FOR (SELECT … WHERE …)`: the
//! arithmetic of its cost model over a table's statistics, as Trino 476 computes it
//! (core/trino-main/src/main/java/io/trino/cost: FilterStatsCalculator, ComparisonStatsCalculator,
//! StatisticRange, PlanNodeStatsEstimateMath, StatsNormalizer), for the predicates a filter on
//! one table is usually made of: comparisons of a column with a literal, BETWEEN, IN, IS [NOT]
//! NULL, and their conjunctions and disjunctions. Every figure is a double, NaN where Trino's
//! is unknown.

use super::statistic_range::{
    Range, average_excluding_nan, java_max, java_min, max_excluding_nan, min_excluding_nan,
};

/// What the model knows of one column (Trino's SymbolStatsEstimate).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct ColumnEstimate {
    /// The range of its values as doubles; infinite for a type without one (text); NaN for
    /// an empty range.
    pub low: f64,
    pub high: f64,
    pub distinct: f64,
    pub nulls_fraction: f64,
    /// Bytes per non-null value; NaN for fixed-width types.
    pub row_size: f64,
}

impl ColumnEstimate {
    /// Trino's unknown estimate (SymbolStatsEstimate.unknown()).
    fn unknown() -> Self {
        Self {
            low: f64::NEG_INFINITY,
            high: f64::INFINITY,
            distinct: f64::NAN,
            nulls_fraction: f64::NAN,
            row_size: f64::NAN,
        }
    }

    /// Trino's zero estimate: a column of no rows.
    fn zero() -> Self {
        Self {
            low: f64::NAN,
            high: f64::NAN,
            distinct: 0.0,
            nulls_fraction: 1.0,
            row_size: 0.0,
        }
    }

    fn range(&self) -> Range {
        Range {
            low: self.low,
            high: self.high,
            distinct: self.distinct,
        }
    }

    fn with_range(self, range: Range) -> Self {
        Self {
            low: range.low,
            high: range.high,
            distinct: range.distinct,
            ..self
        }
    }
}

/// The rows a plan node yields and what is known of each of its columns, in the table's
/// order.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Estimate {
    pub rows: f64,
    pub columns: Vec<ColumnEstimate>,
}

/// How a column is counted when the estimate is normalised (StatsNormalizer.isDiscrete).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Discreteness {
    /// Integers, dates, booleans: as many values as the range holds.
    Whole,
    /// A decimal of this scale: the range's length times 10^scale, plus one.
    Decimal(u32),
    /// Doubles and everything else: not bounded by the range.
    Continuous,
}

/// A comparison's operator, the column on its left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Comparison {
    Equal,
    NotEqual,
    Less,
    Greater,
}

/// One conjunct of a filter, over the column at `column`.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Predicate {
    /// `column <op> literal`: the literal as a double, or `None` for one without a numeric
    /// representation (text), which Trino compares as an unknown value.
    Compare {
        column: usize,
        op: Comparison,
        value: Option<f64>,
    },
    Between {
        column: usize,
        low: Option<f64>,
        high: Option<f64>,
    },
    In {
        column: usize,
        values: Vec<Option<f64>>,
    },
    IsNull {
        column: usize,
        negated: bool,
    },
    /// A term Trino's calculator cannot estimate (BETWEEN of text: its bounds have no
    /// numeric value): it makes the filter's row count 0.9 of the others' estimate, or
    /// unknown alone.
    Unknown {
        column: usize,
    },
    /// Terms ORed (estimateLogicalOr).
    Or(Vec<Predicate>),
    /// A term no row satisfies (`integer_column = 1.5`, which Trino's planner makes `false`).
    Never {
        column: usize,
    },
}

impl Predicate {
    /// The columns the term reads (its correlation group's, in a conjunction).
    fn columns(&self) -> Vec<usize> {
        match self {
            Predicate::Or(terms) => terms.iter().flat_map(Predicate::columns).collect(),
            other => vec![other.column()],
        }
    }

    fn column(&self) -> usize {
        match self {
            Predicate::Or(terms) => terms.first().map_or(0, Predicate::column),
            Predicate::Compare { column, .. }
            | Predicate::Between { column, .. }
            | Predicate::In { column, .. }
            | Predicate::IsNull { column, .. }
            | Predicate::Unknown { column }
            | Predicate::Never { column } => *column,
        }
    }
}

/// Trino's `filter_conjunction_independence_factor` default: the second most selective term of
/// a conjunction counts to the power 0.75, the third 0.75², …
const INDEPENDENCE_FACTOR: f64 = 0.75;
/// FilterStatsCalculator.UNKNOWN_FILTER_COEFFICIENT: a conjunction with a term it cannot
/// estimate keeps this share of what the others keep.
const UNKNOWN_FILTER_COEFFICIENT: f64 = 0.9;

/// What `conjuncts` (ANDed) keep of `input`; `kinds` says how each column is counted.
pub(super) fn filter(
    input: &Estimate,
    conjuncts: &[Predicate],
    kinds: &[Discreteness],
) -> Estimate {
    let calculator = Calculator { kinds };
    match conjuncts {
        // The connector's statistics alone (a filter it took itself), normalised as every
        // estimate is: none of no rows.
        [] => calculator.normalize(input.clone()),
        [only] => calculator.process(input, only),
        _ => calculator.and(input, conjuncts),
    }
}

struct Calculator<'k> {
    kinds: &'k [Discreteness],
}

impl Calculator<'_> {
    /// One term's estimate, normalised (FilterExpressionStatsCalculatingVisitor.process).
    fn process(&self, input: &Estimate, predicate: &Predicate) -> Estimate {
        if input.rows == 0.0 || input.rows.is_nan() {
            return self.normalize(input.clone());
        }
        let output = match predicate {
            Predicate::Unknown { .. } => unknown(input.columns.len()),
            Predicate::Or(terms) => self.or(input, terms),
            Predicate::Never { .. } => Estimate {
                rows: 0.0,
                ..input.clone()
            },
            Predicate::Compare { column, op, value } => compare(input, *column, *op, *value),
            Predicate::Between { column, low, high } => {
                let lower = Predicate::Compare {
                    column: *column,
                    op: Comparison::Greater,
                    value: *low,
                };
                let upper = Predicate::Compare {
                    column: *column,
                    op: Comparison::Less,
                    value: *high,
                };
                // The heuristic cut of an infinite range first (visitBetweenPredicate).
                if input.columns[*column].low.is_infinite() {
                    self.and(input, &[lower, upper])
                } else {
                    self.and(input, &[upper, lower])
                }
            }
            Predicate::In { column, values } => self.in_list(input, *column, values),
            Predicate::IsNull { column, negated } => {
                let stats = input.columns[*column];
                let mut output = input.clone();
                if *negated {
                    output.rows = input.rows * (1.0 - stats.nulls_fraction);
                    output.columns[*column].nulls_fraction = 0.0;
                } else {
                    output.rows = input.rows * stats.nulls_fraction;
                    output.columns[*column] = ColumnEstimate {
                        low: f64::NAN,
                        high: f64::NAN,
                        distinct: 0.0,
                        nulls_fraction: 1.0,
                        row_size: f64::NAN,
                    };
                }
                output
            }
        };
        self.normalize(output)
    }

    /// A conjunction (estimateLogicalAnd): the terms on the same column applied one after the
    /// other, the groups' selectivities combined with the independence factor, and each
    /// column's statistics intersected across the groups.
    fn and(&self, input: &Estimate, terms: &[Predicate]) -> Estimate {
        // Terms sharing a column are one group (extractCorrelatedGroups' disjoint sets).
        let mut groups: Vec<(Vec<usize>, Vec<&Predicate>)> = Vec::new();
        for term in terms {
            let columns = term.columns();
            let mut joined = (columns.clone(), vec![term]);
            let mut kept = Vec::new();
            for (group_columns, group_terms) in groups.drain(..) {
                if group_columns.iter().any(|c| columns.contains(c)) {
                    joined.0.extend(group_columns);
                    let mut merged = group_terms;
                    merged.append(&mut joined.1);
                    joined.1 = merged;
                } else {
                    kept.push((group_columns, group_terms));
                }
            }
            kept.push(joined);
            groups = kept;
        }
        // Each group's terms in turn, the unknown ones skipped (estimateCorrelatedExpressions).
        let mut unestimated = false;
        let mut estimates: Vec<Estimate> = Vec::new();
        for (_, group) in &groups {
            let mut combined: Option<Estimate> = None;
            for term in group {
                let estimate = self.process(combined.as_ref().unwrap_or(input), term);
                if estimate.rows.is_nan() {
                    unestimated = true;
                } else {
                    combined = Some(estimate);
                }
            }
            estimates.push(combined.unwrap_or_else(|| unknown(input.columns.len())));
        }
        if unestimated {
            estimates.push(unknown(input.columns.len()));
        }
        let rows = correlated_rows(input, &estimates);
        let columns = (0..input.columns.len())
            .map(|i| {
                let range = estimates
                    .iter()
                    .map(|e| e.columns[i].range())
                    .reduce(|a, b| a.intersect(&b))
                    .unwrap_or_else(|| input.columns[i].range());
                let nulls = estimates
                    .iter()
                    .map(|e| e.columns[i].nulls_fraction)
                    .reduce(min_excluding_nan)
                    .unwrap_or(input.columns[i].nulls_fraction);
                let size = estimates
                    .iter()
                    .map(|e| e.columns[i].row_size)
                    .reduce(average_excluding_nan)
                    .unwrap_or(input.columns[i].row_size);
                ColumnEstimate {
                    nulls_fraction: nulls,
                    row_size: size,
                    ..input.columns[i].with_range(range)
                }
            })
            .collect();
        self.normalize(Estimate { rows, columns })
    }

    /// A disjunction (estimateLogicalOr): each term added to the ones before, less what both
    /// keep, capped at the input.
    fn or(&self, input: &Estimate, terms: &[Predicate]) -> Estimate {
        let Some((first, rest)) = terms.split_first() else {
            return input.clone();
        };
        let mut previous = self.process(input, first);
        if previous.rows.is_nan() {
            return unknown(input.columns.len());
        }
        for term in rest {
            let current = self.process(input, term);
            if current.rows.is_nan() {
                return unknown(input.columns.len());
            }
            let both = self.process(&previous, term);
            if both.rows.is_nan() {
                return unknown(input.columns.len());
            }
            let sum = add_summing_distinct(&previous, &current);
            previous = cap(&subtract_subset(&sum, &both), input);
        }
        previous
    }

    /// `column IN (values)` (visitInPredicate): the equalities' estimates added up.
    fn in_list(&self, input: &Estimate, column: usize, values: &[Option<f64>]) -> Estimate {
        let equalities = values.iter().map(|value| {
            self.process(
                input,
                &Predicate::Compare {
                    column,
                    op: Comparison::Equal,
                    value: *value,
                },
            )
        });
        let Some(sum) = equalities.reduce(|a, b| add_summing_distinct(&a, &b)) else {
            return input.clone();
        };
        let before = input.columns[column];
        let mut output = input.clone();
        output.rows = sum.rows.min(input.rows * (1.0 - before.nulls_fraction));
        let mut kept = sum.columns[column];
        kept.distinct = kept.distinct.min(before.distinct);
        output.columns[column] = kept;
        output
    }

    /// StatsNormalizer.normalize: no column has more distinct values than its range holds or
    /// than there are rows.
    fn normalize(&self, estimate: Estimate) -> Estimate {
        let rows = estimate.rows;
        let columns = estimate
            .columns
            .iter()
            .zip(self.kinds)
            .map(|(stats, kind)| {
                if rows == 0.0 {
                    return ColumnEstimate::zero();
                }
                let mut distinct = stats.distinct;
                let mut nulls = stats.nulls_fraction;
                if !distinct.is_nan() {
                    let by_range = max_distinct_by_range(stats, *kind);
                    if distinct > by_range {
                        distinct = by_range;
                    }
                    if distinct > rows {
                        distinct = rows;
                    }
                    let mut non_null = rows * (1.0 - nulls);
                    if distinct > non_null {
                        let difference = distinct - non_null;
                        distinct -= difference / 2.0;
                        non_null += difference / 2.0;
                        nulls = 1.0 - non_null / rows;
                    }
                }
                if distinct == 0.0 {
                    return ColumnEstimate::zero();
                }
                ColumnEstimate {
                    distinct,
                    nulls_fraction: nulls,
                    ..*stats
                }
            })
            .collect();
        Estimate { rows, columns }
    }
}

fn max_distinct_by_range(stats: &ColumnEstimate, kind: Discreteness) -> f64 {
    let length = stats.high - stats.low;
    if length == 0.0 {
        return 1.0;
    }
    let scale = match kind {
        Discreteness::Whole => 1.0,
        Discreteness::Decimal(scale) => 10f64.powi(scale as i32),
        Discreteness::Continuous => return f64::NAN,
    };
    if length.is_nan() {
        return f64::NAN;
    }
    (length * scale + 1.0).floor()
}

/// ComparisonStatsCalculator's comparison of a column with a literal.
fn compare(input: &Estimate, column: usize, op: Comparison, value: Option<f64>) -> Estimate {
    let stats = input.columns[column];
    let point = || match value {
        Some(v) => Range::new(v, v, 1.0),
        None => Range::new(f64::NEG_INFINITY, f64::INFINITY, 1.0),
    };
    let filter_range = match op {
        Comparison::Equal => point(),
        Comparison::Less => Range::new(f64::NEG_INFINITY, value.unwrap_or(f64::INFINITY), f64::NAN),
        Comparison::Greater => {
            Range::new(value.unwrap_or(f64::NEG_INFINITY), f64::INFINITY, f64::NAN)
        }
        Comparison::NotEqual => {
            let range = stats.range();
            let intersect = range.intersect(&point());
            let factor = 1.0 - range.overlap_percent_with(&intersect);
            let mut output = input.clone();
            output.rows = factor * (1.0 - stats.nulls_fraction) * input.rows;
            output.columns[column] = ColumnEstimate {
                nulls_fraction: 0.0,
                distinct: (stats.distinct - 1.0).max(0.0),
                ..stats
            };
            return output;
        }
    };
    let range = stats.range();
    let intersect = range.intersect(&filter_range);
    let factor = range.overlap_percent_with(&intersect);
    let mut output = input.clone();
    output.rows = factor * (1.0 - stats.nulls_fraction) * input.rows;
    output.columns[column] = ColumnEstimate {
        low: intersect.low,
        high: intersect.high,
        distinct: intersect.distinct,
        nulls_fraction: 0.0,
        row_size: stats.row_size,
    };
    output
}

/// PlanNodeStatsEstimateMath.estimateCorrelatedConjunctionRowCount: the most selective term
/// in full, the next to the power 0.75, the next 0.75², ….
fn correlated_rows(input: &Estimate, estimates: &[Estimate]) -> f64 {
    if input.rows == 0.0 || input.rows.is_nan() {
        return input.rows;
    }
    let mut known: Vec<f64> = estimates
        .iter()
        .map(|e| e.rows)
        .filter(|r| !r.is_nan())
        .collect();
    if known.is_empty() {
        return f64::NAN;
    }
    // A stable sort, as Java's.
    known.sort_by(|a, b| a.total_cmp(b));
    let mut selectivity = known[0] / input.rows;
    let mut factor = 1.0;
    for rows in &known[1..] {
        factor *= INDEPENDENCE_FACTOR;
        selectivity *= (rows / input.rows).powf(factor);
    }
    let rows = input.rows * selectivity;
    if estimates.iter().any(|e| e.rows.is_nan()) {
        rows * UNKNOWN_FILTER_COEFFICIENT
    } else {
        rows
    }
}

/// PlanNodeStatsEstimate.unknown(): no row count, nothing known of any column.
fn unknown(columns: usize) -> Estimate {
    Estimate {
        rows: f64::NAN,
        columns: vec![ColumnEstimate::unknown(); columns],
    }
}

/// PlanNodeStatsEstimateMath.subtractSubsetStats: what `superset` holds beyond `subset`.
fn subtract_subset(superset: &Estimate, subset: &Estimate) -> Estimate {
    let rows = (superset.rows - subset.rows).max(0.0);
    if rows == 0.0 {
        return Estimate {
            rows: 0.0,
            columns: vec![ColumnEstimate::zero(); superset.columns.len()],
        };
    }
    let columns = superset
        .columns
        .iter()
        .zip(&subset.columns)
        .map(|(sup, sub)| {
            let sup_nulls = sup.nulls_fraction * superset.rows;
            let sub_nulls = sub.nulls_fraction * subset.rows;
            let nulls = (sup_nulls - sub_nulls).max(0.0);
            let distinct = if sup.distinct.is_nan() || sub.distinct.is_nan() {
                f64::NAN
            } else if sup.distinct == 0.0 {
                0.0
            } else if sub.distinct == 0.0 {
                sup.distinct
            } else {
                let sup_per_value = (superset.rows - sup_nulls) / sup.distinct;
                let sub_per_value = (subset.rows - sub_nulls) / sub.distinct;
                if sup_per_value <= sub_per_value {
                    (sup.distinct - sub.distinct).max(0.0)
                } else {
                    sup.distinct
                }
            };
            ColumnEstimate {
                low: sup.low,
                high: sup.high,
                distinct,
                nulls_fraction: nulls.min(rows) / rows,
                row_size: sup.row_size,
            }
        })
        .collect();
    Estimate { rows, columns }
}

/// PlanNodeStatsEstimateMath.capStats: `stats` no larger than `cap`.
fn cap(stats: &Estimate, cap: &Estimate) -> Estimate {
    if stats.rows.is_nan() || cap.rows.is_nan() {
        return unknown(stats.columns.len());
    }
    let rows = stats.rows.min(cap.rows);
    let columns = stats
        .columns
        .iter()
        .zip(&cap.columns)
        .map(|(s, c)| {
            let nulls = (stats.rows * s.nulls_fraction).min(cap.rows * c.nulls_fraction);
            ColumnEstimate {
                low: java_max(s.low, c.low),
                high: java_min(s.high, c.high),
                distinct: java_min(s.distinct, c.distinct),
                nulls_fraction: if rows == 0.0 { 1.0 } else { nulls / rows },
                row_size: s.row_size,
            }
        })
        .collect();
    Estimate { rows, columns }
}

/// PlanNodeStatsEstimateMath.addStatsAndSumDistinctValues.
fn add_summing_distinct(left: &Estimate, right: &Estimate) -> Estimate {
    let rows = left.rows + right.rows;
    let columns = left
        .columns
        .iter()
        .zip(&right.columns)
        .map(|(l, r)| {
            if rows <= 0.0 {
                return ColumnEstimate::zero();
            }
            let range = Range::new(
                min_excluding_nan(l.low, r.low),
                max_excluding_nan(l.high, r.high),
                l.distinct + r.distinct,
            );
            let nulls_left = l.nulls_fraction * left.rows;
            let nulls_right = r.nulls_fraction * right.rows;
            let size_left = (left.rows - nulls_left) * l.row_size;
            let size_right = (right.rows - nulls_right) * r.row_size;
            let nulls_fraction = (nulls_left + nulls_right) / rows;
            let non_null = rows * (1.0 - nulls_fraction);
            ColumnEstimate {
                low: range.low,
                high: range.high,
                distinct: range.distinct,
                nulls_fraction,
                row_size: if non_null == 0.0 {
                    0.0
                } else {
                    (size_left + size_right) / non_null
                },
            }
        })
        .collect();
    Estimate { rows, columns }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// tpch.tiny.nation's statistics: nationkey, name, regionkey, comment.
    fn nation() -> (Estimate, Vec<Discreteness>) {
        let number = |low, high, distinct| ColumnEstimate {
            low,
            high,
            distinct,
            nulls_fraction: 0.0,
            row_size: f64::NAN,
        };
        let text = |distinct, size: f64| ColumnEstimate {
            low: f64::NEG_INFINITY,
            high: f64::INFINITY,
            distinct,
            nulls_fraction: 0.0,
            row_size: size / 25.0,
        };
        let estimate = Estimate {
            rows: 25.0,
            columns: vec![
                number(0.0, 24.0, 25.0),
                text(25.0, 177.0),
                number(0.0, 4.0, 5.0),
                text(25.0, 1857.0),
            ],
        };
        let kinds = vec![
            Discreteness::Whole,
            Discreteness::Continuous,
            Discreteness::Whole,
            Discreteness::Continuous,
        ];
        (estimate, kinds)
    }

    fn compare(column: usize, op: Comparison, value: f64) -> Predicate {
        Predicate::Compare {
            column,
            op,
            value: Some(value),
        }
    }

    fn close(actual: f64, expected: f64) {
        assert!(
            (actual - expected).abs() <= 1e-12 * expected.abs().max(1.0),
            "{actual} vs {expected}"
        );
    }

    /// Figures Trino 476 printed for `SHOW STATS FOR (SELECT * FROM nation WHERE …)`.
    #[test]
    fn single_comparisons_match_trino() {
        let (nation, kinds) = nation();
        let equal = filter(&nation, &[compare(2, Comparison::Equal, 1.0)], &kinds);
        close(equal.rows, 5.0);
        close(equal.columns[0].distinct, 5.0);
        close(equal.columns[1].row_size * equal.rows, 35.4);
        assert_eq!((equal.columns[2].low, equal.columns[2].high), (1.0, 1.0));
        let greater = filter(&nation, &[compare(2, Comparison::Greater, 1.0)], &kinds);
        close(greater.rows, 18.75);
        close(greater.columns[2].distinct, 3.75);
        let other = filter(&nation, &[compare(2, Comparison::NotEqual, 1.0)], &kinds);
        close(other.rows, 20.0);
        close(other.columns[2].distinct, 4.0);
        let text = filter(
            &nation,
            &[Predicate::Compare {
                column: 1,
                op: Comparison::Less,
                value: None,
            }],
            &kinds,
        );
        close(text.rows, 12.5);
        let outside = filter(&nation, &[compare(2, Comparison::Equal, 9.0)], &kinds);
        assert_eq!(outside.rows, 0.0);
        let zero = outside.columns[0];
        assert_eq!(
            (zero.distinct, zero.nulls_fraction, zero.row_size),
            (0.0, 1.0, 0.0)
        );
        assert!(zero.low.is_nan() && zero.high.is_nan());
    }

    #[test]
    fn conjunctions_are_correlated_as_trinos() {
        let (nation, kinds) = nation();
        let two = filter(
            &nation,
            &[
                compare(2, Comparison::Equal, 1.0),
                compare(0, Comparison::Less, 10.0),
            ],
            &kinds,
        );
        close(two.rows, 2.593054072035327);
        close(two.columns[0].distinct, 2.593054072035327);
        close(two.columns[3].row_size * two.rows, 192.6120564707841);
        let grouped = filter(
            &nation,
            &[
                compare(0, Comparison::Greater, 3.0),
                compare(0, Comparison::Less, 10.0),
                compare(2, Comparison::Equal, 2.0),
            ],
            &kinds,
        );
        close(grouped.rows, 1.9844268888416006);
        assert_eq!(
            (grouped.columns[0].low, grouped.columns[0].high),
            (3.0, 10.0)
        );
    }
}
