//! The SQL/JSON functions' own syntax (Trino's SqlBase.g4 `jsonExists`, `jsonValue`,
//! `jsonQuery`, `jsonArray`, `jsonObject`), which sqlparser cannot read: clauses such as
//! `WITH ARRAY WRAPPER`, `DEFAULT x ON EMPTY`, `KEEP QUOTES`, `ABSENT ON NULL`,
//! `WITH UNIQUE KEYS`, `FORMAT JSON` and the `KEY k VALUE v` / `k : v` members.
//!
//! Before parsing, each clause inside such a call becomes one extra argument: a delimited
//! identifier carrying the clause's words (marked so it is never a name the person wrote),
//! spanning the clause's tokens so that error positions stay where the person wrote them.
//! `DEFAULT expr ON EMPTY` and each `PASSING expr AS name` become a marker followed by `expr`
//! as its own argument, and a json_object's members become `key, value` pairs after an
//! `object` marker.
//! querymesh-engine/src/sql/analyze/calls/sql_json.rs reads them back.

use sqlparser::tokenizer::{Span, Token, TokenWithSpan, Whitespace};

use super::token::{self, closing, is_significant, word_is};

/// Marks a clause's identifier.
pub const MARK: char = '\u{F8FE}';

const CALLS: [&str; 5] = [
    "json_exists",
    "json_value",
    "json_query",
    "json_array",
    "json_object",
];

/// The words of a clause marker, if `name` is one.
pub fn marker_text(name: &str) -> Option<&str> {
    name.strip_prefix(MARK)
}

/// A clause's marker, spanning the clause's tokens.
fn marker(words: &str, span: Span) -> TokenWithSpan {
    token::marker(MARK, words, span)
}

fn comma(span: Span) -> TokenWithSpan {
    TokenWithSpan::new(Token::Comma, span)
}

fn space(span: Span) -> TokenWithSpan {
    TokenWithSpan::new(Token::Whitespace(Whitespace::Space), span)
}

/// Rewrites every SQL/JSON call in `tokens` (all tokens, whitespace included).
pub fn rewrite(tokens: &mut Vec<TokenWithSpan>) {
    if !tokens.iter().any(|t| CALLS.iter().any(|c| word_is(t, c))) {
        return;
    }
    let taken = std::mem::take(tokens);
    *tokens = process(taken);
}

fn process(tokens: Vec<TokenWithSpan>) -> Vec<TokenWithSpan> {
    let mut out = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        let call = CALLS.iter().find(|c| word_is(&tokens[i], c)).copied();
        let open = (i + 1..tokens.len()).find(|&j| is_significant(&tokens[j]));
        if let (Some(call), Some(open)) = (call, open)
            && tokens[open].token == Token::LParen
            && let Some(close) = closing(&tokens, open)
        {
            out.extend(tokens[i..=open].iter().cloned());
            let inner = process(tokens[open + 1..close].to_vec());
            let opened_at = tokens[open].span;
            out.extend(clauses(call, inner, opened_at));
            out.push(tokens[close].clone());
            i = close + 1;
            continue;
        }
        out.push(tokens[i].clone());
        i += 1;
    }
    out
}

