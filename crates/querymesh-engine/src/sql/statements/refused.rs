//! The statements the stand-in refuses by their first word: those that would write or change
//! the session's database, and those Trino has that it does not.

use crate::error::{ErrorName, Position, TrinoError, error_at};

/// The tpch connector's refusal of a write, placed at the statement.
fn not_supported(what: &str, at: Option<Position>) -> TrinoError {
    error_at(
        ErrorName::NotSupported,
        at,
        format!("This connector does not support {what}: QueryMesh data is read-only"),
    )
}

/// The refusal of an ALTER TABLE (or COMMENT) the stand-in does not check further.
pub(super) fn altering_tables(at: Option<Position>) -> TrinoError {
    not_supported("altering tables", at)
}

/// The Trino-like refusal of a statement starting with `word`, if it is refused.
pub(super) fn refusal(word: &str, at: Option<Position>) -> Option<TrinoError> {
    match word.to_ascii_uppercase().as_str() {
        "INSERT" => Some(not_supported("inserts", at)),
        "UPDATE" | "DELETE" | "MERGE" | "TRUNCATE" => {
            Some(not_supported("modifying table rows", at))
        }
        "CREATE" => Some(not_supported("creating tables, views or schemas", at)),
        "DROP" => Some(not_supported("dropping tables, views or schemas", at)),
        "ALTER" | "COMMENT" => Some(altering_tables(at)),
        "GRANT" | "REVOKE" | "DENY" => Some(not_supported("changing privileges", at)),
        "ATTACH" | "DETACH" | "PRAGMA" | "VACUUM" | "REINDEX" | "REPLACE" | "UPSERT" | "BEGIN"
        | "SAVEPOINT" | "RELEASE" => Some(error_at(
            ErrorName::SyntaxError,
            at,
            format!(
                "mismatched input '{word}'. Expecting: 'SELECT', 'WITH', 'VALUES', 'SHOW', 'DESCRIBE'"
            ),
        )),
        // No transaction can be in progress: the stand-in starts none (Trino 476 answers
        // these outside one so).
        "COMMIT" | "ROLLBACK" => Some(TrinoError::new(
            ErrorName::NotInTransaction,
            "No transaction in progress",
        )),
        "SET" | "RESET" | "ANALYZE" | "CALL" | "EXECUTE" | "PREPARE" | "DEALLOCATE" | "START" => {
            Some(error_at(
                ErrorName::NotSupported,
                at,
                format!(
                    "{} statements are not supported by the QueryMesh stand-in",
                    word.to_ascii_uppercase()
                ),
            ))
        }
        _ => None,
    }
}
