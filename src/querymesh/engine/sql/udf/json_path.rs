//! The SQL/JSON path language of json_exists, json_value and json_query (docs functions/json
//! "JSON path language"), as far as the stand-in goes: the `lax` / `strict` mode; `$`;
//! literals; member accessors `.key`, `."key"`, `.*` and `..key`; array accessors `[i]`,
//! `[i to j]`, `[last]`, `[last - n]`, `[*]`; filters `?( … )` with comparisons
//! (`== <> != < > <= >=`) of `@`-paths and literals, `&&`, `||`, `!`, `exists( … )`,
//! `starts with`; the item methods `size()`, `type()`, `double()`, `abs()`, `floor()`,
//! `ceiling()`; arithmetic `+ - * / %` and unary minus (bigints exactly, other numbers as
//! doubles); named variables `$name` (PASSING values, also as subscripts). `like_regex`,
//! `keyvalue()` and `datetime()` are refused at analysis with NOT_SUPPORTED rather than
//! answered differently.
//!
//! RFC 9535 JSONPath crates do not fit: they have no lax mode (automatic unwrapping and
//! wrapping of arrays, suppressed structural errors), no `last` or `to` ranges, and filters
//! of another syntax, so a translation could not keep Trino's answers.
//!
//! Lax mode (docs "JSON path modes"): an accessor that needs an object unnests an array one
//! level; one that needs an array wraps a non-array; a missing member or element is skipped.
//! Strict mode makes each of those a structural error.

use super::json::Json;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Lax,
    Strict,
}

#[derive(Clone, Debug, PartialEq)]
enum Index {
    At(i64),
    /// `last - n`
    Last(i64),
    /// `$name`: a PASSING value (an integer).
    Var(String),
}

#[derive(Clone, Debug, PartialEq)]
enum Subscript {
    One(Index),
    Range(Index, Index),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Method {
    Size,
    Type,
    Double,
    Abs,
    Floor,
    Ceiling,
}

#[derive(Clone, Debug, PartialEq)]
enum Step {
    Member(String),
    AnyMember,
    Descendant(String),
    Elements(Vec<Subscript>),
    AnyElement,
    Filter(Predicate),
    Method(Method),
}

/// A primary and its accessors: `$…`, `@…` or a literal.
#[derive(Clone, Debug, PartialEq)]
struct Expr {
    start: Start,
    steps: Vec<Step>,
}

#[derive(Clone, Debug, PartialEq)]
enum Start {
    Root,
    Current,
    Literal(Json),
    /// `$name`, a PASSING value.
    Var(String),
    /// `( … )`
    Paren(Box<Expr>),
    /// `a + b`, `a * b`, …: one number each side, in SQL semantics.
    Arith(Box<Expr>, char, Box<Expr>),
    /// `-a`: every item negated.
    Neg(Box<Expr>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cmp {
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
}

#[derive(Clone, Debug, PartialEq)]
enum Predicate {
    And(Box<Predicate>, Box<Predicate>),
    Or(Box<Predicate>, Box<Predicate>),
    Not(Box<Predicate>),
    Exists(Expr),
    Compare(Expr, Cmp, Expr),
    StartsWith(Expr, Expr),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Path {
    pub mode: Mode,
    expr: Expr,
}

/// A path the stand-in cannot read: where (a char offset into the path text) and why.
#[derive(Debug, PartialEq)]
pub enum PathError {
    /// Trino's parser would refuse it too: `mismatched input '…'`.
    Syntax(usize, String),
    /// Valid SQL/JSON, beyond what the stand-in evaluates.
    Unsupported(usize, String),
}

struct Parser {
    chars: Vec<char>,
    i: usize,
}

fn is_ident_start(c: char) -> bool {
    c.is_alphabetic() || c == '_'
}

fn is_ident_part(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.i).copied()
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.i += 1;
        }
    }

    fn eat(&mut self, s: &str) -> bool {
        self.skip_ws();
        let n = s.chars().count();
        if self.chars.len() >= self.i + n
            && self.chars[self.i..self.i + n].iter().copied().eq(s.chars())
        {
            self.i += n;
            true
        } else {
            false
        }
    }

