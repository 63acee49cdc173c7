//! JSON_TABLE's row pattern (Trino docs functions/json "json_table"): the row path and the
//! NESTED paths, each a level, and the plan joining them (`PLAN (root OUTER (a UNION b))`,
//! `PLAN DEFAULT (OUTER, UNION)`). The engine writes a [`TableSpec`] as text into the query;
//! `qm_json_table` (json/sqlite/table.rs) reads it back and produces the rows.

use serde::{Deserialize, Serialize};

/// How the levels' items combine into rows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Plan {
    /// One row per item of the level's path.
    Leaf(usize),
    /// Per item of the level's path, the rows of the child plan over that item; `outer`
    /// keeps an item whose child plan has no row (its children's columns NULL).
    Join {
        level: usize,
        outer: bool,
        child: Box<Plan>,
    },
    /// The rows of each sibling plan in turn, the others' columns NULL.
    Union(Vec<Plan>),
    /// Every combination of the sibling plans' rows.
    Cross(Vec<Plan>),
}

/// What `qm_json_table` needs: each level's path (level 0 is the row path, the only one that
/// sees the PASSING values, as in Trino 476), the plan, and the table's ON ERROR.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableSpec {
    pub paths: Vec<String>,
    pub plan: Plan,
    pub error_on_error: bool,
}

impl TableSpec {
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    pub fn from_text(text: &str) -> Option<TableSpec> {
        serde_json::from_str(text).ok()
    }
}
