//! Inline SQL routines (`WITH FUNCTION …`, read by `syntax/routines`), checked as Trino's
//! SqlRoutineAnalyzer checks them and compiled for SQLite: a `RETURN value` body becomes the
//! value over a derived table of the arguments, any other body a program of steps that a
//! recursive CTE runs one step per row (`routines/program.rs`). Variables and parameters are
//! that relation's columns; each expression of the body is parsed and analysed as an ordinary
//! Trino expression with them in scope, so every function, cast and error is the query's own.
//! Docs: udf/function.md, udf/sql.md, udf/sql/*.md (begin, case, declare, if, iterate, leave,
//! loop, repeat, return, set, while) and udf/sql/examples.md.

mod program;

use std::sync::Arc;

use querymesh_functions::LambdaParam;
use querymesh_functions::signature::can_coerce;
use querymesh_values::sqlite_expr::{BinaryOp, SqlExpr};
use querymesh_values::typed::Typed;
use sqlparser::ast::{Expr, SelectItem, SetExpr};

use crate::SessionContext;
use crate::catalog::Catalogs;
use crate::error::{ErrorName, Position, TrinoError, error_at};
use crate::sql::analyze::Analyzer;
use crate::sql::analyze::scope::{Clause, ExprContext, Scope};
use crate::sql::syntax::routines::{Declare, Name, RoutineSpec, Stmt, Text};
use crate::types::TrinoType;
pub(crate) use program::Program;
use program::Step;

/// The routines a query may call: those defined before, and the one being defined (a call to
/// it is Trino's recursion refusal).
#[derive(Default)]
pub(crate) struct Routines {
    pub defined: Vec<Arc<Routine>>,
    pub defining: Option<Signature>,
}

/// What a call resolves against.
#[derive(Clone)]
pub(crate) struct Signature {
    pub name: String,
    pub params: Vec<TrinoType>,
    /// The parameters' and return type's texts as written (lower-cased), which Trino's
    /// messages show: `f(int)`, `a():int`.
    pub written_params: Vec<String>,
    pub written_returns: String,
    pub returns: TrinoType,
    /// The FUNCTION keyword.
    pub at: Position,
}

impl Signature {
    /// `f(int, varchar)`.
    pub(crate) fn shown(&self) -> String {
        format!("{}({})", self.name, self.written_params.join(", "))
    }

    /// `(bigint,varchar):bigint`, as Trino lists the candidates of an ambiguous call.
    pub(crate) fn bound(&self) -> String {
        let params: Vec<String> = self.params.iter().map(TrinoType::display_name).collect();
        format!("({}):{}", params.join(","), self.returns.display_name())
    }
}

/// A compiled routine.
pub(crate) struct Routine {
    pub signature: Signature,
    pub returns: TrinoType,
    null_on_null: bool,
    /// The relation whose columns `v0`, `v1`, … are the parameters and variables.
    alias: String,
    body: Body,
}

enum Body {
    /// `RETURN value`, coerced to the return type.
    Value(SqlExpr),
    Program(Program),
}

impl Routine {
    /// The SQLite expression of a call with these (coerced) arguments: a scalar subquery.
    pub(crate) fn call(&self, args: Vec<SqlExpr>) -> SqlExpr {
        let any_null = || {
            (0..args.len())
                .map(|i| SqlExpr::is_null(variable_column(&self.alias, i)))
                .reduce(|all, one| SqlExpr::binary(all, BinaryOp::Or, one))
        };
        match &self.body {
            Body::Value(value) => {
                let value = match any_null().filter(|_| self.null_on_null) {
                    Some(null) => SqlExpr::iff(null, SqlExpr::Null, value.clone()),
                    None => value.clone(),
                };
                program::over_arguments(&self.alias, value, args)
            }
            Body::Program(p) => p.call(&self.alias, args, self.null_on_null),
        }
    }
}

/// Parameter or variable `i`'s column.
fn variable_column(alias: &str, i: usize) -> SqlExpr {
    SqlExpr::column(Some(alias), format!("v{i}"))
}

