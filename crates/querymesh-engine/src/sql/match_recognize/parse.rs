//! Trino's pattern text (what stands inside `PATTERN ( … )`) into a [`RowPattern`]:
//!
//! ```text
//! pattern     := alternation
//! alternation := concatenation ('|' concatenation)*
//! concatenation := quantified+
//! quantified  := primary quantifier?
//! primary     := label | '(' ')' | '(' alternation ')' | '^' | '$'
//!              | PERMUTE '(' alternation (',' alternation)* ')' | '{-' alternation '-}'
//! quantifier  := ('*' | '+' | '?') '?'?
//!              | '{' n '}' '?'? | '{' n? ',' m? '}' '?'?
//! ```
//!
//! (SqlBase.g4's `rowPattern`, `patternPrimary`, `patternQuantifier`.) The checks Trino's
//! analysis makes of quantifier bounds (PatternRecognitionAnalyzer) are made here too, after
//! the whole text has parsed, so that a syntax error anywhere comes first as in Trino.

use super::error::{PatternError, PatternErrorKind};
use super::lexer::{Spanned, Token, tokenize};
use super::pattern::{Anchor, PatternLabels, Quantifier, RowPattern, canonical_name};

/// How deep groups, exclusions and permutations may nest: far beyond any real pattern, well
/// within the stack the parse, compilation and drop of the tree recurse on.
pub const MAX_NESTING: usize = 200;

/// The largest quantifier bound Trino accepts (`Integer.MAX_VALUE`).
const MAX_BOUND: u64 = i32::MAX as u64;

/// What may start a pattern primary, for messages.
const EXPECTING_PRIMARY: &str = "'$', '(', '^', '{-', 'PERMUTE', <identifier>";

/// Parses `text`, resolving each label through `labels` (adding those it does not know).
pub fn parse_pattern(text: &str, labels: &mut PatternLabels) -> Result<RowPattern, PatternError> {
    let mut parser = Parser {
        tokens: tokenize(text)?,
        position: 0,
        depth: 0,
        labels,
        bound_error: None,
    };
    let pattern = parser.alternation()?;
    parser.expect_end()?;
    match parser.bound_error {
        Some(error) => Err(error),
        None => Ok(pattern),
    }
}

struct Parser<'l> {
    tokens: Vec<Spanned>,
    position: usize,
    depth: usize,
    labels: &'l mut PatternLabels,
    /// The first quantifier bound Trino's analysis refuses, reported once the text parses.
    bound_error: Option<PatternError>,
}