    /// A keyword: `s` not followed by an identifier character.
    fn eat_word(&mut self, s: &str) -> bool {
        let save = self.i;
        if self.eat(s) && !self.peek().is_some_and(is_ident_part) {
            return true;
        }
        self.i = save;
        false
    }

    fn token_here(&mut self) -> String {
        self.skip_ws();
        let rest: String = self.chars[self.i.min(self.chars.len())..].iter().collect();
        if rest.is_empty() {
            return "<EOF>".into();
        }
        let word: String = rest.chars().take_while(|c| is_ident_part(*c)).collect();
        if word.is_empty() {
            rest.chars().take(1).collect()
        } else {
            word
        }
    }

    fn syntax(&mut self, expecting: &str) -> PathError {
        let token = self.token_here();
        let at = self.i;
        PathError::Syntax(
            at,
            format!("mismatched input '{token}' expecting {expecting}"),
        )
    }

    fn unsupported(&self, what: &str) -> PathError {
        PathError::Unsupported(self.i, format!("{what} in a JSON path is not supported"))
    }

    fn ident(&mut self) -> Option<String> {
        self.skip_ws();
        if !self.peek().is_some_and(is_ident_start) {
            return None;
        }
        let start = self.i;
        while self.peek().is_some_and(is_ident_part) {
            self.i += 1;
        }
        Some(self.chars[start..self.i].iter().collect())
    }

    /// A double-quoted string with JSON's escapes.
    fn string(&mut self) -> Result<Option<String>, PathError> {
        self.skip_ws();
        if self.peek() != Some('"') {
            return Ok(None);
        }
        let start = self.i;
        self.i += 1;
        loop {
            match self.peek() {
                None => return Err(PathError::Syntax(start, "unterminated string".into())),
                Some('"') => break,
                Some('\\') => self.i += 2,
                Some(_) => self.i += 1,
            }
        }
        self.i += 1;
        let raw: String = self.chars[start..self.i.min(self.chars.len())]
            .iter()
            .collect();
        serde_json::from_str::<String>(&raw)
            .map(Some)
            .map_err(|_| PathError::Syntax(start, format!("invalid string {raw}")))
    }

