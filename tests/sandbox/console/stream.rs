//! `GET /sandbox/v1/events/stream`: the journal as server-sent events (WHATWG HTML §9.2), as
//! an `EventSource` or any streaming client reads it.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use zero_sandbox::platform::{NewEvent, Source};

use crate::control::Control;
use crate::support;

/// One frame of the stream: its fields, or a comment.
#[derive(Debug, Default)]
struct Frame {
    id: Option<String>,
    event: Option<String>,
    data: Option<Value>,
    retry: Option<String>,
    comment: bool,
}

/// An open stream, read frame by frame with a deadline.
struct Stream {
    response: reqwest::Response,
    buffer: String,
}

impl Stream {
    async fn open(url: &str, last_event_id: Option<&str>) -> Stream {
        let mut request = support::client().get(url);
        if let Some(id) = last_event_id {
            request = request.header("last-event-id", id);
        }
        let response = request.send().await.expect("the stream answers");
        assert_eq!(response.status(), 200);
        assert_eq!(
            response.headers()["content-type"],
            "text/event-stream",
            "the stream's media type (HTML §9.2.5)"
        );
        Stream {
            response,
            buffer: String::new(),
        }
    }

    /// The next frame, within five seconds.
    async fn next(&mut self) -> Frame {
        let until = Instant::now() + Duration::from_secs(5);
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                let mut frame = Frame::default();
                for line in block.lines() {
                    if line.starts_with(':') {
                        frame.comment = true;
                    } else if let Some((name, value)) = line.split_once(": ") {
                        match name {
                            "id" => frame.id = Some(value.to_string()),
                            "event" => frame.event = Some(value.to_string()),
                            "retry" => frame.retry = Some(value.to_string()),
                            "data" => {
                                frame.data = Some(serde_json::from_str(value).expect("JSON data"))
                            }
                            other => panic!("an unexpected field {other:?}"),
                        }
                    }
                }
                return frame;
            }
            let left = until.saturating_duration_since(Instant::now());
            let chunk = tokio::time::timeout(left, self.response.chunk())
                .await
                .expect("a frame within the deadline")
                .expect("the stream goes on")
                .expect("the stream is not over");
            self.buffer
                .push_str(std::str::from_utf8(&chunk).expect("UTF-8"));
        }
    }

    /// The next frame that is an event (not `retry` or a comment).
    async fn next_event(&mut self) -> Frame {
        loop {
            let frame = self.next().await;
            if frame.event.is_some() {
                return frame;
            }
        }
    }
}

fn stream_url(control: &Control, query: &str) -> String {
    format!("{}/events/stream{query}", control.base)
}

#[tokio::test]
async fn each_event_is_sent_with_its_id_type_and_json_and_a_reconnect_resumes_after_last_event_id()
{
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let mut stream = Stream::open(&stream_url(&control, ""), None).await;
    let first = stream.next().await;
    assert_eq!(first.retry.as_deref(), Some("2000"), "{first:?}");

    let session = control.session("ada").await;
    let login = stream.next_event().await;
    assert_eq!(login.event.as_deref(), Some("LOGIN"));
    let started = stream.next_event().await;
    assert_eq!(started.event.as_deref(), Some("SESSION_STARTED"));
    let data = started.data.expect("data");
    assert_eq!(data["type"], "SESSION_STARTED");
    assert_eq!(data["sid"], session["sid"]);
    assert_eq!(started.id.as_deref(), Some(data["id"].to_string().as_str()));

    // An EventSource reconnecting sends the last id it saw (HTML §9.2.4): the stream goes on
    // from there, `since` notwithstanding.
    control
        .delete(&format!("/sessions/{}", session["sid"].as_str().unwrap()))
        .await;
    let mut resumed = Stream::open(&stream_url(&control, "?since=0"), login.id.as_deref()).await;
    assert_eq!(
        resumed.next_event().await.event.as_deref(),
        Some("SESSION_STARTED")
    );
    assert_eq!(
        resumed.next_event().await.event.as_deref(),
        Some("SESSION_ENDED")
    );
}