/// Compiles the routines in order: each may call those before it.
pub(crate) fn compile(
    specs: &[RoutineSpec],
    sql: &str,
    catalogs: &Catalogs,
    session: &SessionContext,
    next_alias: &mut u32,
) -> Result<Routines, TrinoError> {
    let mut routines = Routines::default();
    for spec in specs {
        *next_alias += 1;
        let alias = format!("_routine{next_alias}");
        let mut compiler = Compiler {
            sql,
            catalogs,
            session,
            routines: Arc::new(Routines::default()),
            next_alias,
            alias: alias.clone(),
            slots: Vec::new(),
            scopes: vec![Vec::new()],
            loops: Vec::new(),
            steps: Vec::new(),
        };
        let (signature, returns) = compiler.signature(spec)?;
        compiler.routines = Arc::new(Routines {
            defined: routines.defined.clone(),
            defining: Some(signature.clone()),
        });
        for (i, param) in spec.params.iter().enumerate() {
            if let Some(name) = &param.name {
                compiler.declare(name, signature.params[i].clone())?;
            }
        }
        let body = compiler.body(spec, &returns)?;
        compiler.check_determinism(spec)?;
        routines.defined.push(Arc::new(Routine {
            signature,
            returns,
            null_on_null: spec.null_on_null,
            alias,
            body,
        }));
    }
    Ok(routines)
}

/// A loop being compiled: where ITERATE goes, and the steps to aim at its end.
struct Loop {
    label: Option<String>,
    again: usize,
    exits: Vec<Exit>,
}

/// A step that leaves a loop, its target patched when the loop's end is known.
enum Exit {
    /// LEAVE.
    Jump(usize),
    /// A WHILE's test, which leaves when false.
    WhileTest(usize),
    /// A REPEAT's UNTIL test, which leaves when true.
    UntilTest(usize),
}

struct Compiler<'c> {
    sql: &'c str,
    catalogs: &'c Catalogs,
    session: &'c SessionContext,
    routines: Arc<Routines>,
    next_alias: &'c mut u32,
    alias: String,
    /// Each slot's type: the parameters, then every variable declared.
    slots: Vec<TrinoType>,
    /// The names in scope, innermost block last.
    scopes: Vec<Vec<(String, usize)>>,
    loops: Vec<Loop>,
    steps: Vec<Step>,
}

/// What an expression must evaluate to.
enum Expect<'m> {
    /// A boolean: "Condition of {what} must evaluate to boolean".
    Condition(&'m str),
    /// "Value of {what} must evaluate to {type}", coerced to it.
    Value(&'m str, &'m TrinoType),
}

