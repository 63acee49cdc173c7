//! Start-up: `Sandbox::start` until every listener accepts, on a new state directory (the
//! first start: keys created, tpch.tiny written from the binary's image) and on one already
//! used (a later start), then the process's peak resident memory. The target is "well under a
//! second" including tpch.tiny. `cargo bench --bench startup`.

use std::time::{Duration, Instant};

use zero_sandbox::{Config, Sandbox};

const RUNS: usize = 15;

#[tokio::main]
async fn main() {
    let mut first = Vec::with_capacity(RUNS);
    let mut later = Vec::with_capacity(RUNS);
    for _ in 0..RUNS {
        let state = tempfile::tempdir().expect("a state directory");
        let mut config = Config::builtin().with_ephemeral_ports();
        config.state_dir = Some(state.path().to_path_buf());
        first.push(start_and_stop(config.clone()).await);
        later.push(start_and_stop(config).await);
    }
    println!(
        "start on a new state directory: p50 {:.1} ms, max {:.1} ms (goal: well under 1 s)",
        ms(median(&mut first)),
        ms(first[RUNS - 1])
    );
    println!(
        "start on a used state directory: p50 {:.1} ms, max {:.1} ms",
        ms(median(&mut later)),
        ms(later[RUNS - 1])
    );
    match peak_rss_kib() {
        Some(kib) => println!("peak resident memory of this process: {} MiB", kib / 1024),
        None => println!("peak resident memory: unknown on this platform"),
    }
}

async fn start_and_stop(config: Config) -> Duration {
    let started = Instant::now();
    let sandbox = Sandbox::start(config).await.expect("the sandbox starts");
    let elapsed = started.elapsed();
    sandbox.shutdown().await;
    elapsed
}

fn median(samples: &mut [Duration]) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// `VmHWM` from /proc/self/status (Linux).
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
