//! Results of calls that run side by side print in the order the model made the calls, whatever order they
//! finish in; each names what it was about when other calls ran beside it (two `read_file` lines read the same
//! otherwise).

use std::collections::{HashMap, HashSet};

/// Calls started and not yet printed, and finished results waiting for an earlier call.
#[derive(Default)]
pub(super) struct CallOrder {
    /// Started calls whose result is not printed yet, in start order (the model's call order).
    in_flight: Vec<String>,
    /// Calls that had another call in flight beside them.
    crowded: HashSet<String>,
    /// Finished results held back until every call started before them has printed.
    held: HashMap<String, Vec<String>>,
}

impl CallOrder {
    /// Call `id` started.
    pub(super) fn start(&mut self, id: &str) {
        self.in_flight.push(id.to_string());
        if self.in_flight.len() > 1 {
            self.crowded.extend(self.in_flight.iter().cloned());
        }
    }

    /// Whether call `id` ran beside another, so its result line should say what it was about.
    pub(super) fn crowded(&self, id: &str) -> bool {
        self.crowded.contains(id)
    }

    /// Call `id` finished with `lines`: returns the results now due, in call order (none while an earlier call
    /// still runs). A call that was never started prints at once.
    pub(super) fn finish(&mut self, id: &str, lines: Vec<String>) -> Vec<String> {
        if !self.in_flight.iter().any(|i| i == id) {
            return lines;
        }
        self.held.insert(id.to_string(), lines);
        let mut due = Vec::new();
        while let Some(first) = self.in_flight.first() {
            let Some(lines) = self.held.remove(first) else {
                break;
            };
            self.crowded.remove(first);
            self.in_flight.remove(0);
            due.extend(lines);
        }
        due
    }

    /// Everything held, in call order (the turn ended: nothing more will finish).
    pub(super) fn drain(&mut self) -> Vec<String> {
        let mut due = Vec::new();
        for id in std::mem::take(&mut self.in_flight) {
            due.extend(self.held.remove(&id).unwrap_or_default());
        }
        self.held.clear();
        self.crowded.clear();
        due
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        vec![text.to_string()]
    }

    #[test]
    fn a_later_call_finishing_first_waits_for_the_earlier_one() {
        let mut order = CallOrder::default();
        order.start("a");
        order.start("b");
        assert!(order.crowded("a") && order.crowded("b"));
        assert!(order.finish("b", lines("b done")).is_empty());
        assert_eq!(order.finish("a", lines("a done")), ["a done", "b done"]);
        assert!(order.drain().is_empty());
    }

    #[test]
    fn a_call_alone_prints_at_once_and_is_not_crowded() {
        let mut order = CallOrder::default();
        order.start("a");
        assert!(!order.crowded("a"));
        assert_eq!(order.finish("a", lines("a done")), ["a done"]);
        assert_eq!(order.finish("unknown", lines("x")), ["x"]);
    }

    #[test]
    fn drain_prints_what_is_held_when_the_turn_ends() {
        let mut order = CallOrder::default();
        order.start("a");
        order.start("b");
        assert!(order.finish("b", lines("b done")).is_empty());
        assert_eq!(order.drain(), ["b done"]);
    }
}
