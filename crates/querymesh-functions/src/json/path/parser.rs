//! The reader of an SQL/JSON path text: a recursive-descent [`Parser`] into the path's tree,
//! with Trino's `mismatched input` errors, and the `$name` variables a text names.

use super::{Cmp, Expr, Index, Method, Mode, Path, PathError, Predicate, Start, Step, Subscript};
use crate::json::sqlite::Json;

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
