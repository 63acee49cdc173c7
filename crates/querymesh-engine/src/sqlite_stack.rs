//! The stack SQLite compiles a statement on. SQLite's parser keeps its stack on the heap, but
//! its name resolution, query planner and code generator recurse once or more per level of the
//! statement's nesting. Its own guard (`SQLITE_MAX_EXPR_DEPTH`) refused nesting Trino takes,
//! so the build turns it off (`.cargo/config.toml`) and this keeps what it guaranteed: a
//! statement nested deeper than the thread's stack holds compiles on a segment grown for it.
//!
//! The generated text bounds the recursion: `sqlite_expr` writes every operator in
//! parentheses of its own and every call, CASE and subquery in parentheses, so the deepest
//! parenthesis is the depth of the expression tree SQLite builds; and a SELECT can be compiled
//! inside another without parentheses between them (a CTE's body inside each statement that
//! reads it: a chain of 8,000 CTEs overflowed a worker's stack when only parentheses counted),
//! so every SELECT counts as a level too.

/// SQLite's stack per level, with room to spare: measured with SQLite 3.54 (optimised, as
/// every build compiles it), an `EXISTS (SELECT 1 WHERE …)` nest takes about 1.6 KiB a level,
/// a scalar subquery 1.1 KiB, an operator chain 0.55 KiB, a chain of CTEs 0.4 KiB.
const BYTES_PER_LEVEL: usize = 4 << 10;

/// What any statement takes besides its nesting, and what a grown segment keeps beyond it for
/// the functions the statement calls as it runs.
const BASE: usize = 256 << 10;
const HEADROOM: usize = 2 << 20;

/// How deep SQLite may recurse compiling generated SQL `sql`, from above: its deepest
/// parentheses plus its SELECTs, outside its string literals and quoted names.
pub fn depth(sql: &str) -> usize {
    let bytes = sql.as_bytes();
    let (mut depth, mut deepest, mut selects) = (0usize, 0usize, 0usize);
    let mut quote = None;
    for (i, &b) in bytes.iter().enumerate() {
        match quote {
            // A doubled quote closes and reopens: the same count either way.
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None => match b {
                b'\'' | b'"' | b'`' => quote = Some(b),
                b'(' => {
                    depth += 1;
                    deepest = deepest.max(depth);
                }
                b')' => depth = depth.saturating_sub(1),
                b'S' | b's' if is_select_at(bytes, i) => selects += 1,
                _ => {}
            },
        }
    }
    deepest + selects
}

/// Whether the word `SELECT` (any case) starts at `i`.
fn is_select_at(bytes: &[u8], i: usize) -> bool {
    let word = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_';
    bytes
        .get(i..i + 6)
        .is_some_and(|w| w.eq_ignore_ascii_case(b"SELECT"))
        && !i
            .checked_sub(1)
            .and_then(|p| bytes.get(p))
            .is_some_and(word)
        && !bytes.get(i + 6).is_some_and(word)
}

/// `f` (SQLite compiling and running a statement `depth` deep) on a stack that holds it: the
/// thread's own when enough is left, else a segment grown for it.
pub fn with_stack_for<R>(depth: usize, f: impl FnOnce() -> R) -> R {
    let needed = BASE.saturating_add(depth.saturating_mul(BYTES_PER_LEVEL));
    stacker::maybe_grow(needed, needed.saturating_add(HEADROOM), f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_counts_parentheses_and_selects_outside_literals_and_quoted_names() {
        assert_eq!(depth("SELECT 1"), 1);
        assert_eq!(depth("SELECT ((1 + 2) * (3))"), 3);
        assert_eq!(depth("SELECT '((((' || \"a((\" || (1)"), 2);
        assert_eq!(depth("SELECT 'it''s (' || ((x))"), 3);
        assert_eq!(depth("SELECT (SELECT (select 1))"), 5);
        // A word that contains SELECT, or one in a literal or a quoted name, is not one.
        assert_eq!(
            depth("SELECT x_select, selected, \"SELECT\", 'select' FROM t"),
            1
        );
    }

    /// A statement deeper than a worker's stack holds is compiled and run on a grown segment
    /// (SQLite's own guard is off in this build): 4,000 levels of operators, 1,500 nested
    /// EXISTS (SQLite's deepest per level) and a chain of 6,000 CTEs (nested without
    /// parentheses), on a thread of a worker's 2 MiB.
    #[test]
    fn deep_statements_compile_on_a_grown_stack() {
        let chain = format!("SELECT {}1{}", "(".repeat(4_000), " + 1)".repeat(4_000));
        let exists = format!(
            "SELECT {}1{}",
            "EXISTS (SELECT 1 WHERE ".repeat(1_500),
            ")".repeat(1_500)
        );
        let ctes = format!(
            "WITH t0 AS (SELECT 1 AS x), {} SELECT x FROM t5999",
            (1..6_000)
                .map(|i| format!("t{i} AS (SELECT x + 1 AS x FROM t{})", i - 1))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let answers = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || {
                let conn = rusqlite::Connection::open_in_memory().expect("an in-memory database");
                [chain, exists, ctes].map(|sql| {
                    with_stack_for(depth(&sql), || {
                        conn.query_row(&sql, [], |r| r.get::<_, i64>(0))
                    })
                })
            })
            .expect("a thread")
            .join()
            .expect("no overflow");
        let [chain, exists, ctes] = answers;
        assert_eq!(chain.expect("the chain answers"), 4_001);
        assert_eq!(exists.expect("the EXISTS nest answers"), 1);
        assert_eq!(ctes.expect("the CTE chain answers"), 6_000);
    }
}
