//! URL functions and string metrics. The URL cases are trinodb/trino's TestUrlFunctions
//! (testUrlExtract, testUrlExtractParameter, testUrlEncode, testUrlDecode) case for case;
//! the metrics are the docs functions/string examples and StringFunctions' refusals and
//! LuhnCheckFunction's.

use serde_json::{Value, json};

use super::{check_errors, check_values};
use crate::support::engine::engine;

/// TestUrlFunctions.validateUrlExtract: protocol, host, port, path, query, fragment.
#[allow(clippy::type_complexity)]
const EXTRACTS: &[(&str, Option<[&str; 2]>, Option<i64>, Option<[&str; 3]>)] = &[
    (
        "http://example.com/path1/p.php?k1=v1&k2=v2#Ref1",
        Some(["http", "example.com"]),
        None,
        Some(["/path1/p.php", "k1=v1&k2=v2", "Ref1"]),
    ),
    (
        "http://example.com/path1/p.php?",
        Some(["http", "example.com"]),
        None,
        Some(["/path1/p.php", "", ""]),
    ),
    (
        "http://example.com/path1/p.php",
        Some(["http", "example.com"]),
        None,
        Some(["/path1/p.php", "", ""]),
    ),
    (
        "http://example.com:8080/path1/p.php?k1=v1&k2=v2#Ref1",
        Some(["http", "example.com"]),
        Some(8080),
        Some(["/path1/p.php", "k1=v1&k2=v2", "Ref1"]),
    ),
    (
        "https://username@example.com",
        Some(["https", "example.com"]),
        None,
        Some(["", "", ""]),
    ),
    (
        "https://username:password@example.com",
        Some(["https", "example.com"]),
        None,
        Some(["", "", ""]),
    ),
    (
        "mailto:test@example.com",
        Some(["mailto", ""]),
        None,
        Some(["", "", ""]),
    ),
    ("foo", Some(["", ""]), None, Some(["foo", "", ""])),
    ("http://example.com/^", None, None, None),
];

#[test]
fn url_parts_are_extracted_as_java_net_uri_reads_them() {
    let engine = engine();
    let mut cases: Vec<(String, String, Value)> = Vec::new();
    for (url, scheme_host, port, rest) in EXTRACTS {
        let ty = format!("varchar({})", url.len());
        let text = |v: Option<&str>| v.map_or(Value::Null, Value::from);
        let parts = [
            ("protocol", text(scheme_host.map(|p| p[0]))),
            ("host", text(scheme_host.map(|p| p[1]))),
            ("path", text(rest.map(|p| p[0]))),
            ("query", text(rest.map(|p| p[1]))),
            ("fragment", text(rest.map(|p| p[2]))),
        ];
        for (part, value) in parts {
            cases.push((
                format!("SELECT url_extract_{part}('{url}')"),
                ty.clone(),
                value,
            ));
        }
        cases.push((
            format!("SELECT url_extract_port('{url}')"),
            "bigint".into(),
            port.map_or(Value::Null, Value::from),
        ));
    }
    let query = "http://example.com/path1/p.php?k1=v1&k2=v2&k3&k4#Ref1";
    for (name, value) in [
        ("k1", json!("v1")),
        ("k2", json!("v2")),
        ("k3", json!("")),
        ("k4", json!("")),
        ("k5", json!(null)),
    ] {
        cases.push((
            format!("SELECT url_extract_parameter('{query}', '{name}')"),
            "varchar(53)".into(),
            value,
        ));
    }
    for (url, name, ty, value) in [
        (
            "http://example.com/path1/p.php?k1=v1&k1=v2&k1&k1#Ref1",
            "k1",
            "varchar(53)",
            json!("v1"),
        ),
        (
            "http://example.com/path1/p.php?k1&k1=v1&k1&k1#Ref1",
            "k1",
            "varchar(50)",
            json!(""),
        ),
        (
            "http://example.com/path1/p.php?k=a=b=c&x=y#Ref1",
            "k",
            "varchar(47)",
            json!("a=b=c"),
        ),
        (
            "http://example.com/path1/p.php?k1=a%26k2%3Db&k2=c#Ref1",
            "k2",
            "varchar(54)",
            json!("c"),
        ),
        ("foo", "k1", "varchar(3)", json!(null)),
    ] {
        cases.push((
            format!("SELECT url_extract_parameter('{url}', '{name}')"),
            ty.into(),
            value,
        ));
    }
    for (encoded, plain) in [
        ("http%3A%2F%2Ftest", "http://test"),
        ("http%3A%2F%2Ftest%3Fa%3Db%26c%3Dd", "http://test?a=b&c=d"),
        (
            "http%3A%2F%2F%E3%83%86%E3%82%B9%E3%83%88",
            "http://\u{30c6}\u{30b9}\u{30c8}",
        ),
        ("%7E%40%3A.-*_%2B+%E2%98%83", "~@:.-*_+ \u{2603}"),
        ("test", "test"),
    ] {
        let chars = plain.chars().count();
        cases.push((
            format!("SELECT url_encode('{plain}')"),
            format!("varchar({})", chars * 12),
            json!(encoded),
        ));
        cases.push((
            format!("SELECT url_decode('{encoded}')"),
            format!("varchar({})", encoded.len()),
            json!(plain),
        ));
    }
    let borrowed: Vec<(&str, &str, Value)> = cases
        .iter()
        .map(|(s, t, v)| (s.as_str(), t.as_str(), v.clone()))
        .collect();
    check_values(&engine, &borrowed);
}

