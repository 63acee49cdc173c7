//! Signing in the way a browser does, over plain HTTP against URLs only, so it works on the
//! real binary as well as in-process (also used by benches/broker.rs, next to `echo_app.rs`).

/// A client that does not follow redirects, so each hop can be checked.
pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("a client")
}

/// A sign-in completed over HTTP: what the browser holds afterwards.
pub struct HttpSignIn {
    /// `__nnumbers_session=…`: the edge's session cookie.
    pub cookie: String,
    /// The IAM's SSO cookies (`KEYCLOAK_IDENTITY=…; …`).
    pub iam_cookies: String,
    /// Where the callback sent the browser (the raw Location).
    pub returned_to: String,
}

/// The browser's sign-in, by hand: `GET {edge}/.nnumbers/auth/login` (with `return_to` sent as
/// given, URL-encoded) → the IAM's authorization endpoint → its sign-in page → the form of the
/// person `sub` at `realm` (the realm's URL) → the edge's callback. Panics with the hop that
/// failed, so a broken flow names itself.
pub async fn sign_in_at(edge: &str, realm: &str, sub: &str, return_to: &str) -> HttpSignIn {
    let http = client();

    let login = http
        .get(format!(
            "{edge}/.nnumbers/auth/login?{}",
            encode_form(&[("return_to", return_to)])
        ))
        .send()
        .await
        .expect("GET login");
    assert_eq!(login.status(), 302, "the edge's login redirects to the IAM");
    let authorize = location(&login);
    // The cookie that binds the sign-in to this browser; the callback must carry it back.
    let login_cookie = cookie_pairs(&login);

    let page = http
        .get(&authorize)
        .send()
        .await
        .expect("GET the IAM's authorization endpoint");
    assert_eq!(page.status(), 200, "the IAM shows its sign-in page");
    let html = page.text().await.expect("the sign-in page");
    let auth_request = hidden_input(&html, "auth_request")
        .unwrap_or_else(|| panic!("the sign-in page has no auth_request input:\n{html}"));

    let chosen = http
        .post(format!("{realm}/login-actions/authenticate"))
        .header(
            reqwest::header::CONTENT_TYPE,
            "application/x-www-form-urlencoded",
        )
        .body(encode_form(&[
            ("auth_request", auth_request.as_str()),
            ("person", sub),
        ]))
        .send()
        .await
        .expect("POST the person's form");
    assert_eq!(
        chosen.status(),
        302,
        "choosing a person redirects to the callback"
    );
    let iam_cookies = cookie_pairs(&chosen);
    let callback = location(&chosen);

    let done = http
        .get(&callback)
        .header(reqwest::header::COOKIE, &login_cookie)
        .send()
        .await
        .expect("GET the edge's callback");
    assert_eq!(done.status(), 302, "the callback redirects to return_to");
    let returned_to = done
        .headers()
        .get(reqwest::header::LOCATION)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    let cookie = cookie_pairs(&done);
    assert!(
        cookie.starts_with("__nnumbers_session="),
        "the callback sets the platform cookie"
    );
    HttpSignIn {
        cookie,
        iam_cookies,
        returned_to,
    }
}

/// [`sign_in_at`] the realm `realm` of the IAM at `iam`, returning to `/`; returns the edge's
/// session cookie (`name=value`).
pub async fn sign_in_over_http(edge: &str, iam: &str, realm: &str, sub: &str) -> String {
    sign_in_at(edge, &format!("{iam}/realms/{realm}"), sub, "/")
        .await
        .cookie
}

/// The identity the edge hands the app for the session `cookie`, as the echo app saw it.
pub async fn identity_via_app(edge: &str, cookie: &str) -> String {
    let echo: serde_json::Value = client()
        .get(format!("{edge}/"))
        .header("cookie", cookie)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    super::echo_app::header_values(&echo, "x-nnumbers-identity")
        .into_iter()
        .next()
        .unwrap_or_default()
}

/// `application/x-www-form-urlencoded` (also a query string).
pub fn encode_form(pairs: &[(&str, &str)]) -> String {
    form_urlencoded::Serializer::new(String::new())
        .extend_pairs(pairs)
        .finish()
}

/// A redirect's Location, made absolute against the request's URL.
pub fn location(response: &reqwest::Response) -> String {
    let value = response
        .headers()
        .get(reqwest::header::LOCATION)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_else(|| panic!("{} has no Location", response.url()));
    response
        .url()
        .join(value)
        .map(|u| u.to_string())
        .unwrap_or_else(|_| value.to_string())
}

/// `name=value` of every cookie a response sets, joined for a Cookie header.
pub fn cookie_pairs(response: &reqwest::Response) -> String {
    response
        .headers()
        .get_all(reqwest::header::SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .filter_map(|v| v.split(';').next())
        .map(str::trim)
        .collect::<Vec<_>>()
        .join("; ")
}

/// The value of the first `<input name="{name}" value="…">` in `html` (either quote style,
/// any attribute order), entity-decoded.
pub fn hidden_input(html: &str, name: &str) -> Option<String> {
    html.split("<input").skip(1).find_map(|tag| {
        let tag = tag.split('>').next()?;
        (attribute(tag, "name")? == name).then(|| attribute(tag, "value"))?
    })
}

fn attribute(tag: &str, name: &str) -> Option<String> {
    for quote in ['"', '\''] {
        let needle = format!("{name}={quote}");
        let start = tag.match_indices(&needle).map(|(i, _)| i).find(|&i| {
            tag[..i]
                .chars()
                .next_back()
                .is_some_and(char::is_whitespace)
        });
        if let Some(start) = start {
            let rest = &tag[start + needle.len()..];
            let value = rest.split(quote).next()?;
            return Some(
                value
                    .replace("&quot;", "\"")
                    .replace("&#39;", "'")
                    .replace("&lt;", "<")
                    .replace("&gt;", ">")
                    .replace("&amp;", "&"),
            );
        }
    }
    None
}
