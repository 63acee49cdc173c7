//! The built-in configuration's data, through the real binary (issue 30): the first person the
//! sign-in page offers sees tpch.tiny as Trino does (1,500 customers, real phones); the demo
//! policy restricts only the person made for it, whose card says so; the banner names the
//! policies in force.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use serde_json::{Value, json};

use crate::support::{self, binary, location, sign_in_at};

/// The binary's `up`, killed when dropped; its stdout stays open until then (a closed pipe
/// would end it at its next line).
struct Up(
    Child,
    #[allow(dead_code)] BufReader<std::process::ChildStdout>,
);

impl Drop for Up {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `zero-sandbox up` with the built-in configuration on port 0, and the banner it printed.
fn up(state: &std::path::Path) -> (Up, String) {
    let config = state.join("ports.toml");
    std::fs::write(
        &config,
        "[ports]\nedge = 0\nbroker = 0\niam = 0\nquerymesh = 0\n",
    )
    .unwrap();
    let mut child = Command::new(binary())
        .args(["up", "--no-open", "--config"])
        .arg(&config)
        .arg("--state")
        .arg(state)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary starts");
    let stdout = child.stdout.take().map(BufReader::new);
    // From here on, whatever happens, the guard stops the binary.
    let mut up = Up(child, stdout.expect("its stdout"));
    let mut banner = String::new();
    loop {
        let mut line = String::new();
        let read = up.1.read_line(&mut line).expect("a line of the banner");
        banner.push_str(&line);
        assert!(
            read > 0,
            "the binary stopped before its banner ended:\n{banner}"
        );
        if line.starts_with("Ctrl-C stops everything") {
            return (up, banner);
        }
    }
}

/// The URL on the banner's line starting with `label`.
fn banner_url(banner: &str, label: &str) -> String {
    banner
        .lines()
        .find_map(|l| l.trim_start().strip_prefix(label))
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no {label} in the banner:\n{banner}"))
        .to_string()
}

/// The sign-in page's cards, in order: (sub, the card's text without tags).
async fn cards(edge: &str) -> Vec<(String, String)> {
    let http = support::client();
    let login = http
        .get(format!("{edge}/.nnumbers/auth/login"))
        .send()
        .await
        .expect("GET login");
    let page = http.get(location(&login)).send().await.expect("the IAM");
    let html = page.text().await.expect("the sign-in page");
    html.split(r#"class="person-card" data-sub=""#)
        .skip(1)
        .map(|card| {
            let (sub, rest) = card.split_once('"').expect("a quoted sub");
            let body = rest.split("</button>").next().unwrap_or_default();
            let mut text = String::new();
            let mut in_tag = false;
            for c in body.chars() {
                match c {
                    '<' => in_tag = true,
                    '>' => {
                        in_tag = false;
                        text.push(' ');
                    }
                    c if !in_tag => text.push(c),
                    _ => {}
                }
            }
            let text = text
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .replace("&#39;", "'")
                .replace("&quot;", "\"")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&amp;", "&");
            (sub.to_string(), text)
        })
        .collect()
}

/// The built-in demo app's answer to `sql` for the person signed in with `cookie`.
async fn demo_query(edge: &str, cookie: &str, sql: &str) -> Value {
    let answer = support::client()
        .post(format!("{edge}/api/query"))
        .header("cookie", cookie)
        .json(&json!({ "sql": sql }))
        .send()
        .await
        .expect("the demo app answers");
    assert_eq!(answer.status(), 200);
    let body: Value = answer.json().await.expect("JSON");
    body["rows"].clone()
}

const COUNT: &str = "SELECT count(*), count_if(phone LIKE 'XX-XXX-XXX-%') FROM tpch.tiny.customer";

#[tokio::test]
async fn the_first_person_offered_sees_all_of_tpch_tiny_and_the_demo_person_is_labelled() {
    let state = tempfile::tempdir().unwrap();
    let path = state.path().to_path_buf();
    let (_up, banner) = tokio::task::spawn_blocking(move || up(&path))
        .await
        .expect("the banner");
    assert!(
        banner.contains(
            "Data policies    builtin:demo: tpch.*.customer: only EUROPE's customers \
             (272 of 1,500), phone masked for group demo-restricted (Dana (demo policy))"
        ),
        "{banner}"
    );
    let edge = banner_url(&banner, "Your app (edge)");
    let realm = banner_url(&banner, "IAM sign-in");

    let cards = cards(&edge).await;
    assert_eq!(cards.len(), 5, "{cards:?}");
    // Nobody but the demo person is said to be restricted, and they are.
    let restricted: Vec<&str> = cards
        .iter()
        .filter(|(_, text)| text.contains("Data policy"))
        .map(|(_, text)| text.as_str())
        .collect();
    assert_eq!(restricted.len(), 1, "{cards:?}");
    assert!(
        restricted[0].contains("Dana (demo policy) dana@acme.example")
            && restricted[0].contains(
                "Data policy: tpch.*.customer — only EUROPE's customers (272 of 1,500), phone masked"
            ),
        "{restricted:?}"
    );

    // The first card: every customer, no phone masked, as in Trino.
    let (first, _) = &cards[0];
    let signed_in = sign_in_at(&edge, &realm, first, "/").await;
    assert_eq!(
        demo_query(&edge, &signed_in.cookie, COUNT).await,
        json!([[1500, 0]])
    );
    // The demo person: Europe's customers, every phone masked.
    let dana = cards
        .iter()
        .find(|(_, text)| text.contains("Data policy"))
        .map(|(sub, _)| sub)
        .expect("Dana's card");
    let signed_in = sign_in_at(&edge, &realm, dana, "/").await;
    assert_eq!(
        demo_query(&edge, &signed_in.cookie, COUNT).await,
        json!([[272, 272]])
    );
}