    fn number(&mut self) -> Option<String> {
        self.skip_ws();
        let start = self.i;
        if self.peek() == Some('-') {
            self.i += 1;
        }
        if !self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i = start;
            return None;
        }
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_digit() || c == '.' || c == 'e' || c == 'E')
        {
            let c = self.peek();
            self.i += 1;
            if matches!(c, Some('e' | 'E')) && matches!(self.peek(), Some('+' | '-')) {
                self.i += 1;
            }
        }
        Some(self.chars[start..self.i].iter().collect())
    }

    fn integer(&mut self) -> Result<i64, PathError> {
        match self.number() {
            Some(n) => n
                .parse()
                .map_err(|_| self.unsupported("A non-integer subscript")),
            None => Err(self.syntax("<integer>")),
        }
    }

    fn index(&mut self) -> Result<Index, PathError> {
        if self.eat_word("last") {
            if self.eat("-") {
                return Ok(Index::Last(self.integer()?));
            }
            if self.eat("+") {
                return Ok(Index::Last(-self.integer()?));
            }
            return Ok(Index::Last(0));
        }
        if self.eat("$") {
            return match self.ident() {
                Some(name) => Ok(Index::Var(name)),
                None => Err(self.syntax("<integer>")),
            };
        }
        Ok(Index::At(self.integer()?))
    }

    fn primary(&mut self) -> Result<Expr, PathError> {
        self.skip_ws();
        let start = if self.eat("$") {
            if self.peek().is_some_and(is_ident_start) {
                Start::Var(self.ident().unwrap_or_default())
            } else {
                Start::Root
            }
        } else if self.eat("@") {
            Start::Current
        } else if let Some(s) = self.string()? {
            Start::Literal(Json::String(s))
        } else if let Some(n) = self.number() {
            if serde_json::from_str::<serde_json::Value>(&n).is_err() {
                return Err(PathError::Syntax(self.i, format!("invalid number {n}")));
            }
            Start::Literal(Json::Number(n))
        } else if self.eat_word("true") {
            Start::Literal(Json::Bool(true))
        } else if self.eat_word("false") {
            Start::Literal(Json::Bool(false))
        } else if self.eat_word("null") {
            Start::Literal(Json::Null)
        } else if self.eat("(") {
            let inner = self.additive()?;
            if !self.eat(")") {
                return Err(self.syntax("')'"));
            }
            Start::Paren(Box::new(inner))
        } else if self.eat("-") {
            return Ok(Expr {
                start: Start::Neg(Box::new(self.primary()?)),
                steps: Vec::new(),
            });
        } else if self.eat("+") {
            return self.primary();
        } else {
            return Err(self.syntax("a JSON path expression"));
        };
        self.accessors(Expr {
            start,
            steps: Vec::new(),
        })
    }

    /// `a + b - c`, with `*`, `/`, `%` binding tighter (docs: SQL's precedence).
    fn additive(&mut self) -> Result<Expr, PathError> {
        let mut left = self.multiplicative()?;
        loop {
            self.skip_ws();
            let op = match self.peek() {
                Some(c @ ('+' | '-')) => c,
                _ => return Ok(left),
            };
            self.i += 1;
            let right = self.multiplicative()?;
            left = Expr {
                start: Start::Arith(Box::new(left), op, Box::new(right)),
                steps: Vec::new(),
            };
        }
    }

    fn multiplicative(&mut self) -> Result<Expr, PathError> {
        let mut left = self.primary()?;
        loop {
            self.skip_ws();
            let op = match self.peek() {
                Some(c @ ('*' | '/' | '%')) => c,
                _ => return Ok(left),
            };
            self.i += 1;
            let right = self.primary()?;
            left = Expr {
                start: Start::Arith(Box::new(left), op, Box::new(right)),
                steps: Vec::new(),
            };
        }
    }

    fn accessors(&mut self, mut expr: Expr) -> Result<Expr, PathError> {
        loop {
            self.skip_ws();
            if self.eat("..") {
                let key = match self.string()? {
                    Some(s) => s,
                    None => self.ident().ok_or_else(|| self.syntax("<key>"))?,
                };
                expr.steps.push(Step::Descendant(key));
            } else if self.eat(".") {
                if self.eat("*") {
                    expr.steps.push(Step::AnyMember);
                } else if let Some(s) = self.string()? {
                    expr.steps.push(Step::Member(s));
                } else if let Some(name) = self.ident() {
                    if self.eat("(") {
                        let method = match name.as_str() {
                            "size" => Method::Size,
                            "type" => Method::Type,
                            "double" => Method::Double,
                            "abs" => Method::Abs,
                            "floor" => Method::Floor,
                            "ceiling" => Method::Ceiling,
                            _ => return Err(self.unsupported(&format!("The method {name}()"))),
                        };
                        if !self.eat(")") {
                            return Err(self.unsupported(&format!("The method {name}(…)")));
                        }
                        expr.steps.push(Step::Method(method));
                    } else {
                        expr.steps.push(Step::Member(name));
                    }
                } else {
                    return Err(self.syntax("<key>"));
                }
            } else if self.eat("[") {
                if self.eat("*") {
                    if !self.eat("]") {
                        return Err(self.syntax("']'"));
                    }
                    expr.steps.push(Step::AnyElement);
                    continue;
                }
                let mut subs = Vec::new();
                loop {
                    let from = self.index()?;
                    if self.eat_word("to") {
                        subs.push(Subscript::Range(from, self.index()?));
                    } else {
                        subs.push(Subscript::One(from));
                    }
                    if self.eat("]") {
                        break;
                    }
                    if !self.eat(",") {
                        return Err(self.syntax("{',', ']'}"));
                    }
                }
                expr.steps.push(Step::Elements(subs));
            } else if self.eat("?") {
                if !self.eat("(") {
                    return Err(self.syntax("'('"));
                }
                let p = self.disjunction()?;
                if !self.eat(")") {
                    return Err(self.syntax("')'"));
                }
                expr.steps.push(Step::Filter(p));
            } else {
                return Ok(expr);
            }
        }
    }

    fn disjunction(&mut self) -> Result<Predicate, PathError> {
        let mut left = self.conjunction()?;
        while self.eat("||") {
            left = Predicate::Or(Box::new(left), Box::new(self.conjunction()?));
        }
        Ok(left)
    }

    fn conjunction(&mut self) -> Result<Predicate, PathError> {
        let mut left = self.negation()?;
        while self.eat("&&") {
            left = Predicate::And(Box::new(left), Box::new(self.negation()?));
        }
        Ok(left)
    }

    fn negation(&mut self) -> Result<Predicate, PathError> {
        if self.eat("!") {
            return Ok(Predicate::Not(Box::new(self.negation()?)));
        }
        if self.eat_word("exists") {
            if !self.eat("(") {
                return Err(self.syntax("'('"));
            }
            let e = self.additive()?;
            if !self.eat(")") {
                return Err(self.syntax("')'"));
            }
            return Ok(Predicate::Exists(e));
        }
        let save = self.i;
        if self.eat("(") {
            // A parenthesized predicate, or a parenthesized path opening a comparison.
            if let Ok(p) = self.disjunction()
                && self.eat(")")
            {
                if self.eat_word("is") {
                    return Err(self.unsupported("IS UNKNOWN"));
                }
                return Ok(p);
            }
            self.i = save;
        }
        let left = self.additive()?;
        if self.eat_word("starts") {
            if !self.eat_word("with") {
                return Err(self.syntax("'with'"));
            }
            return Ok(Predicate::StartsWith(left, self.additive()?));
        }
        if self.eat_word("like_regex") {
            return Err(self.unsupported("like_regex"));
        }
        let cmp = if self.eat("==") {
            Cmp::Eq
        } else if self.eat("<>") || self.eat("!=") {
            Cmp::Ne
        } else if self.eat("<=") {
            Cmp::Le
        } else if self.eat(">=") {
            Cmp::Ge
        } else if self.eat("<") {
            Cmp::Lt
        } else if self.eat(">") {
            Cmp::Gt
        } else {
            return Err(self.syntax("a comparison"));
        };
        Ok(Predicate::Compare(left, cmp, self.additive()?))
    }
}

