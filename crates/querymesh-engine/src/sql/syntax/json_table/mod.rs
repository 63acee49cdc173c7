//! JSON_TABLE's own syntax (Trino's SqlBase.g4 `jsonTable`, docs functions/json
//! "json_table"), read in the token stream before parsing, since sqlparser cannot read it:
//!
//! ```text
//! JSON_TABLE(input [FORMAT JSON], 'row path' [AS name] [PASSING v AS name, …]
//!     COLUMNS (column, …) [PLAN (…) | PLAN DEFAULT (…)] [{ERROR | EMPTY} ON ERROR])
//! ```
//!
//! The call becomes a table function of a marked name that sqlparser reads:
//! `"<mark>json_table"('<shape>', json_exists(input, 'row path' PASSING …), c1, c2, …)`:
//! the shape (columns, levels, plan; [`Shape`]) as a string, the input and row path as a
//! json_exists call (so its analysis checks them as json_exists does), and each value column
//! as the json_value (or, `FORMAT JSON`, json_query) call Trino evaluates for it over its
//! level's item, `"<item mark>L"` (json/table: JsonTable columns are those functions).
//! The generated tokens take the spans of the tokens they stand for.
//!
//! `plan`: its names and plan checked, the default plan built.

mod plan;

use querymesh_functions::json::table::Plan;
use serde::{Deserialize, Serialize};
use sqlparser::keywords::Keyword;
use sqlparser::tokenizer::{Span, Token, TokenWithSpan, Whitespace};

use super::token::{
    closing, is_significant, located, mismatched_message, token, word_is, word_token,
};
use crate::error::{ErrorName, Position, TrinoError, error_at};
use plan::{PlanText, check};

/// The marked name of the table function JSON_TABLE becomes.
pub const TABLE_NAME: &str = "\u{F8FE}json_table";
/// Marks the name of a level's item column (not a clause marker: a value json_value reads).
pub const ITEM_MARK: char = '\u{F8FD}';

/// One output column: its name, its level, and whether it is `FOR ORDINALITY` (else it
/// reads the next value-column argument); `format` holds a `FORMAT JSON …` clause's words.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ShapeColumn {
    pub name: String,
    pub level: usize,
    pub ordinality: bool,
    pub format: Option<String>,
}

/// What the table function's first argument carries.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Shape {
    /// An error found in the shape (names, plan): name, message, line, column.
    pub error: Option<(String, String, u64, u64)>,
    pub columns: Vec<ShapeColumn>,
    /// Per level, its path (level 0: the row path).
    pub paths: Vec<String>,
    pub plan: Option<Plan>,
    pub error_on_error: bool,
}

fn word(value: String, quoted: bool, span: Span) -> TokenWithSpan {
    word_token(value, quoted.then_some('"'), Keyword::NoKeyword, span)
}

/// A name as Trino canonicalizes it: unquoted names upper-cased, quoted ones as written.
fn canonical(t: &TokenWithSpan) -> Option<String> {
    match &t.token {
        Token::Word(w) if w.quote_style == Some('"') => Some(w.value.clone()),
        Token::Word(w) if w.quote_style.is_none() => Some(w.value.to_uppercase()),
        _ => None,
    }
}

fn mismatched(t: Option<&TokenWithSpan>, expecting: &str) -> TrinoError {
    error_at(
        ErrorName::SyntaxError,
        t.and_then(located),
        mismatched_message(t, expecting),
    )
}

/// Rewrites every `JSON_TABLE(…)` in `tokens` (all tokens, whitespace included).
pub fn rewrite(tokens: &mut Vec<TokenWithSpan>) -> Result<(), TrinoError> {
    if !tokens.iter().any(|t| word_is(t, "json_table")) {
        return Ok(());
    }
    let taken = std::mem::take(tokens);
    *tokens = process(&taken)?;
    Ok(())
}

fn process(tokens: &[TokenWithSpan]) -> Result<Vec<TokenWithSpan>, TrinoError> {
    let mut out = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        let open = (i + 1..tokens.len()).find(|&j| is_significant(&tokens[j]));
        if word_is(&tokens[i], "json_table")
            && let Some(open) = open
            && tokens[open].token == Token::LParen
        {
            let Some(close) = closing(tokens, open) else {
                return Err(mismatched(None, "')'"));
            };
            let inner = process(&tokens[open + 1..close])?;
            let mut reader = Reader {
                t: &inner,
                i: 0,
                end: tokens[close].clone(),
            };
            let span = tokens[i].span;
            out.push(word(TABLE_NAME.to_string(), true, span));
            out.push(tokens[open].clone());
            out.extend(reader.json_table(span)?);
            out.push(tokens[close].clone());
            i = close + 1;
            continue;
        }
        out.push(tokens[i].clone());
        i += 1;
    }
    Ok(out)
}

