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

/// What the app answered: all that is compared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub status: u16,
    pub body: Bytes,
}

/// How the app treated one probe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Answered with a 4xx other than the valid identity's answer.
    Refused,
    /// Exactly the anonymous answer.
    Anonymous,
    /// The forgery was taken for the person: the defect `check` exists to find.
    Person,
    /// A 5xx: not a person, but an app should refuse a bad identity, not fail on it.
    ServerError,
    /// Neither the anonymous nor the valid answer, and nothing of the person in it.
    Other,
}

impl Verdict {
    fn describe(self) -> &'static str {
        match self {
            Self::Refused => "refused",
            Self::Anonymous => "anonymous",
            Self::Person => "TREATED AS A PERSON",
            Self::ServerError => "server error (refuse with 401 instead)",
            Self::Other => "other (neither answer)",
        }
    }
}

/// What a strict probe's verdict reads as: accepting it is a warning, not the defect.
fn describe_strict(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Person => "accepted (warning: a strict verifier refuses it)",
        other => other.describe(),
    }
}

/// The platform session the probes name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Session {
    /// Signed in to the sandbox running on the state directory: the broker knows it.
    Live { sid: String },
    /// No sandbox runs on the state directory: a sid nothing knows.
    MadeUp { sid: String },
}

impl Session {
    pub fn sid(&self) -> &str {
        match self {
            Self::Live { sid } | Self::MadeUp { sid } => sid,
        }
    }
}

/// The refusal code of the spec's table that an answer's body names, if any: an app that
/// queries the broker and passes its refusal on.
pub fn broker_code(body: &[u8]) -> Option<&'static str> {
    INJECTABLE_CODES
        .iter()
        .map(|(code, _)| *code)
        .find(|code| contains(body, code))
}

/// The two answers every probe is compared with, each asked for twice so that an answer that
/// changes on its own (a timestamp, a request id, a jti echoed back) is known to be unstable.
#[derive(Clone, Debug)]
pub struct Baseline {
    pub anonymous: [Answer; 2],
    pub valid: [Answer; 2],
    /// What names the person in both valid answers and in neither anonymous one.
    pub markers: Vec<String>,
}

impl Baseline {
    /// `candidates`: what the valid identity carries that every probe carries too (the
    /// person's sub and profile, the probes' shared sid); those the valid answers show and
    /// the anonymous ones do not become the markers.
    pub fn new(anonymous: [Answer; 2], valid: [Answer; 2], candidates: &[String]) -> Self {
        let markers = candidates
            .iter()
            .filter(|c| c.len() >= 3)
            .filter(|c| valid.iter().all(|a| contains(&a.body, c)))
            .filter(|c| !anonymous.iter().any(|a| contains(&a.body, c)))
            .cloned()
            .collect();
        Self {
            anonymous,
            valid,
            markers,
        }
    }

    /// Why nothing can be judged from these answers, if so. `live`: whether the probes' sid
    /// is a live session of a running sandbox (see [`Session`]).
    pub fn cannot_judge(&self, live: bool) -> Option<String> {
        let [valid, _] = &self.valid;
        let [anonymous, _] = &self.anonymous;
        if valid.status >= 400 {
            return Some(refused_valid(valid, live));
        }
        let stable = self.anonymous[0] == self.anonymous[1] && self.valid[0] == self.valid[1];
        let distinct = !self.markers.is_empty()
            || valid.status != anonymous.status
            || (stable && valid.body != anonymous.body);
        (!distinct).then(|| {
            format!(
                "the valid identity's answer ({}) cannot be told from the anonymous one ({}){}: \
                 choose a --path whose answer depends on who signed in (one that shows the \
                 person's name, or refuses without a person)",
                valid.status,
                anonymous.status,
                if stable {
                    ""
                } else {
                    ", whose bodies change on their own"
                },
            )
        })
    }

    /// "Treated as a person", in this order: a 5xx is a server error; the anonymous answer
    /// exactly is anonymous; the valid answer exactly is a person; another 4xx is refused.
    /// Otherwise the evidence is the person: when the valid answer names them (see
    /// [`Baseline::markers`]) an answer naming them is a person; when it names no one, an
    /// answer with the valid answer's status is, if that status is not the anonymous one.
    /// Anything else is other.
    pub fn judge(&self, answer: &Answer) -> Verdict {
        let [valid, _] = &self.valid;
        let [anonymous, _] = &self.anonymous;
        if answer.status >= 500 {
            Verdict::ServerError
        } else if self.anonymous.contains(answer) {
            Verdict::Anonymous
        } else if self.valid.contains(answer) {
            Verdict::Person
        } else if answer.status >= 400 {
            Verdict::Refused
        } else if !self.markers.is_empty() {
            if self.markers.iter().any(|m| contains(&answer.body, m)) {
                Verdict::Person
            } else {
                Verdict::Other
            }
        } else if valid.status != anonymous.status && answer.status == valid.status {
            Verdict::Person
        } else {
            Verdict::Other
        }
    }
}

