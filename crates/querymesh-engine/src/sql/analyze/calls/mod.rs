//! Calls as the analysis reads them: the call's syntax (DISTINCT, FILTER, ORDER BY inside,
//! OVER, lambdas), resolution through the function registry (unknown names are
//! FUNCTION_NOT_FOUND, SQLite-only functions included), signatures matched and arguments
//! coerced, and the lowering of the matched entry called with a `LowerContext` — the
//! analyser's narrow face (`context.rs`). The functions themselves are the
//! `querymesh-functions` crate's, by family.

mod context;
mod lambda;
mod over;
mod reduce_agg;
mod routine;
mod special_forms;
mod sql_json;
mod window;
mod window_frame;

use querymesh_functions::entry::{AggregateCall, FunctionDef, Kind, Lower, Typing};
use querymesh_functions::lambda::arity;
use querymesh_functions::signature::{Arg, Signature, Vars};
use querymesh_functions::{Call, not_registered, registry, unexpected};
use querymesh_values::sqlite_expr::{
    BinaryOp, FromItem, Nulls, OrderKey, Select, SqlExpr, builtin,
};
use querymesh_values::typed::Typed;
use sqlparser::ast::{
    DuplicateTreatment, Expr, Function, FunctionArg, FunctionArgExpr, FunctionArgumentClause,
    FunctionArguments, LambdaFunction, ObjectNamePart,
};

use crate::error::{ErrorName, Position, TrinoError, error_at, not_supported};
use crate::sql::analyze::scope::ExprContext;
use crate::sql::analyze::{Analyzer, location};
use crate::types::TrinoType;

