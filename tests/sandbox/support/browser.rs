//! A small headless-Chromium driver for the browser tests, over the Chrome DevTools Protocol.
//!
//! Chromium is found at `$CHROMIUM`, `/usr/bin/chromium` or `chromium` on the PATH; `.ci/run`
//! installs it. Without it the tests fail with what to install, unless `ZS_SKIP_BROWSER=1`
//! (then they print a notice and pass).

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// How long Chromium may take to start and open its first page.
const LAUNCH_DEADLINE: Duration = Duration::from_secs(30);
/// The default deadline for a condition or a navigation.
pub const DEFAULT_DEADLINE: Duration = Duration::from_secs(15);
const POLL: Duration = Duration::from_millis(50);

/// A headless Chromium with one page, killed on drop.
pub struct Browser {
    process: Child,
    /// The fresh profile: no cookies or cache from anything else.
    _profile: tempfile::TempDir,
    socket: WebSocketStream<MaybeTlsStream<TcpStream>>,
    next_id: u64,
    /// Requests held by [`Browser::intercept`], answered by the driver, oldest first.
    intercepted: Vec<String>,
    /// (URL, status) of every response the page received since [`Browser::record_responses`].
    responses: Vec<(String, u16)>,
}

/// What an intercepted request is answered with: a page that says so.
const INTERCEPTED_PAGE: &str =
    "<!doctype html><title>Intercepted</title><p>This request was intercepted by the test.</p>";

fn chromium_path() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("CHROMIUM") {
        return Some(PathBuf::from(path)).filter(|p| p.exists());
    }
    let standard = PathBuf::from("/usr/bin/chromium");
    if standard.exists() {
        return Some(standard);
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join("chromium"))
            .find(|p| p.exists())
    })
}

impl Browser {
    /// Starts Chromium; `None` (with a notice) only when it is missing and `ZS_SKIP_BROWSER=1`.
    pub async fn launch() -> Option<Browser> {
        let Some(chromium) = chromium_path() else {
            if std::env::var("ZS_SKIP_BROWSER").as_deref() == Ok("1") {
                eprintln!(
                    "notice: chromium is not installed; browser test skipped (ZS_SKIP_BROWSER=1)"
                );
                return None;
            }
            panic!(
                "the browser tests need Chromium: `apt-get install -y chromium` (or set CHROMIUM=/path/to/chromium; ZS_SKIP_BROWSER=1 skips them)"
            );
        };
        let profile = tempfile::tempdir().expect("a temporary profile directory");
        let process = Command::new(&chromium)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-quic",
                "--remote-debugging-port=0",
                "--window-size=1280,900",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", chromium.display()));
        let mut browser_process = ProcessGuard(Some(process));

        let port = devtools_port(&profile.path().join("DevToolsActivePort")).await;
        let socket_url = page_socket_url(port).await;
        let (socket, _) = tokio_tungstenite::connect_async(socket_url.as_str())
            .await
            .expect("the DevTools WebSocket accepts");
        let mut browser = Browser {
            process: browser_process.take(),
            _profile: profile,
            socket,
            next_id: 0,
            intercepted: Vec::new(),
            responses: Vec::new(),
        };
        browser.command("Page.enable", json!({})).await;
        Some(browser)
    }

    /// Sends one DevTools command and waits for its answer; panics if DevTools refuses it.
    pub async fn command(&mut self, method: &str, params: Value) -> Value {
        match self.try_command(method, params).await {
            Ok(result) => result,
            Err(error) => panic!("DevTools refused {method}: {error}"),
        }
    }

    /// Sends one DevTools command and waits for its answer or its error. Events in between
    /// are skipped, except intercepted requests, which are answered at once (see
    /// [`Browser::intercept`]).
    pub async fn try_command(&mut self, method: &str, params: Value) -> Result<Value, Value> {
        let id = self.send(method, params).await;
        let deadline = Instant::now() + DEFAULT_DEADLINE;
        loop {
            let next = tokio::time::timeout_at(deadline.into(), self.socket.next())
                .await
                .unwrap_or_else(|_| panic!("DevTools did not answer {method} in time"));
            let text = match next {
                Some(Ok(Message::Text(text))) => text,
                Some(Ok(_)) => continue,
                _ => panic!("the DevTools WebSocket closed while waiting for {method}"),
            };
            let message: Value = serde_json::from_str(text.as_str()).expect("DevTools sends JSON");
            if message["id"] == id {
                return match message.get("error") {
                    Some(error) => Err(error.clone()),
                    None => Ok(message["result"].clone()),
                };
            }
            if message["method"] == "Fetch.requestPaused" {
                self.answer_intercepted(&message["params"]).await;
            }
            if message["method"] == "Network.responseReceived" {
                let response = &message["params"]["response"];
                self.responses.push((
                    response["url"].as_str().unwrap_or_default().to_string(),
                    response["status"].as_u64().unwrap_or_default() as u16,
                ));
            }
        }
    }

