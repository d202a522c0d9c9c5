//! What the relay's mailbox holds, by whom: the bytes of live messages per publishing client
//! identity and per client address, and in all. A publish takes its place here before it is
//! stored (one lock checks all three limits and counts it, so publishes at once cannot pass a
//! limit together) and gives it back when it was not stored; places free when messages expire.
//! Each process counts its own publishes; the total also counts what the other processes
//! sharing the database stored (read from it every few seconds).

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet};
use std::net::IpAddr;

/// The limits, in bytes of message text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub per_client: u64,
    pub per_address: u64,
    pub total: u64,
}

/// Why a publish was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    Client,
    Address,
    Full,
}

/// One counted message.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Held {
    expires_at: i64,
    id: u64,
    bytes: u64,
    client: String,
    address: IpAddr,
}

#[derive(Default)]
pub struct Usage {
    by_client: HashMap<String, u64>,
    by_address: HashMap<IpAddr, u64>,
    /// Counted here (this process, and what was stored when it started).
    local: u64,
    /// Stored by the other processes, as the database last said.
    others: u64,
    held: BinaryHeap<Reverse<Held>>,
    /// Places given back before their message expired (not stored after all).
    given_back: HashSet<u64>,
    next_id: u64,
}

impl Usage {
    /// Bytes held in the mailbox as far as this process knows.
    pub fn total(&self) -> u64 {
        self.local + self.others
    }

    /// What the database holds in all, from time to time: the part not counted here is the
    /// other processes'.
    pub fn set_stored(&mut self, stored: u64, now: i64) {
        self.expire(now);
        self.others = stored.saturating_sub(self.local);
    }

    fn expire(&mut self, now: i64) {
        while self.held.peek().is_some_and(|Reverse(h)| h.expires_at <= now) {
            let Reverse(h) = self.held.pop().expect("peeked");
            if !self.given_back.remove(&h.id) {
                self.release(&h.client, h.address, h.bytes);
            }
        }
    }

    fn release(&mut self, client: &str, address: IpAddr, bytes: u64) {
        if let Some(n) = self.by_client.get_mut(client) {
            *n = n.saturating_sub(bytes);
            if *n == 0 {
                self.by_client.remove(client);
            }
        }
        if let Some(n) = self.by_address.get_mut(&address) {
            *n = n.saturating_sub(bytes);
            if *n == 0 {
                self.by_address.remove(&address);
            }
        }
        self.local = self.local.saturating_sub(bytes);
    }

    /// Counts a message of `bytes` until `expires_at`, unless that passes a limit. The id to
    /// give it back with.
    pub fn take(&mut self, client: &str, address: IpAddr, bytes: u64, expires_at: i64, now: i64, limits: Limits) -> Result<u64, Refusal> {
        self.expire(now);
        if self.by_client.get(client).copied().unwrap_or(0) + bytes > limits.per_client {
            return Err(Refusal::Client);
        }
        if self.by_address.get(&address).copied().unwrap_or(0) + bytes > limits.per_address {
            return Err(Refusal::Address);
        }
        if self.total() + bytes > limits.total {
            return Err(Refusal::Full);
        }
        *self.by_client.entry(client.to_owned()).or_default() += bytes;
        *self.by_address.entry(address).or_default() += bytes;
        self.local += bytes;
        let id = self.next_id;
        self.next_id += 1;
        self.held.push(Reverse(Held { expires_at, id, bytes, client: client.to_owned(), address }));
        Ok(id)
    }

    /// A message counted by `take` was not stored after all.
    pub fn give_back(&mut self, id: u64, client: &str, address: IpAddr, bytes: u64) {
        if self.given_back.insert(id) {
            self.release(client, address, bytes);
        }
    }

    /// Counts a message already stored (when the process starts), whatever the limits.
    pub fn count_stored(&mut self, client: &str, address: IpAddr, bytes: u64, expires_at: i64) {
        *self.by_client.entry(client.to_owned()).or_default() += bytes;
        *self.by_address.entry(address).or_default() += bytes;
        self.local += bytes;
        let id = self.next_id;
        self.next_id += 1;
        self.held.push(Reverse(Held { expires_at, id, bytes, client: client.to_owned(), address }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: Limits = Limits { per_client: 100, per_address: 150, total: 250 };

    #[test]
    fn each_limit_holds_and_places_free_when_messages_expire() {
        let (a, b): (IpAddr, IpAddr) = ("127.0.0.1".parse().unwrap(), "127.0.0.2".parse().unwrap());
        let mut u = Usage::default();
        assert!(u.take("x", a, 60, 10, 0, LIMITS).is_ok());
        assert_eq!(u.take("x", a, 50, 10, 0, LIMITS), Err(Refusal::Client));
        assert!(u.take("y", a, 60, 20, 0, LIMITS).is_ok());
        assert_eq!(u.take("z", a, 40, 20, 0, LIMITS), Err(Refusal::Address), "a has 120 of 150");
        assert!(u.take("z", b, 100, 20, 0, LIMITS).is_ok());
        assert_eq!(u.take("w", b, 40, 20, 0, LIMITS), Err(Refusal::Full), "220 of 250");
        assert_eq!(u.total(), 220);
        // x's message expires at 10: its bytes free up.
        assert!(u.take("x", a, 90, 30, 10, LIMITS).is_ok());
        assert_eq!(u.total(), 250);
    }

    #[test]
    fn a_place_given_back_is_freed_once() {
        let a: IpAddr = "127.0.0.1".parse().unwrap();
        let mut u = Usage::default();
        let id = u.take("x", a, 100, 10, 0, LIMITS).unwrap();
        u.give_back(id, "x", a, 100);
        u.give_back(id, "x", a, 100);
        assert_eq!(u.total(), 0);
        let kept = u.take("x", a, 100, 20, 0, LIMITS).unwrap();
        // The given-back entry expiring frees nothing more.
        u.expire(15);
        assert_eq!(u.total(), 100);
        assert_ne!(kept, id);
    }

    #[test]
    fn other_processes_count_toward_the_total() {
        let a: IpAddr = "127.0.0.1".parse().unwrap();
        let mut u = Usage::default();
        u.take("x", a, 50, 100, 0, LIMITS).unwrap();
        u.set_stored(240, 0);
        assert_eq!(u.total(), 240);
        assert_eq!(u.take("y", a, 20, 100, 0, LIMITS), Err(Refusal::Full));
    }
}
