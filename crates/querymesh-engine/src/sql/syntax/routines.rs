//! Inline SQL routines, `WITH FUNCTION name(p type, …) RETURNS type [characteristics] body`
//! before a query (Trino's SqlBase.g4 `rootQuery: withFunction? query`; docs udf/function.md,
//! udf/sql.md and udf/sql/*.md for the statements). sqlparser has no grammar for them, so they
//! are read here from the tokens into [`RoutineSpec`]s: the routine language's statements as a
//! tree, and its expressions and types as the byte ranges of `sql` they occupy, which the
//! analysis parses as ordinary expressions (`analyze/routines`). The query after the routines
//! is what the statement stage plans, with the routines' text blanked out.

use sqlparser::tokenizer::{Token, TokenWithSpan};

use super::token::{at, mismatched, upper_word};
use crate::error::{ErrorName, Position, TrinoError};

/// A routine as written.
#[derive(Debug)]
pub(crate) struct RoutineSpec {
    /// The FUNCTION keyword, where Trino reports what concerns the routine as a whole.
    pub at: Position,
    pub name: String,
    pub params: Vec<Param>,
    pub returns: Text,
    /// `RETURNS NULL ON NULL INPUT`: a NULL argument answers NULL without running the body.
    pub null_on_null: bool,
    /// `[NOT] DETERMINISTIC`, DETERMINISTIC when not said; Trino holds the body to it.
    pub deterministic: bool,
    /// Every expression of the body, in order.
    pub expressions: Vec<Text>,
    /// Where the body starts.
    pub body_at: Position,
    pub body: Stmt,
}

/// A parameter: its name (Trino refuses a parameter without one, at its type) and its type.
#[derive(Debug)]
pub(crate) struct Param {
    pub name: Option<Name>,
    pub ty: Text,
}

/// An identifier, lower-cased, and where it stands.
#[derive(Clone, Debug)]
pub(crate) struct Name {
    pub value: String,
    pub at: Position,
}

/// A piece of the statement's text (an expression or a type): `sql[start..end]`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Text {
    pub start: usize,
    pub end: usize,
    pub at: Position,
}

impl Text {
    pub(crate) fn of<'s>(&self, sql: &'s str) -> &'s str {
        sql.get(self.start..self.end).unwrap_or_default().trim_end()
    }
}

/// `DECLARE a, b type [DEFAULT value]`.
#[derive(Debug)]
pub(crate) struct Declare {
    pub names: Vec<Name>,
    pub ty: Text,
    pub default: Option<Text>,
}

/// A statement of the routine language (SqlBase.g4 `controlStatement`).
#[derive(Debug)]
pub(crate) enum Stmt {
    Return(Text),
    Set {
        name: Name,
        value: Text,
    },
    /// `CASE [operand] WHEN … THEN statements … [ELSE statements] END CASE`.
    Case {
        operand: Option<Text>,
        whens: Vec<(Text, Vec<Stmt>)>,
        otherwise: Option<Vec<Stmt>>,
    },
    /// `IF c THEN … [ELSEIF c THEN …]* [ELSE …] END IF`.
    If {
        branches: Vec<(Text, Vec<Stmt>)>,
        otherwise: Option<Vec<Stmt>>,
    },
    Iterate(Name),
    Leave(Name),
    Block {
        at: Position,
        declarations: Vec<Declare>,
        statements: Vec<Stmt>,
    },
    Loop {
        label: Option<Name>,
        body: Vec<Stmt>,
    },
    While {
        label: Option<Name>,
        condition: Text,
        body: Vec<Stmt>,
    },
    Repeat {
        label: Option<Name>,
        body: Vec<Stmt>,
        until: Text,
    },
}

impl Stmt {
    pub(crate) fn is_return(&self) -> bool {
        matches!(self, Stmt::Return(_))
    }
}

const STATEMENT_START: &str = "'BEGIN', 'CASE', 'IF', 'ITERATE', 'LEAVE', 'LOOP', 'REPEAT', 'RETURN', 'SET', 'WHILE', <identifier>";
const STATEMENT_OR_END: &str = "'BEGIN', 'CASE', 'END', 'IF', 'ITERATE', 'LEAVE', 'LOOP', 'REPEAT', 'RETURN', 'SET', 'WHILE', <identifier>";