impl Parser<'_> {
    fn peek(&self) -> &Token {
        self.tokens
            .get(self.position)
            .map_or(&Token::End, |spanned| &spanned.token)
    }

    /// The token after the next one.
    fn peek_second(&self) -> &Token {
        self.tokens
            .get(self.position + 1)
            .map_or(&Token::End, |spanned| &spanned.token)
    }

    fn offset(&self) -> usize {
        self.tokens
            .get(self.position)
            .or(self.tokens.last())
            .map_or(0, |spanned| spanned.offset)
    }

    fn advance(&mut self) {
        if self.position < self.tokens.len() {
            self.position += 1;
        }
    }

    fn eat(&mut self, token: &Token) -> bool {
        if self.peek() == token {
            self.advance();
            return true;
        }
        false
    }

    /// Trino's message for an unexpected token.
    fn mismatched(&self, expecting: &str) -> PatternError {
        let text = self
            .tokens
            .get(self.position)
            .map_or("<EOF>", |spanned| spanned.text.as_str());
        PatternError::syntax(
            format!("mismatched input '{text}'. Expecting: {expecting}"),
            self.offset(),
        )
    }

    fn expect(&mut self, token: &Token, expecting: &str) -> Result<(), PatternError> {
        if self.eat(token) {
            return Ok(());
        }
        Err(self.mismatched(expecting))
    }

    fn expect_end(&self) -> Result<(), PatternError> {
        if *self.peek() == Token::End {
            return Ok(());
        }
        Err(self.mismatched(&format!("'|', <EOF>, {EXPECTING_PRIMARY}")))
    }

    fn alternation(&mut self) -> Result<RowPattern, PatternError> {
        let mut parts = vec![self.concatenation()?];
        while self.eat(&Token::Bar) {
            parts.push(self.concatenation()?);
        }
        Ok(single_or(parts, RowPattern::Alternation))
    }

    fn concatenation(&mut self) -> Result<RowPattern, PatternError> {
        let mut parts = vec![self.quantified()?];
        while starts_primary(self.peek()) {
            parts.push(self.quantified()?);
        }
        Ok(single_or(parts, RowPattern::Concatenation))
    }

    fn quantified(&mut self) -> Result<RowPattern, PatternError> {
        let primary = self.primary()?;
        match self.quantifier()? {
            Some(quantifier) => Ok(RowPattern::quantified(primary, quantifier)),
            None => Ok(primary),
        }
    }

    fn primary(&mut self) -> Result<RowPattern, PatternError> {
        let token = self.peek().clone();
        match token {
            Token::Identifier { name, delimited } => {
                if !delimited
                    && name.eq_ignore_ascii_case("PERMUTE")
                    && *self.peek_second() == Token::LeftParen
                {
                    return self.nested(Self::permutation);
                }
                self.advance();
                let label = self
                    .labels
                    .resolve_or_add(&canonical_name(&name, delimited));
                Ok(RowPattern::Label(label))
            }
            Token::LeftParen if *self.peek_second() == Token::RightParen => {
                self.advance();
                self.advance();
                Ok(RowPattern::Empty)
            }
            Token::LeftParen => self.nested(|parser| {
                parser.advance();
                let pattern = parser.alternation()?;
                parser.expect(&Token::RightParen, "')', '|'")?;
                Ok(pattern)
            }),
            Token::ExclusionStart => self.nested(|parser| {
                parser.advance();
                let pattern = parser.alternation()?;
                parser.expect(&Token::ExclusionEnd, "'-}', '|'")?;
                Ok(RowPattern::excluded(pattern))
            }),
            Token::Caret => {
                self.advance();
                Ok(RowPattern::Anchor(Anchor::PartitionStart))
            }
            Token::Dollar => {
                self.advance();
                Ok(RowPattern::Anchor(Anchor::PartitionEnd))
            }
            _ => Err(self.mismatched(EXPECTING_PRIMARY)),
        }
    }

    /// `PERMUTE ( p, … )`, its keyword next.
    fn permutation(&mut self) -> Result<RowPattern, PatternError> {
        self.advance();
        self.expect(&Token::LeftParen, "'('")?;
        let mut parts = vec![self.alternation()?];
        while self.eat(&Token::Comma) {
            parts.push(self.alternation()?);
        }
        self.expect(&Token::RightParen, "')', ',', '|'")?;
        Ok(RowPattern::Permutation(parts))
    }

    /// Parses one level of nesting, refusing a pattern nested deeper than [`MAX_NESTING`].
    fn nested(
        &mut self,
        parse: impl FnOnce(&mut Self) -> Result<RowPattern, PatternError>,
    ) -> Result<RowPattern, PatternError> {
        if self.depth >= MAX_NESTING {
            return Err(PatternError::new(
                PatternErrorKind::TooLarge,
                format!("Row pattern is nested more than {MAX_NESTING} levels deep"),
                self.offset(),
            ));
        }
        self.depth += 1;
        let pattern = parse(self);
        self.depth -= 1;
        pattern
    }

    fn quantifier(&mut self) -> Result<Option<Quantifier>, PatternError> {
        let quantifier = match self.peek() {
            Token::Star => {
                self.advance();
                Quantifier::zero_or_more(!self.eat(&Token::Question))
            }
            Token::Plus => {
                self.advance();
                Quantifier::one_or_more(!self.eat(&Token::Question))
            }
            Token::Question => {
                self.advance();
                Quantifier::zero_or_one(!self.eat(&Token::Question))
            }
            Token::LeftBrace => self.range()?,
            _ => return Ok(None),
        };
        Ok(Some(quantifier))
    }

    /// `{n}`, `{n,}`, `{,m}`, `{n,m}`, `{,}`, each maybe followed by `?`.
    fn range(&mut self) -> Result<Quantifier, PatternError> {
        let start = self.offset();
        self.advance();
        let at_least = self.integer();
        let at_most = if at_least.is_some() && self.eat(&Token::RightBrace) {
            at_least
        } else {
            self.expect(&Token::Comma, "',', '}'")?;
            let at_most = self.integer();
            self.expect(&Token::RightBrace, "'}'")?;
            at_most
        };
        let greedy = !self.eat(&Token::Question);
        if let Err(error) = check_bounds(at_least, at_most) {
            let (kind, message) = error;
            self.bound_error
                .get_or_insert_with(|| PatternError::new(kind, message, start));
        }
        let min = at_least.and_then(|n| u32::try_from(n).ok()).unwrap_or(0);
        let max = at_most.and_then(|n| u32::try_from(n).ok());
        Ok(Quantifier::range(min, max, greedy))
    }

    fn integer(&mut self) -> Option<u64> {
        if let Token::Integer(value) = *self.peek() {
            self.advance();
            return Some(value);
        }
        None
    }
}

/// Trino's analysis of a range quantifier's bounds, in its order and words.
fn check_bounds(
    at_least: Option<u64>,
    at_most: Option<u64>,
) -> Result<(), (PatternErrorKind, String)> {
    let out_of_range = |message: String| (PatternErrorKind::NumericValueOutOfRange, message);
    if let Some(value) = at_least
        && value > MAX_BOUND
    {
        return Err(out_of_range(format!(
            "Pattern quantifier lower bound must not exceed {MAX_BOUND}"
        )));
    }
    if let Some(value) = at_most {
        if value < 1 {
            return Err(out_of_range(
                "Pattern quantifier upper bound must be greater than or equal to 1".to_owned(),
            ));
        }
        if value > MAX_BOUND {
            return Err(out_of_range(format!(
                "Pattern quantifier upper bound must not exceed {MAX_BOUND}"
            )));
        }
    }
    if let (Some(low), Some(high)) = (at_least, at_most)
        && low > high
    {
        return Err((
            PatternErrorKind::InvalidRange,
            "Pattern quantifier lower bound must not exceed upper bound".to_owned(),
        ));
    }
    Ok(())
}

fn starts_primary(token: &Token) -> bool {
    matches!(
        token,
        Token::Identifier { .. }
            | Token::LeftParen
            | Token::ExclusionStart
            | Token::Caret
            | Token::Dollar
    )
}

fn single_or(mut parts: Vec<RowPattern>, combine: fn(Vec<RowPattern>) -> RowPattern) -> RowPattern {
    if parts.len() == 1
        && let Some(only) = parts.pop()
    {
        return only;
    }
    combine(parts)
}
