//! Function signatures as Trino writes them (`array(T), T` → `bigint`), and matching a call's
//! argument types against one: generic types (`T`, `K`, `V`…) bind to the common super type
//! of everything they meet, and an argument may be coerced to a parameter as Trino's implicit
//! coercions allow (integer → bigint → double, varchar(n) → varchar, date → timestamp,
//! unknown → anything). Lambda parameters (`function(T, U)`) take their types from what the
//! other arguments bound; the lambda's body then binds the result variable.

use std::collections::HashMap;

use querymesh_values::coerce::super_type;
use querymesh_values::types::TrinoType;

#[derive(Clone, Debug, PartialEq)]
pub enum Pattern {
    /// A generic type: `T`.
    Var(char),
    Exact(TrinoType),
    /// `varchar`, `varchar(x)`: a varchar (or char) of any length (`varchar(1)` is `Exact`).
    AnyVarchar,
    /// `decimal(p,s)`
    AnyDecimal,
    /// `timestamp(p)`
    AnyTimestamp,
    /// `timestamp(p) with time zone`
    AnyTimestampTz,
    /// `time(p)`
    AnyTime,
    /// `time(p) with time zone`
    AnyTimeTz,
    /// `row(…)`: any row.
    AnyRow,
    Array(Box<Pattern>),
    Map(Box<Pattern>, Box<Pattern>),
    /// `qdigest(V)`
    QDigest(Box<Pattern>),
    /// `function(A, B, R)`: a lambda taking A, B, returning R.
    Function(Vec<Pattern>, Box<Pattern>),
}

#[derive(Clone, Debug)]
pub struct Signature {
    pub params: Vec<Pattern>,
    /// The last parameter may repeat (written `T...`).
    pub variadic: bool,
    pub returns: Pattern,
}

/// What a call passes at one position.
#[derive(Clone, Debug)]
pub enum Arg<'t> {
    Value(&'t TrinoType),
    /// A lambda with this many parameters (typed only once the values are bound).
    Lambda(usize),
}

pub type Vars = HashMap<char, TrinoType>;

/// Whether Trino coerces `from` to `to` implicitly.
pub fn can_coerce(from: &TrinoType, to: &TrinoType) -> bool {
    from == to || *from == TrinoType::Unknown || super_type(from, to).as_ref() == Some(to)
}

impl Signature {
    pub fn parse(params: &str, returns: &str) -> Result<Self, String> {
        let mut variadic = false;
        let mut patterns = Vec::new();
        for (i, part) in split_top_level(params).into_iter().enumerate() {
            let part = part.trim();
            if part.is_empty() {
                if i == 0 && params.trim().is_empty() {
                    break;
                }
                return Err(format!("empty parameter in '{params}'"));
            }
            if variadic {
                return Err("only the last parameter may repeat".into());
            }
            let part = match part.strip_suffix("...") {
                Some(p) => {
                    variadic = true;
                    p
                }
                None => part,
            };
            patterns.push(Pattern::parse(part)?);
        }
        Ok(Self {
            params: patterns,
            variadic,
            returns: Pattern::parse(returns.trim())?,
        })
    }

    /// The pattern for argument `i`, if the signature takes that many.
    fn param(&self, i: usize) -> Option<&Pattern> {
        match self.params.get(i) {
            Some(p) => Some(p),
            None if self.variadic => self.params.last(),
            None => None,
        }
    }

