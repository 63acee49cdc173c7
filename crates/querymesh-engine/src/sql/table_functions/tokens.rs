//! A table argument given as a query, `TABLE(SELECT …)` (docs functions/table, "Table
//! arguments"), which sqlparser cannot read as an argument: before parsing, the query gets a
//! pair of parentheses, `TABLE((SELECT …))`, which it reads as a subquery. The added tokens
//! carry the opening parenthesis's place, so error positions stay where they were written.

use sqlparser::tokenizer::{Token, TokenWithSpan};

use super::super::respell::closing;

fn is_word(t: &TokenWithSpan, word: &str) -> bool {
    matches!(&t.token, Token::Word(w) if w.quote_style.is_none() && w.value.eq_ignore_ascii_case(word))
}

fn significant(t: &TokenWithSpan) -> bool {
    !matches!(t.token, Token::Whitespace(_))
}

/// Wraps the query of each `TABLE(SELECT|WITH|VALUES …)` in parentheses.
pub(in super::super) fn wrap_table_queries(tokens: &mut Vec<TokenWithSpan>) {
    let mut i = 0;
    while i < tokens.len() {
        let next = |from: usize| (from..tokens.len()).find(|&j| significant(&tokens[j]));
        let open = next(i + 1).filter(|&j| tokens[j].token == Token::LParen);
        let query = open.and_then(|o| next(o + 1)).filter(|&q| {
            ["SELECT", "WITH", "VALUES"]
                .iter()
                .any(|w| is_word(&tokens[q], w))
        });
        if is_word(&tokens[i], "TABLE")
            && let (Some(open), Some(_)) = (open, query)
            && let Some(close) = closing(tokens, open)
        {
            let span = tokens[open].span;
            tokens.insert(close, TokenWithSpan::new(Token::RParen, span));
            tokens.insert(open + 1, TokenWithSpan::new(Token::LParen, span));
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use sqlparser::tokenizer::Tokenizer;

    use super::wrap_table_queries;
    use crate::sql::dialect::TrinoDialect;

    fn wrapped(sql: &str) -> String {
        let mut tokens = Tokenizer::new(&TrinoDialect, sql)
            .tokenize_with_location()
            .unwrap_or_default();
        wrap_table_queries(&mut tokens);
        tokens.iter().map(|t| t.token.to_string()).collect()
    }

    #[test]
    fn a_query_in_table_gets_parentheses_and_a_name_does_not() {
        assert_eq!(
            wrapped("f(input => TABLE(SELECT 1 a), x => TABLE(t))"),
            "f(input => TABLE((SELECT 1 a)), x => TABLE(t))"
        );
        assert_eq!(wrapped("TABLE(WITH w AS (SELECT 1) SELECT * FROM w)"), "TABLE((WITH w AS (SELECT 1) SELECT * FROM w))");
        assert_eq!(wrapped("SELECT * FROM TABLE(seq(stop => 1))"), "SELECT * FROM TABLE(seq(stop => 1))");
    }
}
