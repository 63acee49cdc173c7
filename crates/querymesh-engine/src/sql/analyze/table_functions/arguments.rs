//! A table function's arguments matched to its declared ones, as Trino 476's
//! StatementAnalyzer.analyzeArguments does (docs functions/table, "Argument passing
//! conventions"): all by name or all by position; a name is an identifier's canonical form
//! (unquoted: upper case); an argument left out takes its default or is MISSING_ARGUMENT.

use sqlparser::ast::{
    CastKind, DataType, Expr, FunctionArg, FunctionArgExpr, FunctionArguments, Ident, ObjectName,
    ObjectNamePart, Query,
};

use super::tokens::MARK;

use crate::error::{ErrorName, Position, TrinoError, error_at};
use crate::sql::analyze::{ident_location, location};

/// What a declared argument takes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Scalar,
    Table,
    Descriptor,
}

impl Kind {
    fn word(self) -> &'static str {
        match self {
            Kind::Scalar => "expression",
            Kind::Table => "table",
            Kind::Descriptor => "descriptor",
        }
    }
}

/// One declared argument: its canonical name, what it takes, and whether it has a default.
pub(super) struct Declared {
    pub name: &'static str,
    pub kind: Kind,
    pub has_default: bool,
}

/// A table argument: `TABLE(name)` (with the place of `TABLE`, where Trino reports a
/// missing table) or `TABLE(query)`.
pub(super) enum TableArg<'q> {
    Named(ObjectName, Option<Position>),
    Query(&'q Query),
}

/// A descriptor argument: `DESCRIPTOR(a, b)` (each field's name and whether it was given a
/// type), or `CAST(NULL AS DESCRIPTOR)`.
pub(super) enum DescriptorArg {
    Fields(Vec<(String, bool)>),
    Null,
}

/// A passed argument's value.
pub(super) enum Value<'q> {
    Scalar(&'q Expr),
    /// A table and the first clause written after it (`partition`, `order` or `empty`), with
    /// the clause's place.
    Table(TableArg<'q>, Option<(String, Option<Position>)>),
    Descriptor(DescriptorArg),
}

impl Value<'_> {
    fn kind(&self) -> Kind {
        match self {
            Value::Scalar(_) => Kind::Scalar,
            Value::Table(..) => Kind::Table,
            Value::Descriptor(_) => Kind::Descriptor,
        }
    }
}

/// The arguments in declaration order: `None` where the default applies.
pub(super) type Bound<'q> = Vec<Option<Value<'q>>>;

/// Matches `args` to `declared`; `at` is the invocation's place, where a missing argument is
/// reported when no argument was passed (else at the first one).
pub(super) fn bind<'q>(
    declared: &[Declared],
    args: &'q [FunctionArg],
    at: Option<Position>,
) -> Result<Bound<'q>, TrinoError> {
    let first_at = args.first().and_then(argument_location).or(at);
    if args.len() > declared.len() {
        return Err(error_at(
            ErrorName::InvalidArguments,
            first_at,
            format!(
                "Too many arguments. Expected at most {} arguments, got {} arguments",
                declared.len(),
                args.len()
            ),
        ));
    }
    let by_name = !args.is_empty() && args.iter().all(|a| argument_name(a).is_some());
    let by_position = args.iter().all(|a| argument_name(a).is_none());
    if !by_name && !by_position {
        return Err(error_at(
            ErrorName::InvalidArguments,
            first_at,
            "All arguments must be passed by name or all must be passed positionally",
        ));
    }
    let mut bound: Bound<'q> = declared.iter().map(|_| None).collect();
    for (i, arg) in args.iter().enumerate() {
        let place = argument_location(arg);
        let index = match argument_name(arg) {
            None => i,
            Some(name) => {
                let found = declared.iter().position(|d| d.name == name);
                if found.is_some_and(|k| bound[k].is_some()) {
                    return Err(error_at(
                        ErrorName::InvalidFunctionArgument,
                        place,
                        format!("Duplicate argument name: {name}"),
                    ));
                }
                found.ok_or_else(|| {
                    error_at(
                        ErrorName::InvalidFunctionArgument,
                        place,
                        format!("Unexpected argument name: {name}"),
                    )
                })?
            }
        };
        let (Some(spec), Some(expr)) = (declared.get(index), argument_expr(arg)) else {
            return Err(error_at(
                ErrorName::SyntaxError,
                place,
                "mismatched input. Expecting: <expression>",
            ));
        };
        let value = value_of(expr);
        if value.kind() != spec.kind {
            return Err(error_at(
                ErrorName::InvalidFunctionArgument,
                place,
                format!(
                    "Invalid argument {}. Expected {}, got {}",
                    spec.name,
                    spec.kind.word(),
                    value.kind().word()
                ),
            ));
        }
        check_value(spec, &value, place)?;
        bound[index] = Some(value);
    }
    for (spec, value) in declared.iter().zip(&bound) {
        if value.is_none() && !spec.has_default {
            return Err(error_at(
                ErrorName::MissingArgument,
                first_at,
                format!("Missing argument: {}", spec.name),
            ));
        }
    }
    Ok(bound)
}

