//! Every `qm_*` SQLite function, registered on each connection the engine opens: the shared
//! runtime's (`udf/`: casts, decimals, numbers, rows, complex values, failures) and each
//! family's own (`<family>/sqlite`).

use std::sync::LazyLock;

use querymesh_values::sqlite_expr::TryTwins;
use rusqlite::Connection;

use crate::{
    aggregate, array, binary, color, datetime, format, ipaddress, json, map, math, regexp, string,
    udf, url, window,
};

/// Registers every `qm_*` function on `conn`.
pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    string::sqlite::register(conn)?;
    datetime::sqlite::arithmetic::register(conn)?;
    udf::complex_values::register(conn)?;
    regexp::sqlite::register(conn)?;
    udf::register_failures(conn)?;
    aggregate::sqlite::register(conn)?;
    format::sqlite::register(conn)?;
    aggregate::checksum::register(conn)?;
    udf::decimals::register(conn)?;
    map::sqlite::register(conn)?;
    udf::rows::register(conn)?;
    binary::sqlite::register(conn)?;
    array::sqlite::register(conn)?;
    udf::numbers::register(conn)?;
    udf::double_ops::register(conn)?;
    math::sqlite::register(conn)?;
    math::buckets::register(conn)?;
    math::statistics::register(conn)?;
    math::vectors::register(conn)?;
    string::sqlite::metrics::register(conn)?;
    string::sqlite::code_points::register(conn)?;
    string::sqlite::soundex::register(conn)?;
    string::sqlite::split_to_map::register(conn)?;
    string::sqlite::unicode_text::register(conn)?;
    format::sqlite::units::register(conn)?;
    url::sqlite::register(conn)?;
    udf::cast::register(conn)?;
    datetime::sqlite::register(conn)?;
    string::sqlite::parts::register(conn)?;
    datetime::time_zone::sqlite::register(conn)?;
    datetime::format::sqlite::register(conn)?;
    window::sqlite::register(conn)?;
    color::sqlite::register(conn)?;
    ipaddress::sqlite::register(conn)?;
    crate::setdigest::sqlite::register(conn)?;
    crate::table::sqlite::register(conn)?;
    crate::bing_tiles::sqlite::register(conn)?;
    crate::geospatial::sqlite::register(conn)?;
    crate::sketch::sqlite::register(conn)?;
    json::sqlite::register(conn)
}

/// Every function registered once, on a connection of its own, so the twins `try()` calls
/// are all known even when a query is analysed before the engine opened any connection.
static ALL_REGISTERED: LazyLock<()> = LazyLock::new(|| {
    if let Ok(conn) = Connection::open_in_memory() {
        let _ = register(&conn);
    }
});

/// The functions registered with a `try` twin (udf/define.rs), as `try()`'s walk over an
/// expression asks (querymesh_values::sqlite_expr::SqlExpr::in_try).
pub struct Twins;

pub static TWINS: Twins = Twins;

impl TryTwins for Twins {
    fn has_twin(&self, name: &str) -> bool {
        LazyLock::force(&ALL_REGISTERED);
        udf::has_twin(name)
    }

    fn rename_in_text(&self, sql: &str) -> String {
        LazyLock::force(&ALL_REGISTERED);
        udf::in_try(sql)
    }
}