impl Path {
    /// Parses `lax …` / `strict …` (the mode is required, as in Trino).
    pub fn parse(text: &str) -> Result<Path, PathError> {
        let mut p = Parser {
            chars: text.chars().collect(),
            i: 0,
        };
        let mode = if p.eat_word("lax") {
            Mode::Lax
        } else if p.eat_word("strict") {
            Mode::Strict
        } else {
            return Err(p.syntax("{'lax', 'strict'}"));
        };
        let expr = p.additive()?;
        p.skip_ws();
        if p.i < p.chars.len() {
            return Err(p.syntax("<EOF>"));
        }
        Ok(Path { mode, expr })
    }

    /// The items the path gives for `input`, or the structural (or type) error that stops it.
    pub fn evaluate(&self, input: &Json) -> Result<Vec<Json>, String> {
        self.evaluate_with(input, &[])
    }

    /// With the PASSING values, by name.
    pub fn evaluate_with(
        &self,
        input: &Json,
        vars: &[(String, Json)],
    ) -> Result<Vec<Json>, String> {
        VARS.with(|v| *v.borrow_mut() = vars.to_vec());
        let result = eval(&self.expr, input, input, self.mode);
        VARS.with(|v| v.borrow_mut().clear());
        result
    }
}

thread_local! {
    /// The PASSING values of the evaluation under way on this thread.
    static VARS: std::cell::RefCell<Vec<(String, Json)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The `$name` variables a path text names (outside its string literals), for the analysis
/// to check against PASSING.
pub fn variable_names(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut names = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '"' => {
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    i += if chars[i] == '\\' { 2 } else { 1 };
                }
            }
            '$' if chars.get(i + 1).is_some_and(|c| is_ident_start(*c)) => {
                let start = i + 1;
                i = start;
                while i < chars.len() && is_ident_part(chars[i]) {
                    i += 1;
                }
                names.push(chars[start..i].iter().collect());
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    names
}

fn kind(j: &Json) -> &'static str {
    match j {
        Json::Null => "null",
        Json::Bool(_) => "boolean",
        Json::Number(_) => "number",
        Json::String(_) => "string",
        Json::Array(_) => "array",
        Json::Object(_) => "object",
    }
}

