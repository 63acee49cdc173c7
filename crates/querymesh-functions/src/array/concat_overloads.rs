//! Which of Trino's `concat` overloads (the `||` operator is the same function) a call
//! binds to, by Trino's own rule (FunctionResolver): first the candidates the arguments bind
//! to without coercion, else those they bind to with coercion; of several, the most
//! specific (one whose bound argument types bind to the other's declared signature); a tie
//! is kept only when an argument is the NULL literal and every tied candidate returns the
//! same type, else the call is AMBIGUOUS_FUNCTION_CALL with the candidates listed.
//!
//! A NULL literal binds to any type variable without coercion and to a declared concrete
//! type too, which is why `X'AB' || NULL` is ambiguous between `(varbinary, varbinary)` and
//! `(E, array(E))` while `'a' || NULL` (a `varchar(1)` needs a coercion to `varchar`) binds
//! `(E, array(E))` alone and is a NULL `array(varchar(1))`.

use querymesh_values::coerce::super_type;
use querymesh_values::error::{ErrorName, Position, TrinoError, error_at};
use querymesh_values::types::TrinoType;

/// One of Trino 476's `concat` overloads (docs functions/string `concat`, functions/binary
/// `concat`, functions/array "Concatenation operator").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConcatOverload {
    /// `concat(varchar...)`
    Varchar,
    /// `concat(varbinary...)`
    Varbinary,
    /// `concat(char(x), char(y)) -> char(x + y)`
    Char,
    /// `concat(array(E)...)` (ArrayConcatFunction)
    Arrays,
    /// `concat(E, array(E))` (ElementToArrayConcatFunction)
    ElementToArray,
    /// `concat(array(E), E)` (ArrayToElementConcatFunction)
    ArrayToElement,
}

/// A parameter as declared: a concrete type, `char(x)`, the type variable `E`, or an array
/// of one of those.
enum Declared {
    Concrete(TrinoType),
    AnyChar,
    Element,
    ArrayOf(Box<Declared>),
}

/// The overload a call binds to, with the types its arguments bind to and its return type.
#[derive(Clone, Debug, PartialEq)]
pub struct BoundConcat {
    pub overload: ConcatOverload,
    pub arguments: Vec<TrinoType>,
    pub returns: TrinoType,
}

const OVERLOADS: [ConcatOverload; 6] = [
    ConcatOverload::Char,
    ConcatOverload::ArrayToElement,
    ConcatOverload::ElementToArray,
    ConcatOverload::Arrays,
    ConcatOverload::Varchar,
    ConcatOverload::Varbinary,
];

impl ConcatOverload {
    /// Its declared parameters for `arity` arguments; `None` when it takes no such count.
    fn declared(self, arity: usize) -> Option<Vec<Declared>> {
        let array_of_element = || Declared::ArrayOf(Box::new(Declared::Element));
        match self {
            Self::Varchar => Some(
                (0..arity)
                    .map(|_| Declared::Concrete(TrinoType::Varchar(None)))
                    .collect(),
            ),
            Self::Varbinary => Some(
                (0..arity)
                    .map(|_| Declared::Concrete(TrinoType::Varbinary))
                    .collect(),
            ),
            Self::Arrays => Some((0..arity).map(|_| array_of_element()).collect()),
            Self::Char if arity == 2 => Some(vec![Declared::AnyChar, Declared::AnyChar]),
            Self::ElementToArray if arity == 2 => Some(vec![Declared::Element, array_of_element()]),
            Self::ArrayToElement if arity == 2 => Some(vec![array_of_element(), Declared::Element]),
            _ => None,
        }
    }
}

/// The overload `concat` binds to for these argument types: `Ok(None)` when none applies
/// (the caller reports the missing function), AMBIGUOUS_FUNCTION_CALL when Trino cannot
/// choose.
pub fn resolve_concat(
    arguments: &[TrinoType],
    at: Option<Position>,
) -> Result<Option<BoundConcat>, TrinoError> {
    if arguments.is_empty() {
        return Ok(None);
    }
    for coercion in [false, true] {
        let applicable: Vec<BoundConcat> = OVERLOADS
            .iter()
            .filter_map(|&o| bind(o, arguments, coercion))
            .collect();
        if applicable.is_empty() {
            continue;
        }
        let most_specific = most_specific(&applicable);
        if let [only] = most_specific.as_slice() {
            return Ok(Some(only.clone()));
        }
        let null_argument = arguments.contains(&TrinoType::Unknown);
        let same_returns = most_specific
            .iter()
            .all(|c| c.returns == most_specific[0].returns);
        if null_argument && same_returns {
            return Ok(Some(most_specific[0].clone()));
        }
        return Err(ambiguous(&applicable, at));
    }
    Ok(None)
}