/// A call's arguments as written: values and lambdas.
enum ArgExpr<'e> {
    Value(&'e Expr),
    Lambda(&'e LambdaFunction),
}

impl Analyzer<'_> {
    pub fn function(&mut self, f: &Function, cx: &ExprContext<'_>) -> Result<Typed, TrinoError> {
        let at = location(&f.name);
        let name = match f.name.0.as_slice() {
            [ObjectNamePart::Identifier(i)] => i.value.to_lowercase(),
            _ => return Err(not_registered(at, &f.name.to_string().to_lowercase())),
        };
        if let Some(t) = self.sql_json_call(&name, f, cx)? {
            return Ok(t);
        }
        if let Some(t) = self.routine_call(&name, f, cx, at)? {
            return Ok(t);
        }
        if f.uses_odbc_syntax
            || (!f.within_group.is_empty() && name != "listagg")
            || !matches!(f.parameters, FunctionArguments::None)
        {
            return Err(error_at(
                ErrorName::SyntaxError,
                at,
                "mismatched input: this call syntax is not Trino's",
            ));
        }
        let mut written = call_arguments(f, at)?;
        // listagg's order is its WITHIN GROUP (ORDER BY …) (Trino's grammar has no other).
        if !f.within_group.is_empty() {
            if !written.order_by.is_empty() {
                return Err(error_at(
                    ErrorName::SyntaxError,
                    at,
                    "mismatched input 'ORDER': listagg is ordered by WITHIN GROUP",
                ));
            }
            written.order_by.extend(f.within_group.iter());
        }
        let (distinct, star) = (written.distinct, written.star);
        let arg_exprs = &written.exprs;
        let order_by = &written.order_by;
        if name == "grouping" && f.over.is_none() && !written.distinct {
            return self.grouping_operation(&written.values(at)?, cx, at);
        }
        let def = registry::lookup(&name);
        let kind = def.map(|d| d.kind);
        if star && !(name == "count" && arg_exprs.is_empty()) {
            return Err(error_at(ErrorName::SyntaxError, at, "mismatched input '*'"));
        }
        if f.over.is_some() {
            if !matches!(kind, Some(Kind::Aggregate | Kind::Window)) {
                // A known scalar is "not a window function" (Trino names no place).
                let error = if kind.is_some() {
                    error_at(
                        ErrorName::FunctionNotWindow,
                        None,
                        format!("Not a window function: {name}"),
                    )
                } else {
                    error_at(
                        ErrorName::FunctionNotFound,
                        at,
                        format!("Not an aggregate or window function: {name}"),
                    )
                };
                return Err(error);
            }
            // count(DISTINCT x) has a window function of its own (window.rs).
            let count_distinct = distinct && name == "count" && arg_exprs.len() == 1;
            if (distinct && !count_distinct) || f.filter.is_some() {
                return Err(not_supported(at, "DISTINCT or FILTER in a window function"));
            }
            // Trino's grammar reads listagg's WITHIN GROUP before any OVER.
            if name == "listagg" && f.within_group.is_empty() {
                return Err(error_at(
                    ErrorName::SyntaxError,
                    at,
                    "mismatched input 'OVER'. Expecting: 'WITHIN'",
                ));
            }
            let arguments = WindowArguments {
                values: &written.values(at)?,
                order_by,
                overflow: written.overflow,
                count_distinct,
            };
            return self.window_call(&name, &arguments, f, cx, at);
        }
        if f.null_treatment.is_some() {
            return Err(error_at(
                ErrorName::SyntaxError,
                at,
                "mismatched input 'IGNORE'",
            ));
        }
        let Some(def) = def else {
            return Err(not_registered(at, &name));
        };
        match def.kind {
            Kind::Window => Err(error_at(
                ErrorName::MissingOver,
                at,
                format!("Window function system.builtin.{name} requires an OVER clause"),
            )),
            Kind::Aggregate => self.aggregate_call(f, &name, &written, cx, at),
            Kind::Scalar | Kind::SpecialForm => {
                if distinct || f.filter.is_some() || !order_by.is_empty() {
                    return Err(error_at(
                        ErrorName::FunctionNotFound,
                        at,
                        format!("Function '{name}' is not an aggregate function"),
                    ));
                }
                self.scalar_call(def, &name, arg_exprs, cx, at)
            }
        }
    }

    /// An aggregate call outside a window: its arguments, FILTER and ORDER BY analysed as
    /// parts of an aggregate, then its lowering.
    fn aggregate_call(
        &mut self,
        f: &Function,
        name: &str,
        written: &CallArguments<'_>,
        cx: &ExprContext<'_>,
        at: Option<Position>,
    ) -> Result<Typed, TrinoError> {
        if name == "reduce_agg" {
            return self.reduce_agg(f, written, cx, at);
        }
        let values = written.values(at)?;
        self.check_aggregate_allowed(f, name, cx, at)?;
        let inner = ExprContext {
            in_aggregate: true,
            ..*cx
        };
        let mut args = Vec::new();
        for e in &values {
            args.push(self.expr(e, &inner)?);
        }
        let filter = match &f.filter {
            Some(e) => {
                let t = self.expr(e, &inner)?;
                self.require_boolean(&t, e, "FILTER clause")?;
                Some(t.sql)
            }
            None => None,
        };
        let mut order_by = Vec::new();
        for key in &written.order_by {
            order_by.push(self.order_key(&key.expr, key, &inner)?);
        }
        let call = AggregateCall {
            name,
            args: &args,
            star: written.star,
            distinct: written.distinct,
            order_by,
            filter,
            listagg_overflow: written.overflow,
            grouped: cx.group_keys.is_some_and(|keys| !keys.is_empty()),
            reads_tables: !self.reads.is_empty(),
        };
        let (sql, ty) = self.aggregate(&call, at)?;
        Ok(Typed::new(sql, ty))
    }

    /// An aggregate may stand here (not in WHERE, a lambda's body or another aggregate's
    /// arguments); it is counted.
    fn check_aggregate_allowed(
        &mut self,
        f: &Function,
        name: &str,
        cx: &ExprContext<'_>,
        at: Option<Position>,
    ) -> Result<(), TrinoError> {
        if !cx.clause.allows_aggregates() {
            return Err(error_at(
                ErrorName::ExpressionNotScalar,
                at,
                format!(
                    "{} cannot contain aggregations, window functions or grouping operations: [{}]",
                    cx.clause.describe(),
                    f
                ),
            ));
        }
        if cx.in_aggregate {
            return Err(error_at(
                ErrorName::NestedAggregation,
                at,
                format!("Cannot nest aggregations inside aggregation '{name}'"),
            ));
        }
        self.aggregates_seen += 1;
        Ok(())
    }

    /// `ORDER BY` key of an aggregate: its SQL with direction and Trino's NULLS LAST default.
    fn order_key(
        &mut self,
        e: &Expr,
        key: &sqlparser::ast::OrderByExpr,
        cx: &ExprContext<'_>,
    ) -> Result<OrderKey, TrinoError> {
        let nulls = match key.options.nulls_first {
            Some(true) => Nulls::First,
            _ => Nulls::Last,
        };
        Ok(OrderKey {
            expr: self.expr(e, cx)?.sql,
            descending: matches!(key.options.sort, Some(sqlparser::ast::OrderBySort::Desc)),
            nulls: Some(nulls),
        })
    }

    /// The aggregate `call.name`'s lowering (also used for aggregates OVER a window).
    pub(in crate::sql) fn aggregate(
        &mut self,
        call: &AggregateCall<'_>,
        at: Option<Position>,
    ) -> Result<(SqlExpr, TrinoType), TrinoError> {
        let name = call.name;
        let Some(def) = registry::lookup(name).filter(|d| d.kind == Kind::Aggregate) else {
            return Err(not_registered(at, name));
        };
        let Lower::Aggregate(lower) = def.lower else {
            return Err(not_registered(at, name));
        };
        let lowered = lower(self, call)?.map(|(sql, ty)| (call.filtered(sql), ty));
        lowered.ok_or_else(|| unexpected(at, name, call.args))
    }

    /// Analyses a scalar call's arguments (lambdas once their parameter types are known),
    /// matches them to a signature and lowers the call.
    fn scalar_call(
        &mut self,
        def: &'static FunctionDef,
        name: &str,
        arg_exprs: &[ArgExpr<'_>],
        cx: &ExprContext<'_>,
        at: Option<Position>,
    ) -> Result<Typed, TrinoError> {
        let mut values = Vec::new();
        let mut lambda_exprs = Vec::new();
        let takes_lambdas = arg_exprs.iter().any(|a| matches!(a, ArgExpr::Lambda(_)));
        let mut hoisted = Vec::new();
        let mut places = Vec::new();
        for a in arg_exprs {
            match a {
                ArgExpr::Value(e) if lambda_exprs.is_empty() => {
                    places.push(location(*e));
                    let aggregates_before = self.aggregates_seen;
                    let mut value = self.expr(e, cx)?;
                    if takes_lambdas
                        && self.aggregates_seen > aggregates_before
                        && value.ty.is_container()
                    {
                        value = self.hoist_aggregate(value, &mut hoisted);
                    }
                    values.push(value);
                }
                ArgExpr::Value(_) => {
                    return Err(not_supported(at, "A value argument after a lambda"));
                }
                ArgExpr::Lambda(l) => lambda_exprs.push(*l),
            }
        }
        if def.kind == Kind::SpecialForm {
            special_forms::check(name, &values, &places, at)?;
        }
        let call = Call {
            name: name.to_string(),
            args: values,
            lambdas: Vec::new(),
            at,
            returns: None,
            vars: Vars::new(),
        };
        let lowered = self.lower_scalar(def, call, &lambda_exprs, cx)?;
        Ok(with_hoisted(lowered, &hoisted))
    }

    /// An aggregate's value (`array_agg(x)`, `map_agg(k, v)`…) given to a function that takes
    /// a lambda: that function's lowering reads its argument inside derived tables, where
    /// SQLite refuses an aggregate of the outer query ("misuse of aggregate"). The argument
    /// becomes the `json` column of a `json_tree` over the aggregate's JSON text instead —
    /// the one place of a correlated subquery where SQLite evaluates an outer aggregate —
    /// and [`with_hoisted`] wraps the call in that subquery.
    fn hoist_aggregate(&mut self, value: Typed, hoisted: &mut Vec<(String, SqlExpr)>) -> Typed {
        self.next_alias += 1;
        let alias = format!("_aggregate{}", self.next_alias);
        let column = SqlExpr::column(Some(&alias), "json");
        hoisted.push((alias, value.sql));
        Typed::new(column, value.ty)
    }

    /// A scalar call whose value arguments are already analysed (SUBSTRING(s FROM i), …).
    pub(in crate::sql) fn scalar_function(
        &mut self,
        name: &str,
        args: Vec<Typed>,
        at: Option<Position>,
        cx: &ExprContext<'_>,
    ) -> Result<Typed, TrinoError> {
        let def = registry::lookup(name).ok_or_else(|| not_registered(at, name))?;
        let call = Call {
            name: name.to_string(),
            args,
            lambdas: Vec::new(),
            at,
            returns: None,
            vars: Vars::new(),
        };
        self.lower_scalar(def, call, &[], cx)
    }

    fn lower_scalar(
        &mut self,
        def: &'static FunctionDef,
        mut call: Call,
        lambda_exprs: &[&LambdaFunction],
        cx: &ExprContext<'_>,
    ) -> Result<Typed, TrinoError> {
        if def.typing == Typing::Resolved {
            self.resolve(def, &mut call, lambda_exprs, cx)?;
        } else if !lambda_exprs.is_empty() {
            return Err(unexpected_with_lambdas(&call, lambda_exprs));
        }
        let lowered = match def.lower {
            Lower::Scalar(lower) => lower(self, &call)?,
            Lower::Aggregate(_) | Lower::Window => None,
        };
        lowered.ok_or_else(|| unexpected(call.at, &call.name, &call.args))
    }

    /// Matches `call` to the first of `def`'s signatures that fits without a coercion, else the
    /// first that fits with one (Trino's FunctionResolver prefers exact matches too); coerces
    /// the arguments and analyses the lambdas.
    fn resolve(
        &mut self,
        def: &FunctionDef,
        call: &mut Call,
        lambda_exprs: &[&LambdaFunction],
        cx: &ExprContext<'_>,
    ) -> Result<(), TrinoError> {
        let types: Vec<TrinoType> = call.args.iter().map(|a| a.ty.clone()).collect();
        let mut shape: Vec<Arg<'_>> = types.iter().map(Arg::Value).collect();
        shape.extend(lambda_exprs.iter().map(|l| Arg::Lambda(arity(l))));
        let signatures = def.parsed_signatures();
        let mut candidates: Vec<(&Signature, Vars)> = Vec::new();
        for exact in [true, false] {
            for s in signatures {
                if let Some(v) = s.bind(&shape, exact) {
                    candidates.push((s, v));
                }
            }
        }
        for (signature, mut vars) in candidates {
            let mut lambdas = Vec::new();
            let mut fits = true;
            for (i, l) in lambda_exprs.iter().enumerate() {
                let position = call.args.len() + i;
                let Some(params) = signature.lambda_params(position, &vars) else {
                    fits = false;
                    break;
                };
                let analysed = self.lambda(l, &params, cx)?;
                if !signature.bind_lambda_result(position, &analysed.body.ty, &mut vars) {
                    fits = false;
                    break;
                }
                lambdas.push(analysed);
            }
            if !fits {
                continue;
            }
            let Some(returns) = signature.return_type(&vars) else {
                continue;
            };
            let params = signature.param_types(&shape, &vars);
            // Coerced in the parameter's representation: an integer passed as a double is a
            // REAL, an array(integer) passed as array(double) holds doubles.
            for (i, param) in params.iter().enumerate() {
                let Some(arg) = call.args.get(i) else { break };
                if let Some(param) = param
                    && *param != arg.ty
                    && arg.ty != TrinoType::Unknown
                {
                    call.args[i] = self.coerce_to(arg.clone(), param, call.at)?;
                }
            }
            call.lambdas = lambdas;
            call.returns = Some(returns);
            call.vars = vars;
            return Ok(());
        }
        // A lambda taking another number of parameters than every signature's lambda there:
        // Trino's INVALID_PARAMETER_USAGE, before any signature is looked at.
        for (i, l) in lambda_exprs.iter().enumerate() {
            let position = call.args.len() + i;
            let mut arities = signatures.iter().filter_map(|s| s.lambda_arity(position));
            if let Some(wanted) = arities.next()
                && arities.all(|a| a == wanted)
                && wanted != arity(l)
            {
                return Err(error_at(
                    ErrorName::InvalidParameterUsage,
                    location(l.body.as_ref()),
                    format!(
                        "Expected a lambda that takes {wanted} argument(s) but got {}",
                        arity(l)
                    ),
                ));
            }
        }
        Err(unexpected_with_lambdas(call, lambda_exprs))
    }
}

/// `lowered` over the hoisted aggregates' `json_tree` rows (see `hoist_aggregate`): one root
/// row each, none when an aggregate is NULL (so the call is NULL, as it is over a NULL array
/// or map). The `max()` over that one row makes the subquery an aggregate one, which is what
/// lets SQLite evaluate the outer aggregates in its FROM.
fn with_hoisted(lowered: Typed, hoisted: &[(String, SqlExpr)]) -> Typed {
    let Some(roots) = hoisted
        .iter()
        .map(|(alias, _)| SqlExpr::is_null(SqlExpr::column(Some(alias), "parent")))
        .reduce(|all, root| SqlExpr::binary(all, BinaryOp::And, root))
    else {
        return lowered;
    };
    let sources = hoisted
        .iter()
        .map(|(alias, sql)| FromItem::Function {
            function: builtin::JSON_TREE,
            args: vec![sql.clone()],
            alias: Some(alias.clone()),
        })
        .collect();
    let select = Select::new(vec![builtin::MAX.call([lowered.sql])], sources).filter(roots);
    Typed::new(select.scalar(), lowered.ty)
}

/// A call's argument list as written.
/// What a window call passes on of its arguments.
pub(in crate::sql) struct WindowArguments<'a, 'f> {
    values: &'a [&'f Expr],
    /// The aggregate's own ORDER BY (listagg's WITHIN GROUP).
    order_by: &'a [&'f sqlparser::ast::OrderByExpr],
    overflow: Option<&'f sqlparser::ast::ListAggOnOverflow>,
    /// count(DISTINCT x).
    count_distinct: bool,
}