fn eval(expr: &Expr, root: &Json, current: &Json, mode: Mode) -> Result<Vec<Json>, String> {
    let mut items = match &expr.start {
        Start::Root => vec![root.clone()],
        Start::Current => vec![current.clone()],
        Start::Literal(j) => vec![j.clone()],
        Start::Var(name) => {
            let value = VARS.with(|v| {
                v.borrow()
                    .iter()
                    .find(|(n, _)| n == name)
                    .map(|(_, j)| j.clone())
            });
            match value {
                Some(j) => vec![j],
                None => return Err(format!("no value passed for parameter {name}")),
            }
        }
        Start::Paren(inner) => eval(inner, root, current, mode)?,
        Start::Neg(inner) => {
            let mut out = Vec::new();
            for item in eval(inner, root, current, mode)? {
                for item in unwrapped(item, mode) {
                    out.push(arithmetic(&Json::Number("0".into()), '-', &item)?);
                }
            }
            out
        }
        Start::Arith(l, op, r) => {
            let one = |e: &Expr| -> Result<Json, String> {
                let items: Vec<Json> = eval(e, root, current, mode)?
                    .into_iter()
                    .flat_map(|i| unwrapped(i, mode))
                    .collect();
                match <[Json; 1]>::try_from(items) {
                    Ok([item]) => Ok(item),
                    Err(items) => Err(format!(
                        "arithmetic operand must be a single item, got {} items",
                        items.len()
                    )),
                }
            };
            vec![arithmetic(&one(l)?, *op, &one(r)?)?]
        }
    };
    for step in &expr.steps {
        let mut next = Vec::new();
        for item in items {
            apply(step, item, root, mode, &mut next)?;
        }
        items = next;
    }
    Ok(items)
}

/// Lax mode's unwrapping for an accessor that needs a non-array.
fn unwrapped(item: Json, mode: Mode) -> Vec<Json> {
    match (mode, item) {
        (Mode::Lax, Json::Array(items)) => items,
        (_, item) => vec![item],
    }
}

fn resolve(i: &Index, len: usize) -> Result<i64, String> {
    match i {
        Index::At(n) => Ok(*n),
        Index::Last(back) => Ok(len as i64 - 1 - back),
        Index::Var(name) => VARS.with(|v| match v.borrow().iter().find(|(n, _)| n == name) {
            Some((_, j)) => j
                .as_i64()
                .ok_or_else(|| format!("array subscript {name} is not an integer")),
            None => Err(format!("no value passed for parameter {name}")),
        }),
    }
}

