//! `qm_table_sequence_last(start, stop, step)`: the sequence table function's checks and its
//! last value (see [`super::sequence_last`]), for the recursive query the engine writes.

use querymesh_values::error::ErrorName;
use querymesh_values::sqlite_expr::SqliteFn;
use rusqlite::Connection;
use rusqlite::types::ValueRef;

use crate::udf::{FLAGS, define, fail};

/// The functions registered here, as the lowerings call them.
pub const QM_TABLE_SEQUENCE_LAST: SqliteFn = SqliteFn::new("qm_table_sequence_last");

fn bigint(value: ValueRef<'_>) -> Option<i64> {
    match value {
        ValueRef::Integer(i) => Some(i),
        _ => None,
    }
}

pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    define(conn, QM_TABLE_SEQUENCE_LAST.name(), 3, FLAGS, |ctx| {
        let [start, stop, step] = [0, 1, 2].map(|i| bigint(ctx.get_raw(i)));
        super::sequence_last(start, stop, step)
            .map_err(|message| fail(ErrorName::InvalidFunctionArgument, message))
    })
}
