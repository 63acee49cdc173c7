//! A SQLite function as a call names it: a typed constant, declared once beside the function's
//! registration (a family's `sqlite` module) or, for SQLite's own, in [`builtin`].

use super::SqlExpr;

/// A SQLite function as a call names it: one of SQLite's own, or one of the stand-in's `qm_*`
/// functions. Inside `try()` a call of a function that has a twin (`<name>_in_try`, which
/// answers NULL where Trino's `try` catches the error, udf/define.rs) names the twin.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SqliteFn {
    pub(super) name: &'static str,
    pub(super) in_try: bool,
}

impl SqliteFn {
    pub const fn new(name: &'static str) -> Self {
        Self {
            name,
            in_try: false,
        }
    }

    /// The name the function is registered under (without a twin's suffix).
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// Calls `self` with `args`.
    pub fn call(self, args: impl IntoIterator<Item = SqlExpr>) -> SqlExpr {
        SqlExpr::Call(self, args.into_iter().collect())
    }
}

/// What `try()` needs to know of the functions registered (udf/define.rs knows it): which
/// have twins, and how to rename calls in text not yet a tree.
pub trait TryTwins {
    fn has_twin(&self, name: &str) -> bool;
    fn rename_in_text(&self, sql: &str) -> String;
}

/// SQLite's own functions the lowerings call.
pub mod builtin {
    use super::SqliteFn;

    pub const ABS: SqliteFn = SqliteFn::new("abs");
    pub const COALESCE: SqliteFn = SqliteFn::new("coalesce");
    pub const IFNULL: SqliteFn = SqliteFn::new("ifnull");
    pub const IIF: SqliteFn = SqliteFn::new("iif");
    pub const INSTR: SqliteFn = SqliteFn::new("instr");
    pub const LENGTH: SqliteFn = SqliteFn::new("length");
    pub const LOWER: SqliteFn = SqliteFn::new("lower");
    pub const MAX: SqliteFn = SqliteFn::new("max");
    pub const MIN: SqliteFn = SqliteFn::new("min");
    pub const NULLIF: SqliteFn = SqliteFn::new("nullif");
    pub const ROUND: SqliteFn = SqliteFn::new("round");
    pub const SUBSTR: SqliteFn = SqliteFn::new("substr");
    pub const TRIM: SqliteFn = SqliteFn::new("trim");
    pub const LTRIM: SqliteFn = SqliteFn::new("ltrim");
    pub const RTRIM: SqliteFn = SqliteFn::new("rtrim");
    pub const TYPEOF: SqliteFn = SqliteFn::new("typeof");
    pub const UPPER: SqliteFn = SqliteFn::new("upper");
    pub const COUNT: SqliteFn = SqliteFn::new("count");
    pub const SUM: SqliteFn = SqliteFn::new("sum");
    pub const TOTAL: SqliteFn = SqliteFn::new("total");
    pub const AVG: SqliteFn = SqliteFn::new("avg");
    pub const JSON: SqliteFn = SqliteFn::new("json");
    pub const HEX: SqliteFn = SqliteFn::new("hex");
    pub const UNHEX: SqliteFn = SqliteFn::new("unhex");
    pub const CHAR: SqliteFn = SqliteFn::new("char");
    pub const UNICODE: SqliteFn = SqliteFn::new("unicode");
    pub const REPLACE: SqliteFn = SqliteFn::new("replace");
    pub const PRINTF: SqliteFn = SqliteFn::new("printf");
    pub const ZEROBLOB: SqliteFn = SqliteFn::new("zeroblob");
    pub const RANDOM: SqliteFn = SqliteFn::new("random");
    pub const JSON_EACH: SqliteFn = SqliteFn::new("json_each");
    pub const JSON_TREE: SqliteFn = SqliteFn::new("json_tree");
    pub const ROW_NUMBER: SqliteFn = SqliteFn::new("row_number");
    pub const RANK: SqliteFn = SqliteFn::new("rank");
    pub const DENSE_RANK: SqliteFn = SqliteFn::new("dense_rank");
    pub const PERCENT_RANK: SqliteFn = SqliteFn::new("percent_rank");
    pub const CUME_DIST: SqliteFn = SqliteFn::new("cume_dist");
    pub const NTILE: SqliteFn = SqliteFn::new("ntile");
    pub const LAG: SqliteFn = SqliteFn::new("lag");
    pub const LEAD: SqliteFn = SqliteFn::new("lead");
    pub const FIRST_VALUE: SqliteFn = SqliteFn::new("first_value");
    pub const LAST_VALUE: SqliteFn = SqliteFn::new("last_value");
    pub const NTH_VALUE: SqliteFn = SqliteFn::new("nth_value");
    pub const JULIANDAY: SqliteFn = SqliteFn::new("julianday");
    pub const STRFTIME: SqliteFn = SqliteFn::new("strftime");
    pub const DATE: SqliteFn = SqliteFn::new("date");
    pub const JSON_ARRAY: SqliteFn = SqliteFn::new("json_array");
    pub const JSON_EXTRACT: SqliteFn = SqliteFn::new("json_extract");
    pub const JSON_ARRAY_LENGTH: SqliteFn = SqliteFn::new("json_array_length");
    pub const JSON_GROUP_ARRAY: SqliteFn = SqliteFn::new("json_group_array");
    pub const LIKE: SqliteFn = SqliteFn::new("like");
    pub const GROUP_CONCAT: SqliteFn = SqliteFn::new("group_concat");
}

/// The stand-in's functions that the helpers of this crate call (decimals, the element form);
/// `querymesh-functions` registers them under these constants.
pub mod runtime {
    use super::SqliteFn;

    pub const QM_DEC_RESCALE: SqliteFn = SqliteFn::new("qm_dec_rescale");
    pub const QM_DEC_TO_DOUBLE: SqliteFn = SqliteFn::new("qm_dec_to_double");
    pub const QM_DEC_OP: SqliteFn = SqliteFn::new("qm_dec_op");
    pub const QM_DEC_NEG: SqliteFn = SqliteFn::new("qm_dec_neg");
    pub const QM_DEC_DIGITS: SqliteFn = SqliteFn::new("qm_dec_digits");
    pub const QM_DEC_OF_DIGITS: SqliteFn = SqliteFn::new("qm_dec_of_digits");
    pub const QM_BASE64: SqliteFn = SqliteFn::new("qm_base64");
    pub const QM_UNBASE64: SqliteFn = SqliteFn::new("qm_unbase64");
    pub const QM_FLOAT_ELEMENT: SqliteFn = SqliteFn::new("qm_float_element");
    pub const QM_ELEMENT_FLOAT: SqliteFn = SqliteFn::new("qm_element_float");
}