struct CallArguments<'f> {
    distinct: bool,
    exprs: Vec<ArgExpr<'f>>,
    /// `count(*)`.
    star: bool,
    /// `ORDER BY` inside the parentheses (`array_agg(x ORDER BY y)`).
    order_by: Vec<&'f sqlparser::ast::OrderByExpr>,
    /// listagg's `ON OVERFLOW …`.
    overflow: Option<&'f sqlparser::ast::ListAggOnOverflow>,
}

impl CallArguments<'_> {
    /// The arguments, none of them a lambda (aggregates and window functions take none).
    fn values(&self, at: Option<Position>) -> Result<Vec<&Expr>, TrinoError> {
        self.exprs
            .iter()
            .map(|a| match a {
                ArgExpr::Value(e) => Ok(*e),
                ArgExpr::Lambda(_) => Err(not_supported(
                    at,
                    "A lambda as an aggregate's or window function's argument",
                )),
            })
            .collect()
    }
}

fn call_arguments(f: &Function, at: Option<Position>) -> Result<CallArguments<'_>, TrinoError> {
    let mut out = CallArguments {
        distinct: false,
        exprs: Vec::new(),
        star: false,
        order_by: Vec::new(),
        overflow: None,
    };
    let list = match &f.args {
        FunctionArguments::None => return Ok(out),
        FunctionArguments::Subquery(_) => {
            return Err(not_supported(
                at,
                "A subquery as a function's argument list",
            ));
        }
        FunctionArguments::List(list) => list,
    };
    for clause in &list.clauses {
        match clause {
            FunctionArgumentClause::OrderBy(keys) => out.order_by.extend(keys.iter()),
            FunctionArgumentClause::OnOverflow(o) => out.overflow = Some(o),
            _ => {
                return Err(not_supported(
                    at,
                    "LIMIT or separators inside a function call",
                ));
            }
        }
    }
    out.distinct = matches!(list.duplicate_treatment, Some(DuplicateTreatment::Distinct));
    for arg in &list.args {
        match arg {
            FunctionArg::Unnamed(FunctionArgExpr::Expr(Expr::Lambda(l))) => {
                out.exprs.push(ArgExpr::Lambda(l))
            }
            FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) => out.exprs.push(ArgExpr::Value(e)),
            FunctionArg::Unnamed(FunctionArgExpr::Wildcard) => out.star = true,
            // Trino's grammar has named arguments only in a table function's invocation
            // (docs functions/table): anywhere else `=>` is a syntax error, placed here
            // one space after the name.
            FunctionArg::Named { name, .. } if name.span.end.line > 0 => {
                let end = name.span.end;
                return Err(error_at(
                    ErrorName::SyntaxError,
                    Some(Position::new(end.line, end.column + 1)),
                    "mismatched input '=>'. Expecting: '%', '(', ')', '*', '+', ',', '-', '->', '.', '/', 'AND', 'AT', 'OR', 'ORDER', 'OVER', '[', '||', <predicate>, <string>",
                ));
            }
            _ => return Err(not_supported(at, "Named or qualified-wildcard arguments")),
        }
    }
    Ok(out)
}

/// "Unexpected parameters": a lambda's place shows as Trino shows it, `<function>`.
fn unexpected_with_lambdas(call: &Call, lambdas: &[&LambdaFunction]) -> TrinoError {
    let mut types: Vec<String> = call.args.iter().map(|a| a.ty.to_string()).collect();
    types.extend(lambdas.iter().map(|_| "<function>".to_string()));
    error_at(
        ErrorName::FunctionNotFound,
        call.at,
        format!(
            "Unexpected parameters ({}) for function {}",
            types.join(", "),
            call.name
        ),
    )
}
