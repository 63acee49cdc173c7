//! `(row).* AS (a, b)` and `t.* AS (a, b)` (SqlBase.g4 `primaryExpression '.' ASTERISK (AS
//! columnAliases)?`): sqlparser takes one alias after a wildcard, not a list, so the list
//! becomes one delimited identifier carrying the names as written (`"<mark>a\u{1}\"b\""`),
//! spanning them; the analysis reads it back with [`aliases`].

use sqlparser::tokenizer::{Span, Token, TokenWithSpan};

use super::token::{marker, next_significant, word_is};

/// Marks the identifier that carries a wildcard's alias list.
const MARK: char = '\u{F8FD}';
/// Between two names of the list.
const SEPARATOR: char = '\u{1}';

/// Rewrites every `.* AS ( name, … )` of `tokens` (all of them, whitespace included).
pub(crate) fn rewrite(tokens: &mut Vec<TokenWithSpan>) {
    let mut i = 0;
    while i < tokens.len() {
        if let Some(list) = alias_list_after(tokens, i) {
            let (open, close, names, first) = list;
            let span = Span::new(first, tokens[close].span.end);
            let text: Vec<String> = names.iter().map(|&k| tokens[k].token.to_string()).collect();
            let carried = marker(MARK, &text.join(&SEPARATOR.to_string()), span);
            tokens.splice(open..=close, [carried]);
        }
        i += 1;
    }
}

/// At a `*` right after `.`: the `(`, the `)`, the names' indexes and the first name's place of
/// an `AS (name, …)` after it.
type AliasList = (usize, usize, Vec<usize>, sqlparser::tokenizer::Location);

fn alias_list_after(tokens: &[TokenWithSpan], star: usize) -> Option<AliasList> {
    if tokens[star].token != Token::Mul {
        return None;
    }
    let before = (0..star)
        .rev()
        .find(|&k| super::token::is_significant(&tokens[k]))?;
    if tokens[before].token != Token::Period {
        return None;
    }
    let as_word = next_significant(tokens, star + 1).filter(|&k| word_is(&tokens[k], "as"))?;
    let open =
        next_significant(tokens, as_word + 1).filter(|&k| tokens[k].token == Token::LParen)?;
    let mut names = Vec::new();
    let mut k = open;
    loop {
        let name = next_significant(tokens, k + 1)
            .filter(|&n| matches!(tokens[n].token, Token::Word(_)))?;
        names.push(name);
        let after = next_significant(tokens, name + 1)?;
        match tokens[after].token {
            Token::Comma => k = after,
            Token::RParen => {
                let first = tokens[names[0]].span.start;
                return Some((open, after, names, first));
            }
            _ => return None,
        }
    }
}

/// The names a rewritten alias list carries, as written (a quoted one with its quotes), or
/// None for an identifier the person wrote.
pub(crate) fn aliases(identifier: &str) -> Option<Vec<&str>> {
    identifier
        .strip_prefix(MARK)
        .map(|list| list.split(SEPARATOR).collect())
}
