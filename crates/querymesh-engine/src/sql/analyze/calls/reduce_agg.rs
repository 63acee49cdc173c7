//! `reduce_agg(x, initial, input_fn, combine_fn)` (Trino docs functions/aggregate, "Lambda
//! aggregate functions"): the only aggregate that takes lambdas. It folds the group's non-NULL
//! values from `initial` with `input_fn`; no such value is NULL. Here it is the array
//! function `reduce` over the group's non-NULL values gathered by `array_agg`, the aggregate
//! hoisted as for any lambda function's aggregate argument. `combine_fn` merges partial
//! states, which one SQLite query never has: it is accepted as written.

use querymesh_functions::entry::AggregateCall;
use querymesh_functions::signature::Vars;
use querymesh_functions::{Call, not_registered, registry};
use querymesh_values::sqlite_expr::{BinaryOp, SqlExpr};
use querymesh_values::typed::Typed;
use sqlparser::ast::{
    Expr, Function, Ident, LambdaFunction, LambdaFunctionParameter, LambdaSyntax,
    OneOrManyWithParens,
};

use super::{ArgExpr, CallArguments, with_hoisted};
use crate::error::{ErrorName, Position, TrinoError, error_at};
use crate::sql::analyze::Analyzer;
use crate::sql::analyze::scope::ExprContext;
use crate::types::TrinoType;

impl Analyzer<'_> {
    pub(super) fn reduce_agg(
        &mut self,
        f: &Function,
        written: &CallArguments<'_>,
        cx: &ExprContext<'_>,
        at: Option<Position>,
    ) -> Result<Typed, TrinoError> {
        let [
            ArgExpr::Value(x),
            ArgExpr::Value(initial),
            ArgExpr::Lambda(input),
            ArgExpr::Lambda(_combine),
        ] = written.exprs.as_slice()
        else {
            return Err(error_at(
                ErrorName::FunctionNotFound,
                at,
                "Unexpected parameters for function reduce_agg. Expected: \
                 reduce_agg(T, S, function(S,T,S), function(S,S,S))",
            ));
        };
        self.check_aggregate_allowed(f, "reduce_agg", cx, at)?;
        let inner = ExprContext {
            in_aggregate: true,
            ..*cx
        };
        let x = self.expr(x, &inner)?;
        let initial = self.expr(initial, &inner)?;
        let mut only = SqlExpr::is_not_null(x.sql.clone());
        if let Some(e) = &f.filter {
            let t = self.expr(e, &inner)?;
            self.require_boolean(&t, e, "FILTER clause")?;
            only = SqlExpr::binary(only, BinaryOp::And, t.sql);
        }
        let gather = AggregateCall {
            name: "array_agg",
            args: std::slice::from_ref(&x),
            star: false,
            distinct: written.distinct,
            order_by: Vec::new(),
            filter: Some(only),
            listagg_overflow: None,
            grouped: cx.group_keys.is_some_and(|keys| !keys.is_empty()),
            reads_tables: !self.reads.is_empty(),
        };
        let (values, _) = self.aggregate(&gather, at)?;
        let values = Typed::new(values, TrinoType::Array(Box::new(x.ty.clone())));
        let mut hoisted = Vec::new();
        let values = self.hoist_aggregate(values, &mut hoisted);
        // reduce's output function: the state as it is.
        let state = Ident::new("qm_state");
        let identity = LambdaFunction {
            params: OneOrManyWithParens::One(LambdaFunctionParameter {
                name: state.clone(),
                data_type: None,
            }),
            body: Box::new(Expr::Identifier(state)),
            syntax: LambdaSyntax::Arrow,
        };
        let reduce = registry::lookup("reduce").ok_or_else(|| not_registered(at, "reduce"))?;
        let call = Call {
            name: "reduce".to_string(),
            args: vec![values, initial],
            lambdas: Vec::new(),
            at,
            returns: None,
            vars: Vars::new(),
        };
        let lowered = self.lower_scalar(reduce, call, &[*input, &identity], cx)?;
        Ok(with_hoisted(lowered, &hoisted))
    }
}