/// Why the valid identity was refused, as precisely as its answer tells: the broker's code
/// when the app passed one on, else the likely causes.
fn refused_valid(valid: &Answer, live: bool) -> String {
    let status = valid.status;
    let no_sandbox = "no sandbox runs on this state directory, so the identities name no live \
                      platform session; start `zero-sandbox up` (or `run`) with the same --state \
                      and --config, then check again";
    match broker_code(&valid.body) {
        Some("USER_SESSION_REQUIRED") if live => format!(
            "the valid identity was answered {status} USER_SESSION_REQUIRED: the broker behind \
             the app found no live session for it, though `check` signed the person in to the \
             sandbox running on this state directory; does the app's NNUMBERS_BROKER_URL name \
             another sandbox's broker?"
        ),
        Some("USER_SESSION_REQUIRED") => format!(
            "the valid identity was answered {status} USER_SESSION_REQUIRED: the path queries \
             the broker, which serves only an identity whose sid is a live platform session, \
             and {no_sandbox}"
        ),
        Some("IDENTITY_ASSERTION_INVALID") => format!(
            "the valid identity was answered {status} IDENTITY_ASSERTION_INVALID: the app (or \
             the broker behind it) does not trust this state directory's keys; start it with \
             the NNUMBERS_* variables of `zero-sandbox env` on the same --state"
        ),
        Some(code) => format!(
            "the valid identity was answered {status} {code}, the broker's refusal passed on by \
             the app: the broker refuses this person's query whatever the identity (see the \
             README's table of refusals for the cause), so the forgeries' answers would tell \
             nothing; fix that first, or choose another --path"
        ),
        None => {
            let mut why = format!(
                "the valid identity was answered {status}: the app does not trust this state \
                 directory's keys (start it with the NNUMBERS_* variables of `zero-sandbox env` \
                 on the same --state), or --path is not a page a signed-in person may see"
            );
            if !live {
                why.push_str(&format!(
                    ", or the path queries the broker and {no_sandbox}"
                ));
            }
            why
        }
    }
}

fn contains(body: &[u8], needle: &str) -> bool {
    let needle = needle.as_bytes();
    !needle.is_empty() && body.windows(needle.len()).any(|w| w == needle)
}

/// One request to send: its name in the table and the identity it carries.
pub struct Probe {
    pub name: &'static str,
    pub identity: String,
    /// Refused by a strict verifier but not by the spec's five checks: an app that accepts
    /// it gets a warning, not a failure.
    pub strict: bool,
}

