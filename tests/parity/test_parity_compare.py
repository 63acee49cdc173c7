"""The parity runner's comparison logic, corpus reading and ratchet, without Trino or the
stand-in: python3 -m unittest discover -s tests/parity"""

import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from parity_suite import corpus, report  # noqa: E402
from parity_suite.compare import (  # noqa: E402
    canonical_plan,
    compare,
    order_keys,
    parse_type,
    top_level_order_by,
    values_equal,
)
from parity_suite.protocol import Answer, render_type  # noqa: E402


def answer(columns, rows):
    return Answer(columns=columns, rows=rows)


def refusal(name, kind="USER_ERROR"):
    return Answer(error_name=name, error_type=kind, message="m")


class Doubles(unittest.TestCase):
    def test_within_1e_12_relative_is_equal(self):
        double = parse_type("double")
        self.assertTrue(values_equal(1.0, 1.0 + 1e-13, double))
        self.assertTrue(values_equal(1e300, 1e300 * (1 + 5e-13), double))
        self.assertFalse(values_equal(1.0, 1.0 + 1e-11, double))
        self.assertFalse(values_equal(0.0, 1e-300, double))

    def test_nan_equals_nan_and_infinities_are_exact(self):
        double = parse_type("double")
        self.assertTrue(values_equal("NaN", "NaN", double))
        self.assertFalse(values_equal("NaN", 1.0, double))
        self.assertTrue(values_equal("Infinity", "Infinity", double))
        self.assertFalse(values_equal("Infinity", "-Infinity", double))

    def test_an_integer_written_double_equals_its_float(self):
        self.assertTrue(values_equal(2, 2.0, parse_type("double")))

    def test_decimals_are_exact_strings(self):
        decimal = parse_type("decimal(12,2)")
        self.assertTrue(values_equal("1.50", "1.50", decimal))
        self.assertFalse(values_equal("1.50", "1.5", decimal))

    def test_doubles_inside_arrays_and_rows(self):
        self.assertTrue(values_equal([1.0, "NaN"], [1.0 + 1e-14, "NaN"], parse_type("array(double)")))
        row = parse_type('row(x double, "Y z" varchar)')
        self.assertTrue(values_equal([0.1 + 0.2, "a"], [0.3, "a"], row))
        self.assertFalse(values_equal([0.3, "a"], [0.3, "b"], row))

    def test_a_bigint_is_not_a_string(self):
        self.assertFalse(values_equal(1, "1", parse_type("bigint")))


class Maps(unittest.TestCase):
    def test_maps_are_unordered_with_values_by_type(self):
        ty = parse_type("map(varchar(1), double)")
        self.assertTrue(values_equal({"a": 1.0, "b": 2.0}, {"b": 2.0, "a": 1.0 + 1e-15}, ty))
        self.assertFalse(values_equal({"a": 1.0}, {"a": 1.0, "b": 2.0}, ty))

    def test_map_statement_rows_compare_unordered_keys(self):
        columns = [("m", "map(varchar, bigint)")]
        passed, _ = compare(
            "SELECT map(ARRAY['x','y'], ARRAY[1,2])",
            answer(columns, [[{"y": 2, "x": 1}]]),
            answer(columns, [[{"x": 1, "y": 2}]]),
        )
        self.assertTrue(passed)


