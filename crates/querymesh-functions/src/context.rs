//! What a lowering may ask of the query around its call — and nothing more: the session, fresh
//! aliases for the subqueries it writes, and the typing rules the analysis owns (casts,
//! implicit coercions, date parts, time zones). The analyser implements it
//! (`calls/context.rs`); a lowering never sees the analyser itself.

use querymesh_values::error::{Position, TrinoError};
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;

pub trait LowerContext {
    /// Who runs the query (`current_user`).
    fn current_user(&self) -> Option<&str>;

    /// The groups of who runs the query (`current_groups()`), sorted; none when the server
    /// knows of none.
    fn current_groups(&self) -> Vec<String>;

    /// The session's catalog and schema (`current_catalog`, `current_schema`).
    fn current_catalog(&self) -> Option<&str>;
    fn current_schema(&self) -> Option<&str>;

    /// A name no other alias of this statement has, starting with `prefix`.
    fn alias(&mut self, prefix: &str) -> String;

    /// The session's time zone as a zone id (`UTC` when the client sent none).
    fn session_zone(&self) -> String;

    /// A timestamp with time zone as its wall time in its own zone; other values as they are.
    fn wall_time(&self, t: &Typed) -> Typed;

    /// A date, timestamp or timestamp with time zone as a timestamp with time zone (a plain
    /// one read in the session's zone); `None` for any other type.
    fn zoned(&self, t: &Typed) -> Option<Typed>;

    /// Two operands of a comparison or difference brought to one zone when either is zoned.
    fn zoned_operands(&self, l: Typed, r: Typed) -> (Typed, Typed);

    /// A zone given as a literal names a zone Trino knows.
    fn check_zone_literal(&self, zone: &Typed, at: Option<Position>) -> Result<(), TrinoError>;

    /// `CAST(t AS target)`, or `TRY_CAST` when `try_cast`.
    fn cast(
        &mut self,
        t: Typed,
        target: &TrinoType,
        try_cast: bool,
        at: Option<Position>,
    ) -> Result<Typed, TrinoError>;

    /// `t` coerced implicitly to `target` (arrays, maps and rows element by element).
    fn coerce_to(
        &mut self,
        t: Typed,
        target: &TrinoType,
        at: Option<Position>,
    ) -> Result<Typed, TrinoError>;

    /// `l op r` for an arithmetic operator (`+ - * / %`), typed and checked as Trino does.
    fn arithmetic(
        &mut self,
        op: char,
        l: Typed,
        r: Typed,
        at: Option<Position>,
    ) -> Result<Typed, TrinoError>;

    /// year(), month(), … and EXTRACT: the bigint `unit` of a date or timestamp.
    fn date_part(
        &mut self,
        unit: &str,
        t: Typed,
        at: Option<Position>,
    ) -> Result<Typed, TrinoError>;
}
