//! `zero-sandbox check --app URL [--path P]`: sends the app itself (not the edge) every
//! identity the runtime protocol says it must refuse, and reports those it treated as a person.
//!
//! "The Identity of Who Signed In": "A header whose signature was not checked proves nothing:
//! there are paths that reach the application without going through the edge … with the header
//! and any check failing, refuse it — never treat it as a person." Each probe breaks exactly one
//! of the five checks the spec lists (or the signature's very presence), so a verifier that
//! makes those checks passes and nothing stricter is demanded.
//!
//! The identities are signed with the keys of the state directory, as `token` signs them: the
//! app must trust that directory's JWKS (`NNUMBERS_IDENTITY_JWKS` from `env`, `run` or `up` on
//! the same `--state`). They name a live platform session of the sandbox running on that
//! directory (signed in through its test-control API, ended afterwards), so a path that
//! queries the broker answers the valid identity as it answers the person; with no sandbox
//! running, a made-up `sid` the broker would refuse with USER_SESSION_REQUIRED.
//!
//! Three more probes break nothing the spec's five checks look at, yet a strict verifier (the
//! platform's own) refuses them: a `crit` header, a validity longer than the 5 minutes an
//! identity lasts, and a high-S signature. PyJWT and Go's standard library accept all three, so
//! an app that does is reported with a warning, not failed.

use std::time::Duration;

use axum::body::{Body, Bytes};
use hyper::Request;

use super::{CommandError, running};
use crate::broker::INJECTABLE_CODES;
use crate::cli::CheckArgs;
use crate::config::{Config, Person};
use crate::identity::jws::{self, Header};
use crate::identity::{
    Audience, Forgery, IDENTITY_HEADER, IDENTITY_TYP, IdentityClaims, IdentityIssuer, KeyPair,
    forge, sign_identity,
};
use crate::sandbox::open_keys;

mod probes;
mod session;
mod verdict;

pub use probes::*;
pub use session::*;
pub use verdict::*;

/// The exit status when no audit was made, whatever stopped it: a usage error (an unknown
/// `--as`, a configuration that cannot be read, a URL that is not one) or an app that cannot
/// be judged. 1 stays the finding alone: a forgery was treated as a person.
pub const NOT_AUDITED: u8 = 2;

/// How long one answer may take.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(10);
/// The most of an answer's body that is read and compared.
const BODY_LIMIT: usize = 4 << 20;

/// Why `check` could not judge the app (exit status 2).
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    #[error("--app {0:?} must be the http:// or https:// URL of your app itself (not the edge)")]
    AppNotAUrl(String),
    #[error("--path {0:?} must be a path starting with /")]
    PathNotAbsolute(String),
    #[error(
        "--ephemeral keys exist only inside one run, so no app trusts them: run `check` with \
         the --state (and --config) your app's NNUMBERS_IDENTITY_JWKS came from"
    )]
    EphemeralKeys,
    #[error("no person is configured to sign the valid identity for")]
    NoPeople,
    #[error(
        "cannot sign {person} in to the sandbox running on this state directory (its \
         test-control API at {control}): {why}"
    )]
    NoSession {
        person: String,
        control: String,
        why: String,
    },
    #[error(
        "cannot reach the app at {url}: {reason} (is it running? `check` calls the app itself, \
         not the edge)"
    )]
    Unreachable { url: String, reason: String },
    #[error("cannot judge the app at {url}: {why}")]
    CannotJudge { url: String, why: String },
}