    async fn send(&mut self, method: &str, params: Value) -> u64 {
        self.next_id += 1;
        let id = self.next_id;
        let message = json!({"id": id, "method": method, "params": params}).to_string();
        self.socket
            .send(Message::Text(message.into()))
            .await
            .expect("the DevTools WebSocket is open");
        id
    }

    async fn answer_intercepted(&mut self, paused: &Value) {
        use base64::Engine;
        let url = paused["request"]["url"].as_str().unwrap_or_default();
        self.intercepted.push(url.to_string());
        let body = base64::engine::general_purpose::STANDARD.encode(INTERCEPTED_PAGE);
        // Not waited for: its answer is skipped like any other message.
        self.send(
            "Fetch.fulfillRequest",
            json!({
                "requestId": paused["requestId"],
                "responseCode": 200,
                "responseHeaders": [{"name": "Content-Type", "value": "text/html; charset=utf-8"}],
                "body": body,
            }),
        )
        .await;
    }

    /// From now on, requests to URLs starting with `url_prefix` never leave the browser: they
    /// are answered with a small page and their URLs kept for [`Browser::next_intercepted`].
    /// This is how a test sees where a redirect goes without depending on what is there.
    pub async fn intercept(&mut self, url_prefix: &str) {
        let pattern = format!("{}*", url_prefix.replace('\\', "\\\\").replace('*', "\\*"));
        self.command(
            "Fetch.enable",
            json!({"patterns": [{"urlPattern": pattern, "requestStage": "Request"}]}),
        )
        .await;
    }

    /// The oldest intercepted request's URL, waiting for one until `deadline`.
    pub async fn next_intercepted(&mut self, deadline: Duration) -> String {
        let until = Instant::now() + deadline;
        loop {
            if !self.intercepted.is_empty() {
                return self.intercepted.remove(0);
            }
            assert!(
                Instant::now() < until,
                "no intercepted request within {deadline:?} (the page is at {})",
                self.current_url().await
            );
            // Any command reads the socket, and so answers what is waiting.
            self.command("Page.getNavigationHistory", json!({})).await;
            tokio::time::sleep(POLL).await;
        }
    }

    /// From now on, every response the page receives is kept for [`Browser::responses`]
    /// (DevTools' Network domain: the page's own requests, its icon's included).
    pub async fn record_responses(&mut self) {
        self.command("Network.enable", json!({})).await;
    }

    /// (URL, status) of the responses received so far, oldest first.
    pub async fn responses(&mut self) -> Vec<(String, u16)> {
        // Any command reads the socket, and so collects what is waiting.
        self.command("Page.getNavigationHistory", json!({})).await;
        self.responses.clone()
    }

    /// Navigates and waits until the new document (after any redirects) has loaded.
    pub async fn goto(&mut self, url: &str) {
        self.eval("window.__zsOld = true").await;
        let result = self.command("Page.navigate", json!({"url": url})).await;
        // An HTTP error status with no body is reported too; the page still loads.
        if let Some(error) = result["errorText"]
            .as_str()
            .filter(|e| !e.is_empty() && *e != "net::ERR_HTTP_RESPONSE_CODE_FAILURE")
        {
            panic!("navigating to {url} failed: {error}");
        }
        self.wait_for(
            "!window.__zsOld && document.readyState === 'complete'",
            DEFAULT_DEADLINE,
        )
        .await;
    }

    /// Evaluates `js` in the page and returns its value (promises are awaited).
    pub async fn eval(&mut self, js: &str) -> Value {
        match self.try_eval(js).await {
            Ok(value) => value,
            Err(e) => panic!("`{js}` threw: {e}"),
        }
    }

    async fn try_eval(&mut self, js: &str) -> Result<Value, String> {
        // During a navigation there may be no context to evaluate in: an error, not a panic.
        let result = self
            .try_command(
                "Runtime.evaluate",
                json!({"expression": js, "returnByValue": true, "awaitPromise": true}),
            )
            .await
            .map_err(|e| e.to_string())?;
        if let Some(details) = result.get("exceptionDetails") {
            return Err(details["exception"]["description"]
                .as_str()
                .unwrap_or("an exception")
                .to_string());
        }
        Ok(result["result"]["value"].clone())
    }

    /// Polls `condition` (JavaScript) until it is truthy; false at the deadline.
    pub async fn try_wait_for(&mut self, condition: &str, deadline: Duration) -> bool {
        let until = Instant::now() + deadline;
        loop {
            // Mid-navigation the evaluation may fail: try again.
            if let Ok(value) = self.try_eval(&format!("!!({condition})")).await
                && value == Value::Bool(true)
            {
                return true;
            }
            if Instant::now() >= until {
                return false;
            }
            tokio::time::sleep(POLL).await;
        }
    }

    /// Polls `condition` until it is truthy; panics with the page's URL at the deadline.
    pub async fn wait_for(&mut self, condition: &str, deadline: Duration) {
        if !self.try_wait_for(condition, deadline).await {
            let url = self.current_url().await;
            panic!("`{condition}` did not become true within {deadline:?} (the page is at {url})");
        }
    }

