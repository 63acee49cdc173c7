//! The console in headless Chromium, panel by panel, as a developer uses it: sign in as a
//! person and see the session; end it and see the app's next broker call refused with 401 in
//! the activity; flip switches and see the refusal change; a fault for one session only; a key
//! rotation's new kid; desktop and phone widths with nothing overflowing; every control named
//! and reached by Tab; opening it acts as nobody, shows policies and limits as tables, the
//! current kid once, and asks for nothing that is missing.

use std::path::PathBuf;
use std::time::Duration;

use serde_json::{Value, json};
use zero_sandbox::Sandbox;

use crate::control::Control;
use crate::support;
use crate::support::browser::{Browser, DEFAULT_DEADLINE};

const SQL: &str = "SELECT count(*) FROM tpch.tiny.region";

/// The console open and ready (its first reads of the API done, its stream following).
async fn open_console(sandbox: &Sandbox) -> Option<Browser> {
    let mut browser = Browser::launch().await?;
    browser.goto(&sandbox.endpoints().console_url()).await;
    browser
        .wait_for("document.body.dataset.ready === 'true'", DEFAULT_DEADLINE)
        .await;
    Some(browser)
}

/// The broker's answer to the app's query with `identity`: status and code (or "OK").
async fn app_query(sandbox: &Sandbox, identity: &str) -> (u16, String) {
    let (status, body) = support::broker_query(sandbox, identity, SQL).await;
    let code = body["code"].as_str().unwrap_or("OK").to_string();
    (status, code)
}

fn js(value: &str) -> String {
    serde_json::to_string(value).expect("a JSON string")
}

/// Focuses the control `selector` matches and presses `key` on it, as a keyboard user does
/// (and no layout shift from the live activity can make it miss).
async fn press_on(browser: &mut Browser, selector: &str, key: &str) {
    let found = browser
        .eval(&format!(
            "(() => {{ const e = document.querySelector({}); if (!e) return false; e.focus(); \
             return document.activeElement === e; }})()",
            js(selector)
        ))
        .await;
    assert_eq!(found, Value::Bool(true), "{selector} takes the focus");
    browser.press(key).await;
}

async fn activity_shows(browser: &mut Browser, kind: &str, outcome: &str) {
    browser
        .wait_for(
            &format!(
                "document.querySelector('#activity-list li[data-type={}][data-outcome={}]')",
                js(kind),
                js(outcome)
            ),
            DEFAULT_DEADLINE,
        )
        .await;
}

