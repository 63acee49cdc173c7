//! Lambda expressions (`x -> x + 1`, `(s, x) -> s + x`), analysed once the function's other
//! arguments have fixed their parameters' types. The body is SQL in which parameter `i` is the
//! column `"<alias>".p<i>`: the function lowering it (transform, filter, reduce…) wraps the body
//! in a correlated subquery over the array's elements that names that relation `<alias>` and
//! gives it columns `p0`, `p1`… in top-level form — so nothing is assembled at run time.

use querymesh_values::sqlite_expr::SqlExpr;
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;
use sqlparser::ast::{LambdaFunction, OneOrManyWithParens};

#[derive(Clone, Debug)]
pub struct Lambda {
    /// The relation the body's parameters are columns of.
    pub alias: String,
    pub params: Vec<TrinoType>,
    pub body: Typed,
}

impl Lambda {
    /// The SQL column that parameter `i` is inside the body.
    pub fn param(&self, i: usize) -> SqlExpr {
        param_column(&self.alias, i)
    }
}

/// `<alias>.p<i>`: the column parameter `i` of the lambda whose relation is `alias` is.
pub fn param_column(alias: &str, i: usize) -> SqlExpr {
    SqlExpr::column(Some(alias), format!("p{i}"))
}

pub fn arity(l: &LambdaFunction) -> usize {
    match &l.params {
        OneOrManyWithParens::One(_) => 1,
        OneOrManyWithParens::Many(ps) => ps.len(),
    }
}

/// A lambda parameter in scope while its body is analysed.
#[derive(Clone, Debug)]
pub struct LambdaParam {
    pub name: String,
    pub value: Typed,
}
