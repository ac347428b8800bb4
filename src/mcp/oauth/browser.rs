//! Opening an authorization URL with the person's browser command (`PAICLI_BROWSER` or `BROWSER`).

use std::process::{Command, Stdio};

/// Runs `command` (words split on spaces) with the URL as its last argument, without waiting for it.
pub fn open_browser(command: &str, url: &str) {
    let mut words = command.split_whitespace();
    let Some(program) = words.next() else { return };
    let spawned = Command::new(program)
        .args(words)
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    match spawned {
        // Reaped on a thread so no zombie is left behind.
        Ok(mut child) => {
            std::thread::spawn(move || child.wait());
        }
        Err(e) => tracing::warn!("cannot start the browser `{program}`: {e}"),
    }
}
