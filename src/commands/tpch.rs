//! `zero-sandbox tpch generate sf<N>`: a bigger tpch schema into the state directory
//! (src/querymesh/engine/tpch/generate.rs), with a progress line on stderr: one line redrawn
//! on a terminal, plain lines every few seconds otherwise. Ctrl-C stops at the next progress
//! step with the chunk in flight undone; a second Ctrl-C kills at once (also safe to resume).

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::CommandError;
use crate::cli::{TpchArgs, TpchCommand};
use crate::config::Config;
use crate::querymesh::engine::tpch::generate::{self, Options, Outcome, Report, Stage};

/// Redraws of the terminal line at most this often.
const REDRAW: Duration = Duration::from_millis(200);
/// Plain lines (stderr not a terminal) at most this often, and at every change of table.
const PLAIN_EVERY: Duration = Duration::from_secs(10);

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

pub fn run(config: &Config, args: &TpchArgs) -> Result<(), CommandError> {
    match &args.command {
        TpchCommand::Generate { schema, force } => generate_schema(config, schema, *force),
    }
}

fn generate_schema(config: &Config, schema: &str, force: bool) -> Result<(), CommandError> {
    let state_dir = config
        .state_dir
        .as_deref()
        .ok_or(CommandError::TpchEphemeral)?;
    let options = Options {
        force,
        cancel: Some(&INTERRUPTED),
        ..Options::default()
    };
    stop_on_interrupt();
    let started = Instant::now();
    let mut line = ProgressLine::new(schema, std::io::stderr().is_terminal());
    let outcome = generate::generate(state_dir, schema, &options, &mut |r| line.show(r));
    line.end();
    match outcome.map_err(CommandError::from)? {
        Outcome::AlreadyComplete(path) => {
            println!(
                "tpch.{schema} is already generated in {} (--force generates it again)",
                path.display()
            );
            Ok(())
        }
        Outcome::Generated { path, rows } => {
            let bytes = std::fs::metadata(&path).map_or(0, |m| m.len());
            println!(
                "tpch.{schema} generated in {}: {} rows, {}, {}; restart the sandbox to query it",
                path.display(),
                rows,
                human_bytes(bytes),
                human_duration(started.elapsed())
            );
            Ok(())
        }
        Outcome::Stopped {
            chunks_done,
            chunks,
        } => Err(CommandError::TpchInterrupted {
            schema: schema.to_string(),
            chunks_done,
            chunks,
        }),
    }
}

/// Ctrl-C sets [`INTERRUPTED`] once; the handler then resets, so a second one kills.
fn stop_on_interrupt() {
    #[cfg(unix)]
    {
        extern "C" fn on_interrupt(_: libc::c_int) {
            INTERRUPTED.store(true, Ordering::Relaxed);
        }
        // SAFETY: the handler only stores to an atomic (async-signal-safe); the struct is
        // zeroed then filled as sigaction(2) describes.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_interrupt as extern "C" fn(libc::c_int) as usize;
            action.sa_flags = libc::SA_RESETHAND;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(libc::SIGINT, &action, std::ptr::null_mut());
        }
    }
}

/// The progress display: what is being written, how far, how fast, how long still.
struct ProgressLine {
    schema: String,
    terminal: bool,
    started: Instant,
    last: Option<Instant>,
    last_table: String,
    drawn: bool,
}

impl ProgressLine {
    fn new(schema: &str, terminal: bool) -> Self {
        Self {
            schema: schema.to_string(),
            terminal,
            started: Instant::now(),
            last: None,
            last_table: String::new(),
            drawn: false,
        }
    }

    fn show(&mut self, report: &Report<'_>) {
        // The rate counts from the first rows, not from building tpchgen's text pool.
        if self.last.is_none() {
            self.started = Instant::now();
        }
        let changed = report.table != self.last_table;
        let every = if self.terminal { REDRAW } else { PLAIN_EVERY };
        let due = self.last.is_none_or(|t| t.elapsed() >= every);
        if !(changed || due) {
            return;
        }
        self.last = Some(Instant::now());
        self.last_table = report.table.to_string();
        let text = describe(&self.schema, report, self.started.elapsed());
        let mut err = std::io::stderr().lock();
        let _ = if self.terminal {
            // Back to the line's start and clear it (ECMA-48 CR, EL).
            write!(err, "\r\x1b[2K{text}")
        } else {
            writeln!(err, "{text}")
        };
        let _ = err.flush();
        self.drawn = true;
    }

    fn end(&mut self) {
        if self.terminal && self.drawn {
            eprintln!();
        }
    }
}

/// One progress line, without escapes.
fn describe(schema: &str, r: &Report<'_>, elapsed: Duration) -> String {
    match r.stage {
        Stage::Rows => {
            let percent = (r.rows as f64 * 100.0 / r.estimated_rows.max(1) as f64).min(100.0);
            let seconds = elapsed.as_secs_f64();
            let rate = if seconds > 0.0 {
                r.rows_this_run as f64 / seconds
            } else {
                0.0
            };
            let eta = if rate > 0.0 {
                let left = r.estimated_rows.saturating_sub(r.rows) as f64 / rate;
                human_duration(Duration::from_secs_f64(left))
            } else {
                "?".into()
            };
            format!(
                "tpch.{schema}: {:<9} {:>9} of ~{} rows {percent:>3.0}%  {}/s  ETA {eta}",
                r.table,
                human_count(r.rows),
                human_count(r.estimated_rows),
                human_count(rate as u64),
            )
        }
        Stage::Indexes => format!("tpch.{schema}: building index {}", r.table),
        Stage::Statistics => format!("tpch.{schema}: collecting planner statistics"),
    }
}

fn human_count(n: u64) -> String {
    match n {
        0..10_000 => n.to_string(),
        10_000..10_000_000 => format!("{:.0}k", n as f64 / 1e3),
        _ => format!("{:.1}M", n as f64 / 1e6),
    }
}

fn human_bytes(n: u64) -> String {
    if n >= 1_000_000_000 {
        format!("{:.2} GB", n as f64 / 1e9)
    } else {
        format!("{:.1} MB", n as f64 / 1e6)
    }
}

fn human_duration(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, s / 60 % 60)
    } else {
        format!("{}m{:02}s", s / 60, s % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_progress_line_names_the_table_the_share_the_rate_and_the_time_left() {
        let report = Report {
            stage: Stage::Rows,
            table: "lineitem",
            rows: 3_000_000,
            estimated_rows: 6_000_000,
            rows_this_run: 1_000_000,
        };
        let line = describe("sf1", &report, Duration::from_secs(10));
        assert_eq!(
            line,
            "tpch.sf1: lineitem      3000k of ~6000k rows  50%  100k/s  ETA 0m30s"
        );
        assert!(!line.contains('\x1b'), "no escapes in the text itself");
    }
}
