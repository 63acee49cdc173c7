//! [`Cursor`]: the statements' reader of significant tokens, one word or name at a time, with
//! Trino's `mismatched input` error where it stops.

use sqlparser::tokenizer::{Token, TokenWithSpan};

use crate::error::{ErrorName, Position, TrinoError, error_at};

/// Significant tokens, read from the front.
pub(crate) struct Cursor<'t> {
    tokens: &'t [TokenWithSpan],
    at: usize,
}

impl<'t> Cursor<'t> {
    pub(crate) fn new(tokens: &'t [TokenWithSpan]) -> Self {
        Self { tokens, at: 0 }
    }

    /// A cursor that has taken the first `taken` tokens (a statement's words already read).
    pub(crate) fn after(tokens: &'t [TokenWithSpan], taken: usize) -> Self {
        Self { tokens, at: taken }
    }

    /// The tokens not taken yet.
    pub(crate) fn rest(&self) -> &'t [TokenWithSpan] {
        self.tokens.get(self.at..).unwrap_or_default()
    }

    /// How many tokens were taken.
    pub(crate) fn taken(&self) -> usize {
        self.at
    }

    /// Takes the next token, whatever it is.
    pub(crate) fn take(&mut self) -> Option<&'t TokenWithSpan> {
        let token = self.tokens.get(self.at)?;
        self.at += 1;
        Some(token)
    }

    pub(crate) fn peek(&self) -> Option<&TokenWithSpan> {
        self.tokens.get(self.at)
    }

    /// Where the statement starts: Trino places the errors of SHOW CREATE there.
    pub(crate) fn start(&self) -> Option<Position> {
        self.tokens.first().map(|t| Position::from(t.span.start))
    }

    pub(crate) fn location(&self) -> Option<Position> {
        self.peek().map(|t| Position::from(t.span.start))
    }

    pub(crate) fn keyword(&mut self, word: &str) -> bool {
        if let Some(TokenWithSpan {
            token: Token::Word(w),
            ..
        }) = self.peek()
            && w.quote_style.is_none()
            && w.value.eq_ignore_ascii_case(word)
        {
            self.at += 1;
            return true;
        }
        false
    }

    pub(crate) fn error(&self) -> TrinoError {
        let found = self
            .peek()
            .map_or("<EOF>".to_string(), |t| t.token.to_string());
        error_at(
            ErrorName::SyntaxError,
            self.location(),
            format!("mismatched input '{found}'"),
        )
    }

    /// A dotted name, lower-cased.
    pub(crate) fn name(&mut self) -> Result<Vec<String>, TrinoError> {
        let mut parts = Vec::new();
        loop {
            match self.peek() {
                Some(TokenWithSpan {
                    token: Token::Word(w),
                    ..
                }) => {
                    parts.push(w.value.to_lowercase());
                    self.at += 1;
                }
                _ => return Err(self.error()),
            }
            match self.peek() {
                Some(TokenWithSpan {
                    token: Token::Period,
                    ..
                }) => self.at += 1,
                _ => return Ok(parts),
            }
        }
    }

    /// `[LIKE 'pattern' [ESCAPE 'c']]` as written, not checked yet.
    pub(crate) fn like_text(&mut self) -> Result<Option<(String, Option<String>)>, TrinoError> {
        if !self.keyword("LIKE") {
            return Ok(None);
        }
        let pattern = self.string()?;
        let escape = if self.keyword("ESCAPE") {
            Some(self.string()?)
        } else {
            None
        };
        Ok(Some((pattern, escape)))
    }

    fn string(&mut self) -> Result<String, TrinoError> {
        match self.peek() {
            Some(TokenWithSpan {
                token: Token::SingleQuotedString(s),
                ..
            }) => {
                let s = s.clone();
                self.at += 1;
                Ok(s)
            }
            _ => Err(self.error()),
        }
    }

    pub(crate) fn end(&self) -> Result<(), TrinoError> {
        match self.peek() {
            None => Ok(()),
            Some(_) => Err(self.error()),
        }
    }
}
