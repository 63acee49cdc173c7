//! Trino's errors: the `error` object of a failed query (errorName, errorCode, errorType,
//! message with `line L:C: `, errorLocation).

use serde_json::{Value, json};

/// Trino's error codes used by the stand-in, with their numeric code and errorType.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorName {
    GenericUserError,
    SyntaxError,
    UserCanceled,
    PermissionDenied,
    NotFound,
    NotSupported,
    FunctionNotFound,
    OperatorNotFound,
    DivisionByZero,
    InvalidCastArgument,
    InvalidFunctionArgument,
    NumericValueOutOfRange,
    CatalogNotFound,
    SchemaNotFound,
    TableNotFound,
    ColumnNotFound,
    MissingSchemaName,
    MissingCatalogName,
    TypeMismatch,
    AmbiguousName,
    AmbiguousFunctionCall,
    DuplicateColumnName,
    DuplicateNamedQuery,
    InvalidLiteral,
    MissingColumnAliases,
    MismatchedColumnAliases,
    ExpressionNotAggregate,
    ExpressionNotInDistinct,
    InvalidColumnReference,
    NestedAggregation,
    NestedWindow,
    InvalidWindowFrame,
    InvalidOrderBy,
    InvalidLimitClause,
    MissingOrderBy,
    SubqueryMultipleRows,
    ExpressionNotScalar,
    ExpressionNotConstant,
    TypeNotFound,
    QueryTextTooLarge,
    InvalidParameterUsage,
    GenericInternalError,
    /// A generic function bound to a type it has no implementation for
    /// (`make_set_digest(double)`).
    FunctionImplementationMissing,
    ExceededTimeLimit,
    QueryQueueFull,
    QueryRejected,
    ExceededLocalMemoryLimit,
    ClusterOutOfMemory,
    ExceededFunctionMemoryLimit,
    InvalidSessionProperty,
    InvalidPath,
    JsonInputConversionError,
    JsonOutputConversionError,
    PathEvaluationError,
    JsonValueResultError,
    ViewIsRecursive,
    InvalidRowFilter,
    InvalidColumnMask,
    MissingGroupBy,
    MissingOver,
    InvalidArguments,
    /// A table function's argument without a default left out.
    MissingArgument,
    DuplicateWindowName,
    InvalidWindowReference,
    InvalidPartitionBy,
    NullTreatmentNotAllowed,
    FunctionNotWindow,
    // The refusals of statements that would write (DROP, CREATE, ALTER, CALL).
    InvalidTableProperty,
    ProcedureNotFound,
    SchemaNotEmpty,
    SchemaAlreadyExists,
    TableAlreadyExists,
    ColumnAlreadyExists,
    MissingColumnName,
    // JSON_TABLE's refusals (Trino 476's codes).
    DuplicateColumnOrPathName,
    MissingPathName,
    InvalidPlan,
    // SQL routines' refusals (WITH FUNCTION).
    AlreadyExists,
    MissingReturn,
    NotInTransaction,
    RoleNotFound,
}