class Ordering(unittest.TestCase):
    def test_a_top_level_order_by_is_found(self):
        self.assertEqual(top_level_order_by("SELECT a FROM t ORDER BY a DESC, 2 LIMIT 3"),
                         ["a DESC", "2"])
        self.assertEqual(top_level_order_by("select x from t order by f(x, y) nulls last"),
                         ["f ( x , y ) nulls last"])

    def test_order_by_inside_parentheses_or_literals_does_not_count(self):
        for sql in [
            "SELECT * FROM (SELECT a FROM t ORDER BY a)",
            "SELECT row_number() OVER (ORDER BY a) FROM t",
            "SELECT array_agg(a ORDER BY a) FROM t",
            "SELECT listagg(a, ',') WITHIN GROUP (ORDER BY a) FROM t",
            "SELECT 'ORDER BY a' FROM t",
            'SELECT "order by" FROM t',
        ]:
            self.assertIsNone(top_level_order_by(sql), sql)

    def test_order_by_after_a_set_operation_is_top_level(self):
        self.assertEqual(top_level_order_by("(SELECT 1 a) UNION ALL (SELECT 2) ORDER BY 1"), ["1"])

    def test_order_keys_are_ordinals_or_output_names(self):
        self.assertEqual(order_keys(["2", "n.name DESC"], ["key", "name"]), [1, 1])
        self.assertIsNone(order_keys(["a + 1"], ["a"]))
        self.assertIsNone(order_keys(["missing"], ["a"]))

    def test_unordered_rows_compare_as_multisets(self):
        columns = [("a", "integer")]
        passed, _ = compare("SELECT a FROM t", answer(columns, [[1], [2], [2]]),
                            answer(columns, [[2], [1], [2]]))
        self.assertTrue(passed)
        passed, why = compare("SELECT a FROM t", answer(columns, [[1], [1], [2]]),
                              answer(columns, [[2], [1], [2]]))
        self.assertFalse(passed)
        self.assertEqual(why, "rows differ")

    def test_ordered_rows_compare_in_order(self):
        columns = [("a", "integer"), ("b", "varchar")]
        stand_in = answer(columns, [[2, "x"], [1, "y"]])
        trino = answer(columns, [[1, "y"], [2, "x"]])
        self.assertFalse(compare("SELECT a, b FROM t ORDER BY a", stand_in, trino)[0])
        self.assertFalse(compare("SELECT a, b FROM t ORDER BY a + 0", stand_in, trino)[0])
        self.assertTrue(compare("SELECT a, b FROM t", stand_in, trino)[0])

    def test_rows_tying_on_the_order_by_keys_may_swap(self):
        columns = [("a", "integer"), ("b", "varchar")]
        stand_in = answer(columns, [[1, "x"], [1, "y"], [2, "z"]])
        trino = answer(columns, [[1, "y"], [1, "x"], [2, "z"]])
        self.assertTrue(compare("SELECT a, b FROM t ORDER BY a", stand_in, trino)[0])
        moved = answer(columns, [[1, "y"], [2, "z"], [1, "x"]])
        self.assertFalse(compare("SELECT a, b FROM t ORDER BY a", stand_in, moved)[0])


class NamesTypesAndRefusals(unittest.TestCase):
    def test_same_error_name_and_type_pass_whatever_the_message(self):
        self.assertTrue(compare("SELECT x", refusal("COLUMN_NOT_FOUND"), refusal("COLUMN_NOT_FOUND"))[0])

    def test_a_different_error_name_or_type_fails(self):
        self.assertFalse(compare("SELECT x", refusal("SYNTAX_ERROR"), refusal("COLUMN_NOT_FOUND"))[0])
        self.assertFalse(compare("SELECT x", refusal("X", "USER_ERROR"), refusal("X", "INTERNAL_ERROR"))[0])

    def test_one_side_failing_is_a_mismatch(self):
        ok = answer([("a", "integer")], [[1]])
        self.assertEqual(compare("SELECT 1", refusal("X"), ok), (False, "only the stand-in failed"))
        self.assertEqual(compare("SELECT 1", ok, refusal("X")), (False, "only Trino failed"))

    def test_names_and_full_types_must_match(self):
        rows = [["1.00"]]
        self.assertFalse(compare("SELECT 1", answer([("b", "decimal(12,2)")], rows),
                                 answer([("a", "decimal(12,2)")], rows))[0])
        self.assertFalse(compare("SELECT 1", answer([("a", "decimal(12,3)")], rows),
                                 answer([("a", "decimal(12,2)")], rows))[0])

    def test_type_signatures_render_as_trino_writes_them(self):
        varchar = {"rawType": "varchar", "arguments": [{"kind": "LONG", "value": 2147483647}]}
        self.assertEqual(render_type(varchar), "varchar")
        decimal = {"rawType": "decimal", "arguments": [{"kind": "LONG", "value": 12},
                                                       {"kind": "LONG", "value": 2}]}
        self.assertEqual(render_type(decimal), "decimal(12,2)")
        row = {"rawType": "row", "arguments": [
            {"kind": "NAMED_TYPE", "value": {"fieldName": {"name": "x"},
                                             "typeSignature": {"rawType": "integer"}}},
            {"kind": "NAMED_TYPE", "value": {"fieldName": {"name": "Y z"},
                                             "typeSignature": varchar}}]}
        self.assertEqual(render_type(row), 'row(x integer, "Y z" varchar)')
        mapping = {"rawType": "map", "arguments": [{"kind": "TYPE", "value": varchar},
                                                   {"kind": "TYPE", "value": {"rawType": "bigint"}}]}
        self.assertEqual(render_type(mapping), "map(varchar, bigint)")


