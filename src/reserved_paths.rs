//! The reserved paths (runtime-protocol, "The Reserved Paths"): what the platform serves on
//! the app's own address, under one prefix, never reaching the app. The one table of them:
//! the edge routes by it, the IAM registers the callback from it, refusals name sign-in by it.

/// The platform's prefix on the app's address; everything at or under it is the platform's.
pub const RESERVED_PREFIX: &str = "/.nnumbers";
/// Where the sign-in paths live: the login cookie's `Path`, so only they receive it.
pub const AUTH_PREFIX: &str = "/.nnumbers/auth/";
/// `GET`: 302 to the organization IAM's sign-in, with `return_to`.
pub const LOGIN_PATH: &str = "/.nnumbers/auth/login";
/// `GET`: where the edge receives the authorization response (the OIDC redirect URI).
pub const CALLBACK_PATH: &str = "/.nnumbers/auth/callback";
/// `POST`: 303 to `/`, the application session ended.
pub const LOGOUT_PATH: &str = "/.nnumbers/auth/logout";
/// `GET`: who is signed in, or `null`.
pub const SESSION_PATH: &str = "/.nnumbers/auth/session";
/// `GET`: the app, its organization, and where sign-in lives.
pub const CONTEXT_PATH: &str = "/.nnumbers/v1/context";

#[cfg(test)]
mod tests {
    use super::*;

    /// The table holds together: every path is under the prefix, the sign-in ones under theirs.
    #[test]
    fn every_reserved_path_is_under_the_prefix() {
        assert!(AUTH_PREFIX.starts_with(&format!("{RESERVED_PREFIX}/")));
        for path in [LOGIN_PATH, CALLBACK_PATH, LOGOUT_PATH, SESSION_PATH] {
            assert!(path.starts_with(AUTH_PREFIX), "{path}");
        }
        assert!(CONTEXT_PATH.starts_with(&format!("{RESERVED_PREFIX}/")));
    }
}