    /// The URL of the current history entry: right even on Chromium's own error pages.
    pub async fn current_url(&mut self) -> String {
        let history = self.command("Page.getNavigationHistory", json!({})).await;
        let index = history["currentIndex"].as_u64().unwrap_or_default() as usize;
        history["entries"][index]["url"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// A real mouse click at the centre of the element `selector` matches.
    pub async fn click(&mut self, selector: &str) {
        let selector_js = serde_json::to_string(selector).unwrap_or_default();
        let centre = self
            .eval(&format!(
                "(() => {{ const e = document.querySelector({selector_js}); if (!e) return null; \
                 e.scrollIntoView({{block: 'center'}}); const r = e.getBoundingClientRect(); \
                 return {{x: r.left + r.width / 2, y: r.top + r.height / 2}}; }})()"
            ))
            .await;
        let (Some(x), Some(y)) = (centre["x"].as_f64(), centre["y"].as_f64()) else {
            let url = self.current_url().await;
            panic!("nothing matches {selector} on {url}");
        };
        for event in ["mouseMoved", "mousePressed", "mouseReleased"] {
            self.command(
                "Input.dispatchMouseEvent",
                json!({"type": event, "x": x, "y": y, "button": "left", "clickCount": 1}),
            )
            .await;
        }
    }

    /// A PNG of the viewport.
    pub async fn screenshot(&mut self) -> Vec<u8> {
        use base64::Engine;
        let shot = self
            .command("Page.captureScreenshot", json!({"format": "png"}))
            .await;
        base64::engine::general_purpose::STANDARD
            .decode(shot["data"].as_str().unwrap_or_default())
            .expect("a base64 screenshot")
    }

    /// Saves a screenshot as `{ZS_SCREENSHOT_DIR}/{name}.png` when that variable is set: a
    /// way to look at what a test saw.
    pub async fn keep_screenshot(&mut self, name: &str) {
        if let Some(dir) = std::env::var_os("ZS_SCREENSHOT_DIR") {
            let png = self.screenshot().await;
            let path = PathBuf::from(dir).join(format!("{name}.png"));
            std::fs::write(&path, png)
                .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
        }
    }

    /// Sets the viewport's size, as a phone or a desktop would have it.
    pub async fn viewport(&mut self, width: u32, height: u32, mobile: bool) {
        self.command(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}),
        )
        .await;
    }

    /// Presses a key on whatever has the focus: "Enter", "Tab", " ".
    pub async fn press(&mut self, key: &str) {
        let (code, key_code, text) = match key {
            "Enter" => ("Enter", 13, "\r"),
            "Tab" => ("Tab", 9, ""),
            " " => ("Space", 32, " "),
            other => panic!("press() does not know the key {other:?}"),
        };
        let mut down =
            json!({"type": "keyDown", "key": key, "code": code, "windowsVirtualKeyCode": key_code});
        if !text.is_empty() {
            down["text"] = json!(text);
        }
        self.command("Input.dispatchKeyEvent", down).await;
        self.command(
            "Input.dispatchKeyEvent",
            json!({"type": "keyUp", "key": key, "code": code, "windowsVirtualKeyCode": key_code}),
        )
        .await;
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

/// Kills Chromium if the launch fails half-way.
struct ProcessGuard(Option<Child>);

impl ProcessGuard {
    fn take(&mut self) -> Child {
        self.0.take().expect("taken once")
    }
}

impl Drop for ProcessGuard {
    fn drop(&mut self) {
        if let Some(mut child) = self.0.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Chromium writes the port it chose (with `--remote-debugging-port=0`) to this file.
async fn devtools_port(file: &std::path::Path) -> u16 {
    let deadline = Instant::now() + LAUNCH_DEADLINE;
    loop {
        if let Ok(text) = std::fs::read_to_string(file)
            && let Some(port) = text.lines().next().and_then(|l| l.trim().parse().ok())
        {
            return port;
        }
        assert!(
            Instant::now() < deadline,
            "Chromium did not open its DevTools port within {LAUNCH_DEADLINE:?}"
        );
        tokio::time::sleep(POLL).await;
    }
}

/// The WebSocket of Chromium's first page.
async fn page_socket_url(port: u16) -> String {
    let deadline = Instant::now() + LAUNCH_DEADLINE;
    let client = reqwest::Client::new();
    loop {
        let targets: Option<Vec<Value>> = match client
            .get(format!("http://127.0.0.1:{port}/json/list"))
            .send()
            .await
        {
            Ok(response) => response.json().await.ok(),
            Err(_) => None,
        };
        if let Some(url) = targets.into_iter().flatten().find_map(|t| {
            (t["type"] == "page")
                .then(|| t["webSocketDebuggerUrl"].as_str().map(str::to_string))
                .flatten()
        }) {
            return url;
        }
        assert!(
            Instant::now() < deadline,
            "Chromium opened no page within {LAUNCH_DEADLINE:?}"
        );
        tokio::time::sleep(POLL).await;
    }
}