class CorpusAndRatchet(unittest.TestCase):
    def write(self, directory, name, text):
        (Path(directory) / name).write_text(text, encoding="utf-8")

    def test_statements_end_at_a_semicolon_line_and_ids_ignore_whitespace(self):
        with tempfile.TemporaryDirectory() as directory:
            self.write(directory, "demo.sql", "-- family: demo\n-- source: here\nSELECT 1\n"
                       "  FROM t;\n\n-- a comment\nSELECT 'a;b' ;\n")
            statements = corpus.load(Path(directory))
            self.assertEqual(sorted(s.sql for s in statements), ["SELECT 'a;b'", "SELECT 1\n  FROM t"])
            self.assertIn(corpus.statement_id("demo", "SELECT 1 FROM t"), {s.id for s in statements})
            self.assertEqual({s.source for s in statements}, {"here"})

    def test_a_statement_with_inline_routines_ends_at_a_semicolon_line_before_a_blank_one(self):
        with tempfile.TemporaryDirectory() as directory:
            self.write(directory, "demo.sql", "WITH FUNCTION f() RETURNS int\nBEGIN\n  RETURN 1;\n"
                       "END\nSELECT f();\n\nSELECT 2;\nWITH FUNCTION g() RETURNS int RETURN 2 SELECT g();\n")
            statements = corpus.load(Path(directory))
            self.assertEqual(sorted(s.sql for s in statements), [
                "SELECT 2",
                "WITH FUNCTION f() RETURNS int\nBEGIN\n  RETURN 1;\nEND\nSELECT f()",
                "WITH FUNCTION g() RETURNS int RETURN 2 SELECT g()",
            ])

    def test_duplicates_across_families_are_an_error(self):
        with tempfile.TemporaryDirectory() as directory:
            self.write(directory, "a.sql", "SELECT 1;\n")
            self.write(directory, "b.sql", "SELECT  1 ;\n")
            with self.assertRaises(corpus.CorpusError):
                corpus.load(Path(directory))

    def test_an_unterminated_statement_is_an_error(self):
        with tempfile.TemporaryDirectory() as directory:
            self.write(directory, "a.sql", "SELECT 1;\nSELECT 2\n")
            with self.assertRaises(corpus.CorpusError):
                corpus.load(Path(directory))

    def test_only_a_recorded_pass_that_fails_now_is_a_regression(self):
        def outcome(statement_id, passed):
            family = statement_id.split(":")[0]
            statement = corpus.Statement(statement_id, family, "SELECT 1", "", "f", 1)
            return report.Outcome(statement, Answer(), Answer(), passed, "")

        record = {"f:1": {"family": "f", "passed": True}, "f:2": {"family": "f", "passed": False},
                  "f:3": {"family": "f", "passed": True}}
        change = report.ratchet(record, [outcome("f:1", False), outcome("f:2", True),
                                         outcome("f:4", False)], partial=False)
        self.assertEqual(change.regressions, ["f:1"])
        self.assertEqual(change.improvements, ["f:2"])
        self.assertEqual(change.new, ["f:4"])
        self.assertEqual(change.removed, ["f:3"])
        text = report.record_text([outcome("f:2", True), outcome("f:1", False)])
        self.assertLess(text.index('"f:1"'), text.index('"f:2"'))
        # CI's check leaves recorded failures out of the run: they are not 'removed'.
        change = report.ratchet(record, [outcome("f:1", True), outcome("f:3", False)],
                                partial=False, skipped={"f:2"})
        self.assertEqual((change.regressions, change.removed), (["f:3"], []))


class FunctionLists(unittest.TestCase):
    COLUMNS = [("Function", "varchar(30)"), ("Return Type", "varchar(28)"),
               ("Argument Types", "varchar(68)"), ("Function Type", "varchar(9)"),
               ("Deterministic", "boolean"), ("Description", "varchar(205)")]

    def listing(self, *rows):
        return answer(self.COLUMNS, [[n, "double", "double", kind, True, ""] for n, kind in rows])

    def test_names_only_trino_lists_are_missing_once_each(self):
        trino = self.listing(("abs", "scalar"), ("corr", "aggregate"), ("corr", "aggregate"),
                             ("rank", "window"))
        standin = self.listing(("abs", "scalar"))
        self.assertEqual(report.missing_functions(standin, trino),
                         [("corr", "aggregate"), ("rank", "window")])

    def test_a_failed_listing_compares_nothing(self):
        self.assertIsNone(report.missing_functions(refusal("SYNTAX_ERROR"), self.listing()))
        text = "\n".join(report.functions_text(None))
        self.assertIn("Not compared", text)

    def test_the_docs_group_missing_names_by_kind(self):
        text = "\n".join(report.functions_text([("corr", "aggregate"), ("rank", "window")]))
        self.assertIn("- aggregate (1): `corr`", text)
        self.assertIn("- window (1): `rank`", text)