/// The forgeries, each from the same claims the valid identity has (same person, same sid).
/// `current`: the key the app trusts; `rotated_out`: a key it must not (see `--help`).
pub fn forgeries(current: &KeyPair, rotated_out: &KeyPair, claims: &IdentityClaims) -> Vec<Probe> {
    let forged = |forgery: Forgery| forge(current, claims.clone(), &[forgery]);
    let unsigned = format!(
        "{}.",
        jws::signing_input(&Header::es256(IDENTITY_TYP, current.kid()), claims)
    );
    vec![
        Probe {
            name: "unsigned (spoofed)",
            identity: unsigned,
            strict: false,
        },
        Probe {
            name: "expired",
            identity: forged(Forgery::Expired),
            strict: false,
        },
        Probe {
            name: "not yet valid",
            identity: forged(Forgery::NotYetValid),
            strict: false,
        },
        Probe {
            name: "other aud",
            identity: forged(Forgery::Audience(format!("not-{}", claims.aud))),
            strict: false,
        },
        Probe {
            name: "other org",
            identity: forged(Forgery::Organization(format!("not-{}", claims.org))),
            strict: false,
        },
        Probe {
            name: "other iss",
            identity: forged(Forgery::Issuer(format!("{}.invalid", claims.iss))),
            strict: false,
        },
        Probe {
            name: "unknown kid",
            identity: forged(Forgery::UnknownKid),
            strict: false,
        },
        Probe {
            name: "bad signature",
            identity: forged(Forgery::BadSignature),
            strict: false,
        },
        Probe {
            name: "alg none",
            identity: forged(Forgery::AlgNone),
            strict: false,
        },
        Probe {
            name: "rotated-out key",
            identity: sign_identity(rotated_out, claims),
            strict: false,
        },
        Probe {
            name: "crit header",
            identity: forged(Forgery::Critical),
            strict: true,
        },
        Probe {
            name: "long-lived",
            identity: forged(Forgery::LongLived),
            strict: true,
        },
        Probe {
            name: "high-S signature",
            identity: forged(Forgery::HighS),
            strict: true,
        },
    ]
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

/// Signs `person` in to the running sandbox through its test-control API (`POST sessions`,
/// as a test suite does), by sub; a person that sandbox does not know (another --config) as
/// an ad-hoc one with the same claims.
async fn sign_in(
    http: &crate::http::HttpClient,
    control: &str,
    person: &Person,
) -> Result<Session, CheckError> {
    let url = format!("{control}/sessions");
    let failed = |why: String| CheckError::NoSession {
        person: person.sub.clone(),
        control: control.to_string(),
        why,
    };
    let mut answer = post_json(http, &url, &serde_json::json!({ "person": person.sub }))
        .await
        .map_err(failed)?;
    if answer.0 == 404 {
        let claims = serde_json::to_value(person).map_err(|e| failed(e.to_string()))?;
        answer = post_json(http, &url, &serde_json::json!({ "claims": claims }))
            .await
            .map_err(failed)?;
    }
    let (status, body) = answer;
    let sid = serde_json::from_slice::<serde_json::Value>(&body)
        .ok()
        .and_then(|v| v.get("sid").and_then(|s| s.as_str()).map(str::to_string));
    match (status, sid) {
        (201, Some(sid)) => Ok(Session::Live { sid }),
        _ => Err(failed(format!(
            "it answered {status}: {}",
            String::from_utf8_lossy(&body[..body.len().min(500)])
        ))),
    }
}

/// Ends the probes' session; a failure only leaves it to expire.
async fn sign_out(http: &crate::http::HttpClient, control: &str, sid: &str) {
    if let Ok(request) = Request::delete(format!("{control}/sessions/{sid}")).body(Body::empty()) {
        let _ = tokio::time::timeout(ANSWER_TIMEOUT, http.request(request)).await;
    }
}

/// POSTs `body` as JSON; the status and the body, or why there is none.
async fn post_json(
    http: &crate::http::HttpClient,
    url: &str,
    body: &serde_json::Value,
) -> Result<(u16, Bytes), String> {
    let request = Request::post(url)
        .header(hyper::header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .map_err(|e| e.to_string())?;
    let exchange = async {
        let response = http
            .request(request)
            .await
            .map_err(|e| crate::http::describe(&e))?;
        let status = response.status().as_u16();
        let body = crate::http::read_body(response.into_body(), BODY_LIMIT)
            .await
            .map_err(|e| e.to_string())?;
        Ok((status, body))
    };
    tokio::time::timeout(ANSWER_TIMEOUT, exchange)
        .await
        .map_err(|_| format!("no answer within {} s", ANSWER_TIMEOUT.as_secs()))?
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
mod tests {
    use super::*;

    fn answer(status: u16, body: &str) -> Answer {
        Answer {
            status,
            body: Bytes::from(body.to_string()),
        }
    }

    fn baseline(anonymous: Answer, valid: Answer) -> Baseline {
        Baseline::new(
            [anonymous.clone(), anonymous],
            [valid.clone(), valid],
            &["sub-1234".into(), "ada".into(), "x".into()],
        )
    }

    #[test]
    fn an_answer_naming_the_person_is_a_person_whatever_else_differs() {
        let b = baseline(
            answer(200, "hello stranger"),
            answer(200, "hello ada, exp 100"),
        );
        assert_eq!(
            b.markers,
            vec!["ada".to_string()],
            "x is too short to mean anything"
        );
        assert_eq!(b.cannot_judge(true), None);
        assert_eq!(b.judge(&answer(200, "hello ada, exp 40")), Verdict::Person);
        assert_eq!(b.judge(&answer(200, "hello stranger")), Verdict::Anonymous);
        assert_eq!(b.judge(&answer(401, "bad identity")), Verdict::Refused);
        assert_eq!(b.judge(&answer(500, "hello ada")), Verdict::ServerError);
        assert_eq!(b.judge(&answer(200, "something else")), Verdict::Other);
    }

    #[test]
    fn without_a_name_the_status_tells_when_it_differs() {
        let b = baseline(answer(302, ""), answer(200, "your page"));
        assert!(b.markers.is_empty());
        assert_eq!(b.cannot_judge(true), None);
        assert_eq!(b.judge(&answer(200, "your page")), Verdict::Person);
        assert_eq!(b.judge(&answer(200, "a page")), Verdict::Person);
        assert_eq!(b.judge(&answer(302, "")), Verdict::Anonymous);
        assert_eq!(b.judge(&answer(403, "")), Verdict::Refused);
    }

    #[test]
    fn same_status_and_no_name_compares_whole_stable_bodies() {
        let b = baseline(answer(200, "signed in: no"), answer(200, "signed in: yes"));
        assert_eq!(b.cannot_judge(true), None);
        assert_eq!(b.judge(&answer(200, "signed in: yes")), Verdict::Person);
        assert_eq!(b.judge(&answer(200, "signed in: maybe")), Verdict::Other);
    }

    #[test]
    fn it_refuses_to_judge_what_it_cannot_tell_apart() {
        let same = baseline(answer(200, "ok"), answer(200, "ok"));
        assert!(same.cannot_judge(true).is_some());
        let refused = baseline(answer(401, "no"), answer(401, "no, bad key"));
        let why = refused.cannot_judge(true).unwrap_or_default();
        assert!(why.contains("401") && why.contains("trust"), "{why}");
        // Bodies that change on their own, same status, no name: nothing to compare.
        let unstable = Baseline::new(
            [answer(200, "t=1"), answer(200, "t=2")],
            [answer(200, "t=3 in"), answer(200, "t=4 in")],
            &["ada".into()],
        );
        assert!(unstable.cannot_judge(true).is_some());
    }

    /// Issue 30: a refusal the app passes on from the broker is named, not blamed on keys.
    #[test]
    fn a_refused_valid_identity_is_explained_by_the_code_the_app_passed_on() {
        let refused = |body: &str, live: bool| {
            baseline(answer(401, "{}"), answer(401, body))
                .cannot_judge(live)
                .unwrap_or_default()
        };
        let no_session = r#"{"code":"USER_SESSION_REQUIRED","message":"no session"}"#;
        let why = refused(no_session, false);
        assert!(
            why.contains("USER_SESSION_REQUIRED")
                && why.contains("no sandbox runs on this state directory")
                && !why.contains("trust"),
            "{why}"
        );
        let why = refused(no_session, true);
        assert!(
            why.contains("USER_SESSION_REQUIRED") && why.contains("NNUMBERS_BROKER_URL"),
            "{why}"
        );
        let why = refused(r#"{"code":"IDENTITY_ASSERTION_INVALID"}"#, true);
        assert!(why.contains("trust") && why.contains("keys"), "{why}");
        let why = refused(r#"{"code":"QUERYMESH_NOT_ENABLED"}"#, true);
        assert!(
            why.contains("QUERYMESH_NOT_ENABLED") && !why.contains("trust"),
            "{why}"
        );
        let why = refused("denied", false);
        assert!(
            why.contains("trust") && why.contains("no sandbox runs"),
            "{why}"
        );
    }

    #[test]
    fn each_probe_breaks_one_check_and_is_refused_by_the_platform_verifier() {
        use crate::identity::{KeyRing, unix_now, verify_identity};
        let config = Config::builtin();
        let issuer = IdentityIssuer {
            keys: KeyRing::ephemeral(),
            audience: Audience::from_config(&config),
            iam_issuer: "http://127.0.0.1:1/realms/acme".into(),
        };
        let ada = config.person("ada").expect("ada is configured");
        let claims = issuer.claims(ada, "sid-1");
        let valid = issuer.sign(&claims);
        let published = issuer.keys.published();
        let now = unix_now();
        assert!(verify_identity(&valid, &published, &issuer.audience, now).is_ok());
        let probes = forgeries(&issuer.keys.current(), &KeyPair::generate(), &claims);
        assert_eq!(probes.len(), 13);
        assert_eq!(probes.iter().filter(|p| p.strict).count(), 3);
        for probe in probes {
            assert!(
                verify_identity(&probe.identity, &published, &issuer.audience, now).is_err(),
                "{} verifies",
                probe.name
            );
        }
    }
}
