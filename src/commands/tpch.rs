//! `zero-sandbox tpch generate sf<N>`: a bigger tpch schema into the state directory
//! (crates/querymesh-engine/src/tpch/generate.rs), with a progress line on stderr: one line redrawn
//! on a terminal; plain lines otherwise, at each new table or index and in between every 1 %
//! or every second, whichever is rarer. The percentage and the ETA cover the whole
//! generation, indexes included. Ctrl-C stops within about a second (an index build
//! included; measured 1.2 s on sf1 under load, where it used to wait for the index) with the
//! work in flight undone, and prints the command that resumes, with the options
//! given; a second Ctrl-C kills at once (also safe to resume).

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::CommandError;
use crate::cli::{TpchArgs, TpchCommand};
use crate::config::Config;
use crate::querymesh::engine::tpch::generate::{self, Options, Outcome, Report, Stage};

/// Redraws of the terminal line at most this often.
const REDRAW: Duration = Duration::from_millis(200);
/// Plain lines (stderr not a terminal) at most this often, and only once the percentage has
/// grown by a point; always at a change of table, index or stage.
const PLAIN_EVERY: Duration = Duration::from_secs(1);

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

pub fn run(config: &Config, args: &TpchArgs) -> Result<(), CommandError> {
    match &args.command {
        TpchCommand::Generate {
            schema,
            force,
            chunk_rows,
            chunk_limit,
        } => {
            let defaults = Options::default();
            let options = Options {
                force: *force,
                cancel: Some(&INTERRUPTED),
                chunk_rows: chunk_rows.unwrap_or(defaults.chunk_rows),
                chunk_limit: *chunk_limit,
                ..defaults
            };
            generate_schema(config, schema, &options)
        }
    }
}

fn generate_schema(config: &Config, schema: &str, options: &Options) -> Result<(), CommandError> {
    let state_dir = config
        .state_dir
        .as_deref()
        .ok_or(CommandError::TpchEphemeral)?;
    stop_on_interrupt();
    let mut line = ProgressLine::new(schema, std::io::stderr().is_terminal());
    let outcome = generate::generate(state_dir, schema, options, &mut |r| line.show(r));
    line.end();
    match outcome.map_err(CommandError::from)? {
        Outcome::AlreadyComplete(path) => {
            println!(
                "tpch.{schema} is already generated in {} (--force generates it again)",
                path.display()
            );
            Ok(())
        }
        Outcome::Generated {
            path,
            rows,
            elapsed,
            earlier,
        } => {
            let bytes = std::fs::metadata(&path).map_or(0, |m| m.len());
            let time = if earlier.is_zero() {
                human_duration(elapsed)
            } else {
                format!(
                    "{} in all ({} in earlier runs)",
                    human_duration(elapsed),
                    human_duration(earlier)
                )
            };
            println!(
                "tpch.{schema} generated in {}: {} rows, {}, {time}; restart the sandbox to query it",
                path.display(),
                rows,
                human_bytes(bytes),
            );
            Ok(())
        }
        Outcome::Stopped {
            chunks_done,
            chunks,
            elapsed,
        } => Err(CommandError::TpchInterrupted {
            done: if chunks_done < chunks {
                format!("after {chunks_done} of {chunks} chunks")
            } else {
                format!("while indexing (all {chunks} chunks written)")
            },
            elapsed: human_duration(elapsed),
            again: resume_command(std::env::args_os()),
        }),
    }
}

