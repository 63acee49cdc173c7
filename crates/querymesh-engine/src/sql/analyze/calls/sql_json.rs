//! The SQL/JSON functions (docs functions/json): json_exists, json_value, json_query,
//! json_array and json_object. Their clauses arrive as marker arguments (sql/json_syntax.rs);
//! the path is parsed here, so a bad one fails at analysis with its place in the query
//! (querymesh-functions/src/json/path has the path language and what it refuses); the calls lower to the
//! `qm_json_*` functions of querymesh-functions/src/json/sqlite.

use querymesh_functions::json::path::{Path, PathError};
use querymesh_functions::json::scalar_kind;
use querymesh_functions::json::sqlite::{
    QM_JSON_ARRAY, QM_JSON_DECODED, QM_JSON_ENCODED, QM_JSON_EXISTS, QM_JSON_OBJECT, QM_JSON_QUERY,
    QM_JSON_VALUE,
};
use querymesh_values::sqlite_expr::{Affinity, SqlExpr, builtin};
use querymesh_values::typed::Typed;
use sqlparser::ast::{
    Expr, Function, FunctionArg, FunctionArgExpr, FunctionArgumentClause, FunctionArguments,
    JsonNullClause, Value,
};

use crate::error::{ErrorName, Position, TrinoError, error_at, not_supported};
use crate::sql::analyze::literal::parse_type;
use crate::sql::analyze::scope::ExprContext;
use crate::sql::analyze::{Analyzer, ident_location, location};
use crate::sql::json_syntax::marker_text;
use crate::types::TrinoType;

/// One argument as written: a value, or a clause with its place.
enum Part<'e> {
    Value(&'e Expr),
    Clause(String, Option<Position>),
}

fn parts(f: &Function) -> Result<Vec<Part<'_>>, TrinoError> {
    let at = location(&f.name);
    let list = match &f.args {
        FunctionArguments::None => return Ok(Vec::new()),
        FunctionArguments::List(list) => list,
        FunctionArguments::Subquery(_) => {
            return Err(error_at(
                ErrorName::SyntaxError,
                at,
                "mismatched input 'SELECT'",
            ));
        }
    };
    if list.duplicate_treatment.is_some() || f.filter.is_some() || f.over.is_some() {
        return Err(error_at(
            ErrorName::SyntaxError,
            at,
            "mismatched input: this is not a SQL/JSON function's syntax",
        ));
    }
    let mut out = Vec::new();
    for arg in &list.args {
        match arg {
            FunctionArg::Unnamed(FunctionArgExpr::Expr(Expr::Identifier(id)))
                if id.quote_style == Some('"') && marker_text(&id.value).is_some() =>
            {
                let words = marker_text(&id.value).unwrap_or_default().to_string();
                out.push(Part::Clause(words, ident_location(id).or(at)));
            }
            FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) => out.push(Part::Value(e)),
            _ => {
                return Err(error_at(
                    ErrorName::SyntaxError,
                    at,
                    "mismatched input: this is not a SQL/JSON function's syntax",
                ));
            }
        }
    }
    for clause in &list.clauses {
        match clause {
            FunctionArgumentClause::JsonNullClause(JsonNullClause::NullOnNull) => {
                out.push(Part::Clause("null on null".into(), at))
            }
            FunctionArgumentClause::JsonNullClause(JsonNullClause::AbsentOnNull) => {
                out.push(Part::Clause("absent on null".into(), at))
            }
            FunctionArgumentClause::JsonReturningClause(r) => {
                out.push(Part::Clause(format!("returning {}", r.data_type), at))
            }
            _ => {
                return Err(error_at(
                    ErrorName::SyntaxError,
                    at,
                    "mismatched input: this is not a SQL/JSON function's syntax",
                ));
            }
        }
    }
    Ok(out)
}

fn misplaced(words: &str, at: Option<Position>) -> TrinoError {
    error_at(
        ErrorName::SyntaxError,
        at,
        format!(
            "mismatched input '{}'",
            words.split(' ').next().unwrap_or(words).to_uppercase()
        ),
    )
}