/// Whether the statement starts with inline routines (`WITH FUNCTION`).
pub(crate) fn recognise(tokens: &[TokenWithSpan]) -> bool {
    upper_word(tokens.first()).as_deref() == Some("WITH")
        && upper_word(tokens.get(1)).as_deref() == Some("FUNCTION")
}

/// The routines at the start of `sql` (whose significant tokens are `tokens`) and the byte
/// offset where the query after them starts.
pub(crate) fn parse(
    sql: &str,
    tokens: &[TokenWithSpan],
) -> Result<(Vec<RoutineSpec>, usize), TrinoError> {
    let mut reader = Reader {
        sql,
        tokens,
        i: 1,
        lines: line_starts(sql),
        expressions: Vec::new(),
        depth: 0,
    };
    let mut routines = Vec::new();
    loop {
        routines.push(reader.routine()?);
        if reader.peek_is(&Token::Comma) && reader.word_at(reader.i + 1) == Some("FUNCTION") {
            reader.i += 1;
            continue;
        }
        break;
    }
    let query_start = reader.offset_of(reader.i);
    Ok((routines, query_start))
}

/// Byte offsets of each line's start.
fn line_starts(sql: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(sql.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
}

struct Reader<'s, 't> {
    sql: &'s str,
    tokens: &'t [TokenWithSpan],
    i: usize,
    lines: Vec<usize>,
    /// The expressions read so far.
    expressions: Vec<Text>,
    /// How many statements the one being read is nested in.
    depth: usize,
}

/// The deepest nesting of statements read: deeper is Trino's refusal of a statement its
/// parser cannot hold, before the reader's (and the compiler's) recursion could exhaust the
/// stack.
const MAX_NESTING: usize = 64;

impl Reader<'_, '_> {
    fn end(&self) -> Position {
        super::token::end_of(self.sql)
    }

    fn peek(&self) -> Option<&TokenWithSpan> {
        self.tokens.get(self.i)
    }

    fn peek_is(&self, token: &Token) -> bool {
        self.peek().is_some_and(|t| &t.token == token)
    }

    /// The unquoted word at token `i`, upper-cased.
    fn word_at(&self, i: usize) -> Option<&'static str> {
        let word = upper_word(self.tokens.get(i))?;
        KEYWORDS.iter().copied().find(|k| *k == word)
    }

    fn is(&self, keyword: &str) -> bool {
        self.word_at(self.i) == Some(keyword)
    }

    fn eat(&mut self, keyword: &str) -> bool {
        let found = self.is(keyword);
        if found {
            self.i += 1;
        }
        found
    }

    fn expect(&mut self, keyword: &str) -> Result<(), TrinoError> {
        if self.eat(keyword) {
            return Ok(());
        }
        Err(self.mismatched(&format!("'{keyword}'")))
    }

    fn expect_token(&mut self, token: Token, shown: &str) -> Result<(), TrinoError> {
        if self.peek_is(&token) {
            self.i += 1;
            return Ok(());
        }
        Err(self.mismatched(&format!("'{shown}'")))
    }

    fn mismatched(&self, expecting: &str) -> TrinoError {
        mismatched(self.peek(), self.end(), expecting)
    }

    fn position(&self) -> Position {
        self.peek().map_or_else(|| self.end(), at)
    }

    /// The byte offset of token `i` (the text's end past the last token).
    fn offset_of(&self, i: usize) -> usize {
        let Some(t) = self.tokens.get(i) else {
            return self.sql.len();
        };
        let (line, column) = (t.span.start.line as usize, t.span.start.column as usize);
        let start = self
            .lines
            .get(line.saturating_sub(1))
            .copied()
            .unwrap_or(self.sql.len());
        let rest = self.sql.get(start..).unwrap_or_default();
        start
            + rest
                .char_indices()
                .nth(column.saturating_sub(1))
                .map_or(rest.len(), |(k, _)| k)
    }

    /// An identifier (a quoted one keeps its case).
    fn name(&mut self) -> Result<Name, TrinoError> {
        match self.peek() {
            Some(
                t @ TokenWithSpan {
                    token: Token::Word(w),
                    ..
                },
            ) => {
                let value = if w.quote_style.is_some() {
                    w.value.clone()
                } else {
                    w.value.to_lowercase()
                };
                let name = Name { value, at: at(t) };
                self.i += 1;
                Ok(name)
            }
            _ => Err(self.mismatched("<identifier>")),
        }
    }

    fn routine(&mut self) -> Result<RoutineSpec, TrinoError> {
        let function_at = self.position();
        self.expect("FUNCTION")?;
        let first = self.name()?;
        let mut qualified = first.value.clone();
        while self.peek_is(&Token::Period) {
            self.i += 1;
            qualified.push('.');
            qualified.push_str(&self.name()?.value);
        }
        if qualified != first.value {
            return Err(TrinoError::at(
                ErrorName::SyntaxError,
                function_at,
                format!("Inline function names cannot be qualified: {qualified}"),
            ));
        }
        self.expect_token(Token::LParen, "(")?;
        let mut params = Vec::new();
        if !self.peek_is(&Token::RParen) {
            loop {
                params.push(self.param()?);
                if self.peek_is(&Token::Comma) {
                    self.i += 1;
                    continue;
                }
                break;
            }
        }
        self.expect_token(Token::RParen, ")")?;
        self.expect("RETURNS")?;
        let returns = self.type_text(|r| r.at_characteristic_or_body())?;
        let mut null_on_null = false;
        let mut deterministic = true;
        loop {
            if self.eat("LANGUAGE") {
                let language = self.name()?;
                if language.value != "sql" {
                    return Err(TrinoError::at(
                        ErrorName::NotSupported,
                        language.at,
                        format!(
                            "Unsupported language: {} (the QueryMesh stand-in runs SQL routines only)",
                            language.value.to_uppercase()
                        ),
                    ));
                }
            } else if self.eat("NOT") {
                self.expect("DETERMINISTIC")?;
                deterministic = false;
            } else if self.eat("DETERMINISTIC") {
                deterministic = true;
            } else if self.is("RETURNS") && self.word_at(self.i + 1) == Some("NULL") {
                self.i += 2;
                self.expect("ON")?;
                self.expect("NULL")?;
                self.expect("INPUT")?;
                null_on_null = true;
            } else if self.eat("CALLED") {
                self.expect("ON")?;
                self.expect("NULL")?;
                self.expect("INPUT")?;
                null_on_null = false;
            } else if self.is("SECURITY") {
                return Err(TrinoError::at(
                    ErrorName::NotSupported,
                    self.position(),
                    "Security mode not supported for inline functions",
                ));
            } else if self.eat("COMMENT") {
                match self.peek().map(|t| &t.token) {
                    Some(Token::SingleQuotedString(_)) => self.i += 1,
                    _ => return Err(self.mismatched("<string>")),
                }
            } else {
                break;
            }
        }
        let body_at = self.position();
        let first_expression = self.expressions.len();
        let body = self.statement(STATEMENT_START, true)?;
        Ok(RoutineSpec {
            body_at,
            deterministic,
            expressions: self.expressions.split_off(first_expression),
            at: function_at,
            name: first.value,
            params,
            returns,
            null_on_null,
            body,
        })
    }

    /// `[name] type`: a parameter's name is any identifier followed by more of its type.
    fn param(&mut self) -> Result<Param, TrinoError> {
        let ends = |r: &Reader<'_, '_>, k: usize| {
            matches!(
                r.tokens.get(k).map(|t| &t.token),
                None | Some(Token::Comma | Token::RParen)
            )
        };
        let word = matches!(self.peek().map(|t| &t.token), Some(Token::Word(_)));
        let name = if word && !ends(self, self.i + 1) && !self.peek_after_is(Token::LParen) {
            Some(self.name()?)
        } else {
            None
        };
        let ty = self.type_text(|r| {
            matches!(
                r.peek().map(|t| &t.token),
                Some(Token::Comma | Token::RParen)
            )
        })?;
        Ok(Param { name, ty })
    }

    fn peek_after_is(&self, token: Token) -> bool {
        self.tokens
            .get(self.i + 1)
            .is_some_and(|t| t.token == token)
    }

    /// A type's text, up to where `stops` (outside parentheses).
    fn type_text(&mut self, stops: impl Fn(&Self) -> bool) -> Result<Text, TrinoError> {
        let first = self.i;
        let mut depth = 0usize;
        while let Some(t) = self.peek() {
            // `map<varchar, array<int>>`: Trino's other spelling of the complex types.
            match t.token {
                Token::LParen | Token::Lt => depth += 1,
                Token::RParen | Token::Gt if depth > 0 => depth -= 1,
                Token::ShiftRight if depth > 0 => depth = depth.saturating_sub(2),
                _ if depth == 0 && stops(self) => break,
                _ => {}
            }
            self.i += 1;
        }
        if self.i == first {
            return Err(self.mismatched("<type>"));
        }
        Ok(self.text(first, self.i))
    }

    fn text(&self, first: usize, end: usize) -> Text {
        Text {
            start: self.offset_of(first),
            end: self.offset_of(end),
            at: self.tokens.get(first).map_or_else(|| self.end(), at),
        }
    }

    /// After RETURNS' type: a characteristic or the body's first word (or a loop's label).
    fn at_characteristic_or_body(&self) -> bool {
        const WORDS: [&str; 17] = [
            "LANGUAGE",
            "NOT",
            "DETERMINISTIC",
            "RETURNS",
            "CALLED",
            "SECURITY",
            "COMMENT",
            "RETURN",
            "BEGIN",
            "SET",
            "IF",
            "CASE",
            "WHILE",
            "REPEAT",
            "LOOP",
            "ITERATE",
            "LEAVE",
        ];
        self.word_at(self.i).is_some_and(|w| WORDS.contains(&w))
            || (matches!(self.peek().map(|t| &t.token), Some(Token::Word(_)))
                && self
                    .tokens
                    .get(self.i + 1)
                    .is_some_and(|t| t.token == Token::Colon))
    }

    /// An expression's text, up to the first token outside parentheses, brackets and CASE
    /// expressions where `stops`.
    fn expression(&mut self, stops: impl Fn(&Self) -> bool) -> Result<Text, TrinoError> {
        let first = self.i;
        let (mut depth, mut cases) = (0usize, 0usize);
        while let Some(t) = self.peek() {
            match &t.token {
                Token::LParen | Token::LBracket => depth += 1,
                Token::RParen | Token::RBracket if depth > 0 => depth -= 1,
                Token::RParen | Token::RBracket => break,
                _ if depth == 0 && cases == 0 && stops(self) => break,
                _ if self.is("CASE") => cases += 1,
                _ if self.is("END") && cases > 0 => cases -= 1,
                _ => {}
            }
            self.i += 1;
        }
        if self.i == first {
            return Err(self.mismatched("<expression>"));
        }
        let text = self.text(first, self.i);
        self.expressions.push(text);
        Ok(text)
    }

    fn until_semicolon(&mut self) -> Result<Text, TrinoError> {
        self.expression(|r| r.peek_is(&Token::SemiColon))
    }

    fn until_word(&mut self, word: &'static str) -> Result<Text, TrinoError> {
        let text = self.expression(|r| r.is(word))?;
        self.expect(word)?;
        Ok(text)
    }

    /// Statements each ended by `;`, until one of `ends` (not taken).
    fn statements(&mut self, ends: &[&str]) -> Result<Vec<Stmt>, TrinoError> {
        let mut statements = Vec::new();
        loop {
            let expecting = if statements.is_empty() {
                STATEMENT_START
            } else {
                STATEMENT_OR_END
            };
            if !statements.is_empty() && ends.iter().any(|e| self.is(e)) {
                return Ok(statements);
            }
            statements.push(self.statement(expecting, false)?);
            self.expect_token(Token::SemiColon, ";")?;
        }
    }

    /// One statement; `top` for a routine's body, where RETURN's value ends where the query
    /// (or the next routine) starts.
    fn statement(&mut self, expecting: &str, top: bool) -> Result<Stmt, TrinoError> {
        if self.depth >= MAX_NESTING {
            return Err(crate::sql::limits::too_large());
        }
        self.depth += 1;
        let statement = self.statement_inner(expecting, top);
        self.depth -= 1;
        statement
    }

    fn statement_inner(&mut self, expecting: &str, top: bool) -> Result<Stmt, TrinoError> {
        let label = if matches!(self.peek().map(|t| &t.token), Some(Token::Word(_)))
            && self.peek_after_is(Token::Colon)
            && !self.is("BEGIN")
        {
            let label = self.name()?;
            self.i += 1;
            if !(self.is("LOOP") || self.is("WHILE") || self.is("REPEAT")) {
                return Err(self.mismatched("'LOOP', 'REPEAT', 'WHILE'"));
            }
            Some(label)
        } else {
            None
        };
        if self.eat("RETURN") {
            let value = if top {
                self.expression(|r| r.at_query_or_next_routine())?
            } else {
                self.until_semicolon()?
            };
            return Ok(Stmt::Return(value));
        }
        if self.eat("SET") {
            let name = self.name()?;
            self.expect_token(Token::Eq, "=")?;
            let value = self.until_semicolon()?;
            return Ok(Stmt::Set { name, value });
        }
        if self.eat("CASE") {
            let operand = if self.is("WHEN") {
                None
            } else {
                Some(self.until_word_kept("WHEN")?)
            };
            let mut whens = Vec::new();
            while self.eat("WHEN") {
                let when = self.until_word("THEN")?;
                whens.push((when, self.statements(&["WHEN", "ELSE", "END"])?));
            }
            if whens.is_empty() {
                return Err(self.mismatched("'WHEN'"));
            }
            let otherwise = self.else_branch()?;
            self.expect("END")?;
            self.expect("CASE")?;
            return Ok(Stmt::Case {
                operand,
                whens,
                otherwise,
            });
        }
        if self.eat("IF") {
            let mut branches = Vec::new();
            let condition = self.until_word("THEN")?;
            branches.push((condition, self.statements(&["ELSEIF", "ELSE", "END"])?));
            while self.eat("ELSEIF") {
                let condition = self.until_word("THEN")?;
                branches.push((condition, self.statements(&["ELSEIF", "ELSE", "END"])?));
            }
            let otherwise = self.else_branch()?;
            self.expect("END")?;
            self.expect("IF")?;
            return Ok(Stmt::If {
                branches,
                otherwise,
            });
        }
        if self.eat("ITERATE") {
            return Ok(Stmt::Iterate(self.name()?));
        }
        if self.eat("LEAVE") {
            return Ok(Stmt::Leave(self.name()?));
        }
        if self.is("BEGIN") {
            let block_at = self.position();
            self.i += 1;
            let mut declarations = Vec::new();
            while self.eat("DECLARE") {
                let mut names = vec![self.name()?];
                while self.peek_is(&Token::Comma) {
                    self.i += 1;
                    names.push(self.name()?);
                }
                let ty = self.type_text(|r| r.is("DEFAULT") || r.peek_is(&Token::SemiColon))?;
                let default = if self.eat("DEFAULT") {
                    Some(self.until_semicolon()?)
                } else {
                    None
                };
                self.expect_token(Token::SemiColon, ";")?;
                declarations.push(Declare { names, ty, default });
            }
            let statements = if self.is("END") {
                Vec::new()
            } else {
                self.statements(&["END"])?
            };
            self.expect("END")?;
            return Ok(Stmt::Block {
                at: block_at,
                declarations,
                statements,
            });
        }
        if self.eat("LOOP") {
            let body = self.statements(&["END"])?;
            self.expect("END")?;
            self.expect("LOOP")?;
            return Ok(Stmt::Loop { label, body });
        }
        if self.eat("WHILE") {
            let condition = self.until_word("DO")?;
            let body = self.statements(&["END"])?;
            self.expect("END")?;
            self.expect("WHILE")?;
            return Ok(Stmt::While {
                label,
                condition,
                body,
            });
        }
        if self.eat("REPEAT") {
            let body = self.statements(&["UNTIL"])?;
            self.expect("UNTIL")?;
            let until = self.until_word_kept("END")?;
            self.expect("END")?;
            self.expect("REPEAT")?;
            return Ok(Stmt::Repeat { label, body, until });
        }
        Err(self.mismatched(expecting))
    }

    /// An expression up to `word`, which is left for the caller.
    fn until_word_kept(&mut self, word: &'static str) -> Result<Text, TrinoError> {
        self.expression(|r| r.is(word))
    }

    fn else_branch(&mut self) -> Result<Option<Vec<Stmt>>, TrinoError> {
        if self.eat("ELSE") {
            return Ok(Some(self.statements(&["END"])?));
        }
        Ok(None)
    }

    /// Where a routine body's RETURN value ends: the query (SELECT, WITH, VALUES, TABLE) or
    /// `, FUNCTION`.
    fn at_query_or_next_routine(&self) -> bool {
        ["SELECT", "WITH", "VALUES", "TABLE"]
            .iter()
            .any(|w| self.is(w))
            || (self.peek_is(&Token::Comma) && self.word_at(self.i + 1) == Some("FUNCTION"))
    }
}