impl ErrorName {
    /// (errorName, errorCode) as Trino's `io.trino.spi.StandardErrorCode` defines them.
    pub fn name_and_code(self) -> (&'static str, u32) {
        match self {
            Self::GenericUserError => ("GENERIC_USER_ERROR", 0),
            Self::SyntaxError => ("SYNTAX_ERROR", 1),
            Self::UserCanceled => ("USER_CANCELED", 3),
            Self::PermissionDenied => ("PERMISSION_DENIED", 4),
            Self::NotFound => ("NOT_FOUND", 5),
            Self::NotSupported => ("NOT_SUPPORTED", 13),
            Self::FunctionNotFound => ("FUNCTION_NOT_FOUND", 6),
            Self::OperatorNotFound => ("OPERATOR_NOT_FOUND", 10),
            Self::DivisionByZero => ("DIVISION_BY_ZERO", 8),
            Self::InvalidCastArgument => ("INVALID_CAST_ARGUMENT", 9),
            Self::InvalidFunctionArgument => ("INVALID_FUNCTION_ARGUMENT", 7),
            Self::NumericValueOutOfRange => ("NUMERIC_VALUE_OUT_OF_RANGE", 19),
            Self::SubqueryMultipleRows => ("SUBQUERY_MULTIPLE_ROWS", 28),
            Self::CatalogNotFound => ("CATALOG_NOT_FOUND", 44),
            Self::SchemaNotFound => ("SCHEMA_NOT_FOUND", 45),
            Self::TableNotFound => ("TABLE_NOT_FOUND", 46),
            Self::ColumnNotFound => ("COLUMN_NOT_FOUND", 47),
            Self::MissingCatalogName => ("MISSING_CATALOG_NAME", 56),
            Self::MissingSchemaName => ("MISSING_SCHEMA_NAME", 57),
            Self::TypeMismatch => ("TYPE_MISMATCH", 58),
            Self::InvalidLiteral => ("INVALID_LITERAL", 59),
            Self::AmbiguousName => ("AMBIGUOUS_NAME", 62),
            Self::AmbiguousFunctionCall => ("AMBIGUOUS_FUNCTION_CALL", 32),
            Self::DuplicateColumnName => ("DUPLICATE_COLUMN_NAME", 54),
            Self::DuplicateNamedQuery => ("DUPLICATE_NAMED_QUERY", 53),
            Self::MissingColumnAliases => ("MISSING_COLUMN_ALIASES", 88),
            Self::MismatchedColumnAliases => ("MISMATCHED_COLUMN_ALIASES", 61),
            Self::ExpressionNotAggregate => ("EXPRESSION_NOT_AGGREGATE", 73),
            Self::ExpressionNotInDistinct => ("EXPRESSION_NOT_IN_DISTINCT", 69),
            Self::InvalidColumnReference => ("INVALID_COLUMN_REFERENCE", 63),
            Self::NestedAggregation => ("NESTED_AGGREGATION", 67),
            Self::NestedWindow => ("NESTED_WINDOW", 68),
            Self::InvalidWindowFrame => ("INVALID_WINDOW_FRAME", 15),
            Self::InvalidOrderBy => ("INVALID_ORDER_BY", 91),
            Self::InvalidLimitClause => ("INVALID_LIMIT_CLAUSE", 90),
            Self::MissingOrderBy => ("MISSING_ORDER_BY", 65),
            Self::ExpressionNotScalar => ("EXPRESSION_NOT_SCALAR", 74),
            Self::ExpressionNotConstant => ("EXPRESSION_NOT_CONSTANT", 75),
            Self::TypeNotFound => ("TYPE_NOT_FOUND", 43),
            Self::QueryTextTooLarge => ("QUERY_TEXT_TOO_LARGE", 35),
            Self::InvalidParameterUsage => ("INVALID_PARAMETER_USAGE", 80),
            Self::InvalidPath => ("INVALID_PATH", 113),
            Self::JsonInputConversionError => ("JSON_INPUT_CONVERSION_ERROR", 114),
            Self::JsonOutputConversionError => ("JSON_OUTPUT_CONVERSION_ERROR", 115),
            Self::PathEvaluationError => ("PATH_EVALUATION_ERROR", 116),
            Self::JsonValueResultError => ("JSON_VALUE_RESULT_ERROR", 118),
            Self::ViewIsRecursive => ("VIEW_IS_RECURSIVE", 82),
            Self::InvalidRowFilter => ("INVALID_ROW_FILTER", 84),
            Self::InvalidColumnMask => ("INVALID_COLUMN_MASK", 85),
            Self::MissingGroupBy => ("MISSING_GROUP_BY", 64),
            Self::MissingOver => ("MISSING_OVER", 66),
            Self::InvalidArguments => ("INVALID_ARGUMENTS", 76),
            Self::MissingArgument => ("MISSING_ARGUMENT", 111),
            // Trino 476's codes (newer than the StandardErrorCode the test below cites).
            Self::DuplicateWindowName => ("DUPLICATE_WINDOW_NAME", 92),
            Self::InvalidWindowReference => ("INVALID_WINDOW_REFERENCE", 93),
            Self::InvalidPartitionBy => ("INVALID_PARTITION_BY", 94),
            Self::NullTreatmentNotAllowed => ("NULL_TREATMENT_NOT_ALLOWED", 83),
            Self::FunctionNotWindow => ("FUNCTION_NOT_WINDOW", 71),
            Self::GenericInternalError => ("GENERIC_INTERNAL_ERROR", 65536),
            Self::FunctionImplementationMissing => ("FUNCTION_IMPLEMENTATION_MISSING", 65546),
            Self::ExceededTimeLimit => ("EXCEEDED_TIME_LIMIT", 131075),
            Self::QueryQueueFull => ("QUERY_QUEUE_FULL", 131074),
            Self::QueryRejected => ("QUERY_REJECTED", 31),
            Self::ClusterOutOfMemory => ("CLUSTER_OUT_OF_MEMORY", 131076),
            Self::ExceededLocalMemoryLimit => ("EXCEEDED_LOCAL_MEMORY_LIMIT", 131079),
            Self::ExceededFunctionMemoryLimit => ("EXCEEDED_FUNCTION_MEMORY_LIMIT", 37),
            Self::InvalidSessionProperty => ("INVALID_SESSION_PROPERTY", 26),
            Self::InvalidTableProperty => ("INVALID_TABLE_PROPERTY", 18),
            Self::ProcedureNotFound => ("PROCEDURE_NOT_FOUND", 29),
            Self::SchemaNotEmpty => ("SCHEMA_NOT_EMPTY", 34),
            Self::SchemaAlreadyExists => ("SCHEMA_ALREADY_EXISTS", 49),
            Self::TableAlreadyExists => ("TABLE_ALREADY_EXISTS", 50),
            Self::ColumnAlreadyExists => ("COLUMN_ALREADY_EXISTS", 51),
            Self::MissingColumnName => ("MISSING_COLUMN_NAME", 55),
            Self::DuplicateColumnOrPathName => ("DUPLICATE_COLUMN_OR_PATH_NAME", 127),
            Self::MissingPathName => ("MISSING_PATH_NAME", 128),
            Self::InvalidPlan => ("INVALID_PLAN", 129),
            Self::AlreadyExists => ("ALREADY_EXISTS", 12),
            Self::MissingReturn => ("MISSING_RETURN", 126),
            Self::NotInTransaction => ("NOT_IN_TRANSACTION", 21),
            Self::RoleNotFound => ("ROLE_NOT_FOUND", 48),
        }
    }