#[test]
fn string_metrics() {
    let engine = engine();
    check_values(
        &engine,
        &[
            (
                "SELECT levenshtein_distance('kitten', 'sitting')",
                "bigint",
                json!(3),
            ),
            ("SELECT levenshtein_distance('', 'abc')", "bigint", json!(3)),
            (
                "SELECT hamming_distance('abcde', 'abdde')",
                "bigint",
                json!(1),
            ),
            // docs functions/string luhn_check.
            ("SELECT luhn_check('79927398713')", "boolean", json!(true)),
            ("SELECT luhn_check('79927398714')", "boolean", json!(false)),
            ("SELECT luhn_check('')", "boolean", json!(false)),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                "SELECT hamming_distance('ab', 'abc')",
                "INVALID_FUNCTION_ARGUMENT: The input strings to hamming_distance function must have the same length",
            ),
            (
                "SELECT levenshtein_distance(lpad('', 2000, 'a'), lpad('', 2000, 'b'))",
                "INVALID_FUNCTION_ARGUMENT: The combined inputs for Levenshtein distance are too large",
            ),
            (
                "SELECT luhn_check('12a')",
                "INVALID_FUNCTION_ARGUMENT: Input contains non-digit character",
            ),
            (
                "SELECT url_decode('%zz')",
                "INVALID_FUNCTION_ARGUMENT: URLDecoder: Illegal hex characters in escape (%) pattern",
            ),
        ],
    );
}

/// java.net.URI reads an authority that is no host and port as a registry name: no host, no
/// port (UrlFunctions over URI.parseServer); a NULL url binds varchar(0). Trino 476's answers.
#[test]
fn authorities_that_are_no_host_have_none() {
    let engine = engine();
    check_values(
        &engine,
        &[
            (
                "SELECT url_extract_host('http://a.com:badport/')",
                "varchar(21)",
                json!(""),
            ),
            (
                "SELECT url_extract_host('http://bücher.example/')",
                "varchar(22)",
                json!(""),
            ),
            (
                "SELECT url_extract_port('http://bücher.example:8080/')",
                "bigint",
                Value::Null,
            ),
            ("SELECT url_extract_host(NULL)", "varchar(0)", Value::Null),
            ("SELECT url_encode(NULL)", "varchar(0)", Value::Null),
        ],
    );
}
