//! Lambda expressions (`x -> x + 1`, `(s, x) -> s + x`), analysed once the function's other
//! arguments have fixed their parameters' types. The body is SQL in which parameter `i` is the
//! column `"<alias>".p<i>`: the function lowering it (transform, filter, reduce…) wraps the body
//! in a correlated subquery over the array's elements that names that relation `<alias>` and
//! gives it columns `p0`, `p1`… in top-level form — so nothing is assembled at run time.

use sqlparser::ast::{LambdaFunction, OneOrManyWithParens};

use crate::querymesh::engine::error::{ErrorName, TrinoError};
use crate::querymesh::engine::sql::analyze::{Analyzer, Typed, error_at, location};
use crate::querymesh::engine::sql::scope::ExprContext;
use crate::querymesh::engine::types::TrinoType;

#[derive(Clone, Debug)]
pub struct Lambda {
    /// The relation the body's parameters are columns of.
    pub alias: String,
    pub params: Vec<TrinoType>,
    pub body: Typed,
}

impl Lambda {
    /// The SQL column that parameter `i` is inside the body.
    pub fn param(&self, i: usize) -> String {
        param_column(&self.alias, i)
    }
}

fn param_column(alias: &str, i: usize) -> String {
    format!("\"{alias}\".p{i}")
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

impl Analyzer<'_> {
    pub(super) fn lambda(
        &mut self,
        l: &LambdaFunction,
        params: &[TrinoType],
        cx: &ExprContext<'_>,
    ) -> Result<Lambda, TrinoError> {
        let names: Vec<String> = match &l.params {
            OneOrManyWithParens::One(p) => vec![p.name.value.to_lowercase()],
            OneOrManyWithParens::Many(ps) => {
                ps.iter().map(|p| p.name.value.to_lowercase()).collect()
            }
        };
        if names.len() != params.len() {
            return Err(error_at(
                ErrorName::FunctionNotFound,
                location(l.body.as_ref()),
                format!(
                    "Expected a lambda that takes {} argument(s) but got {}",
                    params.len(),
                    names.len()
                ),
            ));
        }
        for (i, name) in names.iter().enumerate() {
            if names[..i].contains(name) {
                return Err(error_at(
                    ErrorName::GenericUserError,
                    location(l.body.as_ref()),
                    format!("Duplicate lambda argument name: {name}"),
                ));
            }
        }
        self.next_alias += 1;
        let alias = format!("_lambda{}", self.next_alias);
        let depth = self.lambda_params.len();
        for (i, (name, ty)) in names.iter().zip(params).enumerate() {
            self.lambda_params.push(LambdaParam {
                name: name.clone(),
                value: Typed::new(param_column(&alias, i), ty.clone()),
            });
        }
        let body = self.expr(&l.body, cx);
        self.lambda_params.truncate(depth);
        Ok(Lambda {
            alias,
            params: params.to_vec(),
            body: body?,
        })
    }

    /// The innermost lambda parameter called `name`, if one is in scope.
    pub(crate) fn lambda_param(&self, name: &str) -> Option<Typed> {
        self.lambda_params
            .iter()
            .rev()
            .find(|p| p.name == name)
            .map(|p| p.value.clone())
    }
}