if __name__ == "__main__":
    unittest.main()


class NoNodesYet(unittest.TestCase):
    """A Trino just started (or loaded) may refuse every statement for want of an active node;
    the runner sends the statement again instead of recording that as Trino's answer."""

    def serve(self, refusals):
        import http.server
        import json
        import threading

        state = {"posts": 0}

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                state["posts"] += 1
                if state["posts"] <= len(refusals):
                    name, message = refusals[state["posts"] - 1]
                    page = {"error": {"errorName": name, "errorType": "INTERNAL_ERROR",
                                      "message": message}}
                else:
                    page = {"columns": [{"name": "x", "typeSignature": {"rawType": "integer"}}],
                            "data": [[1]]}
                body = json.dumps(page).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        self.addCleanup(server.shutdown)
        return f"http://127.0.0.1:{server.server_address[1]}", state

    def test_no_nodes_refusals_are_sent_again_until_an_answer(self):
        from parity_suite import protocol

        url, state = self.serve([("NO_NODES_AVAILABLE", "No nodes available to run query"),
                                 ("GENERIC_INTERNAL_ERROR", "nodes is empty")])
        got = protocol.Client(url, "parity").run("SELECT 1", timeout=10)
        self.assertEqual((got.error_name, got.rows, state["posts"]), (None, [[1]], 3))

    def test_another_internal_error_is_trinos_answer(self):
        from parity_suite import protocol

        url, state = self.serve([("GENERIC_INTERNAL_ERROR", "something else")])
        got = protocol.Client(url, "parity").run("SELECT 1", timeout=10)
        self.assertEqual((got.error_name, state["posts"]), ("GENERIC_INTERNAL_ERROR", 1))