    pub fn error_type(self) -> &'static str {
        match self.name_and_code().1 {
            0..=65535 => "USER_ERROR",
            65536..=131071 => "INTERNAL_ERROR",
            _ => "INSUFFICIENT_RESOURCES",
        }
    }
}

/// Where in the query text something is: 1-based, as Trino's `line L:C` and `errorLocation`
/// count (sqlparser's token spans count the same way).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Position {
    pub line: u64,
    pub column: u64,
}

impl Position {
    pub const fn new(line: u64, column: u64) -> Self {
        Self { line, column }
    }
}

impl From<sqlparser::tokenizer::Location> for Position {
    fn from(at: sqlparser::tokenizer::Location) -> Self {
        Self::new(at.line, at.column)
    }
}

/// A query failure as Trino reports it.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{}", self.message())]
pub struct TrinoError {
    pub name: ErrorName,
    /// The message without the location prefix.
    pub text: String,
    /// Where in the query text, when known.
    pub location: Option<Position>,
}

impl TrinoError {
    pub fn new(name: ErrorName, text: impl Into<String>) -> Self {
        Self {
            name,
            text: text.into(),
            location: None,
        }
    }

    pub fn at(name: ErrorName, location: Position, text: impl Into<String>) -> Self {
        Self {
            name,
            text: text.into(),
            location: Some(location),
        }
    }

