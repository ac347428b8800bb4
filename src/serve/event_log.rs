//! The numbered events of one thread, kept so a client that reconnects with `Last-Event-ID` gets what it missed.

use std::collections::VecDeque;
use std::sync::Mutex;

use serde_json::Value;
use tokio::sync::watch;

/// Events kept per thread; older ones are dropped (a client that fell further behind resumes from the oldest).
const KEEP_EVENTS: usize = 10_000;

/// One stored event: its id (from 1, increasing), its `type` and the JSON sent as the SSE `data`.
#[derive(Clone, Debug)]
pub struct StoredEvent {
    pub id: u64,
    pub kind: String,
    pub data: String,
}

/// The event log of a thread: appended by the turn and the approver, read by every SSE stream.
pub struct EventLog {
    events: Mutex<VecDeque<StoredEvent>>,
    /// The id of the newest event; streams wait on it for more.
    latest: watch::Sender<u64>,
}

impl Default for EventLog {
    fn default() -> Self {
        EventLog {
            events: Mutex::new(VecDeque::new()),
            latest: watch::Sender::new(0),
        }
    }
}

impl EventLog {
    /// Appends `value` (a JSON object with a `type`) and returns its id.
    pub fn push(&self, value: &Value) -> u64 {
        let kind = value
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("event")
            .to_string();
        let mut events = self.lock();
        let id = events.back().map_or(1, |e| e.id + 1);
        events.push_back(StoredEvent {
            id,
            kind,
            data: value.to_string(),
        });
        if events.len() > KEEP_EVENTS {
            events.pop_front();
        }
        drop(events);
        // `send_replace` updates the value even while no stream is listening.
        self.latest.send_replace(id);
        id
    }

    /// Every kept event with an id greater than `after`, oldest first.
    pub fn after(&self, after: u64) -> Vec<StoredEvent> {
        self.lock()
            .iter()
            .filter(|e| e.id > after)
            .cloned()
            .collect()
    }

    /// A receiver that wakes when an event is pushed.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.latest.subscribe()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, VecDeque<StoredEvent>> {
        self.events
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    #[test]
    fn ids_increase_from_one_and_after_returns_only_later_events() {
        let log = EventLog::default();
        assert_eq!(log.push(&json!({"type": "a"})), 1);
        assert_eq!(log.push(&json!({"type": "b"})), 2);
        assert_eq!(log.push(&json!({"no_type": true})), 3);
        let later: Vec<(u64, String)> = log.after(1).into_iter().map(|e| (e.id, e.kind)).collect();
        assert_eq!(later, [(2, "b".to_string()), (3, "event".to_string())]);
        assert!(log.after(3).is_empty());
    }

    #[tokio::test]
    async fn a_subscriber_wakes_on_push_even_if_it_subscribed_before() {
        let log = EventLog::default();
        let mut rx = log.subscribe();
        log.push(&json!({"type": "a"}));
        rx.changed().await.unwrap();
        assert_eq!(*rx.borrow(), 1);
    }
}