/// Runs the check; 0 when no forgery was treated as a person, 1 when one was. Accepted strict
/// probes are warnings: they leave the exit status alone.
pub fn run(config: &Config, args: &CheckArgs) -> Result<u8, CommandError> {
    let url = target_url(args)?;
    if config.state_dir.is_none() {
        return Err(CheckError::EphemeralKeys.into());
    }
    let person = match &args.person {
        Some(handle) => config
            .person(handle)
            .ok_or_else(|| CommandError::UnknownPerson {
                handle: handle.clone(),
                known: config
                    .people
                    .iter()
                    .map(|p| p.profile.preferred_username.as_deref().unwrap_or(&p.sub))
                    .collect::<Vec<_>>()
                    .join(", "),
            })?,
        None => config.people.first().ok_or(CheckError::NoPeople)?,
    };
    let (keys, _) = open_keys(config)?;
    let sandbox = running(config)?;
    // The `iam` claim names the sandbox running on this state directory, else the configured
    // IAM; the spec asks no app to check it.
    let iam = match &sandbox {
        Some(r) => format!("http://{}", r.iam),
        None => format!("http://127.0.0.1:{}", config.ports.iam),
    };
    let control = sandbox
        .as_ref()
        .map(|r| format!("http://{}/sandbox/v1", r.broker));
    let issuer = IdentityIssuer {
        keys: keys.clone(),
        audience: Audience::from_config(config),
        iam_issuer: format!("{iam}/realms/{}", config.organization.slug),
    };
    let (rotated_out, rotated_note) = match keys.rotated_out() {
        Some(key) => (key, "a key this state directory rotated out"),
        None => (
            KeyPair::generate(),
            "no key rotated out here yet: a never-published one stands in",
        ),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(CommandError::Runtime)?;
    let report = runtime.block_on(async {
        let http = crate::http::client();
        let session = match &control {
            Some(control) => sign_in(&http, control, person).await?,
            None => Session::MadeUp {
                sid: format!("check-{}", uuid::Uuid::new_v4()),
            },
        };
        let report = probe_all(&http, &url, &issuer, person, &session, &rotated_out).await;
        // The session was the probes' alone: it ends with them, as the app's logout would.
        if let (Some(control), Session::Live { sid }) = (&control, &session) {
            sign_out(&http, control, sid).await;
        }
        report
    })?;
    println!(
        "zero-sandbox check: {url} as {} (keys of {}; {})\n",
        person
            .profile
            .preferred_username
            .as_deref()
            .unwrap_or(&person.sub),
        config
            .state_dir
            .as_deref()
            .map(|d| d.display().to_string())
            .unwrap_or_default(),
        match &report.session {
            Session::Live { .. } => "a live session of the sandbox running there",
            Session::MadeUp { .. } =>
                "no sandbox runs there: the identities name no live session, so a path that \
                 queries the broker cannot be audited",
        },
    );
    print!("{}", report.table(rotated_note));
    let warnings = report.strict_accepted();
    if !warnings.is_empty() {
        println!(
            "\nWarning (strict-verifier findings, not failures): the app accepted {}. The five \
             checks of the runtime protocol do not refuse them, and PyJWT and Go's standard \
             library accept them too, but the platform's verifier refuses a `crit` header it \
             does not understand (RFC 7515 §4.1.11), a validity longer than exp = iat + 300 \
             and a high-S (non-canonical) ECDSA signature.",
            warnings.join(", "),
        );
    }
    let people = report.treated_as_person();
    if people.is_empty() {
        println!(
            "\nNo forgery was treated as a person: the app refuses every identity the runtime \
             protocol says it must."
        );
        Ok(0)
    } else {
        println!(
            "\n{} of {} forgeries were treated as a person ({}). Verify X-NNumbers-Identity \
             before trusting it: the ES256 signature with NNUMBERS_IDENTITY_JWKS (by kid), iss, \
             aud, org, nbf and exp (60 s tolerance), and refuse it when any check fails.",
            people.len(),
            report.rows.iter().filter(|row| !row.strict).count(),
            people.join(", "),
        );
        Ok(1)
    }
}

/// `--app` + `--path`, checked.
fn target_url(args: &CheckArgs) -> Result<String, CheckError> {
    let app = args.app.trim_end_matches('/');
    if !(app.starts_with("http://") || app.starts_with("https://"))
        || app.parse::<hyper::Uri>().is_err()
    {
        return Err(CheckError::AppNotAUrl(args.app.clone()));
    }
    if !args.path.starts_with('/') || args.path.starts_with("//") {
        return Err(CheckError::PathNotAbsolute(args.path.clone()));
    }
    let url = format!("{app}{}", args.path);
    match url.parse::<hyper::Uri>() {
        Ok(_) => Ok(url),
        Err(_) => Err(CheckError::PathNotAbsolute(args.path.clone())),
    }
}

/// One probe's row: its name, the app's status, the verdict, and whether it is strict.
pub struct Row {
    pub name: &'static str,
    pub status: u16,
    pub verdict: Verdict,
    pub strict: bool,
}

/// The baseline and every probe's answer and verdict.
pub struct Report {
    pub baseline: Baseline,
    pub session: Session,
    pub rows: Vec<Row>,
}

impl Report {
    /// The forgeries the spec's checks refuse that the app took for a person: the failures.
    pub fn treated_as_person(&self) -> Vec<&'static str> {
        self.rows
            .iter()
            .filter(|row| !row.strict && row.verdict == Verdict::Person)
            .map(|row| row.name)
            .collect()
    }

    /// The strict probes the app took for a person: warnings.
    pub fn strict_accepted(&self) -> Vec<&'static str> {
        self.rows
            .iter()
            .filter(|row| row.strict && row.verdict == Verdict::Person)
            .map(|row| row.name)
            .collect()
    }

    /// probe, status, verdict: the two baselines first.
    pub fn table(&self, rotated_note: &str) -> String {
        let mut rows = vec![
            (
                "no identity".to_string(),
                self.baseline.anonymous[0].status,
                "baseline: anonymous".to_string(),
            ),
            (
                "valid identity".to_string(),
                self.baseline.valid[0].status,
                if self.baseline.markers.is_empty() {
                    "baseline: a person".to_string()
                } else {
                    "baseline: a person (the answer names them)".to_string()
                },
            ),
        ];
        rows.extend(self.rows.iter().map(|row| {
            let mut verdict = if row.strict {
                format!("{} [strict]", describe_strict(row.verdict))
            } else {
                row.verdict.describe().to_string()
            };
            if row.name == "rotated-out key" {
                verdict.push_str(&format!(" [{rotated_note}]"));
            }
            (row.name.to_string(), row.status, verdict)
        }));
        let width = rows.iter().map(|(n, _, _)| n.len()).max().unwrap_or(5);
        let mut text = format!("{:width$}  status  verdict\n", "probe");
        for (name, status, verdict) in rows {
            text.push_str(&format!("{name:width$}  {status:<6}  {verdict}\n"));
        }
        text
    }
}

