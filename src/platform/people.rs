//! The organization's people while the sandbox runs: the configured ones, plus those the
//! test-control API adds (each with the stable `sub` it was given), minus those it removes.
//! `POST /sandbox/v1/reset` puts the configured ones back.

use std::sync::{Arc, RwLock};

use crate::config::Person;

/// The people of one sandbox; clones share them.
#[derive(Clone, Debug)]
pub struct People {
    configured: Arc<Vec<Person>>,
    now: Arc<RwLock<Vec<Person>>>,
}

/// People kept at once: far above a test suite's, so a loop adding people stays bounded.
pub const MAX_PEOPLE: usize = 10_000;

/// Why a person was not added.
#[derive(Debug, thiserror::Error)]
pub enum PeopleError {
    #[error("a person with sub {0:?} already exists")]
    SubTaken(String),
    #[error("preferred_username {0:?} is already another person's")]
    UsernameTaken(String),
    #[error("the sandbox already holds {MAX_PEOPLE} people; remove some first")]
    Full,
}

impl People {
    pub fn new(configured: Vec<Person>) -> Self {
        Self {
            now: Arc::new(RwLock::new(configured.clone())),
            configured: Arc::new(configured),
        }
    }

    pub fn list(&self) -> Vec<Person> {
        self.now.read().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Whether `sub` is one of the configured people (as opposed to one added while running).
    pub fn is_configured(&self, sub: &str) -> bool {
        self.configured.iter().any(|p| p.sub == sub)
    }

    /// The person `handle` names: their sub first, else their username, email or name.
    pub fn find(&self, handle: &str) -> Option<Person> {
        let people = self.list();
        people
            .iter()
            .find(|p| p.sub == handle)
            .or_else(|| people.iter().find(|p| p.is_called(handle)))
            .cloned()
    }

    pub fn add(&self, person: Person) -> Result<(), PeopleError> {
        let mut people = self.now.write().unwrap_or_else(|p| p.into_inner());
        if people.iter().any(|p| p.sub == person.sub) {
            return Err(PeopleError::SubTaken(person.sub));
        }
        if let Some(username) = &person.profile.preferred_username
            && people
                .iter()
                .any(|p| p.profile.preferred_username.as_ref() == Some(username))
        {
            return Err(PeopleError::UsernameTaken(username.clone()));
        }
        if people.len() >= MAX_PEOPLE {
            return Err(PeopleError::Full);
        }
        people.push(person);
        Ok(())
    }

    /// Removes the person `sub`; returns whether they existed.
    pub fn remove(&self, sub: &str) -> bool {
        let mut people = self.now.write().unwrap_or_else(|p| p.into_inner());
        let before = people.len();
        people.retain(|p| p.sub != sub);
        people.len() != before
    }

    /// Back to the configured people.
    pub fn reset(&self) {
        *self.now.write().unwrap_or_else(|p| p.into_inner()) = (*self.configured).clone();
    }
}