#[tokio::test]
async fn the_console_signs_in_ends_sessions_flips_switches_adds_faults_and_rotates_keys() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let Some(mut browser) = open_console(&sandbox).await else {
        return;
    };
    let ada = sandbox.config().people[0].clone();
    let ada_name = ada.profile.name.clone().expect("Ada has a name");

    // Sign in as Ada: the new tab is refused here, so the console offers the link instead.
    browser.eval("window.open = () => null").await;
    press_on(
        &mut browser,
        &format!(
            "button[aria-label={}]",
            js(&format!("Sign in as {ada_name}"))
        ),
        "Enter",
    )
    .await;
    browser
        .wait_for(
            &format!(
                "document.querySelector('#session-list [data-sub={}]')",
                js(&ada.sub)
            ),
            DEFAULT_DEADLINE,
        )
        .await;
    let link = browser
        .eval("document.querySelector('#status a') && document.querySelector('#status a').href")
        .await;
    let link = link.as_str().expect("the link to open the app as Ada");
    // The link is the edge's own sign-in path: it sets Ada's session cookie, once.
    let opened = support::client().get(link).send().await.expect("answers");
    assert_eq!(opened.status(), 302);
    let cookie = opened.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_string();
    // The app's page through the edge: the edge signs the identity the console then shows.
    let page = support::client()
        .get(sandbox.endpoints().edge_url())
        .header("cookie", &cookie)
        .send()
        .await
        .expect("the demo answers");
    assert_eq!(page.status(), 200);
    browser
        .wait_for(
            "document.querySelector('#latest-identity .verdict.ok') && \
             document.querySelectorAll('#latest-identity .check.ok').length === 5",
            DEFAULT_DEADLINE,
        )
        .await;
    let (_, latest) = control.get("/identity/latest").await;
    let identity = latest["identity"]["token"].as_str().unwrap().to_string();
    assert_eq!(app_query(&sandbox, &identity).await, (200, "OK".into()));

    // End the session: the app's next broker call is refused, and the activity says so.
    let sid = latest["identity"]["claims"]["sid"]
        .as_str()
        .unwrap()
        .to_string();
    press_on(
        &mut browser,
        &format!("#session-list [data-sid={}] button.end-session", js(&sid)),
        "Enter",
    )
    .await;
    browser
        .wait_for(
            &format!(
                "!document.querySelector('#session-list [data-sid={}]')",
                js(&sid)
            ),
            DEFAULT_DEADLINE,
        )
        .await;
    assert_eq!(
        app_query(&sandbox, &identity).await,
        (401, "USER_SESSION_REQUIRED".into())
    );
    activity_shows(&mut browser, "QUERY", "USER_SESSION_REQUIRED").await;

    // Flip switches: the refusal code follows.
    let session = control.session("ada").await;
    let identity = session["identity"].as_str().unwrap().to_string();
    press_on(&mut browser, "#switch-querymesh_enabled", " ").await;
    wait_for_switch(&control, &mut browser, "querymesh_enabled", false).await;
    assert_eq!(
        app_query(&sandbox, &identity).await,
        (409, "QUERYMESH_NOT_ENABLED".into())
    );
    press_on(&mut browser, "#switch-querymesh_configured", " ").await;
    wait_for_switch(&control, &mut browser, "querymesh_configured", false).await;
    assert_eq!(
        app_query(&sandbox, &identity).await,
        (409, "ORGANIZATION_INTEGRATION_NOT_CONFIGURED".into())
    );
    activity_shows(
        &mut browser,
        "QUERY",
        "ORGANIZATION_INTEGRATION_NOT_CONFIGURED",
    )
    .await;
    press_on(&mut browser, "#switch-querymesh_configured", " ").await;
    wait_for_switch(&control, &mut browser, "querymesh_configured", true).await;
    press_on(&mut browser, "#switch-querymesh_enabled", " ").await;
    wait_for_switch(&control, &mut browser, "querymesh_enabled", true).await;

    // A fault for one session: Grace's refused, Ada's still answered.
    let grace = control.session("grace").await;
    let grace_sid = grace["sid"].as_str().unwrap();
    let option = format!("sid:{grace_sid}");
    browser
        .wait_for(
            &format!(
                "document.querySelector('#fault-scope option[value={}]')",
                js(&option)
            ),
            DEFAULT_DEADLINE,
        )
        .await;
    browser
        .eval(&format!(
            "(() => {{ const f = document.getElementById('add-fault'); f.kind.value = 'code'; \
             f.code.value = 'QUERYMESH_UNAVAILABLE'; f.scope.value = {}; }})()",
            js(&option)
        ))
        .await;
    press_on(&mut browser, "#add-fault button[type=submit]", "Enter").await;
    browser
        .wait_for(
            "document.querySelector('#fault-list li.fault')",
            DEFAULT_DEADLINE,
        )
        .await;
    let (_, faults) = control.get("/faults").await;
    assert_eq!(faults["faults"][0]["scope"], json!({ "sid": grace_sid }));
    assert_eq!(
        app_query(&sandbox, grace["identity"].as_str().unwrap()).await,
        (503, "QUERYMESH_UNAVAILABLE".into())
    );
    assert_eq!(app_query(&sandbox, &identity).await, (200, "OK".into()));

    // Rotate the key: the console shows the new kid.
    let before = browser
        .eval("document.getElementById('current-kid').textContent")
        .await;
    press_on(&mut browser, "#rotate-key", "Enter").await;
    browser
        .wait_for(
            &format!(
                "document.getElementById('current-kid').textContent !== {}",
                before
            ),
            DEFAULT_DEADLINE,
        )
        .await;
    let (_, keys) = control.get("/keys").await;
    let shown = browser
        .eval("document.getElementById('current-kid').textContent")
        .await;
    assert_eq!(shown, keys["current"]);
    assert_eq!(
        shown.as_str(),
        Some(sandbox.identity().keys.current().kid())
    );
}

