//! Trino's built-in table functions (docs functions/table), invoked in FROM as
//! `TABLE(name(arguments))`.

/// What SHOW FUNCTIONS lists of them: name and argument types, by name.
pub(super) const LISTED: &[(&str, &str)] = &[
    ("exclude_columns", "unknown, unknown"),
    ("sequence", "bigint, bigint, bigint"),
];
