//! A fixed-window request counter (PaiCLI: 30 requests per 60 s).

use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;

/// Allows `limit` requests per `window`; the window starts at its first request.
#[derive(Debug)]
pub struct RateLimiter {
    limit: u32,
    window: Duration,
    state: Mutex<Option<(Instant, u32)>>,
}

impl RateLimiter {
    /// A limiter for `limit` requests per `window`; `limit` 0 means unlimited.
    pub fn new(limit: u32, window: Duration) -> Self {
        RateLimiter {
            limit,
            window,
            state: Mutex::new(None),
        }
    }

    /// Takes one request slot, or says how long until the window resets.
    pub fn acquire(&self) -> Result<(), Duration> {
        if self.limit == 0 {
            return Ok(());
        }
        let now = Instant::now();
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        match *state {
            Some((start, count)) if now.duration_since(start) < self.window => {
                if count >= self.limit {
                    return Err(self.window - now.duration_since(start));
                }
                *state = Some((start, count + 1));
            }
            _ => *state = Some((now, 1)),
        }
        Ok(())
    }
}