fn apply(
    step: &Step,
    item: Json,
    root: &Json,
    mode: Mode,
    out: &mut Vec<Json>,
) -> Result<(), String> {
    match step {
        Step::Member(key) => {
            for item in unwrapped(item, mode) {
                match item {
                    Json::Object(members) => {
                        match members.into_iter().rev().find(|(k, _)| k == key) {
                            Some((_, v)) => out.push(v),
                            None if mode == Mode::Strict => {
                                return Err(format!("missing member '{key}' in JSON object"));
                            }
                            None => {}
                        }
                    }
                    other if mode == Mode::Strict => {
                        return Err(format!(
                            "invalid item type. Expected: OBJECT, actual: {}",
                            kind(&other).to_uppercase()
                        ));
                    }
                    _ => {}
                }
            }
        }
        Step::AnyMember => {
            for item in unwrapped(item, mode) {
                match item {
                    Json::Object(members) => out.extend(members.into_iter().map(|(_, v)| v)),
                    other if mode == Mode::Strict => {
                        return Err(format!(
                            "invalid item type. Expected: OBJECT, actual: {}",
                            kind(&other).to_uppercase()
                        ));
                    }
                    _ => {}
                }
            }
        }
        Step::Descendant(key) => descend(&item, key, out),
        Step::AnyElement => match item {
            Json::Array(items) => out.extend(items),
            other if mode == Mode::Lax => out.push(other),
            other => {
                return Err(format!(
                    "invalid item type. Expected: ARRAY, actual: {}",
                    kind(&other).to_uppercase()
                ));
            }
        },
        Step::Elements(subs) => {
            let items = match item {
                Json::Array(items) => items,
                other if mode == Mode::Lax => vec![other],
                other => {
                    return Err(format!(
                        "invalid item type. Expected: ARRAY, actual: {}",
                        kind(&other).to_uppercase()
                    ));
                }
            };
            let len = items.len();
            for sub in subs {
                let (from, to) = match sub {
                    Subscript::One(i) => (resolve(i, len)?, resolve(i, len)?),
                    Subscript::Range(a, b) => (resolve(a, len)?, resolve(b, len)?),
                };
                let in_bounds = |i: i64| i >= 0 && (i as usize) < len;
                if mode == Mode::Strict && (!in_bounds(from) || !in_bounds(to) || from > to) {
                    return Err(format!(
                        "invalid array subscript: [{from}, {to}] for array of size {len}"
                    ));
                }
                let lo = from.max(0);
                let hi = to.min(len as i64 - 1);
                let mut i = lo;
                while i <= hi {
                    if let Some(v) = items.get(i as usize) {
                        out.push(v.clone());
                    }
                    i += 1;
                }
            }
        }
        Step::Filter(p) => {
            for item in unwrapped(item, mode) {
                if test(p, &item, root, mode) == Some(true) {
                    out.push(item);
                }
            }
        }
        Step::Method(m) => method(*m, item, mode, out)?,
    }
    Ok(())
}

/// `a op b` of two number items as SQL computes them: bigints exactly (overflow and division
/// by zero are errors), any other number as a double.
fn arithmetic(a: &Json, op: char, b: &Json) -> Result<Json, String> {
    let (Json::Number(x), Json::Number(y)) = (a, b) else {
        return Err(format!(
            "invalid operand types for arithmetic: {}, {}",
            kind(a).to_uppercase(),
            kind(b).to_uppercase()
        ));
    };
    if let (Some(x), Some(y)) = (a.as_i64(), b.as_i64()) {
        let r = match op {
            '+' => x.checked_add(y),
            '-' => x.checked_sub(y),
            '*' => x.checked_mul(y),
            '/' if y == 0 => return Err("division by zero".into()),
            '/' => x.checked_div(y),
            '%' if y == 0 => return Err("division by zero".into()),
            _ => x.checked_rem(y),
        };
        return r
            .map(|r| Json::Number(r.to_string()))
            .ok_or_else(|| format!("bigint arithmetic overflow: {x} {op} {y}"));
    }
    let (x, y): (f64, f64) = (
        x.parse().map_err(|_| format!("invalid number {x}"))?,
        y.parse().map_err(|_| format!("invalid number {y}"))?,
    );
    let r = match op {
        '+' => x + y,
        '-' => x - y,
        '*' => x * y,
        '/' => x / y,
        _ => x % y,
    };
    Ok(number(r))
}

fn descend(item: &Json, key: &str, out: &mut Vec<Json>) {
    match item {
        Json::Object(members) => {
            for (k, v) in members {
                if k == key {
                    out.push(v.clone());
                }
            }
            for (_, v) in members {
                descend(v, key, out);
            }
        }
        Json::Array(items) => {
            for v in items {
                descend(v, key, out);
            }
        }
        _ => {}
    }
}

/// A number's text as a JSON number item.
fn number(x: f64) -> Json {
    Json::Number(super::java_double(x))
}

