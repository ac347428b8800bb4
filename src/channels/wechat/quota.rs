//! The reply quota: the server takes about ten sends per incoming message (per `context_token`, within a day)
//! and answers the eleventh with `ret: -2`. The book counts sends per token and knows each chat's newest token,
//! so a reply whose own token is spent can go out under a fresher one.

use std::collections::{HashMap, VecDeque};

/// Sends the server accepts per incoming message.
pub const SENDS_PER_MESSAGE: usize = 10;
/// Tokens remembered (the newest per chat always is).
const TOKENS_KEPT: usize = 256;

#[derive(Debug, Default)]
pub struct ReplyBook {
    used: HashMap<String, usize>,
    order: VecDeque<String>,
    newest: HashMap<String, String>,
}

impl ReplyBook {
    /// A message arrived in `chat` with `token`: it is the chat's newest and has its full quota.
    pub fn note_incoming(&mut self, chat: &str, token: &str) {
        if !self.used.contains_key(token) {
            self.used.insert(token.to_string(), 0);
            self.order.push_back(token.to_string());
            while self.order.len() > TOKENS_KEPT {
                if let Some(old) = self.order.pop_front() {
                    self.used.remove(&old);
                }
            }
        }
        self.newest.insert(chat.to_string(), token.to_string());
    }

    /// Sends left under `token` (a token never seen counts as fresh).
    pub fn remaining(&self, token: &str) -> usize {
        SENDS_PER_MESSAGE.saturating_sub(self.used.get(token).copied().unwrap_or(0))
    }

    pub fn record_send(&mut self, token: &str) {
        *self.used.entry(token.to_string()).or_insert(0) += 1;
    }

    /// The server refused `token` (stale or spent): nothing more goes out under it.
    pub fn exhaust(&mut self, token: &str) {
        self.used.insert(token.to_string(), SENDS_PER_MESSAGE);
    }

    /// The chat's newest token when it is not `token` and has sends left.
    pub fn fresher(&self, chat: &str, token: &str) -> Option<String> {
        self.newest
            .get(chat)
            .filter(|t| t.as_str() != token && self.remaining(t) > 0)
            .cloned()
    }
}

/// Fits `chunks` into `available` sends: when there are more, the last send carries the start of the rest and
/// `notice(count)` saying how many characters were left out.
pub fn fit_to_quota(
    chunks: Vec<String>,
    available: usize,
    max_chars: usize,
    notice: impl Fn(usize) -> String,
) -> Vec<String> {
    if chunks.len() <= available || available == 0 {
        return chunks.into_iter().take(available).collect();
    }
    let mut kept: Vec<String> = chunks[..available - 1].to_vec();
    let rest = chunks[available - 1..].join("\n");
    let rest_chars = rest.chars().count();
    // The notice's own length depends on the count; a generous count sizes it.
    let room = max_chars.saturating_sub(notice(rest_chars).chars().count() + 1);
    let head = super::chunk::split_chunks(&rest, room.max(1))
        .into_iter()
        .next()
        .unwrap_or_default();
    let left_out = rest_chars.saturating_sub(head.chars().count());
    kept.push(format!("{head}\n{}", notice(left_out)));
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spent_token_gives_way_to_the_chats_newest() {
        let mut book = ReplyBook::default();
        book.note_incoming("u", "t1");
        for _ in 0..SENDS_PER_MESSAGE {
            book.record_send("t1");
        }
        assert_eq!(book.remaining("t1"), 0);
        assert_eq!(book.fresher("u", "t1"), None);
        book.note_incoming("u", "t2");
        assert_eq!(book.fresher("u", "t1").as_deref(), Some("t2"));
        book.exhaust("t2");
        assert_eq!(book.fresher("u", "t1"), None);
    }

    #[test]
    fn too_many_chunks_end_in_a_notice_within_the_limit() {
        let chunks: Vec<String> = (0..15).map(|i| format!("{i:02}").repeat(50)).collect();
        let fitted = fit_to_quota(chunks, 3, 120, |n| format!("({n} more)"));
        assert_eq!(fitted.len(), 3);
        assert!(fitted.iter().all(|c| c.chars().count() <= 120));
        assert!(fitted[2].ends_with(" more)"), "{}", fitted[2]);
        assert!(fitted[2].starts_with("0202"));
    }
}