/// The type a RETURNING clause names.
fn returning_type(text: &str, at: Option<Position>) -> Result<TrinoType, TrinoError> {
    let dialect = crate::sql::dialect::TrinoDialect;
    // Parametric types sqlparser does not read (`array(integer)`) in Trino's own spelling.
    if let Ok(t) = TrinoType::parse(&text.to_lowercase())
        && t.is_container()
    {
        return Ok(t);
    }
    let data_type = sqlparser::parser::Parser::new(&dialect)
        .try_with_sql(text)
        .and_then(|mut p| p.parse_data_type())
        .map_err(|_| {
            error_at(
                ErrorName::TypeMismatch,
                at,
                format!("Unknown type: {}", text.to_lowercase()),
            )
        })?;
    parse_type(&data_type, at).map_err(crate::sql::analyze::expr::unknown_type_mismatch)
}

/// The input and path of json_exists / json_value / json_query, and the clauses after them.
struct Common<'e> {
    input: Typed,
    path: String,
    /// The PASSING values as the SQL of a JSON object (`'{}'` without PASSING).
    vars: SqlExpr,
    rest: Vec<Part<'e>>,
}

impl Analyzer<'_> {
    /// A call of one of the SQL/JSON functions, or `None` for any other name.
    pub(super) fn sql_json_call(
        &mut self,
        name: &str,
        f: &Function,
        cx: &ExprContext<'_>,
    ) -> Result<Option<Typed>, TrinoError> {
        let lowered = match name {
            "json_exists" => self.json_exists(f, cx)?,
            "json_value" => self.json_value(f, cx)?,
            "json_query" => self.json_query(f, cx)?,
            "json_array" => self.json_array(f, cx)?,
            "json_object" => self.json_object(f, cx)?,
            _ => return Ok(None),
        };
        Ok(Some(lowered))
    }

    fn common<'e>(
        &mut self,
        f: &'e Function,
        cx: &ExprContext<'_>,
    ) -> Result<Common<'e>, TrinoError> {
        let at = location(&f.name);
        let mut parts = parts(f)?.into_iter();
        let Some(Part::Value(input_expr)) = parts.next() else {
            return Err(error_at(
                ErrorName::SyntaxError,
                at,
                "mismatched input ')'. Expecting: <expression>",
            ));
        };
        let mut input = self.expr(input_expr, cx)?;
        let input_at = location(input_expr).or(at);
        let mut next = parts.next();
        if let Some(Part::Clause(words, _)) = &next
            && words.starts_with("format json")
        {
            input = json_input(input, words, input_at)?;
            next = parts.next();
        }
        // A binary string holds UTF-8 JSON text (FORMAT JSON's default encoding). A json value
        // is no input (Trino 476: `json_value(JSON '1', 'lax $')` is TYPE_MISMATCH).
        let text_like = matches!(input.ty, TrinoType::Unknown | TrinoType::Varbinary);
        if !(input.ty.is_string() || text_like) {
            return Err(error_at(
                ErrorName::TypeMismatch,
                input_at,
                format!(
                    "Cannot read input of type {} as JSON using formatting JSON",
                    input.ty
                ),
            ));
        }
        let Some(Part::Value(path_expr)) = next else {
            return Err(error_at(
                ErrorName::SyntaxError,
                at,
                "mismatched input ')'. Expecting: ','",
            ));
        };
        let (path, path_at) = match path_expr {
            Expr::Value(v) => match &v.value {
                Value::SingleQuotedString(s) => (s.clone(), location(path_expr)),
                _ => return Err(not_a_path(location(path_expr).or(at))),
            },
            _ => return Err(not_a_path(location(path_expr).or(at))),
        };
        if let Err(e) = Path::parse(&path) {
            let (offset, name, text) = match e {
                PathError::Syntax(o, m) => (o, ErrorName::SyntaxError, m),
                PathError::Unsupported(o, m) => (o, ErrorName::NotSupported, m),
            };
            // The place inside the literal, when it is on one line: after the quote.
            let place = path_at.map(|p| {
                let before: String = path.chars().take(offset).collect();
                if before.contains('\n') {
                    p
                } else {
                    Position::new(p.line, p.column + 1 + offset as u64)
                }
            });
            return Err(error_at(name, place, text));
        }
        // PASSING value AS name, …: each a marker naming the variable, then the value.
        let mut rest: Vec<Part<'e>> = parts.collect();
        // qm_json_object's ABSENT ON NULL and WITH UNIQUE KEYS flags, both off.
        let mut vars = vec![SqlExpr::Integer(0), SqlExpr::Integer(0)];
        let mut names = Vec::new();
        while let Some(Part::Clause(words, clause_at)) = rest.first() {
            let (format_json, name) = match words.split_once(' ').map(|(_, r)| r.split_once(' ')) {
                Some(Some(("json", name))) if words.starts_with("passing ") => (true, name),
                Some(Some(("value", name))) if words.starts_with("passing ") => (false, name),
                _ if words == "passing" => return Err(misplaced("AS", *clause_at)),
                _ => break,
            };
            let name = name.to_string();
            rest.remove(0);
            let value = match rest.first() {
                Some(Part::Value(e)) => *e,
                _ => return Err(misplaced("passing", None)),
            };
            rest.remove(0);
            let t = self.expr(value, cx)?;
            let (kind, sql) = self.member_value(t, format_json, None, at)?;
            vars.push(SqlExpr::text(name.as_str()));
            vars.push(SqlExpr::text(kind));
            vars.push(sql);
            names.push(name);
        }
        for name in querymesh_functions::json::path::variable_names(&path) {
            if !names.contains(&name) {
                return Err(error_at(
                    ErrorName::InvalidPath,
                    path_at,
                    format!(
                        "no value passed for parameter {name}. Try quoting \"{name}\" in the PASSING clause to match case"
                    ),
                ));
            }
        }
        let vars = if names.is_empty() {
            SqlExpr::text("{}")
        } else {
            QM_JSON_OBJECT.call(vars)
        };
        Ok(Common {
            input,
            path,
            vars,
            rest,
        })
    }

    /// JSON_TABLE's input, row path and PASSING values, read from the json_exists call its
    /// token pass writes (sql/json_table): checked as json_exists checks them.
    pub(crate) fn json_table_source(
        &mut self,
        f: &Function,
        cx: &ExprContext<'_>,
    ) -> Result<(Typed, SqlExpr), TrinoError> {
        let c = self.common(f, cx)?;
        Ok((c.input, c.vars))
    }

    fn json_exists(&mut self, f: &Function, cx: &ExprContext<'_>) -> Result<Typed, TrinoError> {
        let c = self.common(f, cx)?;
        let mut on_error = "false".to_string();
        for part in c.rest {
            match part {
                Part::Clause(words, _) if words.ends_with(" on error") => {
                    let b = words.trim_end_matches(" on error");
                    if !matches!(b, "true" | "false" | "unknown" | "error") {
                        return Err(misplaced(&words, None));
                    }
                    on_error = b.to_string();
                }
                Part::Clause(words, at) => return Err(clause_refused(&words, at)),
                Part::Value(e) => return Err(misplaced_value(e)),
            }
        }
        Ok(Typed::new(
            QM_JSON_EXISTS.call([
                c.input.sql,
                SqlExpr::text(c.path),
                c.vars,
                SqlExpr::text(on_error),
            ]),
            TrinoType::Boolean,
        ))
    }

    fn json_value(&mut self, f: &Function, cx: &ExprContext<'_>) -> Result<Typed, TrinoError> {
        let at = location(&f.name);
        let c = self.common(f, cx)?;
        let mut returns = TrinoType::Varchar(None);
        let (mut on_empty, mut on_error) = ("null".to_string(), "null".to_string());
        let mut defaults: [Option<Typed>; 2] = [None, None];
        let mut defaults_at: [Option<Position>; 2] = [None, None];
        let mut rest = c.rest.into_iter();
        while let Some(part) = rest.next() {
            match part {
                Part::Clause(words, clause_at) if words.starts_with("returning ") => {
                    returns = returning_type(&words["returning ".len()..], clause_at)?;
                }
                Part::Clause(words, clause_at) if words.starts_with("default on ") => {
                    let Some(Part::Value(e)) = rest.next() else {
                        return Err(misplaced(&words, clause_at));
                    };
                    let d = self.expr(e, cx)?;
                    let slot = usize::from(words.ends_with("error"));
                    defaults_at[slot] = location(e).or(clause_at);
                    defaults[slot] = Some(d);
                    if slot == 0 {
                        on_empty = "default".into();
                    } else {
                        on_error = "default".into();
                    }
                }
                Part::Clause(words, clause_at)
                    if words == "null on empty" || words == "error on empty" =>
                {
                    let _ = clause_at;
                    on_empty = words.split(' ').next().unwrap_or("null").to_string();
                }
                Part::Clause(words, _) if words == "null on error" || words == "error on error" => {
                    on_error = words.split(' ').next().unwrap_or("null").to_string();
                }
                Part::Clause(words, clause_at) => return Err(clause_refused(&words, clause_at)),
                Part::Value(e) => return Err(misplaced_value(e)),
            }
        }
        // A default must coerce to the returned type (Trino 476: `RETURNING bigint DEFAULT
        // 'x' ON EMPTY` and `RETURNING integer DEFAULT BIGINT '1' ON EMPTY` are TYPE_MISMATCH).
        for (slot, d) in defaults.iter().enumerate() {
            if let Some(d) = d
                && d.ty != TrinoType::Unknown
                && querymesh_values::coerce::super_type(&d.ty, &returns).as_ref() != Some(&returns)
            {
                return Err(error_at(
                    ErrorName::TypeMismatch,
                    defaults_at[slot],
                    format!(
                        "Function JSON_VALUE default {} result must evaluate to a {returns} \
                         (actual: {})",
                        if slot == 0 { "ON EMPTY" } else { "ON ERROR" },
                        d.ty
                    ),
                ));
            }
        }
        let kind = match &returns {
            // A char takes JSON strings only (Trino 476: a number or boolean RETURNING
            // char(3) is no value, NULL ON ERROR).
            TrinoType::Char(n) => format!("char:{n}"),
            TrinoType::Date => "date".to_string(),
            // A JSON string read as a timestamp literal (Trino 476: '2020-01-01 10:00:00'
            // RETURNING timestamp(3) is 2020-01-01 10:00:00.000).
            TrinoType::Timestamp(p) => format!("timestamp:{p}"),
            // JSON_VALUE returns scalars only (docs functions/json "json_value": "The
            // returned type must be a scalar SQL type"); Trino 476 refuses the others so.
            t if t.is_container() || matches!(t, TrinoType::Json | TrinoType::Varbinary) => {
                return Err(error_at(
                    ErrorName::TypeMismatch,
                    at,
                    format!("Invalid return type of function JSON_VALUE: {t}"),
                ));
            }
            t => scalar_kind(t)
                .ok_or_else(|| not_supported(at, &format!("json_value RETURNING {t}")))?,
        };
        // `outcome` 1: answer 1 (2) for ON EMPTY (ON ERROR) DEFAULT, else the value.
        let call = |outcome: i64| {
            QM_JSON_VALUE.call([
                c.input.sql.clone(),
                SqlExpr::text(c.path.as_str()),
                c.vars.clone(),
                SqlExpr::text(kind.as_str()),
                SqlExpr::text(on_empty.as_str()),
                SqlExpr::text(on_error.as_str()),
                SqlExpr::Integer(outcome),
            ])
        };
        if defaults.iter().all(Option::is_none) {
            return Ok(Typed::new(call(0), returns));
        }
        let mut branches = Vec::new();
        for (code, d) in (1..).zip(defaults) {
            if let Some(d) = d {
                let d = self.cast(d, &returns, false, at)?;
                branches.push((SqlExpr::Integer(code), d.sql));
            }
        }
        let sql = SqlExpr::Case {
            operand: Some(Box::new(call(1))),
            branches,
            otherwise: Some(Box::new(call(0))),
        };
        Ok(Typed::new(sql, returns))
    }

    fn json_query(&mut self, f: &Function, cx: &ExprContext<'_>) -> Result<Typed, TrinoError> {
        let at = location(&f.name);
        let c = self.common(f, cx)?;
        let mut returns = TrinoType::Varchar(None);
        let mut wrapper = "without".to_string();
        let mut omit = false;
        // KEEP QUOTES written out is refused with a wrapper too (Trino 476: `WITH WRAPPER
        // KEEP QUOTES` is INVALID_FUNCTION_ARGUMENT).
        let mut quotes_given = false;
        let (mut on_empty, mut on_error) = ("null".to_string(), "null".to_string());
        let behaviours = ["null", "error", "empty array", "empty object"];
        let mut output = None;
        for part in c.rest {
            match part {
                Part::Clause(words, clause_at) if words.starts_with("returning ") => {
                    returns = returning_type(&words["returning ".len()..], clause_at)?;
                }
                Part::Clause(words, _) if words.ends_with(" wrapper") => {
                    wrapper = words
                        .trim_start_matches("with ")
                        .trim_end_matches(" wrapper")
                        .to_string();
                }
                Part::Clause(words, _) if words.ends_with(" quotes") => {
                    omit = words == "omit quotes";
                    quotes_given = true;
                }
                // The output's format: JSON, in the encoding named (for varbinary).
                Part::Clause(words, _) if words.starts_with("format json") => {
                    output = Some(words);
                }
                Part::Clause(words, _)
                    if behaviours.iter().any(|b| words == format!("{b} on empty")) =>
                {
                    on_empty = words.trim_end_matches(" on empty").to_string();
                }
                Part::Clause(words, _)
                    if behaviours.iter().any(|b| words == format!("{b} on error")) =>
                {
                    on_error = words.trim_end_matches(" on error").to_string();
                }
                Part::Clause(words, clause_at) => return Err(clause_refused(&words, clause_at)),
                Part::Value(e) => return Err(misplaced_value(e)),
            }
        }
        if quotes_given && wrapper != "without" {
            return Err(error_at(
                ErrorName::InvalidFunctionArgument,
                at,
                format!(
                    "{} QUOTES behavior specified with WITH {} ARRAY WRAPPER behavior",
                    if omit { "OMIT" } else { "KEEP" },
                    wrapper.to_uppercase()
                ),
            ));
        }
        let sql = QM_JSON_QUERY.call([
            c.input.sql,
            SqlExpr::text(c.path),
            c.vars,
            SqlExpr::text(wrapper),
            SqlExpr::Integer(i64::from(omit)),
            SqlExpr::text(on_empty),
            SqlExpr::text(on_error),
        ]);
        returned_text(sql, returns, output.as_deref(), at)
    }

    /// The kind and SQL of a json_array / json_object value (docs "Argument types"): json
    /// values and FORMAT JSON texts embed, booleans, numbers and strings become JSON scalars,
    /// anything else its varchar text.
    fn member_value(
        &mut self,
        t: Typed,
        format_json: bool,
        function: Option<&str>,
        at: Option<Position>,
    ) -> Result<(String, SqlExpr), TrinoError> {
        if format_json {
            return Ok(("json".into(), t.sql));
        }
        // A json value passes as its cast to varchar (Trino 476: `json_array(JSON '"a"')` is
        // `["a"]`, a JSON null is absent, an array or object fails the cast).
        if t.ty == TrinoType::Json {
            let text = self.cast(t, &TrinoType::Varchar(None), false, None)?;
            return Ok(("varchar".into(), text.sql));
        }
        let kind = match &t.ty {
            TrinoType::Unknown => Some("varchar".to_string()),
            ty if ty.is_string() => Some("varchar".to_string()),
            ty => scalar_kind(ty),
        };
        match kind {
            Some(k) => Ok((k, t.sql)),
            // JsonArrayFunction / JsonObjectFunction take scalars only.
            None if let Some(function) = function
                && t.ty.is_container() =>
            {
                Err(error_at(
                    ErrorName::NotSupported,
                    at,
                    format!(
                        "Unsupported type of value passed to {function} function: {}",
                        t.ty
                    ),
                ))
            }
            None => {
                let text = self.cast(t, &TrinoType::Varchar(None), false, None)?;
                Ok(("varchar".into(), text.sql))
            }
        }
    }

    fn json_array(&mut self, f: &Function, cx: &ExprContext<'_>) -> Result<Typed, TrinoError> {
        let at = location(&f.name);
        let mut absent = true;
        let mut returns = TrinoType::Varchar(None);
        let mut values: Vec<(Typed, bool, Option<Position>)> = Vec::new();
        let mut after_returning = false;
        let mut output = None;
        for part in parts(f)? {
            let returning = matches!(&part, Part::Clause(w, _) if w.starts_with("returning "));
            let output_format = after_returning;
            after_returning = returning;
            match part {
                Part::Clause(words, _) if words.starts_with("format json") && output_format => {
                    output = Some(words);
                }
                Part::Value(e) => values.push((self.expr(e, cx)?, produces_json(e), location(e))),
                Part::Clause(words, _)
                    if words.starts_with("format json") && !values.is_empty() =>
                {
                    if let Some(last) = values.last_mut() {
                        last.0 = json_input(last.0.clone(), &words, last.2.or(at))?;
                        last.1 = true;
                    }
                }
                Part::Clause(words, _) if words == "absent on null" || words == "null on null" => {
                    absent = words == "absent on null";
                }
                Part::Clause(words, clause_at) if words.starts_with("returning ") => {
                    returns = returning_type(&words["returning ".len()..], clause_at)?;
                }
                Part::Clause(words, clause_at) => return Err(clause_refused(&words, clause_at)),
            }
        }
        let mut args = vec![SqlExpr::Integer(i64::from(absent))];
        for (t, format_json, _) in values {
            let (kind, sql) = self.member_value(t, format_json, Some("JSON_ARRAY"), at)?;
            args.push(SqlExpr::text(kind));
            args.push(sql);
        }
        returned_text(QM_JSON_ARRAY.call(args), returns, output.as_deref(), at)
    }

    fn json_object(&mut self, f: &Function, cx: &ExprContext<'_>) -> Result<Typed, TrinoError> {
        let at = location(&f.name);
        let mut absent = false;
        let mut unique = false;
        let mut returns = TrinoType::Varchar(None);
        let mut values: Vec<(Typed, bool, Option<Position>)> = Vec::new();
        let mut after_returning = false;
        let mut output = None;
        for part in parts(f)? {
            let returning = matches!(&part, Part::Clause(w, _) if w.starts_with("returning "));
            let output_format = after_returning;
            after_returning = returning;
            match part {
                Part::Clause(words, _) if words.starts_with("format json") && output_format => {
                    output = Some(words);
                }
                Part::Clause(words, _) if words == "object" => {}
                Part::Value(e) => {
                    values.push((self.expr(e, cx)?, produces_json(e), location(e)));
                }
                Part::Clause(words, _)
                    if words.starts_with("format json") && !values.is_empty() =>
                {
                    if let Some(last) = values.last_mut() {
                        last.0 = json_input(last.0.clone(), &words, last.2.or(at))?;
                        last.1 = true;
                    }
                }
                Part::Clause(words, _) if words == "absent on null" || words == "null on null" => {
                    absent = words == "absent on null";
                }
                Part::Clause(words, _) if words.ends_with("unique keys") => {
                    unique = words == "with unique keys";
                }
                Part::Clause(words, clause_at) if words.starts_with("returning ") => {
                    returns = returning_type(&words["returning ".len()..], clause_at)?;
                }
                Part::Clause(words, clause_at) => return Err(clause_refused(&words, clause_at)),
            }
        }
        if !values.len().is_multiple_of(2) {
            return Err(error_at(
                ErrorName::SyntaxError,
                at,
                "mismatched input ')'. Expecting: 'VALUE', ':'",
            ));
        }
        let mut args = vec![
            SqlExpr::Integer(i64::from(absent)),
            SqlExpr::Integer(i64::from(unique)),
        ];
        let mut values = values.into_iter();
        while let (Some((key, _, key_at)), Some((value, format_json, _))) =
            (values.next(), values.next())
        {
            if !(key.ty.is_string() || key.ty == TrinoType::Unknown) {
                return Err(error_at(
                    ErrorName::TypeMismatch,
                    key_at.or(at),
                    format!(
                        "Cannot cast {} to varchar: a JSON object key must be a string",
                        key.ty
                    ),
                ));
            }
            let (kind, sql) = self.member_value(value, format_json, Some("JSON_OBJECT"), at)?;
            args.push(key.sql);
            args.push(SqlExpr::text(kind));
            args.push(sql);
        }
        returned_text(QM_JSON_OBJECT.call(args), returns, output.as_deref(), at)
    }
}

