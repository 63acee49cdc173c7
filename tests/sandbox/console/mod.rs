//! The console (`/sandbox/` on the control listener) and the control API it adds: the
//! journal as server-sent events, the latest identity and the five checks, QueryMesh's tables
//! as a person sees them and the policies in force, the one-time sign-in link — and the page
//! itself, driven in Chromium.

mod identity;
mod in_a_browser;
mod querymesh;
mod served;
mod stream;