/// Trino's FunctionResolver.selectMostSpecificFunctions: each candidate replaces a
/// representative it is more specific than, or joins them when it is comparable to none.
fn most_specific(applicable: &[BoundConcat]) -> Vec<BoundConcat> {
    let mut representatives: Vec<BoundConcat> = Vec::new();
    for current in applicable {
        let mut found = false;
        for representative in representatives.iter_mut() {
            let narrower = more_specific(current, representative);
            if narrower {
                *representative = current.clone();
            }
            if narrower || more_specific(representative, current) {
                found = true;
                break;
            }
        }
        if !found {
            representatives.push(current.clone());
        }
    }
    representatives
}

/// Whether `left`'s bound argument types bind to `right`'s declared signature.
fn more_specific(left: &BoundConcat, right: &BoundConcat) -> bool {
    bind(right.overload, &left.arguments, true).is_some()
}

/// `overload` bound to `arguments`, with or without coercing them.
fn bind(overload: ConcatOverload, arguments: &[TrinoType], coercion: bool) -> Option<BoundConcat> {
    let declared = overload.declared(arguments.len())?;
    // E is the common super type of what stands in its places (a NULL stands for anything).
    let mut element = TrinoType::Unknown;
    for (d, actual) in declared.iter().zip(arguments) {
        if let Some(t) = element_place(d, actual) {
            element = super_type(&element, &t)?;
        }
    }
    let mut bound = Vec::with_capacity(arguments.len());
    for (d, actual) in declared.iter().zip(arguments) {
        let formal = substitute(d, actual, &element)?;
        let fits = if coercion {
            super_type(actual, &formal).as_ref() == Some(&formal)
        } else {
            binds_exactly(actual, &formal)
        };
        if !fits {
            return None;
        }
        bound.push(formal);
    }
    let returns = match overload {
        ConcatOverload::Varchar => TrinoType::Varchar(None),
        ConcatOverload::Varbinary => TrinoType::Varbinary,
        ConcatOverload::Char => {
            let length = |t: &TrinoType| match t {
                TrinoType::Char(n) => *n,
                _ => 0,
            };
            TrinoType::Char(bound.iter().map(length).sum())
        }
        _ => TrinoType::Array(Box::new(element)),
    };
    Some(BoundConcat {
        overload,
        arguments: bound,
        returns,
    })
}

/// The type an argument offers for `E` where `declared` names it.
fn element_place(declared: &Declared, actual: &TrinoType) -> Option<TrinoType> {
    match (declared, actual) {
        (Declared::Element, t) => Some(t.clone()),
        (Declared::ArrayOf(inner), TrinoType::Array(e)) => element_place(inner, e),
        (Declared::ArrayOf(inner), TrinoType::Unknown) => element_place(inner, &TrinoType::Unknown),
        _ => None,
    }
}

/// The declared parameter with `E` (and `char(x)`'s length) bound; `None` when the argument
/// cannot be of its shape.
fn substitute(declared: &Declared, actual: &TrinoType, element: &TrinoType) -> Option<TrinoType> {
    match declared {
        Declared::Concrete(t) => Some(t.clone()),
        Declared::Element => Some(element.clone()),
        // A NULL literal binds char(x) with x = 0 (Trino lists `(char(0),char(0)):char(0)`).
        Declared::AnyChar => match actual {
            TrinoType::Char(n) => Some(TrinoType::Char(*n)),
            TrinoType::Unknown => Some(TrinoType::Char(0)),
            _ => None,
        },
        Declared::ArrayOf(inner) => {
            let inner_actual = match actual {
                TrinoType::Array(e) => e.as_ref(),
                _ => &TrinoType::Unknown,
            };
            Some(TrinoType::Array(Box::new(substitute(
                inner,
                inner_actual,
                element,
            )?)))
        }
    }
}