class Differences(unittest.TestCase):
    """tests/parity/differences.toml: the mismatches kept on purpose, each with its reason."""

    KNOWN = {"refusals:aaaaaaaaaaaa", "refusals:bbbbbbbbbbbb", "joins:cccccccccccc"}

    def parse(self, text):
        from parity_suite import differences

        return differences.parse(text, self.KNOWN)

    def test_a_reason_groups_its_statements(self):
        got = self.parse('[[difference]]\nkey = "plans"\nreason = "a  different\\nengine"\n'
                         'statements = ["refusals:aaaaaaaaaaaa", "joins:cccccccccccc"]\n')
        self.assertEqual([(d.key, d.reason, d.statements) for d in got],
                         [("plans", "a different engine",
                           ("refusals:aaaaaaaaaaaa", "joins:cccccccccccc"))])

    def test_what_the_file_may_not_say(self):
        from parity_suite.differences import DifferencesError

        one = '[[difference]]\nkey = "{key}"\nreason = "{reason}"\nstatements = {statements}\n'
        cases = {
            "not a statement of the corpus": one.format(
                key="k1", reason="r", statements='["refusals:ffffffffffff"]'),
            "non-empty string": one.format(key="k1", reason=" ", statements='["joins:cccccccccccc"]'),
            "non-empty list": one.format(key="k1", reason="r", statements="[]"),
            "lower-case slug": one.format(key="Bad Key", reason="r",
                                          statements='["joins:cccccccccccc"]'),
            "already explained": one.format(key="k1", reason="r",
                                            statements='["joins:cccccccccccc"]')
            + one.format(key="k2", reason="r", statements='["joins:cccccccccccc"]'),
            "used twice": one.format(key="k1", reason="r", statements='["joins:cccccccccccc"]')
            + one.format(key="k1", reason="r", statements='["refusals:aaaaaaaaaaaa"]'),
            "unexpected top-level": 'reason = "r"\n',
            "unexpected fields": one.format(key="k1", reason="r",
                                            statements='["joins:cccccccccccc"]') + 'why = "x"\n',
            "differences.toml": "[[difference]\n",
        }
        for expected, text in cases.items():
            with self.subTest(expected), self.assertRaises(DifferencesError) as raised:
                self.parse(text)
            self.assertIn(expected, str(raised.exception))

    def test_a_reason_for_a_passing_statement_is_stale(self):
        from parity_suite import differences

        kept = self.parse('[[difference]]\nkey = "k"\nreason = "r"\n'
                          'statements = ["refusals:aaaaaaaaaaaa", "refusals:bbbbbbbbbbbb"]\n')
        self.assertEqual(differences.stale(kept, {"refusals:aaaaaaaaaaaa": True,
                                                  "refusals:bbbbbbbbbbbb": False}),
                         [("k", "refusals:aaaaaaaaaaaa")])

    def test_the_docs_say_which_mismatches_have_no_reason(self):
        stmt = corpus.Statement("joins:cccccccccccc", "joins", "SELECT 1", "src", "f", 1)
        other = corpus.Statement("refusals:bbbbbbbbbbbb", "refusals", "SELECT 2", "src", "f", 2)
        kept = self.parse('[[difference]]\nkey = "k"\nreason = "because"\n'
                          'statements = ["joins:cccccccccccc"]\n')
        failing = [report.Outcome(s, answer([], []), refusal("X"), False, "only Trino failed")
                   for s in (stmt, other)]
        text = "\n".join(report.differences_text(failing, kept))
        self.assertIn("1 of the 2 mismatches", text)
        self.assertIn("**k** (1 of 1 statements still differ): because", text)

    def test_the_family_table_counts_what_is_kept(self):
        stmt = corpus.Statement("joins:cccccccccccc", "joins", "SELECT 1", "src", "f", 1)
        other = corpus.Statement("refusals:bbbbbbbbbbbb", "refusals", "SELECT 2", "src", "f", 2)
        kept = self.parse('[[difference]]\nkey = "k"\nreason = "because"\n'
                          'statements = ["joins:cccccccccccc"]\n')
        failing = [report.Outcome(s, answer([], []), refusal("X"), False, "only Trino failed")
                   for s in (stmt, other)]
        info = report.RunInfo("476", "now", "zs", "abc", 0.1, None, "n/a", 1.0, 3, 60.0,
                              differences=kept)
        text = report.docs_text(failing, info)
        self.assertIn("| joins | 1 | 0 | 0.0 % | 1 |", text)
        self.assertIn("| refusals | 1 | 0 | 0.0 % |  |", text)
        self.assertIn("| **all** | **2** | **0** | **0.0 %** | **1** |", text)


class PlanAssignmentTest(unittest.TestCase):
    """A table scan's assignments print in a per-process hash order in Trino."""

    TEXT = (
        "    └─ TableScan[table = tpch:tiny:orders]\n"
        "           Layout: [orderstatus:varchar(1), clerk:varchar(15)]\n"
        "           {a}\n{b}"
    )

    def test_text_assignments_compare_in_any_order(self):
        status = "orderstatus := tpch:orderstatus\n               :: [[F], [O], [P]]"
        clerk = "           clerk := tpch:clerk"
        one = self.TEXT.format(a="orderstatus := tpch:orderstatus", b="               :: [[F], [O], [P]]\n" + clerk)
        other = self.TEXT.format(a=clerk.strip(), b="           " + status)
        self.assertEqual(canonical_plan(one), canonical_plan(other))

    def test_json_details_compare_in_any_order(self):
        one = '      "details" : [ "regionkey := tpch:regionkey", "name := tpch:name" ],'
        other = '      "details" : [ "name := tpch:name", "regionkey := tpch:regionkey" ],'
        self.assertEqual(canonical_plan(one), canonical_plan(other))

    def test_other_details_keep_their_order(self):
        one = "    │   _col0 := expr\n    │   _col1 := expr_0"
        other = "    │   _col1 := expr_0\n    │   _col0 := expr"
        self.assertNotEqual(canonical_plan(one), canonical_plan(other))

    def test_a_plan_answer_compares_canonically(self):
        columns = [("Query Plan", "varchar(40)")]
        a = Answer(columns=columns, rows=[['"details" : [ "b := tpch:b", "a := tpch:a" ]']])
        b = Answer(columns=columns, rows=[['"details" : [ "a := tpch:a", "b := tpch:b" ]']])
        self.assertEqual(compare("EXPLAIN SELECT a, b FROM t", a, b), (True, ""))
