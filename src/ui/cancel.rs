//! ESC to cancel: while a task runs the terminal is in raw mode and a watcher thread reads keys. A lone ESC or
//! Ctrl-C cancels the task's token; escape sequences (arrows, Shift+Tab `ESC[Z`, bracketed paste) arrive as other
//! key events and are ignored. The terminal is restored when the watcher stops, is dropped, or the process panics.

use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use tokio_util::sync::CancellationToken;

/// How long one poll for a key waits before checking whether to stop; bounds the ESC latency's extra share.
const POLL: Duration = Duration::from_millis(40);

/// Why a key press cancels, if it does.
fn cancels(event: &Event) -> bool {
    match event {
        Event::Key(KeyEvent {
            code,
            modifiers,
            kind,
            ..
        }) => {
            *kind != KeyEventKind::Release
                && (*code == KeyCode::Esc
                    || (*code == KeyCode::Char('c') && modifiers.contains(KeyModifiers::CONTROL)))
        }
        _ => false,
    }
}

/// Watches the terminal for ESC / Ctrl-C while a task runs.
pub struct EscWatcher {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
    raw: bool,
}

impl EscWatcher {
    /// Enters raw mode and starts watching; `cancel` is cancelled on a lone ESC or Ctrl-C. Without a terminal on
    /// stdin nothing is watched (Ctrl-C then arrives as a signal, which the caller handles).
    pub fn start(cancel: CancellationToken) -> EscWatcher {
        let stop = Arc::new(AtomicBool::new(false));
        if !std::io::stdin().is_terminal() {
            return EscWatcher {
                stop,
                thread: None,
                raw: false,
            };
        }
        install_panic_restore();
        let raw = crossterm::terminal::enable_raw_mode().is_ok();
        // Pastes then arrive as one event instead of keys (a pasted ESC byte must not cancel).
        let _ = crossterm::execute!(std::io::stdout(), crossterm::event::EnableBracketedPaste);
        let flag = Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .name("esc-watcher".to_string())
            .spawn(move || watch(&flag, &cancel))
            .ok();
        EscWatcher { stop, thread, raw }
    }

    /// Stops watching and restores the terminal.
    pub fn stop(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
        if self.raw {
            restore_terminal();
            self.raw = false;
        }
    }
}

impl Drop for EscWatcher {
    fn drop(&mut self) {
        self.shutdown();
    }
}

fn watch(stop: &AtomicBool, cancel: &CancellationToken) {
    while !stop.load(Ordering::SeqCst) {
        match event::poll(POLL) {
            Ok(true) => match event::read() {
                Ok(ev) if cancels(&ev) => {
                    tracing::info!("task cancelled from the keyboard");
                    cancel.cancel();
                }
                Ok(_) => {}
                Err(_) => return,
            },
            Ok(false) => {}
            Err(_) => return,
        }
    }
}

/// Leaves raw mode and bracketed paste (safe to call when neither is on).
pub fn restore_terminal() {
    let _ = crossterm::execute!(std::io::stdout(), crossterm::event::DisableBracketedPaste);
    let _ = crossterm::terminal::disable_raw_mode();
}

/// A panic while raw mode is on must not leave the user's terminal unusable.
fn install_panic_restore() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore_terminal();
            previous(info);
        }));
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode, modifiers: KeyModifiers) -> Event {
        Event::Key(KeyEvent::new(code, modifiers))
    }

    #[test]
    fn lone_esc_and_ctrl_c_cancel() {
        assert!(cancels(&key(KeyCode::Esc, KeyModifiers::NONE)));
        assert!(cancels(&key(KeyCode::Char('c'), KeyModifiers::CONTROL)));
    }

    #[test]
    fn sequences_and_plain_keys_do_not_cancel() {
        for code in [
            KeyCode::Up,
            KeyCode::Down,
            KeyCode::Left,
            KeyCode::BackTab,
            KeyCode::Char('c'),
        ] {
            assert!(!cancels(&key(code, KeyModifiers::NONE)), "{code:?}");
        }
        assert!(!cancels(&Event::Paste("\u{1b}x".to_string())));
    }
}
