//! The server's two kinds of rate limit, by what they count:
//! - `PerMinute`: events per minute per (scope, client address, kind), as a sliding window of
//!   their times (analytics events and errors, stored rows, code tries): exact counts and the
//!   seconds until the oldest leaves the window.
//! - `PerSecond`: requests per second per key, bursting to that many, as a generic cell rate
//!   algorithm with one atomic per key (the upstream budget of /v1 and the wallet's calls):
//!   cheap enough for the proxy's hot path.

pub mod per_minute;
pub mod per_second;

pub use per_minute::{EventKind, PerMinute};
pub use per_second::PerSecond;
