//! Registering a `qm_*` scalar function, and its twin for `try()`.
//!
//! Trino's `try(x)` returns NULL where evaluating `x` raises one of a few errors (TryFunction:
//! division by zero, invalid cast or function argument, numeric value out of range, and the
//! JSON and path errors); others still fail the query. SQLite has no way to catch an error
//! inside an expression, so every function registered here gets a twin, `<name>_in_try`,
//! that answers NULL instead of raising one of those errors, and `try(x)` lowers to `x` with
//! its calls renamed to their twins ([`in_try`]); a connection gets the twins the first time
//! it prepares a statement that calls one ([`register_twins`]). Errors no function raises
//! can't reach `try`: SQLite's own (which is why `x / 0` is a checked `qm_*` call).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, LazyLock, Mutex};

use querymesh_values::error::ErrorName;
use rusqlite::functions::{Context, FunctionFlags};
use rusqlite::types::ToSql;
use rusqlite::{Connection, Error};

use super::FnError;

/// Registers one function's twin on a connection.
type Registrar = Box<dyn Fn(&Connection) -> rusqlite::Result<()> + Send + Sync>;

/// Every function registered through [`define`] (by name and argument count), with what
/// registers its twin. Twins are registered on a connection only when a statement there calls
/// one ([`register_twins`]): most connections never run a `try()`, and registering them all
/// up front would double the cost of opening a connection.
static TWINS: LazyLock<Mutex<BTreeMap<(&'static str, i32), Registrar>>> =
    LazyLock::new(|| Mutex::new(BTreeMap::new()));

const TWIN_SUFFIX: &str = "_in_try";

/// The errors Trino's `try` turns into NULL (TryFunction.propagateIfUnhandled).
fn caught_by_try(e: &Error) -> bool {
    use ErrorName::*;
    let Error::UserFunctionError(inner) = e else {
        return false;
    };
    inner
        .downcast_ref::<FnError>()
        .is_some_and(|FnError(name, _)| {
            matches!(
                name,
                DivisionByZero
                    | InvalidCastArgument
                    | InvalidFunctionArgument
                    | NumericValueOutOfRange
                    | JsonInputConversionError
                    | JsonOutputConversionError
                    | JsonValueResultError
                    | PathEvaluationError
            )
        })
}

/// Registers `name` on `conn`, and records how to register its `try` twin.
#[allow(clippy::disallowed_methods)]
pub fn define<F, T>(
    conn: &Connection,
    name: &'static str,
    n_arg: i32,
    flags: FunctionFlags,
    f: F,
) -> rusqlite::Result<()>
where
    F: Fn(&mut Context<'_>) -> rusqlite::Result<T> + Send + Sync + 'static,
    T: ToSql,
{
    let f = Arc::new(f);
    let main = Arc::clone(&f);
    conn.create_scalar_function(name, n_arg, flags, move |ctx| main(ctx))?;
    if let Ok(mut twins) = TWINS.lock() {
        twins.entry((name, n_arg)).or_insert_with(|| {
            Box::new(move |conn: &Connection| {
                let f = Arc::clone(&f);
                conn.create_scalar_function(
                    format!("{name}{TWIN_SUFFIX}").as_str(),
                    n_arg,
                    flags,
                    move |ctx| match f(ctx) {
                        Ok(v) => Ok(Some(v)),
                        Err(e) if caught_by_try(&e) => Ok(None),
                        Err(e) => Err(e),
                    },
                )
            })
        });
    }
    Ok(())
}

/// Registers every twin on `conn` if `sql` calls one and `conn` lacks them.
pub fn register_twins(conn: &Connection, sql: &str) -> rusqlite::Result<()> {
    if !sql.contains(TWIN_SUFFIX) {
        return Ok(());
    }
    // Preparing (not running) a call fails on a connection without the twins.
    if conn.prepare("SELECT qm_fail_in_try('', '')").is_ok() {
        return Ok(());
    }
    let Ok(twins) = TWINS.lock() else {
        return Ok(());
    };
    twins.values().try_for_each(|register| register(conn))
}

/// Whether `name` has a `try` twin. Every function must have been registered once
/// (crate::sqlite::TWINS sees to it).
pub fn has_twin(name: &str) -> bool {
    TWINS
        .lock()
        .is_ok_and(|twins| twins.keys().any(|(twinned, _)| *twinned == name))
}

/// `sql` with each call of a twinned function renamed to its twin. String literals and
/// quoted identifiers are copied as they are. Every function must have been registered once
/// (crate::sqlite::TWINS sees to it).
pub fn in_try(sql: &str) -> String {
    let Ok(twins) = TWINS.lock() else {
        return sql.to_string();
    };
    let names: BTreeSet<&str> = twins.keys().map(|(name, _)| *name).collect();
    let mut out = String::with_capacity(sql.len() + 64);
    let mut chars = sql.char_indices().peekable();
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut previous = ' ';
    while let Some((i, c)) = chars.next() {
        if c == '\'' || c == '"' {
            // A quoted run; a doubled quote inside is an escaped one and keeps us inside.
            out.push(c);
            while let Some((_, d)) = chars.next() {
                out.push(d);
                if d == c {
                    if chars.peek().map(|(_, n)| *n) == Some(c) {
                        if let Some((_, n)) = chars.next() {
                            out.push(n);
                        }
                    } else {
                        break;
                    }
                }
            }
            previous = c;
            continue;
        }
        if ident(c) && !ident(previous) {
            let mut end = i + c.len_utf8();
            while let Some(&(j, d)) = chars.peek() {
                if !ident(d) {
                    break;
                }
                end = j + d.len_utf8();
                chars.next();
            }
            let word = &sql[i..end];
            out.push_str(word);
            let called = sql[end..].trim_start().starts_with('(');
            if called && names.contains(word.to_ascii_lowercase().as_str()) {
                out.push_str(TWIN_SUFFIX);
            }
            previous = 'a';
            continue;
        }
        out.push(c);
        previous = c;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renames_only_calls_of_twinned_functions_outside_quotes() {
        let conn = Connection::open_in_memory().unwrap_or_else(|e| panic!("{e}"));
        define(&conn, "qm_test_fails", 1, super::super::FLAGS, |_| {
            Err::<i64, _>(super::super::fail(
                ErrorName::DivisionByZero,
                "Division by zero",
            ))
        })
        .unwrap_or_else(|e| panic!("{e}"));
        let sql = "qm_test_fails(1) + 'qm_test_fails(2)' + \"qm_test_fails\"(x) + xqm_test_fails(3) + qm_test_fails";
        assert_eq!(
            in_try(sql),
            "qm_test_fails_in_try(1) + 'qm_test_fails(2)' + \"qm_test_fails\"(x) + xqm_test_fails(3) + qm_test_fails"
        );
        register_twins(&conn, "qm_test_fails_in_try(1)").unwrap_or_else(|e| panic!("{e}"));
        let caught: Option<i64> = conn
            .query_row("SELECT qm_test_fails_in_try(1)", [], |r| r.get(0))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(caught, None);
        assert!(
            conn.query_row("SELECT qm_test_fails(1)", [], |r| r.get::<_, i64>(0))
                .is_err()
        );
    }
}
