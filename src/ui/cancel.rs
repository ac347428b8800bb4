//! ESC to cancel: while a task runs the terminal is in raw mode and a watcher thread reads keys. A lone ESC or
//! Ctrl-C cancels the task's token; escape sequences (arrows, Shift+Tab `ESC[Z`, bracketed paste) arrive as other
//! key events and are ignored. The terminal is restored when the watcher stops, is dropped, or the process panics.

use std::io::IsTerminal;
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
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

/// Lets code that must read a line from the terminal while a task runs (the approval prompt) borrow the keyboard
/// from the ESC watcher: [`KeyboardControl::pause`] parks the watcher and leaves raw mode until the guard drops.
/// One per session; each turn's watcher uses it.
#[derive(Default)]
pub struct KeyboardControl {
    state: Mutex<KeyboardState>,
    changed: Condvar,
}

#[derive(Default)]
struct KeyboardState {
    /// A watcher thread is running.
    watching: bool,
    /// The watcher is parked and not reading keys.
    parked: bool,
    /// Open pause guards.
    pauses: usize,
    /// Raw mode was on when the first pause began (and is turned back on when the last one ends).
    raw_before_pause: bool,
}

impl KeyboardControl {
    fn lock(&self) -> MutexGuard<'_, KeyboardState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Parks the watcher (if one runs) and restores the normal terminal until the guard drops.
    pub fn pause(&self) -> KeyboardPause<'_> {
        let mut state = self.lock();
        state.pauses += 1;
        self.changed.notify_all();
        while state.watching && !state.parked {
            state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
        if state.pauses == 1 {
            state.raw_before_pause = crossterm::terminal::is_raw_mode_enabled().unwrap_or(false);
            if state.raw_before_pause {
                let _ = crossterm::terminal::disable_raw_mode();
            }
        }
        KeyboardPause { control: self }
    }

    /// Called by the watcher between polls: blocks while a pause is open, reporting itself parked.
    fn wait_while_paused(&self, stop: &AtomicBool) {
        let mut state = self.lock();
        while state.pauses > 0 && !stop.load(Ordering::SeqCst) {
            state.parked = true;
            self.changed.notify_all();
            state = self
                .changed
                .wait_timeout(state, POLL)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        state.parked = false;
    }

    fn set_watching(&self, watching: bool) {
        let mut state = self.lock();
        state.watching = watching;
        state.parked = false;
        self.changed.notify_all();
    }
}

/// The keyboard is lent out until this drops.
pub struct KeyboardPause<'a> {
    control: &'a KeyboardControl,
}

impl Drop for KeyboardPause<'_> {
    fn drop(&mut self) {
        let mut state = self.control.lock();
        state.pauses -= 1;
        if state.pauses == 0 && state.raw_before_pause {
            let _ = crossterm::terminal::enable_raw_mode();
            state.raw_before_pause = false;
        }
        self.control.changed.notify_all();
    }
}

/// Watches the terminal for ESC / Ctrl-C while a task runs.
pub struct EscWatcher {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
    raw: bool,
    keyboard: Arc<KeyboardControl>,
}

impl EscWatcher {
    /// Enters raw mode and starts watching; `cancel` is cancelled on a lone ESC or Ctrl-C. Without a terminal on
    /// stdin nothing is watched (Ctrl-C then arrives as a signal, which the caller handles).
    pub fn start(cancel: CancellationToken, keyboard: Arc<KeyboardControl>) -> EscWatcher {
        let stop = Arc::new(AtomicBool::new(false));
        if !std::io::stdin().is_terminal() {
            return EscWatcher {
                stop,
                thread: None,
                raw: false,
                keyboard,
            };
        }
        install_panic_restore();
        let raw = crossterm::terminal::enable_raw_mode().is_ok();
        // Pastes then arrive as one event instead of keys (a pasted ESC byte must not cancel).
        let _ = crossterm::execute!(std::io::stdout(), crossterm::event::EnableBracketedPaste);
        let flag = Arc::clone(&stop);
        let control = Arc::clone(&keyboard);
        keyboard.set_watching(true);
        let thread = std::thread::Builder::new()
            .name("esc-watcher".to_string())
            .spawn(move || watch(&flag, &cancel, &control))
            .ok();
        if thread.is_none() {
            keyboard.set_watching(false);
        }
        EscWatcher {
            stop,
            thread,
            raw,
            keyboard,
        }
    }

    /// Stops watching and restores the terminal.
    pub fn stop(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
            self.keyboard.set_watching(false);
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

fn watch(stop: &AtomicBool, cancel: &CancellationToken, keyboard: &KeyboardControl) {
    while !stop.load(Ordering::SeqCst) {
        keyboard.wait_while_paused(stop);
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