#[tokio::test]
async fn the_stream_filters_by_type_and_person_as_get_events_does() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let ada = control.session("ada").await;
    let grace = control.session("grace").await;
    for session in [&grace, &ada] {
        control
            .delete(&format!("/sessions/{}", session["sid"].as_str().unwrap()))
            .await;
    }
    let sub = ada["sub"].as_str().unwrap();
    let mut stream = Stream::open(
        &stream_url(&control, &format!("?type=SESSION_ENDED&sub={sub}")),
        None,
    )
    .await;
    let only = stream.next_event().await;
    assert_eq!(only.event.as_deref(), Some("SESSION_ENDED"));
    assert_eq!(only.data.expect("data")["sid"], ada["sid"]);
    // What comes later is filtered too: Grace's new session is not Ada's.
    let again = control.session("grace").await;
    control
        .delete(&format!("/sessions/{}", again["sid"].as_str().unwrap()))
        .await;
    let ada_again = control.session("ada").await;
    control
        .delete(&format!("/sessions/{}", ada_again["sid"].as_str().unwrap()))
        .await;
    let next = stream.next_event().await;
    assert_eq!(next.data.expect("data")["sid"], ada_again["sid"]);
}

#[tokio::test]
async fn a_cursor_the_ring_has_left_behind_gets_a_dropped_notice_then_the_oldest_kept() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    for _ in 0..zero_sandbox::platform::journal::DEFAULT_CAPACITY + 5 {
        sandbox
            .journal()
            .record(NewEvent::new(Source::Broker, "QUERY").outcome("OK"));
    }
    let oldest = sandbox.journal().read(0, None, None, 1).events[0].id;
    assert!(oldest > 2);
    let mut stream = Stream::open(&stream_url(&control, "?since=1"), None).await;
    let notice = stream.next_event().await;
    assert_eq!(notice.event.as_deref(), Some("dropped"));
    assert_eq!(notice.id, None, "a notice is not an event of the journal");
    let data = notice.data.expect("data");
    assert_eq!(
        data["dropped"],
        oldest - 2,
        "the events from 2 to the oldest kept went before the stream could send them"
    );
    assert_eq!(data["resumed_at"], oldest);
    assert_eq!(
        stream.next_event().await.id,
        Some(oldest.to_string()),
        "then the oldest kept"
    );
}

#[tokio::test]
async fn past_its_cap_of_streams_the_api_answers_503_and_a_closed_one_frees_its_place() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let url = stream_url(&control, "");
    let mut open = Vec::new();
    for _ in 0..32 {
        open.push(Stream::open(&url, None).await);
    }
    let refused = support::client().get(&url).send().await.expect("answers");
    assert_eq!(refused.status(), 503);
    let body: Value = refused.json().await.expect("JSON");
    assert_eq!(body["code"], "TOO_MANY_STREAMS");
    assert!(body["message"].as_str().unwrap().contains("32"), "{body}");
    drop(open.pop());
    // The server learns of the closed connection when it next writes or reads: poll.
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        let response = support::client().get(&url).send().await.expect("answers");
        if response.status() == 200 {
            break;
        }
        assert!(Instant::now() < until, "a freed place is taken again");
        control
            .post("/clock", json!({ "advance_seconds": 1 }))
            .await;
    }
}

#[tokio::test]
async fn a_bad_last_event_id_or_parameter_is_refused_with_400() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let response = support::client()
        .get(stream_url(&control, ""))
        .header("last-event-id", "seven")
        .send()
        .await
        .expect("answers");
    assert_eq!(response.status(), 400);
    let body: Value = response.json().await.expect("JSON");
    assert_eq!(body["code"], "INVALID_REQUEST");
    assert!(body["message"].as_str().unwrap().contains("Last-Event-ID"));
    let (status, body) = control.get("/events/stream?limit=3").await;
    assert_eq!(status, 400, "{body}");
    assert!(body["message"].as_str().unwrap().contains("limit"));
}

#[tokio::test]
async fn shutting_down_ends_open_streams_cleanly_instead_of_waiting_on_them() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let mut stream = Stream::open(&stream_url(&control, ""), None).await;
    stream.next().await;
    let started = Instant::now();
    sandbox.shutdown().await;
    // Ended by the server, the body finishes (its last chunk); cut off at the grace period, it
    // would be an error.
    let end = tokio::time::timeout(Duration::from_secs(5), stream.response.chunk())
        .await
        .expect("the stream ends");
    assert!(matches!(end, Ok(None)), "the stream ended cleanly: {end:?}");
    assert!(
        started.elapsed() < Duration::from_millis(450),
        "shutdown did not wait out its grace period for the stream: {:?}",
        started.elapsed()
    );
}