/// A path's level as read: its path literal's token, name and children.
pub(super) struct Level {
    pub(super) path: TokenWithSpan,
    pub(super) name: Option<(String, Option<Position>)>,
    pub(super) children: Vec<usize>,
}

struct Reader<'t> {
    t: &'t [TokenWithSpan],
    /// The next token's index.
    i: usize,
    /// The call's closing parenthesis (for errors at the end).
    end: TokenWithSpan,
}

/// What one JSON_TABLE's reading gathers.
#[derive(Default)]
pub(super) struct Gathered {
    pub(super) levels: Vec<Level>,
    columns: Vec<ShapeColumn>,
    /// The value columns' generated calls.
    calls: Vec<Vec<TokenWithSpan>>,
    /// Each name (columns and paths) with its place, in order.
    pub(super) names: Vec<(String, Option<Position>)>,
}

impl<'t> Reader<'t> {
    /// The next significant token's index.
    fn peek_at(&self) -> Option<usize> {
        (self.i..self.t.len()).find(|&j| is_significant(&self.t[j]))
    }

    fn peek(&self) -> Option<&'t TokenWithSpan> {
        self.peek_at().map(|j| &self.t[j])
    }

    fn peek_word(&self, w: &str) -> bool {
        self.peek().is_some_and(|t| word_is(t, w))
    }

    fn next(&mut self) -> Option<&'t TokenWithSpan> {
        let j = self.peek_at()?;
        self.i = j + 1;
        Some(&self.t[j])
    }

    fn found(&self) -> Option<&'t TokenWithSpan> {
        self.peek()
    }

    fn error(&self, expecting: &str) -> TrinoError {
        mismatched(self.found().or(Some(&self.end)), expecting)
    }

    fn expect_word(&mut self, w: &str) -> Result<&'t TokenWithSpan, TrinoError> {
        if self.peek_word(w) {
            return self.next().ok_or_else(|| self.error(w));
        }
        Err(self.error(&format!("'{}'", w.to_uppercase())))
    }

    fn expect(&mut self, t: Token, shown: &str) -> Result<&'t TokenWithSpan, TrinoError> {
        if self.peek().is_some_and(|x| x.token == t) {
            return self.next().ok_or_else(|| self.error(shown));
        }
        Err(self.error(shown))
    }

    /// The tokens from here to the next top-level token `stop` accepts (not taken).
    fn until(&mut self, stop: impl Fn(&TokenWithSpan) -> bool) -> &'t [TokenWithSpan] {
        let start = self.i;
        let mut depth = 0usize;
        while self.i < self.t.len() {
            let tok = &self.t[self.i];
            if depth == 0 && is_significant(tok) && stop(tok) {
                break;
            }
            match tok.token {
                Token::LParen => depth += 1,
                Token::RParen => depth = depth.saturating_sub(1),
                _ => {}
            }
            self.i += 1;
        }
        &self.t[start..self.i]
    }

    fn path_literal(&mut self) -> Result<&'t TokenWithSpan, TrinoError> {
        match self.peek() {
            Some(t) if matches!(t.token, Token::SingleQuotedString(_)) => {
                self.next().ok_or_else(|| self.error("<string>"))
            }
            _ => Err(self.error("<string>")),
        }
    }

    fn optional_name(&mut self) -> Result<Option<(String, Option<Position>)>, TrinoError> {
        if !self.peek_word("as") {
            return Ok(None);
        }
        self.next();
        match self.next() {
            Some(t) if canonical(t).is_some() => Ok(canonical(t).map(|n| (n, located(t)))),
            t => Err(mismatched(t.or(Some(&self.end)), "<identifier>")),
        }
    }

    /// The whole call's arguments, rewritten.
    fn json_table(&mut self, span: Span) -> Result<Vec<TokenWithSpan>, TrinoError> {
        let input = self.until(|t| t.token == Token::Comma);
        if !input.iter().any(is_significant) {
            return Err(self.error("<expression>"));
        }
        let comma = self.expect(Token::Comma, "','")?;
        let row_path = self.path_literal()?;
        let root_name = self.optional_name()?;
        let passing = if self.peek_word("passing") {
            self.until(|t| word_is(t, "columns"))
        } else {
            &[]
        };
        let mut g = Gathered::default();
        if let Some(n) = &root_name {
            g.names.push(n.clone());
        }
        g.levels.push(Level {
            path: row_path.clone(),
            name: root_name,
            children: Vec::new(),
        });
        self.columns(0, &mut g)?;
        let mut plan_text = None;
        let mut default_plan = (true, false);
        let mut default_written = false;
        if self.peek_word("plan") {
            self.next();
            if self.peek_word("default") {
                self.next();
                default_written = true;
                default_plan = self.default_plan()?;
            } else {
                self.expect(Token::LParen, "'('")?;
                plan_text = Some(self.specific_plan()?);
                self.expect(Token::RParen, "')'")?;
            }
        }
        let mut error_on_error = false;
        if self.peek_word("error") || self.peek_word("empty") {
            error_on_error = self.peek_word("error");
            self.next();
            self.expect_word("on")?;
            self.expect_word("error")?;
        }
        if let Some(t) = self.peek() {
            return Err(mismatched(Some(t), "')'"));
        }
        let mut shape = Shape {
            paths: g
                .levels
                .iter()
                .map(|l| match &l.path.token {
                    Token::SingleQuotedString(s) => s.clone(),
                    _ => String::new(),
                })
                .collect(),
            error_on_error,
            ..Shape::default()
        };
        match check(&g, plan_text.as_ref(), default_plan, default_written) {
            Ok(plan) => shape.plan = Some(plan),
            Err(e) => {
                let (line, column) = e.location.map_or((0, 0), |p| (p.line, p.column));
                shape.error = Some((
                    e.name.name_and_code().0.to_string(),
                    e.text.clone(),
                    line,
                    column,
                ));
            }
        }
        // Each value column gets the table's ERROR ON ERROR unless it has its own ON ERROR.
        if error_on_error {
            for call in &mut g.calls {
                if !has_on_error(call)
                    && let Some(close) = call.pop()
                {
                    let s = close.span;
                    call.push(token(Token::Whitespace(Whitespace::Space), s));
                    call.push(word("ERROR".into(), false, s));
                    call.push(token(Token::Whitespace(Whitespace::Space), s));
                    call.push(word("ON".into(), false, s));
                    call.push(token(Token::Whitespace(Whitespace::Space), s));
                    call.push(word("ERROR".into(), false, s));
                    call.push(close);
                }
            }
        }
        shape.columns = g.columns;
        let mut out = vec![token(
            Token::SingleQuotedString(serde_json::to_string(&shape).unwrap_or_default()),
            span,
        )];
        out.push(comma.clone());
        out.push(word("json_exists".into(), false, span));
        out.push(token(Token::LParen, span));
        out.extend(input.iter().cloned());
        out.push(comma.clone());
        out.push(row_path.clone());
        out.push(token(Token::Whitespace(Whitespace::Space), row_path.span));
        out.extend(passing.iter().cloned());
        out.push(token(Token::RParen, span));
        for call in g.calls {
            out.push(token(Token::Comma, span));
            out.extend(call);
        }
        Ok(out)
    }

    /// `COLUMNS ( column, … )` of level `level`.
    fn columns(&mut self, level: usize, g: &mut Gathered) -> Result<(), TrinoError> {
        self.expect_word("columns")?;
        self.expect(Token::LParen, "'('")?;
        loop {
            self.column(level, g)?;
            match self.next() {
                Some(t) if t.token == Token::Comma => continue,
                Some(t) if t.token == Token::RParen => return Ok(()),
                t => return Err(mismatched(t.or(Some(&self.end)), "')', ','")),
            }
        }
    }

    fn column(&mut self, level: usize, g: &mut Gathered) -> Result<(), TrinoError> {
        let Some(first) = self.peek() else {
            return Err(self.error("'NESTED', <identifier>"));
        };
        if word_is(first, "nested") {
            self.next();
            if self.peek_word("path") {
                self.next();
            }
            let path = self.path_literal()?;
            let name = self.optional_name()?;
            if let Some(n) = &name {
                g.names.push(n.clone());
            }
            let child = g.levels.len();
            g.levels.push(Level {
                path: path.clone(),
                name,
                children: Vec::new(),
            });
            if let Some(parent) = g.levels.get_mut(level) {
                parent.children.push(child);
            }
            return self.columns(child, g);
        }
        let Some(name) = canonical(first) else {
            return Err(self.error("'NESTED', <identifier>"));
        };
        let name_token = self.next().ok_or_else(|| self.error("<identifier>"))?;
        g.names.push((name.clone(), located(name_token)));
        if self.peek_word("for") {
            self.next();
            self.expect_word("ordinality")?;
            g.columns.push(ShapeColumn {
                name,
                level,
                ordinality: true,
                format: None,
            });
            return Ok(());
        }
        let clause_words = [
            "format", "path", "with", "without", "keep", "omit", "error", "null", "empty",
            "default",
        ];
        let ty = self.until(|t| {
            t.token == Token::Comma
                || t.token == Token::RParen
                || clause_words.iter().any(|w| word_is(t, w))
        });
        if !ty.iter().any(is_significant) {
            return Err(self.error("<type>"));
        }
        check_type(ty)?;
        let mut format: Option<String> = None;
        // FORMAT JSON is json_query's output anyway; an encoding is checked at analysis.
        if self.peek_word("format") {
            self.next();
            self.expect_word("json")?;
            let mut words = "json".to_string();
            if self.peek_word("encoding") {
                self.next();
                let enc = self
                    .next()
                    .ok_or_else(|| self.error("'UTF8', 'UTF16', 'UTF32'"))?;
                words.push_str(&format!(
                    " encoding {}",
                    enc.token.to_string().to_lowercase()
                ));
            }
            format = Some(words);
        }
        let path = if self.peek_word("path") {
            self.next();
            self.path_literal()?.clone()
        } else {
            // The column's name as a member of the item (Trino: `lax $."NAME"`).
            let escaped = name.replace('\\', "\\\\").replace('"', "\\\"");
            token(
                Token::SingleQuotedString(format!("lax $.\"{escaped}\"")),
                name_token.span,
            )
        };
        let rest = self.until(|t| t.token == Token::Comma || t.token == Token::RParen);
        // Only the ON EMPTY / ON ERROR, wrapper and quotes clauses follow the path.
        let behaviours = [
            "error", "null", "default", "empty", "with", "without", "keep", "omit",
        ];
        if let Some(first) = rest.iter().find(|t| is_significant(t))
            && !behaviours.iter().any(|w| word_is(first, w))
        {
            return Err(mismatched(Some(first), "')', ','"));
        }
        let s = name_token.span;
        let function = if format.is_some() {
            "json_query"
        } else {
            "json_value"
        };
        let mut call = vec![
            word(function.into(), false, s),
            token(Token::LParen, s),
            word(format!("{ITEM_MARK}{level}"), true, s),
            token(Token::Comma, s),
            path,
            token(Token::Whitespace(Whitespace::Space), s),
            word("RETURNING".into(), false, s),
            token(Token::Whitespace(Whitespace::Space), s),
        ];
        call.extend(ty.iter().cloned());
        call.push(token(Token::Whitespace(Whitespace::Space), s));
        call.extend(rest.iter().cloned());
        call.push(token(Token::RParen, s));
        g.calls.push(call);
        g.columns.push(ShapeColumn {
            name,
            level,
            ordinality: false,
            format,
        });
        Ok(())
    }

    /// `( OUTER|INNER [, UNION|CROSS] )` or `( UNION|CROSS [, OUTER|INNER] )`: (outer, cross).
    fn default_plan(&mut self) -> Result<(bool, bool), TrinoError> {
        self.expect(Token::LParen, "'('")?;
        let mut outer = true;
        let mut cross = false;
        let all = "'CROSS', 'INNER', 'OUTER', 'UNION'";
        let first = self.next();
        let second_kind = match first {
            Some(t) if word_is(t, "outer") || word_is(t, "inner") => {
                outer = word_is(t, "outer");
                "'CROSS', 'UNION'"
            }
            Some(t) if word_is(t, "union") || word_is(t, "cross") => {
                cross = word_is(t, "cross");
                "'INNER', 'OUTER'"
            }
            t => return Err(mismatched(t.or(Some(&self.end)), all)),
        };
        if self.peek().is_some_and(|t| t.token == Token::Comma) {
            self.next();
            match self.next() {
                Some(t)
                    if second_kind.contains("UNION")
                        && (word_is(t, "union") || word_is(t, "cross")) =>
                {
                    cross = word_is(t, "cross");
                }
                Some(t)
                    if second_kind.contains("OUTER")
                        && (word_is(t, "outer") || word_is(t, "inner")) =>
                {
                    outer = word_is(t, "outer");
                }
                t => return Err(mismatched(t.or(Some(&self.end)), second_kind)),
            }
        }
        self.expect(Token::RParen, "')'")?;
        Ok((outer, cross))
    }

    fn plan_name(&mut self) -> Result<(String, Option<Position>), TrinoError> {
        match self.next() {
            Some(t) if canonical(t).is_some() => Ok((canonical(t).unwrap_or_default(), located(t))),
            t => Err(mismatched(t.or(Some(&self.end)), "<identifier>")),
        }
    }

    /// `name`, `name OUTER|INNER primary`, `primary UNION primary …`, `primary CROSS …`.
    fn specific_plan(&mut self) -> Result<PlanText, TrinoError> {
        let first = if self.peek().is_some_and(|t| t.token == Token::LParen) {
            self.next();
            let inner = self.specific_plan()?;
            self.expect(Token::RParen, "')'")?;
            // A parenthesized plan alone is a sibling plan's operand, never a whole plan.
            if !(self.peek_word("union") || self.peek_word("cross")) {
                return Err(self.error("'CROSS', 'UNION'"));
            }
            inner
        } else {
            let (name, place) = self.plan_name()?;
            if self.peek_word("outer") || self.peek_word("inner") {
                let outer = self.peek_word("outer");
                self.next();
                let child = self.primary()?;
                return Ok(PlanText::Join(name, place, outer, Box::new(child)));
            }
            PlanText::Leaf(name, place)
        };
        for (op, cross) in [("union", false), ("cross", true)] {
            if self.peek_word(op) {
                let mut members = vec![first];
                while self.peek_word(op) {
                    self.next();
                    members.push(self.primary()?);
                }
                return Ok(if cross {
                    PlanText::Cross(members)
                } else {
                    PlanText::Union(members)
                });
            }
        }
        Ok(first)
    }

    fn primary(&mut self) -> Result<PlanText, TrinoError> {
        if self.peek().is_some_and(|t| t.token == Token::LParen) {
            self.next();
            let inner = self.specific_plan_in_parens()?;
            self.expect(Token::RParen, "')'")?;
            return Ok(inner);
        }
        let (name, place) = self.plan_name()?;
        Ok(PlanText::Leaf(name, place))
    }

    /// A plan inside a primary's parentheses: any specific plan.
    fn specific_plan_in_parens(&mut self) -> Result<PlanText, TrinoError> {
        if self.peek().is_some_and(|t| t.token == Token::LParen) {
            return self.specific_plan();
        }
        let (name, place) = self.plan_name()?;
        if self.peek_word("outer") || self.peek_word("inner") {
            let outer = self.peek_word("outer");
            self.next();
            let child = self.primary()?;
            return Ok(PlanText::Join(name, place, outer, Box::new(child)));
        }
        let first = PlanText::Leaf(name, place);
        for (op, cross) in [("union", false), ("cross", true)] {
            if self.peek_word(op) {
                let mut members = vec![first];
                while self.peek_word(op) {
                    self.next();
                    members.push(self.primary()?);
                }
                return Ok(if cross {
                    PlanText::Cross(members)
                } else {
                    PlanText::Union(members)
                });
            }
        }
        Ok(first)
    }
}

/// A column's type followed by words no clause starts with (`x bigint EXISTS PATH …`):
/// Trino's parser stops at the first of them.
fn check_type(ty: &[TokenWithSpan]) -> Result<(), TrinoError> {
    let text: String = ty.iter().map(|t| t.token.to_string()).collect();
    if crate::types::TrinoType::parse(&text.trim().to_lowercase()).is_ok() {
        return Ok(());
    }
    let mut parser = sqlparser::parser::Parser::new(&crate::sql::syntax::dialect::TrinoDialect)
        .with_tokens_with_locations(ty.to_vec());
    if parser.parse_data_type().is_err() {
        // Not a type at all: the analysis names it ("Unknown type").
        return Ok(());
    }
    let rest = parser.next_token();
    if is_significant(&rest) {
        return Err(mismatched(Some(&rest), "')', ','"));
    }
    Ok(())
}

/// Whether a generated call has its own `ON ERROR` clause.
fn has_on_error(call: &[TokenWithSpan]) -> bool {
    let sig: Vec<&TokenWithSpan> = call.iter().filter(|t| is_significant(t)).collect();
    sig.windows(2)
        .any(|w| word_is(w[0], "on") && word_is(w[1], "error"))
}