/// Whether a json_array / json_object value is a call of JSON_ARRAY, JSON_OBJECT or
/// JSON_QUERY: Trino embeds its output as JSON, as if FORMAT JSON followed it (Trino 476:
/// `json_array(json_array(1, 2), json_array())` is `[[1,2],[]]`, while a cast of the same
/// call to varchar is a JSON string).
fn produces_json(e: &Expr) -> bool {
    match e {
        Expr::Nested(inner) => produces_json(inner),
        Expr::Function(f) => {
            let name = f.name.to_string().to_ascii_lowercase();
            matches!(name.as_str(), "json_array" | "json_object" | "json_query")
        }
        _ => false,
    }
}

/// A value read `FORMAT JSON [ENCODING …]` (`words`, the clause): a varbinary in UTF-16 or
/// UTF-32 decoded to the JSON text it holds; an encoding is for a varbinary only.
fn json_input(t: Typed, words: &str, at: Option<Position>) -> Result<Typed, TrinoError> {
    let encoding = words.strip_prefix("format json encoding ");
    if encoding.is_some() && !matches!(t.ty, TrinoType::Varbinary | TrinoType::Unknown) {
        return Err(error_at(
            ErrorName::TypeMismatch,
            at,
            format!(
                "Cannot read input of type {} as JSON using formatting {}",
                t.ty.display_name(),
                words
                    .strip_prefix("format ")
                    .unwrap_or(words)
                    .to_uppercase()
            ),
        ));
    }
    Ok(match encoding {
        Some(encoding @ ("utf16" | "utf32")) => Typed::new(
            QM_JSON_DECODED.call([t.sql, SqlExpr::text(encoding)]),
            TrinoType::Varchar(None),
        ),
        _ => t,
    })
}

