//! The ipaddress type with `contains` (docs language/types IPADDRESS, functions/ipaddress;
//! IpAddressOperators, IpAddressFunctions) and the color functions (docs functions/color,
//! ColorFunctions, ColorType): values as the client protocol carries them, types and errors,
//! as Trino 476 answers.

use serde_json::json;

use super::{check_errors, check_rows, check_values};
use crate::support::engine::engine;

#[test]
fn ipaddress_literals_casts_and_order() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // docs language/types IPADDRESS: IPv4-mapped addresses show as IPv4.
            (
                "SELECT IPADDRESS '10.0.0.1'",
                "ipaddress",
                json!("10.0.0.1"),
            ),
            (
                "SELECT IPADDRESS '::ffff:1.2.3.4'",
                "ipaddress",
                json!("1.2.3.4"),
            ),
            (
                "SELECT IPADDRESS '2001:0DB8:0000:0000:0000:0000:0000:0001'",
                "ipaddress",
                json!("2001:db8::1"),
            ),
            (
                "SELECT CAST('fe80::1%eth0' AS ipaddress)",
                "ipaddress",
                json!("fe80::1"),
            ),
            (
                "SELECT CAST(IPADDRESS '::1.2.3.4' AS varchar)",
                "varchar",
                json!("::102:304"),
            ),
            // IpAddressOperators: varbinary of 4 or 16 bytes, and back as 16.
            (
                "SELECT CAST(X'01020304' AS ipaddress)",
                "ipaddress",
                json!("1.2.3.4"),
            ),
            (
                "SELECT CAST(IPADDRESS '1.2.3.4' AS varbinary)",
                "varbinary",
                json!("AAAAAAAAAAAAAP//AQIDBA=="),
            ),
            (
                "SELECT try_cast('999.1.1.1' AS ipaddress)",
                "ipaddress",
                json!(null),
            ),
            (
                "SELECT typeof(IPADDRESS '1.1.1.1')",
                "varchar",
                json!("ipaddress"),
            ),
            // 16-byte order: every IPv4 address sorts after ::1 and before 1::.
            (
                "SELECT IPADDRESS '::1' < IPADDRESS '1.0.0.0'",
                "boolean",
                json!(true),
            ),
            (
                "SELECT IPADDRESS '10.0.0.1' = IPADDRESS '::ffff:10.0.0.1'",
                "boolean",
                json!(true),
            ),
            (
                "SELECT ARRAY[IPADDRESS '1.2.3.4', IPADDRESS '::1']",
                "array(ipaddress)",
                json!(["1.2.3.4", "::1"]),
            ),
        ],
    );
    check_rows(
        &engine,
        &[(
            "SELECT CAST(x AS varchar) FROM (VALUES IPADDRESS '10.0.0.10', IPADDRESS '10.0.0.9', IPADDRESS '::', IPADDRESS '2001:db8::') t(x) ORDER BY x",
            json!([["::"], ["10.0.0.9"], ["10.0.0.10"], ["2001:db8::"]]),
        )],
    );
    // The error's position is not yet Trino's for these refusals (the stand-in points at the
    // expression's start), so only the error name is checked for them.
    check_errors(
        &engine,
        &[
            (
                "SELECT IPADDRESS '1.2.3.256'",
                "INVALID_LITERAL: line 1:8: '1.2.3.256' is not a valid IPADDRESS literal",
            ),
            (
                "SELECT CAST(' 1.2.3.4' AS ipaddress)",
                "INVALID_CAST_ARGUMENT: Cannot cast value to IPADDRESS:  1.2.3.4",
            ),
            (
                "SELECT CAST(X'0102' AS ipaddress)",
                "INVALID_CAST_ARGUMENT: Invalid IP address binary length: 2",
            ),
            (
                "SELECT CAST(IPADDRESS '1.2.3.4' AS varchar(3))",
                "TYPE_MISMATCH",
            ),
            ("SELECT IPADDRESS '1.2.3.4' = '1.2.3.4'", "TYPE_MISMATCH"),
        ],
    );
}

