//! How strings and names are written in SQLite text: every stage that writes SQL spells them
//! here.

/// `s` as a SQLite text value. SQLite reads SQL text only up to a NUL character, so a string
/// holding one is spelled by its UTF-8 bytes (`CAST(X'…' AS TEXT)` keeps every byte).
pub fn sql_string(s: &str) -> String {
    if s.contains('\0') {
        let hex: String = s.bytes().map(|b| format!("{b:02X}")).collect();
        return format!("CAST(X'{hex}' AS TEXT)");
    }
    format!("'{}'", s.replace('\'', "''"))
}

/// `name` as a quoted SQLite identifier.
pub fn quote(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}
