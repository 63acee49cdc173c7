//! One listener served by several threads, each with its own one-thread tokio runtime, as
//! nginx runs one event loop per worker process: a connection's requests, the exchanges they
//! start with the app and their responses stay on the thread that accepted it, so no wake-up
//! crosses cores. On the shared multi-thread runtime the edge's two tasks per request (the
//! browser's connection and the app's) woke each other across its workers: the kernel's
//! scheduling was the largest share of the edge's CPU (issue 17's profile).
//!
//! The threads accept from one listening socket, each through its own registration of it,
//! rather than from `SO_REUSEPORT` sockets of their own: with `SO_REUSEPORT`, a second
//! sandbox (or any program of the same user) binding the same port would share it silently
//! instead of failing with "address in use". The thread that is free first accepts.
//!
//! The caller's runtime keeps a task that ends once every thread has: aborting it (or
//! dropping its runtime) stops the threads at once, closing their connections, as aborting
//! [`super::serve`]'s task does.

use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::{oneshot, watch};
use tokio::task::JoinHandle;

use super::{Busy, Handler, Handshake, Limits, Shared};

/// How long a stopping thread waits for its runtime's blocking work (the app's host name
/// being resolved) before it leaves it behind.
const BLOCKING_GRACE: Duration = Duration::from_secs(1);

/// Serves `listener` on a thread per handler of `handlers` (the edge's each hold their
/// thread's connections to the app), named `name-N`, all under one cap of `limits`. Stops as
/// [`super::serve`] does.
pub fn serve_on_threads<H: Handshake, S: Handler<H::Info>>(
    name: &'static str,
    listener: TcpListener,
    handshake: H,
    handlers: Vec<S>,
    limits: Limits,
    busy: Busy,
    shutdown: watch::Receiver<bool>,
) -> JoinHandle<()> {
    let shared = Shared::new(handshake, limits, busy, shutdown);
    let socket = match listener.into_std() {
        Ok(socket) => socket,
        Err(e) => {
            tracing::error!(error = %e, "{name}: cannot hand the listener to its threads");
            return tokio::spawn(async {});
        }
    };
    // Dropped by the task below when it ends or is aborted: each thread then stops at once.
    let mut stops = Vec::new();
    let mut ended = Vec::new();
    let spare = handlers.first().cloned();
    for (n, handler) in handlers.into_iter().enumerate() {
        let copy = match socket.try_clone() {
            Ok(copy) => copy,
            Err(e) => {
                tracing::warn!(error = %e, "{name}: a thread fewer (no descriptor for it)");
                continue;
            }
        };
        let (stop, stopped) = oneshot::channel::<()>();
        let (done, thread_ended) = oneshot::channel::<()>();
        let shared = shared.clone();
        let spawned = std::thread::Builder::new()
            .name(format!("{name}-{n}"))
            .spawn(move || {
                run(copy, shared, handler, stopped);
                let _ = done.send(());
            });
        match spawned {
            Ok(_) => {
                stops.push(stop);
                ended.push(thread_ended);
            }
            Err(e) => tracing::warn!(error = %e, "{name}: a thread fewer"),
        }
    }
    // Not one thread: the caller's runtime serves, as `serve` would.
    let fallback = spare.filter(|_| ended.is_empty()).map(|handler| {
        socket
            .try_clone()
            .and_then(TcpListener::from_std)
            .map(|listener| tokio::spawn(shared.accept(listener, handler)))
    });
    drop(socket);
    tokio::spawn(async move {
        let _stop_threads_when_dropped = stops;
        for thread in ended {
            let _ = thread.await;
        }
        match fallback {
            Some(Ok(task)) => {
                let _ = task.await;
            }
            Some(Err(e)) => tracing::error!(error = %e, "the listener could not be served"),
            None => {}
        }
    })
}

/// One thread's runtime: its accept loop until shutdown (or until `stopped`), then the
/// runtime is dropped with whatever connections it still held.
fn run<H: Handshake, S: Handler<H::Info>>(
    socket: std::net::TcpListener,
    shared: Shared<H>,
    handler: S,
    stopped: oneshot::Receiver<()>,
) {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            tracing::error!(error = %e, "a listener thread has no runtime");
            return;
        }
    };
    runtime.block_on(async move {
        let listener = match TcpListener::from_std(socket) {
            Ok(listener) => listener,
            Err(e) => {
                tracing::error!(error = %e, "a listener thread cannot accept");
                return;
            }
        };
        tokio::select! {
            () = shared.accept(listener, handler) => {}
            _ = stopped => {}
        }
    });
    runtime.shutdown_timeout(BLOCKING_GRACE);
}