/// A JSON text as the RETURNING type: a character string (truncated to its length), or a
/// varbinary in the output FORMAT JSON's encoding (`format`, the clause).
fn returned_text(
    sql: SqlExpr,
    returns: TrinoType,
    format: Option<&str>,
    at: Option<Position>,
) -> Result<Typed, TrinoError> {
    let encoding = format.and_then(|f| f.strip_prefix("format json encoding "));
    if let Some(encoding) = encoding
        && returns != TrinoType::Varbinary
    {
        return Err(error_at(
            ErrorName::TypeMismatch,
            at,
            format!(
                "Cannot output JSON value as {} using formatting JSON ENCODING {}",
                returns.display_name(),
                encoding.to_uppercase()
            ),
        ));
    }
    let sql = match &returns {
        TrinoType::Varbinary if matches!(encoding, Some("utf16" | "utf32")) => {
            QM_JSON_ENCODED.call([sql, SqlExpr::text(encoding.unwrap_or_default())])
        }
        TrinoType::Varchar(None) => sql,
        TrinoType::Varchar(Some(n)) | TrinoType::Char(n) => {
            builtin::SUBSTR.call([sql, SqlExpr::Integer(1), SqlExpr::Integer(i64::from(*n))])
        }
        // The JSON text's UTF-8 bytes (Trino 476: `json_array('x' RETURNING varbinary)` is
        // X'5B2278225D').
        TrinoType::Varbinary => SqlExpr::cast(sql, Affinity::Blob),
        other => {
            return Err(error_at(
                ErrorName::TypeMismatch,
                at,
                format!("Cannot output JSON value as {other} using formatting JSON"),
            ));
        }
    };
    Ok(Typed::new(sql, returns))
}

fn not_a_path(at: Option<Position>) -> TrinoError {
    error_at(
        ErrorName::SyntaxError,
        at,
        "mismatched input: a JSON path must be a string literal",
    )
}

fn clause_refused(words: &str, at: Option<Position>) -> TrinoError {
    if words == "passing" {
        return not_supported(at, "PASSING (named JSON path variables)");
    }
    misplaced(words, at)
}

fn misplaced_value(e: &Expr) -> TrinoError {
    error_at(
        ErrorName::SyntaxError,
        location(e),
        format!("mismatched input '{e}'"),
    )
}
