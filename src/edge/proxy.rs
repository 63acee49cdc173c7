//! The reverse proxy to the app: every request that is not a platform path, in a proxy's
//! phases (pingora's): the request filter (what the edge answers itself), the upstream request
//! (header hygiene, then the signed identity for whoever is signed in), the exchange on this
//! thread's own connections to the app, and the response filter. Bodies stream both ways
//! untouched, and an `Upgrade` (WebSocket, a dev server's hot reload) becomes a tunnel.

use std::net::SocketAddr;

use axum::body::Body;
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, HeaderValue, Request, Response, StatusCode, Version, header};
use axum::response::IntoResponse;
use http_body_util::Either;
use hyper::upgrade::OnUpgrade;
use hyper_util::rt::TokioIo;

use super::app_down::{self, AppDown};
use super::app_pool::{AppBody, AppError};
use super::error::{EdgeError, wants_html};
use super::headers::{self, IDENTITY};
use super::identity_header::identity_header_for;
use super::upstream::{Reply, ToApp};
use super::visitor::Visitor;
use super::{EdgeState, cookie, reserved};
use crate::listener::ClientBodyError;
use crate::platform::{NewEvent, Source};

/// Who is at the other end of a connection to the edge: its address, and that address as
/// `X-Forwarded-For` gives it, made once per connection rather than per request.
#[derive(Clone, Debug)]
pub struct Peer {
    pub addr: SocketAddr,
    pub forwarded_for: Option<HeaderValue>,
}

impl Peer {
    pub fn new(addr: SocketAddr) -> Self {
        Self {
            addr,
            forwarded_for: headers::forwarded_for(addr.ip()),
        }
    }
}

/// Whether the client reads the edge's own answers as HTML: all the edge's pages look at of
/// a request's headers, which move on to the app.
#[derive(Clone, Copy)]
struct Reader {
    html: bool,
}

impl Reader {
    fn of(headers: &HeaderMap) -> Self {
        Self {
            html: wants_html(headers),
        }
    }

    /// Request headers that the edge's pages read as this reader's.
    fn headers(self) -> HeaderMap {
        let mut headers = HeaderMap::new();
        if self.html {
            headers.insert(header::ACCEPT, HeaderValue::from_static("text/html"));
        }
        headers
    }
}

/// The router's way in, for a path spelled unusually (escapes, dot segments) that is still
/// the app's: the same phases.
pub async fn routed(State(state): State<EdgeState>, request: Request<Body>) -> Response<Body> {
    let peer = request
        .extensions()
        .get::<ConnectInfo<Peer>>()
        .map(|ConnectInfo(peer)| peer.clone());
    forward(&state, request.map(Either::Right), peer.as_ref())
        .await
        .map(Body::new)
}

/// Forwards `request` to the app and its answer to the browser.
pub async fn forward(
    state: &EdgeState,
    mut request: Request<ToApp>,
    peer: Option<&Peer>,
) -> Response<Reply> {
    let edge = &state.parts;
    if let Some(answer) = request_filter(state, &request) {
        return answer.map(Either::Right);
    }
    let reader = Reader::of(request.headers());
    let target = match state.app.uri_for(std::mem::take(request.uri_mut())) {
        Ok(target) => target,
        Err(reason) => return app_down(state, AppDown::BadUrl(reason), reader),
    };
    let visitor = Visitor::resolve(edge, request.headers()).await;
    let upgrade = headers::upgrade_protocol(request.headers());
    let client_upgrade = upgrade.is_some().then(|| hyper::upgrade::on(&mut request));
    let outgoing = upstream_request(state, request, target, &visitor, peer, upgrade);

    let timeout = state.app_response_timeout();
    let answer = tokio::time::timeout(timeout, state.app_client.send(outgoing)).await;
    let mut response = match answer {
        Err(_) => return app_down(state, AppDown::TimedOut(timeout), reader),
        Ok(Ok(response)) => response,
        Ok(Err(AppError::Connect(reason))) => {
            return app_down(state, AppDown::Unreachable(reason), reader);
        }
        Ok(Err(AppError::NoAnswer(reason))) => {
            return app_down(state, AppDown::NoResponse(reason), reader);
        }
        Ok(Err(AppError::Exchange(e))) => {
            if let Some(cause) = client_body_error(&e) {
                let refusal = EdgeError::ClientBody(cause.to_string());
                return refusal.respond(&reader.headers()).map(Either::Right);
            }
            return app_down(state, AppDown::NoResponse(error_chain(&e)), reader);
        }
    };

    let switching = response.status() == StatusCode::SWITCHING_PROTOCOLS;
    if switching && let Some(client_upgrade) = client_upgrade {
        tunnel(client_upgrade, hyper::upgrade::on(&mut response));
    }
    response_filter(response, switching, visitor.stale_cookie)
}

