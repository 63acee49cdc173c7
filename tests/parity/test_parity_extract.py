"""What scripts/parity_extract.py takes from a test file as statements, without Trino:
python3 -m unittest discover -s tests/parity"""

import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

import parity_extract  # noqa: E402

SOURCE = r'''
//! A doc comment quoting "EXPLAIN (TYPE VALIDATE) SELECT 1" is not a statement.
const Q: &str = "SELECT 2";

#[test]
fn sends() {
    // A comment line quoting "SELECT 3" is not either.
    ok(&engine, "SELECT 1 AS x");
    error(&engine, "EXPLAIN");
    check(&[("call", "SYNTAX_ERROR: line 1:5")]);
    ok(&engine, &format!("{Q} + 1"));
    assert!(plan.contains("Values"));
    let body = text.split_once("VALUES").map_or("", |(_, b)| b);
    column_of(sql, "WITH");
    json!(["TABLE", "VIEW"]);
    json!("call");
}
'''


class Literals(unittest.TestCase):
    def test_statements_sent_are_taken_and_text_searched_for_is_not(self):
        self.assertEqual(
            parity_extract.literals(SOURCE),
            # A file constant is a statement too (tests send it as it is, or in format!).
            ["SELECT 2", "SELECT 1 AS x", "EXPLAIN", "call", "SELECT 2 + 1"],
        )


if __name__ == "__main__":
    unittest.main()