fn method(m: Method, item: Json, mode: Mode, out: &mut Vec<Json>) -> Result<(), String> {
    match m {
        Method::Size => out.push(match item {
            Json::Array(items) => Json::Number(items.len().to_string()),
            _ if mode == Mode::Lax => Json::Number("1".into()),
            other => {
                return Err(format!(
                    "invalid item type. Expected: ARRAY, actual: {}",
                    kind(&other).to_uppercase()
                ));
            }
        }),
        Method::Type => out.push(Json::String(kind(&item).into())),
        Method::Double | Method::Abs | Method::Floor | Method::Ceiling => {
            for item in unwrapped(item, mode) {
                let text = match &item {
                    Json::Number(t) => t.clone(),
                    Json::String(s) if m == Method::Double => s.trim().to_string(),
                    other => {
                        return Err(format!(
                            "invalid item type. Expected: NUMBER, actual: {}",
                            kind(other).to_uppercase()
                        ));
                    }
                };
                let x: f64 = text
                    .parse()
                    .map_err(|_| format!("cannot convert value {text} to double"))?;
                let integer = !text.contains(['.', 'e', 'E']);
                out.push(match m {
                    Method::Double => number(x),
                    _ if integer && m == Method::Abs => {
                        Json::Number(text.trim_start_matches('-').into())
                    }
                    _ if integer => Json::Number(text),
                    Method::Abs => number(x.abs()),
                    Method::Floor => number(x.floor()),
                    _ => number(x.ceil()),
                });
            }
        }
    }
    Ok(())
}

/// A predicate's truth: `None` is SQL/JSON's unknown (an error inside it).
fn test(p: &Predicate, current: &Json, root: &Json, mode: Mode) -> Option<bool> {
    match p {
        Predicate::And(a, b) => {
            match (test(a, current, root, mode), test(b, current, root, mode)) {
                (Some(false), _) | (_, Some(false)) => Some(false),
                (Some(true), Some(true)) => Some(true),
                _ => None,
            }
        }
        Predicate::Or(a, b) => match (test(a, current, root, mode), test(b, current, root, mode)) {
            (Some(true), _) | (_, Some(true)) => Some(true),
            (Some(false), Some(false)) => Some(false),
            _ => None,
        },
        Predicate::Not(a) => test(a, current, root, mode).map(|b| !b),
        Predicate::Exists(e) => eval(e, root, current, mode).ok().map(|v| !v.is_empty()),
        Predicate::StartsWith(e, prefix) => {
            let items = eval(e, root, current, mode).ok()?;
            let prefix = match eval(prefix, root, current, mode).ok()?.as_slice() {
                [Json::String(s)] => s.clone(),
                _ => return None,
            };
            let mut unknown = false;
            for item in items.into_iter().flat_map(|i| unwrapped(i, mode)) {
                match item {
                    Json::String(s) if s.starts_with(&prefix) => return Some(true),
                    Json::String(_) => {}
                    _ => unknown = true,
                }
            }
            if unknown { None } else { Some(false) }
        }
        Predicate::Compare(l, cmp, r) => {
            let left: Vec<Json> = eval(l, root, current, mode)
                .ok()?
                .into_iter()
                .flat_map(|i| unwrapped(i, mode))
                .collect();
            let right: Vec<Json> = eval(r, root, current, mode)
                .ok()?
                .into_iter()
                .flat_map(|i| unwrapped(i, mode))
                .collect();
            let mut unknown = false;
            for a in &left {
                for b in &right {
                    match compare(a, *cmp, b) {
                        Some(true) => {
                            if mode == Mode::Lax || !unknown {
                                return Some(true);
                            }
                        }
                        Some(false) => {}
                        None => unknown = true,
                    }
                }
            }
            if unknown { None } else { Some(false) }
        }
    }
}

