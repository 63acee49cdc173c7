//! The edge's connections to the app: what goes on the wire (origin-form target, the app's
//! Host), reuse across requests, and a kept-alive connection the app closed meanwhile.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;

use crate::support::{self, client, edge};

/// How the raw app below treats a connection after each response.
#[derive(Clone, Copy)]
enum After {
    KeepAlive,
    /// Closes it right after the first response, without saying `Connection: close`: as an
    /// app's own idle timeout closes a kept-alive connection between two requests.
    Close,
}

/// A raw HTTP/1.1 app: answers every request head it reads with `200 ok` (`204` for a path
/// ending in `/empty`, the head alone for HEAD), counts the connections it accepted, and sends
/// each request head it read, and each close it made, to the returned channel.
async fn raw_app(after: After) -> (String, Arc<AtomicUsize>, mpsc::UnboundedReceiver<String>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let accepted = Arc::new(AtomicUsize::new(0));
    let (seen, heads) = mpsc::unbounded_channel();
    let counter = accepted.clone();
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            counter.fetch_add(1, Ordering::SeqCst);
            tokio::spawn(answer(socket, after, seen.clone()));
        }
    });
    (url, accepted, heads)
}

async fn answer(mut socket: TcpStream, after: After, seen: mpsc::UnboundedSender<String>) {
    let mut buffer = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        let Some(end) = buffer.windows(4).position(|w| w == b"\r\n\r\n") else {
            match socket.read(&mut chunk).await {
                Ok(0) | Err(_) => return,
                Ok(n) => buffer.extend_from_slice(&chunk[..n]),
            }
            continue;
        };
        let head = String::from_utf8_lossy(&buffer[..end]).into_owned();
        buffer.drain(..end + 4);
        let line = head.lines().next().unwrap_or_default();
        let (empty, head_only) = (line.contains("/empty "), line.starts_with("HEAD "));
        let _ = seen.send(head);
        let response: &[u8] = if empty {
            b"HTTP/1.1 204 No Content\r\n\r\n"
        } else if head_only {
            // RFC 9110 §9.3.2: the headers a GET would get, and no content.
            b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\ncontent-type: text/plain\r\n\r\n"
        } else {
            b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\ncontent-type: text/plain\r\n\r\nok"
        };
        if socket.write_all(response).await.is_err() {
            return;
        }
        if let After::Close = after {
            drop(socket);
            let _ = seen.send("closed".into());
            return;
        }
    }
}

async fn start_in_front_of(app_url: &str) -> zero_sandbox::Sandbox {
    let mut config = support::test_config();
    config.app.url = Some(app_url.to_string());
    support::start_with(config).await
}

#[tokio::test]
async fn the_app_gets_an_origin_form_target_and_its_own_host() {
    let (url, _, mut heads) = raw_app(After::KeepAlive).await;
    let sandbox = start_in_front_of(&url).await;
    let response = client()
        .get(edge(&sandbox, "/a/b?c=d&e"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.text().await.unwrap(), "ok");
    let head = heads.recv().await.unwrap();
    let mut lines = head.lines();
    // RFC 9112 §3.2.1: to an origin server, the target is the path and query.
    assert_eq!(lines.next(), Some("GET /a/b?c=d&e HTTP/1.1"), "{head}");
    let host: Vec<&str> = lines
        .filter_map(|l| l.split_once(':'))
        .filter(|(name, _)| name.eq_ignore_ascii_case("host"))
        .map(|(_, value)| value.trim())
        .collect();
    assert_eq!(host, [url.trim_start_matches("http://")], "{head}");
}

#[tokio::test]
async fn requests_one_after_another_share_one_connection_to_the_app() {
    let (url, accepted, _heads) = raw_app(After::KeepAlive).await;
    let sandbox = start_in_front_of(&url).await;
    let http = client();
    for path in ["/1", "/2", "/empty", "/3", "/head", "/4"] {
        let request = if path == "/head" {
            http.head(edge(&sandbox, path))
        } else {
            http.get(edge(&sandbox, path))
        };
        let response = request.send().await.unwrap();
        assert!(
            response.status().is_success(),
            "{path}: {}",
            response.status()
        );
        let _ = response.bytes().await.unwrap();
    }
    // The 204 and the HEAD answer have no body to read to its end: their connection is
    // kept all the same.
    assert_eq!(accepted.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_connection_the_app_closed_while_idle_is_not_used_again() {
    let (url, accepted, mut heads) = raw_app(After::Close).await;
    let sandbox = start_in_front_of(&url).await;
    let http = client();
    for round in 1..=3 {
        let response = http.get(edge(&sandbox, "/")).send().await.unwrap();
        assert_eq!(response.status(), 200, "request {round}");
        assert_eq!(response.text().await.unwrap(), "ok");
        heads.recv().await.unwrap();
        assert_eq!(heads.recv().await.unwrap(), "closed");
        // The close reaches the edge while its connection sits idle: the next request must
        // go on a new one, not fail with 502 on the dead one.
    }
    assert_eq!(accepted.load(Ordering::SeqCst), 3);
}