    /// `line L:C: text` when located, as Trino prints it.
    pub fn message(&self) -> String {
        match self.location {
            Some(Position { line, column }) => format!("line {line}:{column}: {}", self.text),
            None => self.text.clone(),
        }
    }

    /// The protocol's `error` object.
    pub fn to_json(&self) -> Value {
        let (name, code) = self.name.name_and_code();
        let mut error = json!({
            "message": self.message(),
            "errorCode": code,
            "errorName": name,
            "errorType": self.name.error_type(),
            "failureInfo": {
                "type": "io.trino.spi.TrinoException",
                "message": self.message(),
                "suppressed": [],
                "stack": [],
            },
        });
        if let Some(Position { line, column }) = self.location {
            error["errorLocation"] = json!({"lineNumber": line, "columnNumber": column});
            error["failureInfo"]["errorLocation"] = error["errorLocation"].clone();
        }
        error
    }
}

/// A failure that is the stand-in's, not the query's: a SQLite error the analyser did not
/// anticipate, or an internal invariant broken. It carries no text but what is fixed where it
/// is made (a `&'static str`), so neither the generated SQL nor SQLite's wording (which may
/// quote it, a row filter's predicate included) can reach an answer or a log through it. The
/// server answers it as Trino's GENERIC_INTERNAL_ERROR with the query's id only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{what}{}", sqlite_code_said(.sqlite_code))]
pub struct InternalError {
    /// What failed, in the stand-in's own fixed words.
    pub what: &'static str,
    /// SQLite's extended result code, when SQLite failed.
    pub sqlite_code: Option<i32>,
}

/// " (SQLite code N)" when SQLite failed, nothing otherwise.
fn sqlite_code_said(code: &Option<i32>) -> String {
    code.map(|c| format!(" (SQLite code {c})"))
        .unwrap_or_default()
}

impl InternalError {
    pub const fn new(what: &'static str) -> Self {
        Self {
            what,
            sqlite_code: None,
        }
    }

    /// SQLite's error, by kind and code only.
    pub fn sqlite(e: &rusqlite::Error) -> Self {
        match e {
            rusqlite::Error::SqliteFailure(failure, _) => Self {
                what: "SQLite failed the generated statement",
                sqlite_code: Some(failure.extended_code),
            },
            rusqlite::Error::SqlInputError { error, .. } => Self {
                what: "SQLite refused the generated statement",
                sqlite_code: Some(error.extended_code),
            },
            rusqlite::Error::UserFunctionError(_) => {
                Self::new("a function failed without a Trino error")
            }
            _ => Self::new("the SQLite driver failed"),
        }
    }
}

impl TrinoError {
    /// Trino's GENERIC_INTERNAL_ERROR (StandardErrorCode 65536, INTERNAL_ERROR) for a failure
    /// of the stand-in itself: the message names the query, for its log line, and nothing of
    /// the failure.
    pub fn internal(query_id: &str) -> Self {
        Self::new(
            ErrorName::GenericInternalError,
            format!("internal error in the QueryMesh stand-in; query {query_id}"),
        )
    }
}

impl ErrorName {
    /// The variant for a Trino error name, for errors that cross SQLite as text.
    pub fn from_name(name: &str) -> Option<Self> {
        use ErrorName::*;
        [
            GenericUserError,
            SyntaxError,
            UserCanceled,
            ExceededFunctionMemoryLimit,
            NotFound,
            NotSupported,
            FunctionNotFound,
            DivisionByZero,
            InvalidCastArgument,
            InvalidFunctionArgument,
            NumericValueOutOfRange,
            SubqueryMultipleRows,
            TypeMismatch,
            InvalidWindowFrame,
            GenericInternalError,
            ExceededLocalMemoryLimit,
            ClusterOutOfMemory,
            JsonInputConversionError,
            JsonOutputConversionError,
            PathEvaluationError,
            JsonValueResultError,
            InvalidPath,
        ]
        .into_iter()
        .find(|n| n.name_and_code().0 == name)
    }
}