/// Waits until switch `name` is `on` in the sandbox and then on the console's checkbox, as a
/// person sees it flip before pressing it again.
async fn wait_for_switch(control: &Control, browser: &mut Browser, name: &str, on: bool) {
    let until = std::time::Instant::now() + DEFAULT_DEADLINE;
    loop {
        let (_, switches) = control.get("/switches").await;
        if switches[name] == on {
            break;
        }
        assert!(
            std::time::Instant::now() < until,
            "{name} never became {on}"
        );
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    browser
        .wait_for(
            &format!(
                "document.getElementById({}).checked === {on}",
                js(&format!("switch-{name}"))
            ),
            DEFAULT_DEADLINE,
        )
        .await;
}

/// Where the console's screenshots go: `target/console-screenshots/`.
fn screenshot_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/console-screenshots");
    std::fs::create_dir_all(&dir).expect("the screenshot directory");
    dir
}

/// Elements that overflow horizontally: the document, or a panel.
const OVERFLOWING: &str = "(() => { \
    const out = []; \
    const d = document.documentElement; \
    if (d.scrollWidth > d.clientWidth) out.push(`document ${d.scrollWidth} > ${d.clientWidth}`); \
    for (const p of document.querySelectorAll('.panel')) \
      if (p.scrollWidth > p.clientWidth) out.push(`${p.id} ${p.scrollWidth} > ${p.clientWidth}`); \
    return out; })()";

/// Every visible interactive element with no accessible name (its label, aria-label or text).
const UNNAMED: &str = "(() => { \
    const name = (e) => (e.getAttribute('aria-label') || \
      (e.labels && [...e.labels].map((l) => l.textContent).join(' ')) || \
      (e.getAttribute('aria-labelledby') || '').split(' ').map((id) => document.getElementById(id)?.textContent ?? '').join(' ') || \
      e.textContent || e.title || '').trim(); \
    return [...document.querySelectorAll('button, input, select, textarea, a, summary, [tabindex]')] \
      .filter((e) => e.getClientRects().length && !name(e)).map((e) => e.outerHTML.slice(0, 120)); })()";

#[tokio::test]
async fn the_console_fits_desktop_and_phone_and_every_control_is_named_and_reached_by_tab() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    control.session("ada").await;
    control.fault(json!({ "delay_ms": 1, "times": 1 })).await;
    let Some(mut browser) = open_console(&sandbox).await else {
        return;
    };
    // The tables a person sees are listed only when asked.
    press_on(&mut browser, "#see-as button[type=submit]", "Enter").await;
    browser
        .wait_for("document.querySelector('#session-list .session') && document.querySelector('#fault-list .fault') && document.querySelector('#tables details') && document.querySelector('#limits table.data')", DEFAULT_DEADLINE)
        .await;
    let dir = screenshot_dir();
    for (name, width, mobile) in [("desktop", 1280, false), ("phone", 375, true)] {
        browser.viewport(width, 900, mobile).await;
        browser
            .wait_for(&format!("window.innerWidth === {width}"), DEFAULT_DEADLINE)
            .await;
        let overflowing = browser.eval(OVERFLOWING).await;
        assert_eq!(overflowing, json!([]), "at {width} px");
        let shot = browser
            .command(
                "Page.captureScreenshot",
                json!({ "format": "png", "captureBeyondViewport": true }),
            )
            .await;
        use base64::Engine;
        let png = base64::engine::general_purpose::STANDARD
            .decode(shot["data"].as_str().unwrap_or_default())
            .expect("a base64 screenshot");
        std::fs::write(dir.join(format!("console-{name}.png")), png).expect("saves");
    }

    // Every control has an accessible name; with every disclosure open, Tab visits each.
    browser
        .eval("document.querySelectorAll('details').forEach((d) => d.open = true)")
        .await;
    assert_eq!(browser.eval(UNNAMED).await, json!([]));
    let count = browser
        .eval(
            "(() => { let i = 0; for (const e of document.querySelectorAll('button, input, select, textarea, a[href], summary, [tabindex]')) \
             if (e.getClientRects().length && !e.disabled) e.dataset.tabCheck = String(i++); \
             window.__visited = new Set(); \
             document.addEventListener('focusin', (ev) => { if (ev.target.dataset.tabCheck) window.__visited.add(ev.target.dataset.tabCheck); }); \
             document.activeElement?.blur(); return i; })()",
        )
        .await
        .as_u64()
        .expect("a count");
    assert!(count > 30, "{count} controls");
    for _ in 0..count + 5 {
        browser.press("Tab").await;
    }
    let missed: Value = browser
        .eval(
            "[...document.querySelectorAll('[data-tab-check]')].filter((e) => !window.__visited.has(e.dataset.tabCheck)).map((e) => e.outerHTML.slice(0, 120))",
        )
        .await;
    assert_eq!(missed, json!([]), "controls Tab never reached");
}

