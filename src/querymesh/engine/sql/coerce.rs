//! Trino's implicit coercions: which types compare, their common super type, and the result
//! type of arithmetic (Trino's decimal precision rules included).

use crate::querymesh::engine::types::TrinoType;

fn integral_rank(t: &TrinoType) -> u8 {
    match t {
        TrinoType::TinyInt => 1,
        TrinoType::SmallInt => 2,
        TrinoType::Integer => 3,
        _ => 4,
    }
}

/// An integral or decimal type as a decimal (precision, scale).
fn as_decimal(t: &TrinoType) -> Option<(u8, u8)> {
    match t {
        TrinoType::TinyInt => Some((3, 0)),
        TrinoType::SmallInt => Some((5, 0)),
        TrinoType::Integer => Some((10, 0)),
        TrinoType::BigInt => Some((19, 0)),
        TrinoType::Decimal { precision, scale } => Some((*precision, *scale)),
        _ => None,
    }
}

fn decimal(precision: u32, scale: u32) -> TrinoType {
    TrinoType::Decimal {
        precision: precision.min(38) as u8,
        scale: scale.min(38) as u8,
    }
}

/// The type both sides coerce to, if Trino has one.
pub fn super_type(a: &TrinoType, b: &TrinoType) -> Option<TrinoType> {
    use TrinoType::*;
    if a == b {
        return Some(a.clone());
    }
    match (a, b) {
        (Unknown, t) | (t, Unknown) => Some(t.clone()),
        (x, y) if x.is_integral() && y.is_integral() => {
            Some(if integral_rank(x) >= integral_rank(y) {
                x.clone()
            } else {
                y.clone()
            })
        }
        (Double, y) | (y, Double) if y.is_numeric() => Some(Double),
        (Real, y) | (y, Real) if y.is_numeric() => Some(Real),
        (x, y) if x.is_numeric() && y.is_numeric() => {
            let (p1, s1) = as_decimal(x)?;
            let (p2, s2) = as_decimal(y)?;
            let scale = s1.max(s2) as u32;
            let int_digits = (p1 - s1).max(p2 - s2) as u32;
            Some(decimal(int_digits + scale, scale))
        }
        (Varchar(x), Varchar(y)) => Some(Varchar(x.zip(*y).map(|(x, y)| x.max(y)))),
        (Varchar(x), Char(y)) | (Char(y), Varchar(x)) => Some(Varchar(x.map(|x| x.max(*y)))),
        (Char(x), Char(y)) => Some(Char(*x.max(y))),
        (Date, Timestamp(p)) | (Timestamp(p), Date) => Some(Timestamp(*p)),
        (Timestamp(p), Timestamp(q)) => Some(Timestamp(*p.max(q))),
        (TimestampTz(p), TimestampTz(q)) => Some(TimestampTz(*p.max(q))),
        (Array(x), Array(y)) => Some(Array(Box::new(super_type(x, y)?))),
        (Map(kx, vx), Map(ky, vy)) => Some(Map(
            Box::new(super_type(kx, ky)?),
            Box::new(super_type(vx, vy)?),
        )),
        (Row(x), Row(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .map(|((nx, tx), (ny, ty))| {
                let name = if nx == ny { nx.clone() } else { None };
                Some((name, super_type(tx, ty)?))
            })
            .collect::<Option<Vec<_>>>()
            .map(Row),
        _ => None,
    }
}

/// The result type of `a op b` for `+ - * / %` on numbers.
pub fn arithmetic(op: char, a: &TrinoType, b: &TrinoType) -> Option<TrinoType> {
    use TrinoType::*;
    if !(a.is_numeric() || *a == Unknown) || !(b.is_numeric() || *b == Unknown) {
        return None;
    }
    match (a, b) {
        (Unknown, Unknown) => Some(Integer),
        (Unknown, t) | (t, Unknown) => Some(t.clone()),
        (x, y) if x.is_integral() && y.is_integral() => super_type(x, y),
        (Double, _) | (_, Double) => Some(Double),
        (Real, _) | (_, Real) => Some(Real),
        _ => {
            let (p1, s1) = as_decimal(a)?;
            let (p2, s2) = as_decimal(b)?;
            let (p1, s1, p2, s2) = (p1 as u32, s1 as u32, p2 as u32, s2 as u32);
            Some(match op {
                '+' | '-' => {
                    let s = s1.max(s2);
                    decimal((p1 - s1).max(p2 - s2) + s + 1, s)
                }
                '*' => decimal(p1 + p2, s1 + s2),
                '/' => {
                    let s = s1.max(s2);
                    decimal(p1 - s1 + s2 + s, s)
                }
                _ => {
                    let s = s1.max(s2);
                    decimal((p1 - s1).min(p2 - s2) + s, s)
                }
            })
        }
    }
}