/// A query's error at `at` when the analysis knows where, else without a place.
pub fn error_at(name: ErrorName, at: Option<Position>, text: impl Into<String>) -> TrinoError {
    match at {
        Some(l) => TrinoError::at(name, l, text),
        None => TrinoError::new(name, text),
    }
}

pub fn not_supported(at: Option<Position>, what: &str) -> TrinoError {
    error_at(
        ErrorName::NotSupported,
        at,
        format!("{what} is not supported"),
    )
}

#[cfg(test)]
mod code_tests {
    use super::ErrorName::*;

    /// Spot checks against trinodb/trino `core/trino-spi/.../StandardErrorCode.java`.
    #[test]
    fn codes_are_trinos() {
        for (name, expected) in [
            (SyntaxError, ("SYNTAX_ERROR", 1)),
            (InvalidWindowFrame, ("INVALID_WINDOW_FRAME", 15)),
            (TypeNotFound, ("TYPE_NOT_FOUND", 43)),
            (DuplicateColumnName, ("DUPLICATE_COLUMN_NAME", 54)),
            (DuplicateNamedQuery, ("DUPLICATE_NAMED_QUERY", 53)),
            (InvalidLiteral, ("INVALID_LITERAL", 59)),
            (MismatchedColumnAliases, ("MISMATCHED_COLUMN_ALIASES", 61)),
            (InvalidColumnReference, ("INVALID_COLUMN_REFERENCE", 63)),
            (MissingOrderBy, ("MISSING_ORDER_BY", 65)),
            (NestedAggregation, ("NESTED_AGGREGATION", 67)),
            (ExpressionNotInDistinct, ("EXPRESSION_NOT_IN_DISTINCT", 69)),
            (ExpressionNotAggregate, ("EXPRESSION_NOT_AGGREGATE", 73)),
            (ExpressionNotScalar, ("EXPRESSION_NOT_SCALAR", 74)),
            (MissingColumnAliases, ("MISSING_COLUMN_ALIASES", 88)),
            (InvalidLimitClause, ("INVALID_LIMIT_CLAUSE", 90)),
            (InvalidOrderBy, ("INVALID_ORDER_BY", 91)),
            (MissingGroupBy, ("MISSING_GROUP_BY", 64)),
            (MissingOver, ("MISSING_OVER", 66)),
            (InvalidArguments, ("INVALID_ARGUMENTS", 76)),
            (MissingArgument, ("MISSING_ARGUMENT", 111)),
            (InvalidTableProperty, ("INVALID_TABLE_PROPERTY", 18)),
            (ProcedureNotFound, ("PROCEDURE_NOT_FOUND", 29)),
            (SchemaNotEmpty, ("SCHEMA_NOT_EMPTY", 34)),
            (SchemaAlreadyExists, ("SCHEMA_ALREADY_EXISTS", 49)),
            (TableAlreadyExists, ("TABLE_ALREADY_EXISTS", 50)),
            (ColumnAlreadyExists, ("COLUMN_ALREADY_EXISTS", 51)),
            (ExceededTimeLimit, ("EXCEEDED_TIME_LIMIT", 131075)),
            (ClusterOutOfMemory, ("CLUSTER_OUT_OF_MEMORY", 131076)),
            (
                ExceededLocalMemoryLimit,
                ("EXCEEDED_LOCAL_MEMORY_LIMIT", 131079),
            ),
        ] {
            assert_eq!(name.name_and_code(), expected);
        }
    }
}