/// The command line that continues an interrupted generation: this one, word for word (its
/// `--state`, `--config` and every other option), less `--force`, which would start over.
/// Quoted for a POSIX shell.
fn resume_command(args: impl IntoIterator<Item = std::ffi::OsString>) -> String {
    args.into_iter()
        .filter(|a| a != "--force")
        .map(|a| shell_quote(&a.to_string_lossy()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `word` as one word for a POSIX shell: as is when it is plain, else in single quotes.
fn shell_quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,@%+".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
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
    /// When a line was last shown, and its whole percentage.
    last: Option<(Instant, u64)>,
    /// The table, index or stage of the last line shown.
    last_step: String,
    drawn: bool,
}

impl ProgressLine {
    fn new(schema: &str, terminal: bool) -> Self {
        Self {
            schema: schema.to_string(),
            terminal,
            started: Instant::now(),
            last: None,
            last_step: String::new(),
            drawn: false,
        }
    }

    fn show(&mut self, report: &Report<'_>) {
        let now = Instant::now();
        // The rate counts from the first rows, not from building tpchgen's text pool.
        if self.last.is_none() {
            self.started = now;
        }
        let step = format!("{:?} {}", report.stage, report.table);
        if !self.due(now, percent(report), &step) {
            return;
        }
        let text = describe(&self.schema, report, now - self.started);
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

    /// Whether to show a line now: at the first report and at each new step; otherwise on a
    /// terminal every [`REDRAW`], and off one every [`PLAIN_EVERY`] once the whole percentage
    /// has grown (a log of lines, so the rarer of the two).
    fn due(&mut self, now: Instant, percent: f64, step: &str) -> bool {
        let whole = percent as u64;
        let due = match self.last {
            None => true,
            Some(_) if step != self.last_step => true,
            Some((at, _)) if self.terminal => now.duration_since(at) >= REDRAW,
            Some((at, shown)) => now.duration_since(at) >= PLAIN_EVERY && whole > shown,
        };
        if due {
            self.last = Some((now, whole));
            if step != self.last_step {
                self.last_step = step.to_string();
            }
        }
        due
    }

    fn end(&mut self) {
        if self.terminal && self.drawn {
            eprintln!();
        }
    }
}

/// How far the whole generation is, indexes included.
fn percent(r: &Report<'_>) -> f64 {
    (r.work as f64 * 100.0 / r.total_work.max(1) as f64).min(100.0)
}

/// One progress line, without escapes.
fn describe(schema: &str, r: &Report<'_>, elapsed: Duration) -> String {
    let seconds = elapsed.as_secs_f64();
    let per_second = |n: u64| {
        if seconds > 0.0 {
            n as f64 / seconds
        } else {
            0.0
        }
    };
    let work_rate = per_second(r.work_this_run);
    let eta = if work_rate > 0.0 {
        let left = r.total_work.saturating_sub(r.work) as f64 / work_rate;
        human_duration(Duration::from_secs_f64(left))
    } else {
        "?".into()
    };
    let percent = percent(r);
    match r.stage {
        Stage::Rows => format!(
            "tpch.{schema}: {percent:>3.0}%  {:<9} {:>9} of ~{} rows  {} rows/s  ETA {eta}",
            r.table,
            human_count(r.rows),
            human_count(r.estimated_rows),
            human_count(per_second(r.rows_this_run) as u64),
        ),
        Stage::Indexes => format!(
            "tpch.{schema}: {percent:>3.0}%  building index {}  ETA {eta}",
            r.table
        ),
        Stage::Statistics => {
            format!("tpch.{schema}: {percent:>3.0}%  collecting planner statistics  ETA {eta}")
        }
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

/// Minutes and seconds (hours and minutes past an hour); tenths of a second under a minute.
fn human_duration(d: Duration) -> String {
    let s = d.as_secs();
    if s < 60 {
        format!("{:.1} s", d.as_secs_f64())
    } else if s >= 3600 {
        format!("{}h{:02}m", s / 3600, s / 60 % 60)
    } else {
        format!("{}m{:02}s", s / 60, s % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(stage: Stage, table: &'static str, work: u64) -> Report<'static> {
        Report {
            stage,
            table,
            rows: 3_000_000,
            estimated_rows: 6_000_000,
            rows_this_run: 1_000_000,
            work,
            total_work: 8_000_000,
            work_this_run: 1_000_000,
        }
    }

    #[test]
    fn a_progress_line_names_the_table_the_share_the_rate_and_the_time_left() {
        let line = describe(
            "sf1",
            &report(Stage::Rows, "lineitem", 3_000_000),
            Duration::from_secs(10),
        );
        assert_eq!(
            line,
            "tpch.sf1:  38%  lineitem      3000k of ~6000k rows  100k rows/s  ETA 50.0 s"
        );
        assert!(!line.contains('\x1b'), "no escapes in the text itself");
    }

    /// The share and the time left count the indexes still to build, not the rows alone.
    #[test]
    fn the_share_and_the_eta_include_the_indexes() {
        let rows_done = report(Stage::Rows, "lineitem", 6_000_000);
        assert_eq!(
            describe("sf1", &rows_done, Duration::from_secs(10)),
            "tpch.sf1:  75%  lineitem      3000k of ~6000k rows  100k rows/s  ETA 20.0 s"
        );
        let indexing = report(Stage::Indexes, "lineitem_supp", 7_000_000);
        assert_eq!(
            describe("sf1", &indexing, Duration::from_secs(10)),
            "tpch.sf1:  88%  building index lineitem_supp  ETA 10.0 s"
        );
    }

    /// Off a terminal: a line at each new step, else only when a second has passed and the
    /// whole percentage has grown.
    #[test]
    fn redirected_lines_come_every_percent_or_every_second_whichever_is_rarer() {
        let mut line = ProgressLine::new("sf1", false);
        let t0 = Instant::now();
        let at = |ms: u64| t0 + Duration::from_millis(ms);
        assert!(line.due(at(0), 10.2, "Rows lineitem"), "the first");
        assert!(
            !line.due(at(500), 14.0, "Rows lineitem"),
            "a percent, not a second"
        );
        assert!(
            !line.due(at(1500), 10.9, "Rows lineitem"),
            "a second, not a percent"
        );
        assert!(line.due(at(1600), 11.0, "Rows lineitem"), "both");
        assert!(
            line.due(at(1700), 11.1, "Indexes lineitem_supp"),
            "a new step"
        );
        assert!(!line.due(at(2000), 11.5, "Indexes lineitem_supp"));
        let mut terminal = ProgressLine::new("sf1", true);
        assert!(terminal.due(at(0), 1.0, "Rows part"));
        assert!(
            terminal.due(at(250), 1.0, "Rows part"),
            "redrawn on a terminal"
        );
    }

    #[test]
    fn the_resume_command_repeats_the_options_but_force() {
        let args = [
            "/opt/zero sandbox",
            "tpch",
            "--state",
            "/tmp/it's",
            "generate",
            "sf1",
            "--force",
            "--config",
            "a.toml",
        ];
        assert_eq!(
            resume_command(args.map(std::ffi::OsString::from)),
            r"'/opt/zero sandbox' tpch --state '/tmp/it'\''s' generate sf1 --config a.toml"
        );
    }
}
