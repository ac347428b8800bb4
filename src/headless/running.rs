//! The turn running now, so that an `interrupt` control request (or a denial with `interrupt: true`) stops it
//! exactly as ESC does, and its result can tell an interrupt from a failure.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use tokio_util::sync::CancellationToken;

use super::channel::lock;

/// At most one turn runs at a time.
#[derive(Default)]
pub struct RunningTurn {
    token: Mutex<Option<CancellationToken>>,
    interrupted: AtomicBool,
}

impl RunningTurn {
    /// A turn starts: its cancel token, a child of `parent` (Ctrl-C).
    pub fn begin(&self, parent: &CancellationToken) -> CancellationToken {
        let token = parent.child_token();
        self.interrupted.store(false, Ordering::SeqCst);
        *lock(&self.token) = Some(token.clone());
        token
    }

    /// Stops the running turn; false when none runs.
    pub fn interrupt(&self) -> bool {
        match lock(&self.token).as_ref() {
            Some(token) => {
                self.interrupted.store(true, Ordering::SeqCst);
                token.cancel();
                true
            }
            None => false,
        }
    }

    /// The turn ended; returns whether it was interrupted.
    pub fn end(&self) -> bool {
        lock(&self.token).take();
        self.interrupted.swap(false, Ordering::SeqCst)
    }
}