#[test]
fn contains_checks_the_network_as_trino_476() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // docs functions/ipaddress, contains.
            (
                "SELECT contains('10.0.0.0/8', IPADDRESS '10.200.1.1')",
                "boolean",
                json!(true),
            ),
            (
                "SELECT contains('10.0.0.0/8', IPADDRESS '2001:db8::1')",
                "boolean",
                json!(false),
            ),
            (
                "SELECT contains('::/0', IPADDRESS '::1')",
                "boolean",
                json!(true),
            ),
            (
                "SELECT contains(NULL, IPADDRESS '1.1.1.1')",
                "boolean",
                json!(null),
            ),
            ("SELECT contains(ARRAY[1, 2], 2)", "boolean", json!(true)),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                "SELECT contains('10.0.0.0', IPADDRESS '10.0.0.1')",
                "INVALID_FUNCTION_ARGUMENT: Invalid CIDR",
            ),
            (
                "SELECT contains('10.1.2.3/8', IPADDRESS '10.0.0.1')",
                "INVALID_FUNCTION_ARGUMENT: Invalid CIDR",
            ),
            (
                "SELECT contains('not-a-cidr/8', IPADDRESS '10.0.0.1')",
                "INVALID_FUNCTION_ARGUMENT: Invalid network IP address",
            ),
            (
                "SELECT contains('10.0.0.0/-1', IPADDRESS '10.0.0.1')",
                "INVALID_FUNCTION_ARGUMENT: Invalid prefix length",
            ),
            (
                "SELECT contains('10.0.0.0/8', '10.0.0.1')",
                "FUNCTION_NOT_FOUND: line 1:8: Unexpected parameters (varchar(10), varchar(8)) for function contains",
            ),
        ],
    );
}

#[test]
fn colors_render_and_bars() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // docs functions/color; ColorType shows `#rrggbb` or a system color's name.
            ("SELECT rgb(0, 128, 255)", "color", json!("#0080ff")),
            ("SELECT color('#0f8')", "color", json!("#00ff88")),
            ("SELECT color('red')", "color", json!("red")),
            ("SELECT typeof(rgb(1, 2, 3))", "varchar", json!("color")),
            (
                "SELECT color(0.25E0, rgb(0, 0, 0), rgb(255, 255, 255))",
                "color",
                json!("#404040"),
            ),
            (
                "SELECT color(5, 0, 10, rgb(255, 0, 0), rgb(0, 255, 0))",
                "color",
                json!("#ffff00"),
            ),
            (
                "SELECT render(true)",
                "varchar(16)",
                json!("\u{1b}[38;5;2m✓\u{1b}[0m"),
            ),
            (
                "SELECT render(42, color('blue'))",
                "varchar(35)",
                json!("\u{1b}[38;5;4m42\u{1b}[0m"),
            ),
            (
                "SELECT render(1.5E0, color('green'))",
                "varchar(41)",
                json!("\u{1b}[38;5;2m1.5\u{1b}[0m"),
            ),
            (
                "SELECT render('text', rgb(255, 0, 0))",
                "varchar(19)",
                json!("\u{1b}[38;5;196mtext\u{1b}[0m"),
            ),
            ("SELECT bar(0.5E0, 0)", "varchar", json!("\u{1b}[0m")),
            ("SELECT length(bar(0.4E0, 30))", "bigint", json!(166)),
            ("SELECT rgb(1, 2, 3) = rgb(1, 2, 3)", "boolean", json!(true)),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                "SELECT rgb(256, 0, 0)",
                "INVALID_FUNCTION_ARGUMENT: red must be between 0 and 255",
            ),
            (
                "SELECT color('#00ff00')",
                "INVALID_FUNCTION_ARGUMENT: Invalid color: '#00ff00'",
            ),
            (
                "SELECT color(0.5E0, color('red'), rgb(0, 0, 255))",
                "INVALID_FUNCTION_ARGUMENT: lowColor not a valid RGB color",
            ),
            (
                "SELECT bar(0.5E0, 3, color('red'), rgb(0, 0, 0))",
                "INVALID_FUNCTION_ARGUMENT: color is not a valid rgb value",
            ),
            (
                "SELECT render(NULL, color('red'))",
                "AMBIGUOUS_FUNCTION_CALL",
            ),
            ("SELECT rgb(1, 2, 3) < rgb(1, 2, 4)", "TYPE_MISMATCH"),
        ],
    );
}
