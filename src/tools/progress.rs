//! Live output of running calls: a bounded channel from the tools to the agent loop, which turns each line into
//! an `AgentEvent::ToolOutput` (tools run on their own tasks and cannot borrow the turn's event sink).

use std::sync::Arc;

use tokio::sync::mpsc;

/// Longest line forwarded, in chars (a progress bar redrawn with `\r` can be one huge line).
pub const MAX_LINE_CHARS: usize = 400;

/// A sender of output lines for one call, or nothing (the default: nobody is watching).
#[derive(Clone, Debug, Default)]
pub struct Progress {
    tx: Option<mpsc::Sender<(String, String)>>,
    call_id: Arc<str>,
}

impl Progress {
    /// A sender and the receiver of `(call id, line)` pairs; at most `capacity` lines wait, later ones are
    /// dropped until the receiver catches up.
    pub fn channel(capacity: usize) -> (Progress, mpsc::Receiver<(String, String)>) {
        let (tx, rx) = mpsc::channel(capacity.max(1));
        (
            Progress {
                tx: Some(tx),
                call_id: Arc::from(""),
            },
            rx,
        )
    }

    /// The same channel, labelled with `call_id`.
    pub fn for_call(&self, call_id: &str) -> Progress {
        Progress {
            tx: self.tx.clone(),
            call_id: Arc::from(call_id),
        }
    }

    /// The id of the call this sender is labelled with (empty before [`Progress::for_call`]).
    pub fn call_id(&self) -> &str {
        &self.call_id
    }

    /// Whether anyone receives the lines.
    pub fn is_on(&self) -> bool {
        self.tx.is_some()
    }

    /// Reports one output line (cut to [`MAX_LINE_CHARS`]); never waits.
    pub fn line(&self, text: &str) {
        let Some(tx) = &self.tx else { return };
        let line: String = text.chars().take(MAX_LINE_CHARS).collect();
        let _ = tx.try_send((self.call_id.to_string(), line));
    }
}

/// Cuts a byte stream into lines (`\n` or `\r` ends one), keeping at most a bounded partial line.
#[derive(Debug, Default)]
pub struct LineSplitter {
    partial: Vec<u8>,
}

impl LineSplitter {
    /// Feeds `chunk`; calls `on_line` with every line it completed that is not blank.
    pub fn push(&mut self, chunk: &[u8], mut on_line: impl FnMut(&str)) {
        for &b in chunk {
            if b == b'\n' || b == b'\r' {
                let line = String::from_utf8_lossy(&self.partial);
                if !line.trim().is_empty() {
                    on_line(line.trim_end());
                }
                self.partial.clear();
            } else if self.partial.len() < MAX_LINE_CHARS * 4 {
                self.partial.push(b);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_split_at_newlines_and_carriage_returns_and_stay_bounded() {
        let mut s = LineSplitter::default();
        let mut got = Vec::new();
        s.push(b"one\ntw", |l| got.push(l.to_string()));
        s.push(b"o\r\n\nthree", |l| got.push(l.to_string()));
        assert_eq!(got, vec!["one", "two"]);
        let long = vec![b'x'; 10_000];
        s.push(&long, |_| {});
        s.push(b"\n", |l| got.push(l.to_string()));
        assert_eq!(got[2].len(), MAX_LINE_CHARS * 4);
    }

    #[tokio::test]
    async fn a_full_channel_drops_lines_instead_of_waiting() {
        let (p, mut rx) = Progress::channel(2);
        let call = p.for_call("c1");
        for i in 0..5 {
            call.line(&format!("line {i}"));
        }
        assert_eq!(rx.recv().await, Some(("c1".into(), "line 0".into())));
        assert_eq!(rx.recv().await, Some(("c1".into(), "line 1".into())));
        assert!(rx.try_recv().is_err());
        assert!(!Progress::default().is_on());
    }
}
