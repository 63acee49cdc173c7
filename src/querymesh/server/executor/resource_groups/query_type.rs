//! The query types selectors match (`queryType`).

pub(super) const QUERY_TYPES: [&str; 10] = [
    "SELECT",
    "EXPLAIN",
    "DESCRIBE",
    "INSERT",
    "UPDATE",
    "MERGE",
    "DELETE",
    "ANALYZE",
    "DATA_DEFINITION",
    "ALTER_TABLE_EXECUTE",
];

/// The query type a selector's `queryType` matches, from the statement's leading keywords
/// (Trino's `StatementUtils`; the resource-groups doc lists which statement is which).
pub fn query_type(sql: &str) -> &'static str {
    let words: Vec<String> = sql
        .split(|c: char| c.is_whitespace() || c == '(')
        .filter(|w| !w.is_empty())
        .take(3)
        .map(str::to_ascii_uppercase)
        .collect();
    let word = |i: usize| words.get(i).map_or("", String::as_str);
    match word(0) {
        "EXPLAIN" if word(1) == "ANALYZE" => "SELECT",
        "EXPLAIN" => "EXPLAIN",
        "DESCRIBE" | "DESC" | "SHOW" => "DESCRIBE",
        "INSERT" => "INSERT",
        "CREATE"
            if words.iter().any(|w| w == "TABLE") && sql.to_ascii_uppercase().contains(" AS ") =>
        {
            "INSERT"
        }
        "REFRESH" => "INSERT",
        "UPDATE" => "UPDATE",
        "MERGE" => "MERGE",
        "DELETE" => "DELETE",
        "ANALYZE" => "ANALYZE",
        "ALTER" if sql.to_ascii_uppercase().contains(" EXECUTE") => "ALTER_TABLE_EXECUTE",
        "CREATE" | "ALTER" | "DROP" | "GRANT" | "REVOKE" | "DENY" | "USE" | "SET" | "RESET"
        | "PREPARE" | "DEALLOCATE" | "START" | "COMMIT" | "ROLLBACK" | "CALL" | "COMMENT"
        | "TRUNCATE" => "DATA_DEFINITION",
        _ => "SELECT",
    }
}