/// A clause read at the top level of a call: its words and how many tokens it took.
fn clause_at(call: &str, t: &[TokenWithSpan], i: usize) -> Option<(String, usize)> {
    // The significant tokens from i: (index, token).
    let sig: Vec<usize> = (i..t.len())
        .filter(|&j| is_significant(&t[j]))
        .take(6)
        .collect();
    let w = |n: usize, s: &str| sig.get(n).is_some_and(|&j| word_is(&t[j], s));
    let end = |n: usize| sig.get(n - 1).map_or(t.len(), |&j| j + 1) - i;
    let on_target = |n: usize| -> Option<&'static str> {
        if !w(n, "on") {
            return None;
        }
        ["empty", "error", "null"].into_iter().find(|x| w(n + 1, x))
    };
    let object = call == "json_object";
    let array = call == "json_array";
    if w(0, "format") && w(1, "json") {
        if w(2, "encoding") && sig.len() > 3 {
            let enc = match &t[sig[3]].token {
                Token::Word(x) => x.value.to_lowercase(),
                _ => String::new(),
            };
            return Some((format!("format json encoding {enc}"), end(4)));
        }
        return Some(("format json".into(), end(2)));
    }
    if object && (w(0, "with") || w(0, "without")) && w(1, "unique") {
        let n = if w(2, "keys") { 3 } else { 2 };
        let words = if w(0, "with") {
            "with unique keys"
        } else {
            "without unique keys"
        };
        return Some((words.into(), end(n)));
    }
    if !(object || array) {
        if w(0, "without") && (w(1, "wrapper") || (w(1, "array") && w(2, "wrapper"))) {
            let n = if w(1, "wrapper") { 2 } else { 3 };
            return Some(("without wrapper".into(), end(n)));
        }
        if w(0, "with") {
            let mut n = 1;
            let mut kind = "unconditional";
            if w(1, "conditional") {
                kind = "conditional";
                n = 2;
            } else if w(1, "unconditional") {
                n = 2;
            }
            if w(n, "array") {
                n += 1;
            }
            if w(n, "wrapper") {
                return Some((format!("with {kind} wrapper"), end(n + 1)));
            }
            return None;
        }
        if (w(0, "keep") || w(0, "omit")) && w(1, "quotes") {
            let n = if w(2, "on") && w(3, "scalar") && w(4, "string") {
                5
            } else {
                2
            };
            let words = if w(0, "keep") {
                "keep quotes"
            } else {
                "omit quotes"
            };
            return Some((words.into(), end(n)));
        }
    }
    for behaviour in ["error", "null", "true", "false", "unknown", "absent"] {
        if w(0, behaviour)
            && let Some(target) = on_target(1)
        {
            return Some((format!("{behaviour} on {target}"), end(3)));
        }
    }
    if w(0, "empty") {
        for what in ["array", "object"] {
            if w(1, what)
                && let Some(target) = on_target(2)
            {
                return Some((format!("empty {what} on {target}"), end(4)));
            }
        }
        if let Some(target) = on_target(1) {
            return Some((format!("empty array on {target}"), end(3)));
        }
    }
    None
}