/// What the edge answers itself: requests that are no path of the app's address, platform
/// paths it does not know, and a request that came back to it through the app URL.
fn request_filter(state: &EdgeState, request: &Request<ToApp>) -> Option<Response<Body>> {
    if let Some(answer) = not_for_the_app(request) {
        return Some(answer);
    }
    let path = request.uri().path();
    if reserved::is_reserved(path) {
        let path = path.to_string();
        return Some(EdgeError::UnknownReservedPath(path).respond(request.headers()));
    }
    if headers::came_through(request.headers(), &state.via) {
        let answer = app_down::response(
            &state.parts.app_url,
            AppDown::PointsAtTheEdge,
            request.headers(),
        );
        return Some(answer);
    }
    None
}

/// The request the app receives: the browser's, its headers cleaned in place, plus the
/// edge's `Via`, the upgrade it asked for, and the signed identity of whoever is signed in.
fn upstream_request(
    state: &EdgeState,
    request: Request<ToApp>,
    target: axum::http::Uri,
    visitor: &Visitor,
    peer: Option<&Peer>,
    upgrade: Option<HeaderValue>,
) -> Request<ToApp> {
    let edge = &state.parts;
    let (parts, body) = request.into_parts();
    let mut outgoing = Request::new(body);
    *outgoing.method_mut() = parts.method;
    *outgoing.uri_mut() = target;
    *outgoing.version_mut() = Version::HTTP_11;
    *outgoing.headers_mut() = parts.headers;
    let headers = outgoing.headers_mut();
    let forwarded_for = peer.and_then(|peer| peer.forwarded_for.as_ref());
    if headers::for_the_app(headers, forwarded_for) {
        let mut removed = NewEvent::new(Source::Edge, "IDENTITY_HEADER_REMOVED");
        if let Some(session) = &visitor.session {
            removed = removed
                .of_person(&session.person.sub)
                .in_session(&session.sid);
        }
        edge.journal.record(removed);
    }
    headers.append(header::VIA, state.via.clone());
    if let Some(protocol) = upgrade {
        headers::set_upgrade(headers, protocol);
    }
    if let Some(session) = &visitor.session
        && let Some(identity) = identity_header_for(&edge.identity, &edge.sessions, session)
    {
        headers.insert(IDENTITY, identity);
    }
    outgoing
}

/// The app's response as the browser gets it: its status, headers and body (streamed as it
/// comes), the headers cleaned in place.
fn response_filter(
    response: Response<AppBody>,
    switching: bool,
    stale_cookie: bool,
) -> Response<Reply> {
    let (parts, body) = response.into_parts();
    let mut reply = Response::new(Either::Left(body));
    *reply.status_mut() = parts.status;
    *reply.headers_mut() = parts.headers;
    let headers = reply.headers_mut();
    let upgrade_reply = switching
        .then(|| headers.get(header::UPGRADE).cloned())
        .flatten();
    headers::for_the_browser(headers);
    if let Some(protocol) = upgrade_reply {
        headers::set_upgrade(headers, protocol);
    }
    if stale_cookie {
        headers.append(header::SET_COOKIE, cookie::clear());
    }
    reply
}

fn app_down(state: &EdgeState, down: AppDown, reader: Reader) -> Response<Reply> {
    app_down::response(&state.parts.app_url, down, &reader.headers()).map(Either::Right)
}

/// Requests whose target is not a path of the app's address: `OPTIONS *` asks about the
/// server itself (RFC 9110 §9.3.7) and CONNECT asks for a tunnel, which only a forward proxy
/// gives (§9.3.6). Forwarded, they reached the app mangled or were reported as "your app did
/// not answer"; the edge answers them itself.
fn not_for_the_app<B>(request: &Request<B>) -> Option<Response<Body>> {
    if request.method() == axum::http::Method::CONNECT {
        return Some(EdgeError::NotAForwardProxy.respond(request.headers()));
    }
    if request.uri().path() == "*" {
        let mut response = StatusCode::OK.into_response();
        response.headers_mut().insert(
            header::ALLOW,
            HeaderValue::from_static("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS"),
        );
        return Some(response);
    }
    None
}

/// Joins the browser's and the app's upgraded connections until either side closes.
fn tunnel(client: OnUpgrade, app: OnUpgrade) {
    tokio::spawn(async move {
        match tokio::try_join!(client, app) {
            Ok((client, app)) => {
                let (mut client, mut app) = (TokioIo::new(client), TokioIo::new(app));
                if let Err(e) = tokio::io::copy_bidirectional(&mut client, &mut app).await {
                    tracing::debug!(error = %e, "upgraded connection ended");
                }
            }
            Err(e) => tracing::debug!(error = %e, "upgrade did not complete"),
        }
    });
}

/// The client's own body failure behind a failed forward: the listener marks every request
/// body's errors as the client's (see [`ClientBodyError`]), and the hyper client reports
/// one as the cause of its error.
fn client_body_error<'e>(e: &'e (dyn std::error::Error + 'static)) -> Option<&'e ClientBodyError> {
    let mut cause = Some(e);
    while let Some(error) = cause {
        if let Some(found) = error.downcast_ref::<ClientBodyError>() {
            return Some(found);
        }
        cause = error.source();
    }
    None
}

/// The error and its causes in one line: hyper's top-level message alone says little.
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}