impl Compiler<'_> {
    fn signature(&mut self, spec: &RoutineSpec) -> Result<(Signature, TrinoType), TrinoError> {
        let mut params = Vec::new();
        let mut written_params = Vec::new();
        let mut names: Vec<&str> = Vec::new();
        for param in &spec.params {
            let Some(name) = &param.name else {
                return Err(TrinoError::at(
                    ErrorName::InvalidArguments,
                    param.ty.at,
                    "Function parameters must have a name",
                ));
            };
            if names.contains(&name.value.as_str()) {
                return Err(TrinoError::at(
                    ErrorName::InvalidArguments,
                    name.at,
                    format!("Duplicate function parameter name: {}", name.value),
                ));
            }
            names.push(&name.value);
            params.push(self.declared_type(param.ty)?);
            written_params.push(param.ty.of(self.sql).to_lowercase());
        }
        let returns = self.declared_type(spec.returns)?;
        let signature = Signature {
            name: spec.name.clone(),
            params,
            written_params,
            written_returns: spec.returns.of(self.sql).to_lowercase(),
            returns: returns.clone(),
            at: spec.at,
        };
        Ok((signature, returns))
    }

    /// The type a type text names, as a CAST to it would: `int`, `varchar(3)`, `array(row(a
    /// int))`, …; Trino's `Unknown type` at the text otherwise.
    fn declared_type(&mut self, text: Text) -> Result<TrinoType, TrinoError> {
        let cast = trino_sql(&["SELECT CAST(NULL AS ", text.of(self.sql), ")"]);
        let typed = self
            .analyse(&cast, Vec::new())
            .map_err(|e| TrinoError::at(e.name, text.at, e.text))?;
        Ok(typed.ty)
    }

    fn body(&mut self, spec: &RoutineSpec, returns: &TrinoType) -> Result<Body, TrinoError> {
        match &spec.body {
            Stmt::Return(value) => {
                let value = self.expect(*value, Expect::Value("RETURN", returns))?;
                Ok(Body::Value(value))
            }
            Stmt::Block { statements, .. } if statements.last().is_some_and(Stmt::is_return) => {
                self.statement(&spec.body, returns)?;
                let steps = std::mem::take(&mut self.steps);
                Ok(Body::Program(Program::new(self.slots.clone(), steps)))
            }
            Stmt::Block { at, .. } => Err(TrinoError::at(
                ErrorName::MissingReturn,
                *at,
                "Function must end in a RETURN statement",
            )),
            _ => Err(TrinoError::at(
                ErrorName::MissingReturn,
                spec.body_at,
                "Function must end in a RETURN statement",
            )),
        }
    }

    /// Trino's check of `[NOT] DETERMINISTIC` against the body: whether it calls a function
    /// that is not deterministic (random, uuid, shuffle, …).
    fn check_determinism(&self, spec: &RoutineSpec) -> Result<(), TrinoError> {
        let calls_nondeterministic = spec.expressions.iter().any(|text| {
            let Ok((_, tokens)) = crate::sql::syntax::tokenize(text.of(self.sql)) else {
                return false;
            };
            tokens.windows(2).any(|pair| {
                let sqlparser::tokenizer::Token::Word(w) = &pair[0].token else {
                    return false;
                };
                pair[1].token == sqlparser::tokenizer::Token::LParen
                    && querymesh_functions::registry::lookup(&w.value.to_lowercase())
                        .is_some_and(|f| !f.deterministic)
            })
        });
        let refusal = match (spec.deterministic, calls_nondeterministic) {
            (true, true) => "Non-deterministic function declared DETERMINISTIC",
            (false, false) => "Deterministic function declared NOT DETERMINISTIC",
            _ => return Ok(()),
        };
        Err(TrinoError::at(
            ErrorName::InvalidArguments,
            spec.at,
            refusal,
        ))
    }

    fn declare(&mut self, name: &Name, ty: TrinoType) -> Result<usize, TrinoError> {
        if self.variable(&name.value).is_some() {
            return Err(TrinoError::at(
                ErrorName::AlreadyExists,
                name.at,
                format!("Variable already declared in this scope: {}", name.value),
            ));
        }
        let slot = self.slots.len();
        self.slots.push(ty);
        if let Some(scope) = self.scopes.last_mut() {
            scope.push((name.value.clone(), slot));
        }
        Ok(slot)
    }

    fn variable(&self, name: &str) -> Option<usize> {
        self.scopes
            .iter()
            .rev()
            .flat_map(|scope| scope.iter().rev())
            .find(|(n, _)| n == name)
            .map(|(_, slot)| *slot)
    }

    fn emit(&mut self, step: Step) -> usize {
        self.steps.push(step);
        self.steps.len() - 1
    }

    fn here(&self) -> usize {
        self.steps.len()
    }

    fn statements(&mut self, list: &[Stmt], returns: &TrinoType) -> Result<(), TrinoError> {
        list.iter().try_for_each(|s| self.statement(s, returns))
    }

    fn statement(&mut self, s: &Stmt, returns: &TrinoType) -> Result<(), TrinoError> {
        match s {
            Stmt::Return(value) => {
                let value = self.expect(*value, Expect::Value("RETURN", returns))?;
                self.emit(Step::Return(value));
            }
            Stmt::Set { name, value } => {
                let Some(slot) = self.variable(&name.value) else {
                    return Err(TrinoError::at(
                        ErrorName::NotFound,
                        name.at,
                        format!("Variable cannot be resolved: {}", name.value),
                    ));
                };
                let ty = self.slots[slot].clone();
                let what = format!("SET '{}'", name.value);
                let value = self.expect(*value, Expect::Value(&what, &ty))?;
                self.assign(slot, value);
            }
            Stmt::Block {
                declarations,
                statements,
                ..
            } => {
                self.scopes.push(Vec::new());
                for d in declarations {
                    self.declaration(d)?;
                }
                self.statements(statements, returns)?;
                self.scopes.pop();
            }
            Stmt::If {
                branches,
                otherwise,
            } => {
                let conditions = branches
                    .iter()
                    .map(|(c, body)| {
                        Ok((self.expect(*c, Expect::Condition("IF statement"))?, body))
                    })
                    .collect::<Result<Vec<_>, TrinoError>>()?;
                self.branches(conditions, otherwise.as_deref(), returns)?;
            }
            Stmt::Case {
                operand,
                whens,
                otherwise,
            } => {
                let mut conditions = Vec::new();
                for (when, body) in whens {
                    let condition = match operand {
                        Some(operand) => self.equals(*operand, *when)?,
                        None => self.expect(*when, Expect::Condition("WHEN clause"))?,
                    };
                    conditions.push((condition, body));
                }
                self.branches(conditions, otherwise.as_deref(), returns)?;
            }
            Stmt::Loop { label, body } => {
                let again = self.here();
                self.enter_loop(label.as_ref(), again)?;
                self.statements(body, returns)?;
                self.emit(Step::Jump(again));
                self.leave_loop();
            }
            Stmt::While {
                label,
                condition,
                body,
            } => {
                let condition = self.expect(*condition, Expect::Condition("WHILE statement"))?;
                let again = self.emit(Step::Branch {
                    condition,
                    then: 0,
                    otherwise: 0,
                });
                self.enter_loop(label.as_ref(), again)?;
                if let Some(l) = self.loops.last_mut() {
                    l.exits.push(Exit::WhileTest(again));
                }
                self.patch_then(again, self.here());
                self.statements(body, returns)?;
                self.emit(Step::Jump(again));
                self.leave_loop();
            }
            Stmt::Repeat { label, body, until } => {
                // ITERATE goes back to the body's start without testing UNTIL (Trino 476).
                let again = self.here();
                self.enter_loop(label.as_ref(), again)?;
                self.statements(body, returns)?;
                let condition = self.expect(*until, Expect::Condition("REPEAT statement"))?;
                let test = self.emit(Step::Branch {
                    condition,
                    then: 0,
                    otherwise: again,
                });
                if let Some(l) = self.loops.last_mut() {
                    l.exits.push(Exit::UntilTest(test));
                }
                self.leave_loop();
            }
            Stmt::Iterate(label) => {
                let again = self.find_loop(label)?.again;
                self.emit(Step::Jump(again));
            }
            Stmt::Leave(label) => {
                self.find_loop(label)?;
                let jump = self.emit(Step::Jump(0));
                if let Some(l) = self
                    .loops
                    .iter_mut()
                    .rev()
                    .find(|l| l.label.as_deref() == Some(label.value.as_str()))
                {
                    l.exits.push(Exit::Jump(jump));
                }
            }
        }
        Ok(())
    }

    fn declaration(&mut self, d: &Declare) -> Result<(), TrinoError> {
        let ty = self.declared_type(d.ty)?;
        let default = match d.default {
            Some(text) => Some(self.expect(text, Expect::Value("DEFAULT", &ty))?),
            None => None,
        };
        for name in &d.names {
            let slot = self.declare(name, ty.clone())?;
            let value = default.clone().unwrap_or(SqlExpr::Null);
            self.assign(slot, value);
        }
        Ok(())
    }

    fn assign(&mut self, slot: usize, value: SqlExpr) {
        let next = self.here() + 1;
        self.emit(Step::Assign { slot, value, next });
    }

    /// `IF`/`CASE`: each condition tested in turn, the first true one's statements run, then
    /// past the whole.
    fn branches(
        &mut self,
        conditions: Vec<(SqlExpr, &Vec<Stmt>)>,
        otherwise: Option<&[Stmt]>,
        returns: &TrinoType,
    ) -> Result<(), TrinoError> {
        let mut exits = Vec::new();
        for (condition, body) in conditions {
            let test = self.emit(Step::Branch {
                condition,
                then: 0,
                otherwise: 0,
            });
            self.patch_then(test, self.here());
            self.statements(body, returns)?;
            exits.push(self.emit(Step::Jump(0)));
            let next = self.here();
            self.patch_otherwise(test, next);
        }
        if let Some(body) = otherwise {
            self.statements(body, returns)?;
        }
        let end = self.here();
        for exit in exits {
            self.patch_jump(exit, end);
        }
        Ok(())
    }

    fn enter_loop(&mut self, label: Option<&Name>, again: usize) -> Result<(), TrinoError> {
        if let Some(label) = label
            && self
                .loops
                .iter()
                .any(|l| l.label.as_deref() == Some(label.value.as_str()))
        {
            return Err(TrinoError::at(
                ErrorName::AlreadyExists,
                label.at,
                format!("Label already declared in this scope: {}", label.value),
            ));
        }
        self.loops.push(Loop {
            label: label.map(|l| l.value.clone()),
            again,
            exits: Vec::new(),
        });
        Ok(())
    }

    /// Closes the innermost loop: its LEAVE jumps (and a WHILE's or REPEAT's exit) go here.
    fn leave_loop(&mut self) {
        let end = self.here();
        if let Some(l) = self.loops.pop() {
            for exit in l.exits {
                match exit {
                    Exit::Jump(at) => self.patch_jump(at, end),
                    Exit::WhileTest(at) => self.patch_otherwise(at, end),
                    Exit::UntilTest(at) => self.patch_then(at, end),
                }
            }
        }
    }

    fn find_loop(&self, label: &Name) -> Result<&Loop, TrinoError> {
        self.loops
            .iter()
            .rev()
            .find(|l| l.label.as_deref() == Some(label.value.as_str()))
            .ok_or_else(|| {
                TrinoError::at(
                    ErrorName::NotFound,
                    label.at,
                    format!("Label not defined: {}", label.value),
                )
            })
    }

    fn patch_then(&mut self, at: usize, target: usize) {
        if let Some(Step::Branch { then, .. }) = self.steps.get_mut(at) {
            *then = target;
        }
    }

    fn patch_otherwise(&mut self, at: usize, target: usize) {
        if let Some(Step::Branch { otherwise, .. }) = self.steps.get_mut(at) {
            *otherwise = target;
        }
    }

    fn patch_jump(&mut self, at: usize, target: usize) {
        if let Some(Step::Jump(to)) = self.steps.get_mut(at) {
            *to = target;
        }
    }

    /// A simple CASE's `operand = when`, after Trino's check that the two compare.
    fn equals(&mut self, operand: Text, when: Text) -> Result<SqlExpr, TrinoError> {
        let left = self.typed(operand)?;
        let right = self.typed(when)?;
        if querymesh_values::coerce::super_type(&left.ty, &right.ty).is_none() {
            return Err(TrinoError::at(
                ErrorName::TypeMismatch,
                when.at,
                format!(
                    "WHEN clause value must evaluate to CASE value type {} (actual: {})",
                    left.ty.display_name(),
                    right.ty.display_name()
                ),
            ));
        }
        let text = trino_sql(&[
            "SELECT (",
            operand.of(self.sql),
            ") = (",
            when.of(self.sql),
            ")",
        ]);
        let variables = self.in_scope();
        Ok(self.analyse(&text, variables)?.sql)
    }

    /// An expression that must evaluate to `expect`, as Trino words the refusal.
    fn expect(&mut self, text: Text, expect: Expect<'_>) -> Result<SqlExpr, TrinoError> {
        let typed = self.typed(text)?;
        match expect {
            Expect::Condition(what) => {
                if !matches!(typed.ty, TrinoType::Boolean | TrinoType::Unknown) {
                    return Err(TrinoError::at(
                        ErrorName::TypeMismatch,
                        text.at,
                        format!(
                            "Condition of {what} must evaluate to boolean (actual: {})",
                            typed.ty.display_name()
                        ),
                    ));
                }
                Ok(typed.sql)
            }
            Expect::Value(what, target) => {
                if !coerces(&typed.ty, target) {
                    return Err(TrinoError::at(
                        ErrorName::TypeMismatch,
                        text.at,
                        format!(
                            "Value of {what} must evaluate to {} (actual: {})",
                            target.display_name(),
                            typed.ty.display_name()
                        ),
                    ));
                }
                let source = positioned(self.sql, text);
                let variables = self.in_scope();
                let target = target.clone();
                let coerced = self.analyse_with(&source, variables, |analyzer, t| {
                    // A timestamp where a timestamp with time zone is declared takes the
                    // session's zone, as a CAST does.
                    if matches!(
                        (&t.ty, &target),
                        (TrinoType::Timestamp(_), TrinoType::TimestampTz(_))
                    ) {
                        return analyzer.cast(t, &target, false, Some(text.at));
                    }
                    analyzer.coerce_to(t, &target, Some(text.at))
                })?;
                Ok(coerced.sql)
            }
        }
    }

    fn typed(&mut self, text: Text) -> Result<Typed, TrinoError> {
        let source = positioned(self.sql, text);
        let variables = self.in_scope();
        self.analyse(&source, variables)
    }

    /// The variables in scope as the analysis's named values.
    fn in_scope(&self) -> Vec<LambdaParam> {
        self.scopes
            .iter()
            .flatten()
            .map(|(name, slot)| LambdaParam {
                name: name.clone(),
                value: Typed::new(
                    variable_column(&self.alias, *slot),
                    self.slots[*slot].clone(),
                ),
            })
            .collect()
    }

    fn analyse(&mut self, source: &str, variables: Vec<LambdaParam>) -> Result<Typed, TrinoError> {
        self.analyse_with(source, variables, |_, t| Ok(t))
    }

    /// Parses `source` (`SELECT <expression>`) and analyses its one expression with
    /// `variables` in scope, then `finish` with the analyser still at hand.
    fn analyse_with(
        &mut self,
        source: &str,
        variables: Vec<LambdaParam>,
        finish: impl FnOnce(&mut Analyzer<'_>, Typed) -> Result<Typed, TrinoError>,
    ) -> Result<Typed, TrinoError> {
        let (query, tokens) = crate::sql::parse_query(source)?;
        let expr = the_expression(&query)?;
        let mut analyzer = Analyzer::new(self.catalogs, self.session, &tokens);
        analyzer.next_alias = *self.next_alias;
        analyzer.lambda_params = variables;
        analyzer.routines = Arc::clone(&self.routines);
        let scope = Scope::new(Vec::new(), None);
        let cx = ExprContext {
            scope: &scope,
            clause: Clause::Routine,
            in_aggregate: false,
            group_keys: None,
        };
        let typed = analyzer.expr(expr, &cx);
        let finished = typed.and_then(|t| finish(&mut analyzer, t));
        *self.next_alias = analyzer.next_alias;
        finished
    }
}