/// docs functions/json "Comparison rules": null equals only null; scalars of one kind
/// compare as in SQL; anything else is an error (unknown).
fn compare(a: &Json, cmp: Cmp, b: &Json) -> Option<bool> {
    use std::cmp::Ordering;
    let ordering: Ordering = match (a, b) {
        (Json::Null, Json::Null) => return Some(cmp == Cmp::Eq),
        (Json::Null, _) | (_, Json::Null) => return Some(cmp == Cmp::Ne),
        (Json::Number(_), Json::Number(_)) => a.as_f64()?.partial_cmp(&b.as_f64()?)?,
        (Json::String(x), Json::String(y)) => x.cmp(y),
        (Json::Bool(x), Json::Bool(y)) => x.cmp(y),
        _ => return None,
    };
    Some(match cmp {
        Cmp::Eq => ordering == Ordering::Equal,
        Cmp::Ne => ordering != Ordering::Equal,
        Cmp::Lt => ordering == Ordering::Less,
        Cmp::Gt => ordering == Ordering::Greater,
        Cmp::Le => ordering != Ordering::Greater,
        Cmp::Ge => ordering != Ordering::Less,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(path: &str, input: &str) -> Result<Vec<String>, String> {
        let p = Path::parse(path).map_err(|e| format!("{e:?}"))?;
        let j = Json::parse(input).ok_or_else(|| "input".to_string())?;
        Ok(p.evaluate(&j)?.iter().map(Json::compact).collect())
    }

    #[test]
    fn accessors_in_lax_and_strict_mode() {
        let input = r#"["a", "b", "c"]"#;
        assert_eq!(run("lax $[1]", input), Ok(vec![r#""b""#.to_string()]));
        assert_eq!(
            run("lax $[2 to 100]", input),
            Ok(vec![r#""c""#.to_string()])
        );
        assert_eq!(
            run("strict $[100]", input),
            Err("invalid array subscript: [100, 100] for array of size 3".into())
        );
        assert_eq!(run("lax $[last]", input), Ok(vec![r#""c""#.to_string()]));
        assert_eq!(run("lax $[last - 1, 0]", input).map(|v| v.len()), Ok(2));
        // docs: lax unwraps arrays for member accessors, wraps non-arrays for subscripts.
        let objects = r#"[{"customer": 100, "region": "AFRICA"}, {"region": "ASIA"}]"#;
        assert_eq!(run("lax $.customer", objects), Ok(vec!["100".to_string()]));
        assert!(run("strict $.customer", objects).is_err());
        assert_eq!(run("lax $.region[0]", objects).map(|v| v.len()), Ok(2));
        assert_eq!(
            run("lax $?(@.region != \"ASIA\").customer", objects),
            Ok(vec!["100".to_string()])
        );
        assert_eq!(
            run("lax $?(!exists(@.customer)).region", objects),
            Ok(vec![r#""ASIA""#.to_string()])
        );
        // TestJsonQueryFunction.testDescendantMemberAccessor
        assert_eq!(
            run(
                "lax $..c",
                r#"{"a" : {"b" : 1}, "c" :  [true, {"c" : {"c" : null}}]}"#
            ),
            Ok(vec![
                r#"[true,{"c":{"c":null}}]"#.to_string(),
                r#"{"c":null}"#.to_string(),
                "null".to_string()
            ])
        );
        assert_eq!(run("lax $.size()", "[0, 1, 2]"), Ok(vec!["3".to_string()]));
        assert_eq!(run("lax 1", "{}"), Ok(vec!["1".to_string()]));
    }

    #[test]
    fn refusals_and_syntax_errors() {
        assert!(matches!(
            Path::parse("certainly not a valid path"),
            Err(PathError::Syntax(0, m)) if m == "mismatched input 'certainly' expecting {'lax', 'strict'}"
        ));
        assert_eq!(
            variable_names(r#"lax $a + $.b ? (@ == "$x") + $c1"#),
            vec!["a", "c1"]
        );
        assert_eq!(run("lax $.a + 1", r#"{"a": 2}"#), Ok(vec!["3".to_string()]));
        assert_eq!(
            run("strict ($.a * 2.5)", r#"{"a": 2}"#),
            Ok(vec!["5.0".to_string()])
        );
        assert_eq!(
            run("lax -$[*]", "[1, -2]"),
            Ok(vec!["-1".to_string(), "2".to_string()])
        );
        assert!(run("lax 1000000000000 * 1000000000000", "{}").is_err());
        assert!(run("lax $[*] + 1", "[1, 2]").is_err());
        assert!(run("lax 1 / 0", "{}").is_err());
        assert!(matches!(
            Path::parse("lax $.keyvalue()"),
            Err(PathError::Unsupported(..))
        ));
        assert!(matches!(Path::parse("lax $["), Err(PathError::Syntax(..))));
        assert!(matches!(Path::parse("lax"), Err(PathError::Syntax(..))));
    }
}
