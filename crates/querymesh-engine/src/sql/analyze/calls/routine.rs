//! A call of an inline routine (`WITH FUNCTION`, `analyze/routines`): resolved before the
//! built-in functions (an inline `abs` answers for `abs`), by Trino's rules — an exact match
//! first, then one the arguments coerce to; two alike are ambiguous; a call to the routine
//! being defined is Trino's refusal of recursion.

use std::sync::Arc;

use querymesh_functions::registry;
use querymesh_functions::signature::can_coerce;
use querymesh_values::sqlite_expr::{SqlExpr, builtin};
use querymesh_values::typed::Typed;
use sqlparser::ast::{Function, FunctionArguments};

use super::{ArgExpr, call_arguments, with_hoisted};
use crate::error::{ErrorName, Position, TrinoError, error_at, not_supported};
use crate::sql::analyze::Analyzer;
use crate::sql::analyze::routines::Signature;
use crate::sql::analyze::scope::ExprContext;
use crate::types::TrinoType;

impl Analyzer<'_> {
    /// `name(args)` as a routine's call, or None when no routine is called `name` (or none
    /// fits and a built-in function of that name may).
    pub(super) fn routine_call(
        &mut self,
        name: &str,
        f: &Function,
        cx: &ExprContext<'_>,
        at: Option<Position>,
    ) -> Result<Option<Typed>, TrinoError> {
        let routines = Arc::clone(&self.routines);
        let defining = routines.defining.as_ref().filter(|s| s.name == name);
        let defined: Vec<_> = routines
            .defined
            .iter()
            .filter(|r| r.signature.name == name)
            .collect();
        if defined.is_empty() && defining.is_none() {
            return Ok(None);
        }
        if f.over.is_some()
            || f.filter.is_some()
            || !matches!(f.parameters, FunctionArguments::None)
        {
            return Err(error_at(
                ErrorName::FunctionNotFound,
                at,
                format!("Function '{name}' is not an aggregate or window function"),
            ));
        }
        let written = call_arguments(f, at)?;
        if written.distinct || written.star || !written.order_by.is_empty() {
            return Err(error_at(
                ErrorName::FunctionNotFound,
                at,
                format!("Function '{name}' is not an aggregate function"),
            ));
        }
        let aggregates_before = self.aggregates_seen;
        let mut args = Vec::new();
        let mut with_aggregates = Vec::new();
        for a in &written.exprs {
            let ArgExpr::Value(e) = a else {
                return Err(not_supported(
                    at,
                    "A lambda as an inline function's argument",
                ));
            };
            let before = self.aggregates_seen;
            args.push(self.expr(e, cx)?);
            with_aggregates.push(self.aggregates_seen > before);
        }
        let types: Vec<TrinoType> = args.iter().map(|a| a.ty.clone()).collect();
        let fits = |s: &Signature, exact: bool| {
            s.params.len() == types.len()
                && s.params.iter().zip(&types).all(|(p, t)| {
                    p == t || *t == TrinoType::Unknown || (!exact && can_coerce(t, p))
                })
        };
        let signatures = defined.iter().map(|r| &r.signature).chain(defining);
        let chosen = [true, false].into_iter().find_map(|exact| {
            let matching: Vec<&Signature> = signatures.clone().filter(|s| fits(s, exact)).collect();
            (!matching.is_empty()).then_some(matching)
        });
        let Some(chosen) = chosen else {
            if registry::lookup(name).is_some() {
                // No routine fits: the built-in function of that name may.
                self.aggregates_seen = aggregates_before;
                return Ok(None);
            }
            let shown: Vec<String> = types.iter().map(TrinoType::display_name).collect();
            let expected: Vec<String> = signatures.map(Signature::shown).collect();
            return Err(error_at(
                ErrorName::FunctionNotFound,
                at,
                format!(
                    "Unexpected parameters ({}) for function {name}. Expected: {}",
                    shown.join(", "),
                    expected.join(", ")
                ),
            ));
        };
        if chosen.len() > 1 && chosen.iter().all(|s| s.params == chosen[0].params) {
            let candidates: String = chosen
                .iter()
                .map(|s| format!("\n\t * {}", s.bound()))
                .collect();
            return Err(error_at(
                ErrorName::AmbiguousFunctionCall,
                at,
                format!(
                    "Could not choose a best candidate operator. Explicit type casts must be added.\nCandidates are:{candidates}"
                ),
            ));
        }
        let signature = chosen[0];
        if defining.is_some_and(|d| std::ptr::eq(d, signature)) {
            return Err(TrinoError::at(
                ErrorName::NotSupported,
                signature.at,
                format!(
                    "Recursive language functions are not supported: {}:{}",
                    signature.shown().replace(", ", ","),
                    signature.written_returns
                ),
            ));
        }
        let Some(routine) = defined
            .iter()
            .find(|r| std::ptr::eq(&r.signature, signature))
        else {
            return Ok(None);
        };
        let mut hoisted = Vec::new();
        let mut coerced = Vec::new();
        for ((arg, param), aggregated) in args
            .into_iter()
            .zip(&routine.signature.params)
            .zip(with_aggregates)
        {
            let mut arg = self.coerce_to(arg, param, at)?;
            if aggregated && !reads_a_column(&arg.sql) {
                // count(*) in a subquery counts the subquery's rows (SQLite ties an aggregate
                // that reads no outer column to the innermost query).
                return Err(not_supported(
                    at,
                    "An aggregate that reads no column (such as count(*)) as an inline function's argument",
                ));
            }
            if aggregated {
                arg = self.hoist_scalar(arg, at, &mut hoisted)?;
            }
            coerced.push(arg.sql);
        }
        let call = Typed::new(routine.call(coerced), routine.returns.clone());
        Ok(Some(with_hoisted(call, &hoisted)))
    }

    /// An argument holding an aggregate of the query: the routine reads its arguments inside
    /// derived tables, where SQLite refuses an outer aggregate, so it is hoisted as the one
    /// element of a JSON array (`hoist_aggregate`) and read back from there.
    fn hoist_scalar(
        &mut self,
        arg: Typed,
        at: Option<Position>,
        hoisted: &mut Vec<(String, SqlExpr)>,
    ) -> Result<Typed, TrinoError> {
        if arg.ty.is_container() {
            return Ok(self.hoist_aggregate(arg, hoisted));
        }
        // Held as SQLite integers, reals or texts, which a JSON array keeps as they are.
        let held_plainly = matches!(
            arg.ty,
            TrinoType::Boolean
                | TrinoType::TinyInt
                | TrinoType::SmallInt
                | TrinoType::Integer
                | TrinoType::BigInt
                | TrinoType::Real
                | TrinoType::Double
                | TrinoType::Decimal { .. }
                | TrinoType::Varchar(_)
                | TrinoType::Char(_)
                | TrinoType::Date
        );
        if !held_plainly {
            return Err(not_supported(
                at,
                &format!(
                    "An aggregate of type {} as an inline function's argument",
                    arg.ty
                ),
            ));
        }
        let ty = arg.ty.clone();
        let array = Typed::new(
            builtin::JSON_ARRAY.call([arg.sql]),
            TrinoType::Array(Box::new(ty.clone())),
        );
        let hoisted_array = self.hoist_aggregate(array, hoisted);
        let element = builtin::JSON_EXTRACT.call([hoisted_array.sql, SqlExpr::text("$[0]")]);
        Ok(Typed::new(element, ty))
    }
}

/// Whether `e` reads a column (text not rebuilt as a tree yet is assumed to).
fn reads_a_column(e: &SqlExpr) -> bool {
    let mut found = matches!(e, SqlExpr::Column { .. } | SqlExpr::Raw { .. });
    if !found {
        e.map_children(|child| {
            found |= reads_a_column(child);
            SqlExpr::Null
        });
    }
    found
}