/// The words the reader compares (unquoted, any case).
const KEYWORDS: [&str; 34] = [
    "WITH",
    "FUNCTION",
    "RETURNS",
    "RETURN",
    "LANGUAGE",
    "NOT",
    "DETERMINISTIC",
    "NULL",
    "ON",
    "INPUT",
    "CALLED",
    "SECURITY",
    "COMMENT",
    "BEGIN",
    "END",
    "DECLARE",
    "DEFAULT",
    "SET",
    "CASE",
    "WHEN",
    "THEN",
    "ELSE",
    "ELSEIF",
    "IF",
    "ITERATE",
    "LEAVE",
    "LOOP",
    "WHILE",
    "DO",
    "REPEAT",
    "UNTIL",
    "SELECT",
    "VALUES",
    "TABLE",
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::syntax::tokenize;

    fn routines(sql: &str) -> (Vec<RoutineSpec>, usize) {
        let (_, tokens) = tokenize(sql).expect("tokenizes");
        parse(sql, &tokens).expect("parses")
    }

    #[test]
    fn an_expression_body_ends_where_the_query_starts() {
        let sql = "WITH FUNCTION answer() RETURNS BIGINT RETURN 42 SELECT answer()";
        let (specs, query) = routines(sql);
        assert_eq!(&sql[query..], "SELECT answer()");
        let Stmt::Return(value) = &specs[0].body else {
            panic!("a RETURN body");
        };
        assert_eq!(value.of(sql), "42");
        assert_eq!(specs[0].returns.of(sql), "BIGINT");
    }

    #[test]
    fn routines_are_separated_by_commas_and_blocks_hold_their_statements() {
        let sql = "WITH FUNCTION a(x bigint) RETURNS bigint BEGIN DECLARE y, z bigint DEFAULT CASE WHEN x > 0 THEN 1 END; \
                   top: WHILE y < x DO SET y = y + 1; END WHILE; RETURN y; END, \
                   FUNCTION b() RETURNS varchar(3) RETURNS NULL ON NULL INPUT RETURN 'abc' WITH t AS (SELECT 1) SELECT a(2) FROM t";
        let (specs, query) = routines(sql);
        assert_eq!(specs.len(), 2);
        assert!(sql[query..].starts_with("WITH t AS"));
        let Stmt::Block {
            declarations,
            statements,
            ..
        } = &specs[0].body
        else {
            panic!("a block");
        };
        assert_eq!(declarations[0].names.len(), 2);
        assert_eq!(
            declarations[0].default.map(|d| d.of(sql)),
            Some("CASE WHEN x > 0 THEN 1 END")
        );
        assert!(matches!(&statements[0], Stmt::While { label: Some(l), .. } if l.value == "top"));
        assert!(statements[1].is_return());
        assert!(specs[1].null_on_null);
        assert_eq!(specs[1].returns.of(sql), "varchar(3)");
    }

    #[test]
    fn syntax_errors_are_trinos() {
        let (_, tokens) = tokenize("WITH FUNCTION x.a() RETURNS int RETURN 1 SELECT a()").unwrap();
        let error = parse(
            "WITH FUNCTION x.a() RETURNS int RETURN 1 SELECT a()",
            &tokens,
        )
        .expect_err("qualified");
        assert_eq!(
            error.to_string(),
            "line 1:6: Inline function names cannot be qualified: x.a"
        );
        let sql =
            "WITH FUNCTION f() RETURNS int BEGIN WHILE true DO END WHILE; RETURN 1; END SELECT f()";
        let (_, tokens) = tokenize(sql).unwrap();
        let error = parse(sql, &tokens).expect_err("empty loop body");
        assert!(
            error
                .to_string()
                .starts_with("line 1:51: mismatched input 'END'. Expecting: 'BEGIN'")
        );
    }
}