    /// Binds the value arguments; `exact` refuses every coercion (Trino first looks for a
    /// signature that fits without one).
    pub fn bind(&self, args: &[Arg<'_>], exact: bool) -> Option<Vars> {
        let fits = if self.variadic {
            args.len() + 1 >= self.params.len()
        } else {
            args.len() == self.params.len()
        };
        if !fits {
            return None;
        }
        let mut vars = Vars::new();
        for (i, arg) in args.iter().enumerate() {
            match (self.param(i)?, arg) {
                (Pattern::Function(params, _), Arg::Lambda(n)) if params.len() == *n => {}
                (Pattern::Function(..), _) | (_, Arg::Lambda(_)) => return None,
                (p, Arg::Value(t)) => {
                    if !bind(p, t, &mut vars, exact) {
                        return None;
                    }
                }
            }
        }
        Some(vars)
    }

    /// The parameter types of the lambda at argument `i`, from what is bound so far.
    pub fn lambda_params(&self, i: usize, vars: &Vars) -> Option<Vec<TrinoType>> {
        match self.param(i)? {
            Pattern::Function(params, _) => params.iter().map(|p| substitute(p, vars)).collect(),
            _ => None,
        }
    }

    /// How many parameters the lambda at argument `i` takes, if a lambda goes there.
    pub fn lambda_arity(&self, i: usize) -> Option<usize> {
        match self.param(i)? {
            Pattern::Function(params, _) => Some(params.len()),
            _ => None,
        }
    }

    /// Binds the result of the lambda at argument `i` to its body's type. A NULL body is no
    /// predicate: Trino finds no `filter(array(T), function(T, boolean))` for `x -> NULL`
    /// (Trino 476 on `filter(ARRAY[1, 2, 3], x -> NULL)`), though a NULL replacement of
    /// regexp_replace's lambda is fine.
    pub fn bind_lambda_result(&self, i: usize, body: &TrinoType, vars: &mut Vars) -> bool {
        match self.param(i) {
            Some(Pattern::Function(_, result)) => {
                if *body == TrinoType::Unknown
                    && matches!(result.as_ref(), Pattern::Exact(TrinoType::Boolean))
                {
                    return false;
                }
                bind(result, body, vars, false)
            }
            _ => false,
        }
    }

    /// The type each value argument is coerced to, once everything is bound.
    pub fn param_types(&self, args: &[Arg<'_>], vars: &Vars) -> Vec<Option<TrinoType>> {
        args.iter()
            .enumerate()
            .map(|(i, arg)| match (self.param(i), arg) {
                (Some(p), Arg::Value(actual)) => concrete(p, actual, vars),
                _ => None,
            })
            .collect()
    }

    pub fn return_type(&self, vars: &Vars) -> Option<TrinoType> {
        substitute(&self.returns, vars)
    }
}

fn bind(p: &Pattern, actual: &TrinoType, vars: &mut Vars, exact: bool) -> bool {
    use TrinoType as T;
    match (p, actual) {
        (Pattern::Var(v), _) => match vars.get(v) {
            None => {
                vars.insert(*v, actual.clone());
                true
            }
            Some(bound) if bound == actual => true,
            Some(_) if exact && *actual != T::Unknown => false,
            Some(bound) => match super_type(bound, actual) {
                Some(s) => {
                    vars.insert(*v, s);
                    true
                }
                None => false,
            },
        },
        (_, T::Unknown) => true,
        (Pattern::Exact(t), a) => t == a || (!exact && can_coerce(a, t)),
        (Pattern::AnyVarchar, a) => a.is_string(),
        (Pattern::AnyDecimal, T::Decimal { .. }) => true,
        (Pattern::AnyDecimal, a) => !exact && a.is_integral(),
        (Pattern::AnyTimestamp, T::Timestamp(_)) => true,
        (Pattern::AnyTimestamp, T::Date) => !exact,
        (Pattern::AnyTimestampTz, T::TimestampTz(_)) => true,
        (Pattern::AnyTime, T::Time(_)) => true,
        (Pattern::AnyTimeTz, T::TimeTz(_)) => true,
        (Pattern::AnyRow, T::Row(_)) => true,
        (Pattern::Array(e), T::Array(a)) => bind(e, a, vars, exact),
        // Trino coerces no qdigest to another's type (docs functions/qdigest).
        (Pattern::QDigest(e), T::QDigest(a)) => bind(e, a, vars, true),
        (Pattern::Map(k, v), T::Map(ak, av)) => {
            bind(k, ak, vars, exact) && bind(v, av, vars, exact)
        }
        _ => false,
    }
}

/// The concrete type a pattern stands for; `None` while a variable in it is unbound.
fn substitute(p: &Pattern, vars: &Vars) -> Option<TrinoType> {
    Some(match p {
        Pattern::Var(v) => vars.get(v).cloned().unwrap_or(TrinoType::Unknown),
        Pattern::Exact(t) => t.clone(),
        Pattern::AnyVarchar => TrinoType::Varchar(None),
        Pattern::AnyDecimal => TrinoType::Decimal {
            precision: 38,
            scale: 0,
        },
        Pattern::AnyTimestamp => TrinoType::Timestamp(3),
        Pattern::AnyTimestampTz => TrinoType::TimestampTz(3),
        Pattern::AnyTime => TrinoType::Time(3),
        Pattern::AnyTimeTz => TrinoType::TimeTz(3),
        Pattern::AnyRow | Pattern::Function(..) => return None,
        Pattern::Array(e) => TrinoType::Array(Box::new(substitute(e, vars)?)),
        Pattern::QDigest(e) => TrinoType::QDigest(Box::new(substitute(e, vars)?)),
        Pattern::Map(k, v) => TrinoType::Map(
            Box::new(substitute(k, vars)?),
            Box::new(substitute(v, vars)?),
        ),
    })
}

/// What an argument of type `actual` is coerced to for parameter `p`: families (any varchar,
/// any decimal…) keep the argument's own type.
fn concrete(p: &Pattern, actual: &TrinoType, vars: &Vars) -> Option<TrinoType> {
    match (p, actual) {
        // A char reaches a varchar parameter as the varchar it casts to, padded
        // (`json_size(…, CHAR ' ')` reads the path ' ', Trino 476).
        (Pattern::AnyVarchar, TrinoType::Char(n)) => Some(TrinoType::Varchar(Some(*n))),
        (Pattern::AnyVarchar | Pattern::AnyDecimal | Pattern::AnyRow, _)
        | (
            Pattern::AnyTimestamp | Pattern::AnyTimestampTz,
            TrinoType::Timestamp(_) | TrinoType::TimestampTz(_),
        )
        | (Pattern::AnyTime, TrinoType::Time(_))
        | (Pattern::AnyTimeTz, TrinoType::TimeTz(_)) => Some(actual.clone()),
        (Pattern::AnyTimestamp, _) => Some(TrinoType::Timestamp(0)),
        (Pattern::Array(e), TrinoType::Array(a)) => {
            Some(TrinoType::Array(Box::new(concrete(e, a, vars)?)))
        }
        (Pattern::Map(k, v), TrinoType::Map(ak, av)) => Some(TrinoType::Map(
            Box::new(concrete(k, ak, vars)?),
            Box::new(concrete(v, av, vars)?),
        )),
        _ => substitute(p, vars),
    }
}

/// Splits at the commas outside parentheses.
fn split_top_level(s: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                parts.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    parts
}

impl Pattern {
    pub fn parse(text: &str) -> Result<Self, String> {
        let text = text.trim();
        let (head, inner) = match text.find('(') {
            Some(open) if text.ends_with(')') => {
                (&text[..open], Some(&text[open + 1..text.len() - 1]))
            }
            _ => (text, None),
        };
        let head = head.trim();
        let args = || -> Result<Vec<Pattern>, String> {
            split_top_level(inner.unwrap_or(""))
                .into_iter()
                .map(Pattern::parse)
                .collect()
        };
        if head.len() == 1 && head.chars().all(|c| c.is_ascii_uppercase()) && inner.is_none() {
            return Ok(Pattern::Var(head.chars().next().unwrap_or('T')));
        }
        if text.ends_with(") with time zone") && text.starts_with("timestamp(") {
            return Ok(Pattern::AnyTimestampTz);
        }
        if text.ends_with(") with time zone") && text.starts_with("time(") {
            return Ok(Pattern::AnyTimeTz);
        }
        Ok(match (head, inner) {
            // A length written as a number is that varchar exactly (`chr` returns varchar(1));
            // a letter, or none, is any length.
            ("varchar", Some(n)) if n.trim().parse::<u32>().is_ok() => {
                Pattern::Exact(TrinoType::Varchar(n.trim().parse().ok()))
            }
            ("varchar" | "char", _) => Pattern::AnyVarchar,
            ("decimal", Some(_)) => Pattern::AnyDecimal,
            ("timestamp", Some(_)) => Pattern::AnyTimestamp,
            ("time", Some(_)) => Pattern::AnyTime,
            ("row", Some(_)) => Pattern::AnyRow,
            ("array", Some(_)) => match args()?.as_slice() {
                [e] => Pattern::Array(Box::new(e.clone())),
                _ => return Err(format!("array takes one type: '{text}'")),
            },
            ("qdigest", Some(_)) => match args()?.as_slice() {
                [e] => Pattern::QDigest(Box::new(e.clone())),
                _ => return Err(format!("qdigest takes one type: '{text}'")),
            },
            ("map", Some(_)) => match args()?.as_slice() {
                [k, v] => Pattern::Map(Box::new(k.clone()), Box::new(v.clone())),
                _ => return Err(format!("map takes two types: '{text}'")),
            },
            ("function", Some(_)) => {
                let mut all = args()?;
                let result = all
                    .pop()
                    .ok_or_else(|| format!("function needs a result: '{text}'"))?;
                Pattern::Function(all, Box::new(result))
            }
            (name, None) => {
                Pattern::Exact(exact_type(name).ok_or_else(|| format!("unknown type '{name}'"))?)
            }
            _ => return Err(format!("unknown type '{text}'")),
        })
    }
}

fn exact_type(name: &str) -> Option<TrinoType> {
    use TrinoType as T;
    Some(match name {
        "boolean" => T::Boolean,
        "tinyint" => T::TinyInt,
        "smallint" => T::SmallInt,
        "integer" => T::Integer,
        "bigint" => T::BigInt,
        "real" => T::Real,
        "double" => T::Double,
        "date" => T::Date,
        "json" => T::Json,
        "varbinary" => T::Varbinary,
        "uuid" => T::Uuid,
        "ipaddress" => T::IpAddress,
        "color" => T::Color,
        "setdigest" => T::SetDigest,
        "bingtile" => T::BingTile,
        "geometry" => T::Geometry,
        "sphericalgeography" => T::SphericalGeography,
        "hyperloglog" => T::HyperLogLog,
        "p4hyperloglog" => T::P4HyperLogLog,
        "tdigest" => T::TDigest,
        "unknown" => T::Unknown,
        "interval day to second" => T::IntervalDayToSecond,
        "interval year to month" => T::IntervalYearToMonth,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use TrinoType as T;

    fn array(t: TrinoType) -> TrinoType {
        T::Array(Box::new(t))
    }

    #[test]
    fn binds_a_generic_type_to_the_common_super_type() {
        let s = Signature::parse("array(T), T", "bigint").unwrap();
        let a = array(T::Integer);
        let args = [Arg::Value(&a), Arg::Value(&T::BigInt)];
        assert!(s.bind(&args, true).is_none());
        let vars = s.bind(&args, false).unwrap();
        assert_eq!(vars[&'T'], T::BigInt);
        assert_eq!(
            s.param_types(&args, &vars),
            vec![Some(array(T::BigInt)), Some(T::BigInt)]
        );
        let v = T::Varchar(None);
        assert!(s.bind(&[Arg::Value(&a), Arg::Value(&v)], false).is_none());
    }

    #[test]
    fn coerces_only_as_trino_does() {
        let s = Signature::parse("double", "double").unwrap();
        assert!(s.bind(&[Arg::Value(&T::Integer)], false).is_some());
        let s = Signature::parse("bigint", "bigint").unwrap();
        assert!(s.bind(&[Arg::Value(&T::Double)], false).is_none());
        assert!(s.bind(&[Arg::Value(&T::Unknown)], true).is_some());
    }

    #[test]
    fn lambdas_take_their_parameters_from_the_bound_values() {
        let s = Signature::parse("array(T), function(T, U)", "array(U)").unwrap();
        let a = array(T::Integer);
        let args = [Arg::Value(&a), Arg::Lambda(1)];
        let mut vars = s.bind(&args, false).unwrap();
        assert_eq!(s.lambda_params(1, &vars), Some(vec![T::Integer]));
        assert!(s.bind_lambda_result(1, &T::Varchar(None), &mut vars));
        assert_eq!(s.return_type(&vars), Some(array(T::Varchar(None))));
        assert!(s.bind(&[Arg::Value(&a), Arg::Lambda(2)], false).is_none());
    }

    #[test]
    fn variadic_and_malformed_signatures() {
        let s = Signature::parse("array(T)...", "array(T)").unwrap();
        let a = array(T::Integer);
        assert!(
            s.bind(&[Arg::Value(&a), Arg::Value(&a), Arg::Value(&a)], true)
                .is_some()
        );
        assert!(Signature::parse("arrray(T)", "T").is_err());
        assert!(Signature::parse("T..., T", "T").is_err());
        assert!(Signature::parse("", "bigint").unwrap().params.is_empty());
    }
}