/// Binding without coercion: the same type, with a NULL literal (`unknown`) anywhere fitting.
fn binds_exactly(actual: &TrinoType, formal: &TrinoType) -> bool {
    match (actual, formal) {
        (TrinoType::Unknown, _) => true,
        (TrinoType::Array(a), TrinoType::Array(f)) => binds_exactly(a, f),
        (a, f) => a == f,
    }
}

fn ambiguous(candidates: &[BoundConcat], at: Option<Position>) -> TrinoError {
    let listed: Vec<String> = candidates
        .iter()
        .map(|c| {
            let arguments: Vec<String> = c.arguments.iter().map(|t| t.to_string()).collect();
            format!("\t * ({}):{}", arguments.join(","), c.returns)
        })
        .collect();
    error_at(
        ErrorName::AmbiguousFunctionCall,
        at,
        format!(
            "Could not choose a best candidate operator. Explicit type casts must be added.\n\
             Candidates are:\n{}\n",
            listed.join("\n")
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use querymesh_values::types::TrinoType::*;

    fn resolved(arguments: &[TrinoType]) -> Result<Option<(ConcatOverload, TrinoType)>, ErrorName> {
        resolve_concat(arguments, None)
            .map(|b| b.map(|b| (b.overload, b.returns)))
            .map_err(|e| e.name)
    }

    fn array(t: TrinoType) -> TrinoType {
        Array(Box::new(t))
    }

    // The answers of Trino 476 (asked with trino-q); docs functions/array "Concatenation
    // operator: ||", functions/binary and functions/string `concat`.
    #[test]
    fn a_null_literal_beside_a_value_of_an_exact_overload_is_ambiguous() {
        for arguments in [
            vec![Varbinary, Unknown],
            vec![Varchar(None), Unknown],
            vec![Char(2), Unknown],
            vec![Unknown, Unknown],
            vec![array(Integer), Unknown],
            vec![Unknown, array(Integer)],
            vec![array(Integer), array(Unknown)],
            vec![array(Unknown), array(Integer)],
            vec![array(array(Integer)), array(Unknown)],
            vec![Unknown],
        ] {
            let answer = resolved(&arguments);
            assert_eq!(
                answer,
                Err(ErrorName::AmbiguousFunctionCall),
                "{arguments:?}"
            );
        }
    }

    #[test]
    fn the_only_exact_overload_wins() {
        let cases = [
            // 'a' || NULL: varchar(1) needs a coercion to varchar, not to E.
            (vec![Varchar(Some(1)), Unknown], array(Varchar(Some(1)))),
            (vec![Integer, Unknown], array(Integer)),
            (vec![array(Integer), Integer], array(Integer)),
            (vec![Integer, array(Integer)], array(Integer)),
            (vec![array(Unknown), Unknown], array(Unknown)),
            (vec![array(Unknown), array(Unknown)], array(Unknown)),
            (vec![array(Integer), array(Integer)], array(Integer)),
            (vec![Varbinary, Varbinary], Varbinary),
            (vec![Varbinary, Varbinary, Unknown], Varbinary),
            (vec![Varchar(None), Unknown, Unknown], Varchar(None)),
            (
                vec![array(Integer), Unknown, array(Integer)],
                array(Integer),
            ),
        ];
        for (arguments, returns) in cases {
            let answer = resolved(&arguments).map(|b| b.map(|(_, r)| r));
            assert_eq!(answer, Ok(Some(returns)), "{arguments:?}");
        }
    }

    #[test]
    fn coercions_apply_when_no_overload_binds_exactly() {
        let cases = [
            (vec![Varchar(Some(1)), Varchar(Some(2))], Varchar(None)),
            (vec![Varchar(Some(1))], Varchar(None)),
            (vec![array(Integer), array(BigInt)], array(BigInt)),
            (
                vec![array(array(Integer)), array(Integer)],
                array(array(Integer)),
            ),
            (vec![Char(1), Char(2)], Char(3)),
        ];
        for (arguments, returns) in cases {
            let answer = resolved(&arguments).map(|b| b.map(|(_, r)| r));
            assert_eq!(answer, Ok(Some(returns)), "{arguments:?}");
        }
        assert_eq!(resolved(&[Varchar(Some(1)), Varbinary]), Ok(None));
    }
}