/// The call's arguments with its clauses as marker arguments.
fn clauses(call: &str, t: Vec<TokenWithSpan>, opened_at: Span) -> Vec<TokenWithSpan> {
    let mut out: Vec<TokenWithSpan> = Vec::with_capacity(t.len() + 8);
    let object = call == "json_object";
    if object && t.iter().any(is_significant) {
        out.push(marker("object", opened_at));
        out.push(comma(opened_at));
    }
    // Whether the last significant token written ends an argument (a clause then needs a
    // comma before its marker).
    let needs_comma = |out: &[TokenWithSpan]| {
        out.iter()
            .rev()
            .find(|t| is_significant(t))
            .is_some_and(|t| t.token != Token::Comma)
    };
    let mut depth = 0usize;
    let mut i = 0;
    // In a json_object, whether the next significant token starts a member (KEY may lead).
    let mut member_start = true;
    while i < t.len() {
        let tok = &t[i];
        match tok.token {
            Token::LParen => depth += 1,
            Token::RParen => depth = depth.saturating_sub(1),
            _ => {}
        }
        if depth == 0 && is_significant(tok) {
            if let Some((words, len)) = clause_at(call, &t, i) {
                let span = Span::new(tok.span.start, t[i + len - 1].span.end);
                if needs_comma(&out) {
                    out.push(comma(span));
                }
                out.push(marker(&words, span));
                i += len;
                continue;
            }
            if word_is(tok, "default") && !object && call != "json_array" {
                // DEFAULT expr ON EMPTY|ERROR: the marker, then expr as an argument.
                let mut d = 0usize;
                let mut j = i + 1;
                let mut target = None;
                while j < t.len() {
                    match t[j].token {
                        Token::LParen => d += 1,
                        Token::RParen => d = d.saturating_sub(1),
                        _ => {}
                    }
                    if d == 0 && word_is(&t[j], "on") {
                        let next = (j + 1..t.len()).find(|&k| is_significant(&t[k]));
                        if let Some(k) = next
                            && (word_is(&t[k], "empty") || word_is(&t[k], "error"))
                        {
                            target = Some((j, k));
                            break;
                        }
                    }
                    j += 1;
                }
                if let Some((on, k)) = target {
                    let which = if word_is(&t[k], "empty") {
                        "empty"
                    } else {
                        "error"
                    };
                    let span = tok.span;
                    if needs_comma(&out) {
                        out.push(comma(span));
                    }
                    out.push(marker(&format!("default on {which}"), span));
                    out.push(comma(span));
                    out.extend(t[i + 1..on].iter().cloned());
                    out.push(space(t[on].span));
                    i = k + 1;
                    continue;
                }
            }
            if word_is(tok, "passing") {
                // PASSING e AS name [FORMAT JSON], …: per item a marker naming the variable
                // (unquoted names uppercased, as Trino's identifiers are) and `e`.
                let mut j = i + 1;
                let mut d = 0usize;
                let mut items = vec![(i + 1, None)];
                while j < t.len() {
                    match t[j].token {
                        Token::LParen => d += 1,
                        Token::RParen => d = d.saturating_sub(1),
                        Token::Comma if d == 0 => items.push((j + 1, None)),
                        _ => {}
                    }
                    let format =
                        clause_at(call, &t, j).is_some_and(|(w, _)| w.starts_with("format json"));
                    if d == 0
                        && ((clause_at(call, &t, j).is_some() && !format)
                            || word_is(&t[j], "default")
                            || word_is(&t[j], "returning"))
                    {
                        break;
                    }
                    if d == 0
                        && word_is(&t[j], "as")
                        && let Some(last) = items.last_mut()
                    {
                        last.1 = Some(j);
                    }
                    j += 1;
                }
                let span = Span::new(tok.span.start, t[j - 1].span.end);
                let ends: Vec<usize> = items
                    .iter()
                    .skip(1)
                    .map(|(start, _)| start - 1)
                    .chain([j])
                    .collect();
                for ((start, as_at), end) in items.into_iter().zip(ends) {
                    let Some(as_at) = as_at else {
                        out.push(comma(span));
                        out.push(marker("passing", span));
                        continue;
                    };
                    let name =
                        t[as_at + 1..end]
                            .iter()
                            .find(|x| is_significant(x))
                            .map(|x| match &x.token {
                                Token::Word(w) if w.quote_style == Some('"') => w.value.clone(),
                                Token::Word(w) => w.value.to_uppercase(),
                                other => other.to_string(),
                            });
                    let mut expr_end = as_at;
                    let mut format = false;
                    // `e FORMAT JSON AS name`: the FORMAT clause belongs to the value.
                    for k in start..as_at {
                        if clause_at(call, &t, k).is_some_and(|(w, _)| w.starts_with("format json"))
                        {
                            expr_end = k;
                            format = true;
                            break;
                        }
                    }
                    let item_span = t.get(start).map_or(span, |x| x.span);
                    if needs_comma(&out) {
                        out.push(comma(item_span));
                    }
                    let kind = if format {
                        "passing json"
                    } else {
                        "passing value"
                    };
                    out.push(marker(
                        &format!("{kind} {}", name.unwrap_or_default()),
                        item_span,
                    ));
                    out.push(comma(item_span));
                    out.extend(t[start..expr_end].iter().cloned());
                }
                i = j;
                continue;
            }
            if word_is(tok, "returning") {
                // RETURNING type: the type's text up to the next clause.
                let mut j = i + 1;
                let mut d = 0usize;
                while j < t.len() {
                    match t[j].token {
                        Token::LParen => d += 1,
                        Token::RParen => d = d.saturating_sub(1),
                        _ => {}
                    }
                    if d == 0 && (clause_at(call, &t, j).is_some() || word_is(&t[j], "default")) {
                        break;
                    }
                    j += 1;
                }
                let text: String = t[i + 1..j].iter().map(|x| x.token.to_string()).collect();
                let span = Span::new(tok.span.start, t[j - 1].span.end);
                if needs_comma(&out) {
                    out.push(comma(span));
                }
                out.push(marker(&format!("returning {}", text.trim()), span));
                i = j;
                continue;
            }
            if object {
                if member_start && word_is(tok, "key") {
                    let next = (i + 1..t.len()).find(|&k| is_significant(&t[k]));
                    // `KEY` leads a member unless it is the key itself (`key VALUE 1`).
                    if next.is_some_and(|k| !word_is(&t[k], "value") && t[k].token != Token::Colon)
                    {
                        out.push(space(tok.span));
                        i += 1;
                        member_start = false;
                        continue;
                    }
                }
                if word_is(tok, "value") || tok.token == Token::Colon {
                    out.push(comma(tok.span));
                    i += 1;
                    member_start = false;
                    continue;
                }
                member_start = tok.token == Token::Comma;
            }
        }
        out.push(tok.clone());
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlparser::tokenizer::Tokenizer;

    fn rewritten(sql: &str) -> String {
        let dialect = sqlparser::dialect::GenericDialect {};
        let mut tokens = Tokenizer::new(&dialect, sql)
            .tokenize_with_location()
            .unwrap_or_default();
        rewrite(&mut tokens);
        tokens
            .iter()
            .map(|t| t.token.to_string().replace(MARK, "~"))
            .collect()
    }

    #[test]
    fn clauses_become_marker_arguments() {
        assert_eq!(
            rewritten(
                "SELECT json_query(x, 'lax $' WITH ARRAY WRAPPER OMIT QUOTES ON SCALAR STRING)"
            ),
            r#"SELECT json_query(x, 'lax $' ,"~with unconditional wrapper" ,"~omit quotes")"#
        );
        assert_eq!(
            rewritten(
                "SELECT json_value(x, 'lax $' RETURNING bigint DEFAULT -1 ON EMPTY ERROR ON ERROR)"
            ),
            r#"SELECT json_value(x, 'lax $' ,"~returning bigint","~default on empty", -1   ,"~error on error")"#
        );
        assert_eq!(
            rewritten(
                "SELECT json_object(KEY 'a' VALUE 1, 'b' : json_array(1, null ABSENT ON NULL) WITH UNIQUE KEYS)"
            ),
            r#"SELECT json_object("~object",  'a' , 1, 'b' , json_array(1, null ,"~absent on null") ,"~with unique keys")"#
        );
        assert_eq!(rewritten("SELECT json_array()"), "SELECT json_array()");
        assert_eq!(
            rewritten("SELECT json_exists(x FORMAT JSON, 'lax $' UNKNOWN ON ERROR)"),
            r#"SELECT json_exists(x ,"~format json", 'lax $' ,"~unknown on error")"#
        );
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 512, ..Default::default() })]

        /// Any arrangement of the clauses' words inside a call rewrites without a panic.
        #[test]
        fn arbitrary_clause_words_never_panic(
            words in proptest::collection::vec(
                proptest::sample::select(vec![
                    "json_value(", "json_object(", "json_array(", "(", ")", ",", "x", "'$'",
                    "ON", "EMPTY", "ERROR", "NULL", "DEFAULT", "WITH", "ARRAY", "WRAPPER",
                    "KEY", "VALUE", ":", "FORMAT", "JSON", "ENCODING", "RETURNING", "PASSING",
                    "OMIT", "QUOTES", "UNIQUE", "ABSENT",
                ]),
                0..20,
            )
        ) {
            let _ = rewritten(&format!("SELECT {}", words.join(" ")));
        }
    }
}