/// Whether a value of type `from` may stand where `to` is declared: Trino's implicit
/// coercions, and a row to a row of as many fields that coerce (the declared names win).
fn coerces(from: &TrinoType, to: &TrinoType) -> bool {
    match (from, to) {
        (TrinoType::Row(from), TrinoType::Row(to)) => {
            from.len() == to.len() && from.iter().zip(to).all(|(f, t)| coerces(&f.1, &t.1))
        }
        (TrinoType::Array(from), TrinoType::Array(to)) => coerces(from, to),
        (TrinoType::Timestamp(p), TrinoType::TimestampTz(q)) => p <= q,
        _ => can_coerce(from, to),
    }
}

/// The one expression of a `SELECT <expression>` written for it.
fn the_expression(query: &sqlparser::ast::Query) -> Result<&Expr, TrinoError> {
    let not_one = |at: Option<Position>| {
        error_at(
            ErrorName::SyntaxError,
            at,
            "mismatched input: a routine's statement takes one expression here",
        )
    };
    let SetExpr::Select(select) = query.body.as_ref() else {
        return Err(not_one(None));
    };
    match select.projection.as_slice() {
        [SelectItem::UnnamedExpr(e)]
            if select.from.is_empty()
                && select.selection.is_none()
                && query.order_by.is_none()
                && query.limit_clause.is_none() =>
        {
            Ok(e)
        }
        [SelectItem::ExprWithAlias { alias, .. }, ..] => Err(error_at(
            ErrorName::SyntaxError,
            crate::sql::analyze::ident_location(alias),
            format!("mismatched input '{}'", alias.value),
        )),
        _ => Err(not_one(None)),
    }
}

/// `SELECT <text>` laid out so the expression keeps its line and column in the statement:
/// errors inside it are reported where the person wrote it.
fn positioned(sql: &str, text: Text) -> String {
    let (line, column) = (text.at.line as usize, text.at.column as usize);
    let body = text.of(sql);
    if line > 1 {
        let (lines, indent) = ("\n".repeat(line - 2), " ".repeat(column.saturating_sub(1)));
        trino_sql(&[&lines, "SELECT\n", &indent, body])
    } else if column > 7 {
        trino_sql(&[&" ".repeat(column - 8), "SELECT ", body])
    } else {
        trino_sql(&["SELECT ", body])
    }
}

/// Trino SQL for the parser, made of the person's own text: the routine's expressions and
/// types are re-read as queries (never SQLite text, which the analysis builds as a tree).
fn trino_sql(parts: &[&str]) -> String {
    parts.concat()
}
