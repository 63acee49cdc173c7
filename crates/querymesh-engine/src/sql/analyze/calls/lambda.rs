//! Lambda arguments as the analysis reads them: their parameters typed from the signature,
//! their bodies analysed with the parameters in scope (querymesh-functions/src/lambda.rs holds what a
//! lowering sees of them).

use querymesh_functions::lambda::param_column;
use querymesh_functions::{Lambda, LambdaParam};
use querymesh_values::typed::Typed;
use sqlparser::ast::{LambdaFunction, OneOrManyWithParens};

use crate::error::{ErrorName, TrinoError, error_at};
use crate::sql::analyze::scope::{Clause, ExprContext};
use crate::sql::analyze::{Analyzer, location};
use crate::types::TrinoType;

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
        // The body may hold no aggregate, window function or subquery (Clause::Lambda).
        let body_cx = ExprContext {
            clause: Clause::Lambda,
            ..*cx
        };
        let body = self.expr(&l.body, &body_cx);
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
