//! Judging the app's answers: the baseline (anonymous and valid, each asked twice), each
//! probe's verdict against it, and why a refused valid identity was refused.

use super::*;

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
    pub(super) fn describe(self) -> &'static str {
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
pub(super) fn describe_strict(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Person => "accepted (warning: a strict verifier refuses it)",
        other => other.describe(),
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
pub(super) fn refused_valid(valid: &Answer, live: bool) -> String {
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

pub(super) fn contains(body: &[u8], needle: &str) -> bool {
    let needle = needle.as_bytes();
    !needle.is_empty() && body.windows(needle.len()).any(|w| w == needle)
}