/// Issue 30: opening the console ran two QueryMesh queries as the first person (in their
/// activity, their events and their limits), showed the limits and policies as raw JSON, the
/// current kid twice, and asked for a favicon that 404'd.
#[tokio::test]
async fn opening_the_console_acts_as_nobody_shows_tables_and_the_kid_once_and_nothing_404s() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let Some(mut browser) = Browser::launch().await else {
        return;
    };
    browser.record_responses().await;
    browser.goto(&sandbox.endpoints().console_url()).await;
    browser
        .wait_for(
            "document.body.dataset.ready === 'true' && \
             document.querySelector('#policies table.data') && \
             document.querySelector('#limits table.data')",
            DEFAULT_DEADLINE,
        )
        .await;

    // Nobody acted: no event names any person, QueryMesh ran nothing, no table listing.
    let ada = &sandbox.config().people[0].sub;
    let (_, mine) = control.get(&format!("/events?sub={ada}")).await;
    assert_eq!(mine["events"], json!([]), "{mine}");
    let (_, all) = control.get("/events").await;
    let by_querymesh: Vec<&Value> = all["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter(|e| e["source"] == "querymesh" || !e["sub"].is_null())
        .collect();
    assert!(by_querymesh.is_empty(), "{by_querymesh:?}");
    assert_eq!(
        browser
            .eval("document.querySelectorAll('#tables *').length")
            .await,
        json!(0)
    );

    // Policies and limits as tables: who the demo rule hits, each person's allowances.
    let restriction = browser
        .eval("[...document.querySelectorAll('#policies table.data')[0].querySelectorAll('tbody td')].map((c) => c.textContent)")
        .await;
    assert_eq!(
        restriction,
        json!([
            "tpch.*.customer (rule tables[0])",
            "group demo-restricted: Dana (demo policy)",
            "only EUROPE's customers (272 of 1,500), phone masked"
        ])
    );
    let effective = browser
        .eval("[...document.querySelector('#limits table[aria-label=\"Effective limits\"]').querySelectorAll('tbody tr')].map((r) => r.cells[0].textContent)")
        .await;
    let names: Vec<&str> = sandbox
        .config()
        .people
        .iter()
        .map(|p| p.display_name())
        .collect();
    assert_eq!(effective, json!(names));
    let raw = browser
        .eval("(() => { const q = document.getElementById('querymesh'); \
               return [q.querySelectorAll('pre, dl').length, q.textContent.includes('\"concurrent_queries\"')]; })()")
        .await;
    assert_eq!(raw, json!([0, false]), "no raw JSON of limits or policies");

    // The current kid, once on the page.
    let kid = sandbox.identity().keys.current().kid().to_string();
    let shown = browser
        .eval(&format!(
            "document.body.innerText.split({}).length - 1",
            js(&kid)
        ))
        .await;
    assert_eq!(shown, json!(1));

    // Every request answered, the icon included.
    let icon = browser
        .eval("document.querySelector('link[rel=icon]').href")
        .await;
    let icon = icon.as_str().expect("the console declares its icon");
    let answer = support::client().get(icon).send().await.expect("answers");
    assert_eq!(answer.status(), 200);
    assert_eq!(answer.headers()["content-type"], "image/svg+xml");
    let responses = browser.responses().await;
    assert!(
        responses
            .iter()
            .any(|(url, _)| url.ends_with("/sandbox/v1/limits")),
        "{responses:?}"
    );
    let failed: Vec<_> = responses
        .iter()
        .filter(|(_, status)| *status >= 400)
        .collect();
    assert!(failed.is_empty(), "{failed:?}");
}
