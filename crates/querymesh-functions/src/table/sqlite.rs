//! `qm_table_sequence_last(start, stop, step)`: the sequence table function's checks and its
//! last value (see [`super::sequence_last`]), for the recursive query the engine writes.

use querymesh_values::error::ErrorName;
use rusqlite::Connection;
use rusqlite::types::ValueRef;

use crate::udf::{FLAGS, define, fail};

fn bigint(value: ValueRef<'_>) -> Option<i64> {
    match value {
        ValueRef::Integer(i) => Some(i),
        _ => None,
    }
}

pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    define(conn, "qm_table_sequence_last", 3, FLAGS, |ctx| {
        let [start, stop, step] = [0, 1, 2].map(|i| bigint(ctx.get_raw(i)));
        super::sequence_last(start, stop, step)
            .map_err(|message| fail(ErrorName::InvalidFunctionArgument, message))
    })
}