async fn probe_all(
    http: &crate::http::HttpClient,
    url: &str,
    issuer: &IdentityIssuer,
    person: &Person,
    session: &Session,
    rotated_out: &KeyPair,
) -> Result<Report, CheckError> {
    let sid = session.sid();
    let ask = |identity: Option<String>| answer(http, url, identity);
    let anonymous = [ask(None).await?, ask(None).await?];
    let claims = issuer.claims(person, sid);
    let valid = [
        ask(Some(issuer.sign(&claims))).await?,
        ask(Some(issuer.sign(&issuer.claims(person, sid)))).await?,
    ];
    let mut candidates = vec![person.sub.clone(), sid.to_string()];
    let profile = &person.profile;
    candidates.extend(
        [&profile.preferred_username, &profile.email, &profile.name]
            .into_iter()
            .flatten()
            .cloned(),
    );
    let baseline = Baseline::new(anonymous, valid, &candidates);
    if let Some(why) = baseline.cannot_judge(matches!(session, Session::Live { .. })) {
        return Err(CheckError::CannotJudge {
            url: url.to_string(),
            why,
        });
    }
    let mut rows = Vec::new();
    for probe in forgeries(&issuer.keys.current(), rotated_out, &claims) {
        let answer = ask(Some(probe.identity)).await?;
        rows.push(Row {
            name: probe.name,
            status: answer.status,
            verdict: baseline.judge(&answer),
            strict: probe.strict,
        });
    }
    Ok(Report {
        baseline,
        session: session.clone(),
        rows,
    })
}

/// GET `url` with `identity` in X-NNumbers-Identity (none: anonymous), redirects not followed.
async fn answer(
    http: &crate::http::HttpClient,
    url: &str,
    identity: Option<String>,
) -> Result<Answer, CheckError> {
    let unreachable = |reason: String| CheckError::Unreachable {
        url: url.to_string(),
        reason,
    };
    let mut request = Request::get(url);
    if let Some(identity) = identity {
        request = request.header(IDENTITY_HEADER, identity);
    }
    let request = request
        .body(Body::empty())
        .map_err(|e| unreachable(e.to_string()))?;
    let exchange = async {
        let response = http
            .request(request)
            .await
            .map_err(|e| unreachable(crate::http::describe(&e)))?;
        let status = response.status().as_u16();
        let body = crate::http::read_body(response.into_body(), BODY_LIMIT)
            .await
            .map_err(|e| unreachable(e.to_string()))?;
        Ok(Answer { status, body })
    };
    tokio::time::timeout(ANSWER_TIMEOUT, exchange)
        .await
        .map_err(|_| unreachable(format!("no answer within {} s", ANSWER_TIMEOUT.as_secs())))?
}

#[cfg(test)]
mod tests;