/// What Trino's analyzer refuses of a table or descriptor argument before the function sees
/// it: a table argument's clauses (every built-in table argument has row semantics) and an
/// empty descriptor.
fn check_value(
    spec: &Declared,
    value: &Value<'_>,
    place: Option<Position>,
) -> Result<(), TrinoError> {
    let refused = |at: Option<Position>, what: &str| {
        Err(error_at(
            ErrorName::InvalidFunctionArgument,
            at,
            format!(
                "Invalid argument {}. {what} specified for table argument with row semantics",
                spec.name
            ),
        ))
    };
    match value {
        Value::Table(_, Some((clause, at))) => match clause.as_str() {
            "partition" => refused(place, "Partitioning"),
            "order" => refused(place, "Ordering"),
            _ => refused(*at, "Empty behavior"),
        },
        Value::Descriptor(DescriptorArg::Fields(fields)) if fields.is_empty() => Err(error_at(
            ErrorName::InvalidFunctionArgument,
            place,
            format!(
                "Invalid descriptor argument {}. Descriptors should be formatted as 'DESCRIPTOR(name [type], ...)'",
                spec.name
            ),
        )),
        _ => Ok(()),
    }
}

/// An argument's name in canonical form: quoted as written, else upper case.
fn argument_name(arg: &FunctionArg) -> Option<String> {
    match arg {
        FunctionArg::Named { name, .. } => Some(match name.quote_style {
            Some(_) => name.value.clone(),
            None => name.value.to_uppercase(),
        }),
        _ => None,
    }
}

fn argument_expr(arg: &FunctionArg) -> Option<&Expr> {
    match arg {
        FunctionArg::Named {
            arg: FunctionArgExpr::Expr(e),
            ..
        }
        | FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) => Some(e),
        _ => None,
    }
}

/// Where Trino places an argument's errors: at its name, or at its value when positional.
fn argument_location(arg: &FunctionArg) -> Option<Position> {
    match arg {
        FunctionArg::Named { name, .. } => ident_location(name),
        _ => argument_expr(arg).and_then(location),
    }
}

/// What an argument's expression is: `TABLE(…)` a table, `DESCRIPTOR(…)` or a cast to
/// DESCRIPTOR a descriptor, anything else a scalar.
fn value_of(expr: &Expr) -> Value<'_> {
    match expr {
        Expr::Function(f) if is_word(&f.name, "TABLE") => {
            let (input, clause) = table_parts(&f.args);
            let clause = clause.map(|i| {
                (
                    i.value.trim_start_matches(MARK).to_string(),
                    ident_location(i),
                )
            });
            match input {
                Some(Expr::Subquery(q)) => Value::Table(TableArg::Query(q), clause),
                Some(Expr::Identifier(i)) => Value::Table(
                    TableArg::Named(ObjectName::from(vec![i.clone()]), location(expr)),
                    clause,
                ),
                Some(Expr::CompoundIdentifier(parts)) => Value::Table(
                    TableArg::Named(ObjectName::from(parts.clone()), location(expr)),
                    clause,
                ),
                // Not a name nor a query: Trino's parser refuses it; the closest answer here.
                _ => Value::Scalar(expr),
            }
        }
        Expr::Function(f) if is_word(&f.name, "DESCRIPTOR") => {
            let fields = match &f.args {
                FunctionArguments::List(list) => list
                    .args
                    .iter()
                    .filter_map(|a| match argument_expr(a) {
                        // A field written with a type (tokens.rs marks it).
                        Some(Expr::Identifier(i)) if i.value.starts_with(MARK) => {
                            Some((i.value.trim_start_matches(MARK).to_lowercase(), true))
                        }
                        Some(Expr::Identifier(i)) => Some((i.value.to_lowercase(), false)),
                        Some(other) => Some((other.to_string().to_lowercase(), true)),
                        None => None,
                    })
                    .collect(),
                _ => Vec::new(),
            };
            Value::Descriptor(DescriptorArg::Fields(fields))
        }
        Expr::Cast {
            kind: CastKind::Cast,
            expr: inner,
            data_type: DataType::Custom(name, _),
            ..
        } if is_word(name, "DESCRIPTOR") && is_null(inner) => {
            Value::Descriptor(DescriptorArg::Null)
        }
        other => Value::Scalar(other),
    }
}

fn is_null(e: &Expr) -> bool {
    matches!(e, Expr::Value(v) if v.value == sqlparser::ast::Value::Null)
}

/// A one-part unquoted name equal to `word`, in any case.
fn is_word(name: &ObjectName, word: &str) -> bool {
    matches!(name.0.as_slice(), [ObjectNamePart::Identifier(i)]
        if i.quote_style.is_none() && i.value.eq_ignore_ascii_case(word))
}

/// `TABLE(input)`, or `TABLE(input, marker)` with the clause marker tokens.rs wrote.
fn table_parts(args: &FunctionArguments) -> (Option<&Expr>, Option<&Ident>) {
    let FunctionArguments::List(list) = args else {
        return (None, None);
    };
    match list.args.as_slice() {
        [one] => (argument_expr(one), None),
        [one, two] => match argument_expr(two) {
            Some(Expr::Identifier(i)) if i.value.starts_with(MARK) => (argument_expr(one), Some(i)),
            _ => (None, None),
        },
        _ => (None, None),
    }
}
