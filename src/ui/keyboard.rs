//! The one keyboard owner while a task runs. [`Keyboard::start_task`] enters raw mode and starts the only
//! thread that reads the terminal; every key goes one place: to the approval prompt while one is listening
//! ([`Keyboard::listen`]), else ESC / Ctrl-C cancel the task and typed text is kept as type-ahead. Stopping the
//! task's reader joins the thread (it polls, so it is never left blocked on the terminal) before the line
//! editor reads again, and a prompt still listening sees its keys end. The terminal is restored when the reader
//! stops, is dropped, or the process panics.

mod type_ahead;

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex, MutexGuard, Once};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use tokio_util::sync::CancellationToken;

pub use type_ahead::TypeAhead;

use crate::ui::commands::runs_while_running;

/// How long one poll for a key waits before checking whether to stop; bounds how long stopping takes.
const POLL: Duration = Duration::from_millis(40);

/// One thing read from the terminal, as a prompt receives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    Key(KeyEvent),
    /// Bracketed paste: one event, so a pasted ESC or `y` is not taken for a key press.
    Paste(String),
}

/// Whether a key is ESC or Ctrl-C.
pub fn is_cancel_key(key: &KeyEvent) -> bool {
    key.code == KeyCode::Esc
        || (key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL))
}

/// Where keys go; one per session, shared by each task's reader and the approval prompt.
#[derive(Clone, Default)]
pub struct Keyboard {
    shared: Arc<Shared>,
}

/// How long after a pager returns the terminal a Ctrl-C still counts as the pager's (signal delivery to the
/// watcher is asynchronous; a person does not press Ctrl-C again within this time to mean the task).
const LEND_AFTERGLOW: Duration = Duration::from_millis(500);

#[derive(Default)]
struct Shared {
    state: Mutex<State>,
    type_ahead: TypeAhead,
    /// A prompt lent the terminal to another program (a pager): the reader leaves it alone.
    paused: AtomicBool,
    /// The reader saw `paused` and reads nothing until it is cleared.
    parked: AtomicBool,
    /// When the terminal came back from the last lend: a Ctrl-C pressed in the pager reaches paicli's signal
    /// watcher asynchronously, possibly after the pager has exited and the lend has ended.
    lend_ended: Mutex<Option<Instant>>,
}

#[derive(Default)]
struct State {
    /// A task's reader thread runs.
    reading: bool,
    /// The running task's token: ESC / Ctrl-C cancel it.
    cancel: Option<CancellationToken>,
    /// The prompt that takes keys now.
    listener: Option<Sender<Input>>,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sends one terminal event where it belongs.
    fn dispatch(&self, event: Event) {
        let input = match event {
            Event::Key(key) if key.kind != KeyEventKind::Release => Input::Key(key),
            Event::Paste(text) => Input::Paste(text),
            _ => return,
        };
        let mut state = self.lock();
        if let Some(listener) = &state.listener {
            if listener.send(input).is_ok() {
                return;
            }
            // The prompt is gone; the key is the task's again.
            state.listener = None;
            return;
        }
        match input {
            Input::Key(key) if is_cancel_key(&key) => Self::cancel(&state, &self.type_ahead),
            Input::Key(key) => {
                // The one command that runs while a task does (`while_running` in the table): `/cancel`.
                if let Some(command) = self.type_ahead.key(&key, runs_while_running) {
                    tracing::info!("{command} typed while the task runs");
                    Self::cancel(&state, &self.type_ahead);
                }
            }
            Input::Paste(text) => self.type_ahead.paste(&text),
        }
    }

    /// Cancels the task; what was queued behind it goes back into the line instead of being sent.
    fn cancel(state: &State, type_ahead: &TypeAhead) {
        type_ahead.unqueue();
        if let Some(cancel) = &state.cancel {
            tracing::info!("task cancelled from the keyboard");
            cancel.cancel();
        }
    }
}

impl Keyboard {
    /// What was typed while tasks ran.
    pub fn type_ahead(&self) -> &TypeAhead {
        &self.shared.type_ahead
    }

    /// Starts owning the keyboard for one task; ESC / Ctrl-C cancel `cancel`. Without a terminal on stdin nothing
    /// is read (Ctrl-C then arrives as a signal, which the caller handles).
    pub fn start_task(&self, cancel: CancellationToken) -> KeyboardTask {
        let stop = Arc::new(AtomicBool::new(false));
        let mut task = KeyboardTask {
            stop: Arc::clone(&stop),
            thread: None,
            raw: false,
            keyboard: self.clone(),
        };
        self.shared.lock().cancel = Some(cancel);
        if !std::io::stdin().is_terminal() {
            return task;
        }
        install_panic_restore();
        task.raw = crossterm::terminal::enable_raw_mode().is_ok();
        // Pastes then arrive as one event instead of keys (a pasted ESC byte must not cancel).
        let _ = crossterm::execute!(std::io::stdout(), crossterm::event::EnableBracketedPaste);
        let shared = Arc::clone(&self.shared);
        // Set before the thread starts, so a reader that ends at once (a terminal error) leaves it false.
        self.shared.lock().reading = true;
        task.thread = std::thread::Builder::new()
            .name("keyboard".to_string())
            .spawn(move || read_keys(&stop, &shared))
            .ok();
        if task.thread.is_none() {
            self.shared.lock().reading = false;
        }
        task
    }

    /// Takes the keys until the returned listener drops; `None` when no reader runs (no terminal, or no task).
    pub fn listen(&self) -> Option<Listener> {
        let mut state = self.shared.lock();
        if !state.reading {
            return None;
        }
        let (tx, rx) = mpsc::channel();
        state.listener = Some(tx);
        Some(Listener {
            keys: rx,
            shared: Arc::clone(&self.shared),
        })
    }

    /// Whether a prompt lent the terminal to another program (a pager) now, or got it back so recently that a
    /// Ctrl-C seen now was meant for that program.
    pub fn terminal_lent(&self) -> bool {
        if self.shared.paused.load(Ordering::SeqCst) {
            return true;
        }
        let ended = *self
            .shared
            .lend_ended
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        ended.is_some_and(|at| at.elapsed() < LEND_AFTERGLOW)
    }

    /// Whether a prompt has the keys now (the working line can say "waiting for approval").
    pub fn is_prompting(&self) -> bool {
        self.shared.lock().listener.is_some()
    }

    /// Cancels the running task (ESC or Ctrl-C at the approval prompt); queued lines go back into the line.
    pub fn cancel_task(&self) {
        Shared::cancel(&self.shared.lock(), &self.shared.type_ahead);
    }
}

/// The keys lent to a prompt; dropping it gives them back to the task.
pub struct Listener {
    keys: Receiver<Input>,
    shared: Arc<Shared>,
}

impl Listener {
    /// The next input; `None` once the task's reader has stopped.
    pub fn next(&self) -> Option<Input> {
        self.keys.recv().ok()
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        self.shared.lock().listener = None;
    }
}

impl Listener {
    /// Lends the terminal to another program (a pager) until the returned guard drops: the task's reader stops
    /// reading and raw mode is off meanwhile.
    pub fn lend_terminal(&self) -> Lent {
        self.shared.parked.store(false, Ordering::SeqCst);
        self.shared.paused.store(true, Ordering::SeqCst);
        // The reader parks within one poll; one that stopped meanwhile reads nothing either.
        let deadline = std::time::Instant::now() + POLL * 25;
        while !self.shared.parked.load(Ordering::SeqCst)
            && self.shared.lock().reading
            && std::time::Instant::now() < deadline
        {
            std::thread::sleep(Duration::from_millis(5));
        }
        restore_terminal();
        Lent {
            shared: Arc::clone(&self.shared),
        }
    }
}

/// The terminal lent by [`Listener::lend_terminal`]; dropping it takes it back (raw mode, bracketed paste).
pub struct Lent {
    shared: Arc<Shared>,
}

impl Drop for Lent {
    fn drop(&mut self) {
        let _ = crossterm::terminal::enable_raw_mode();
        let _ = crossterm::execute!(std::io::stdout(), crossterm::event::EnableBracketedPaste);
        *self
            .shared
            .lend_ended
            .lock()
            .unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
        self.shared.paused.store(false, Ordering::SeqCst);
    }
}

/// The keyboard owned for one task; [`KeyboardTask::stop`] (or drop) ends the reader and restores the terminal.
pub struct KeyboardTask {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
    raw: bool,
    keyboard: Keyboard,
}

impl KeyboardTask {
    /// Stops reading and restores the terminal; returns once no thread reads the terminal any more.
    pub fn stop(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
        {
            let mut state = self.keyboard.shared.lock();
            state.reading = false;
            state.cancel = None;
            // A prompt still waiting sees its keys end instead of waiting for a reader that is gone.
            state.listener = None;
        }
        if self.raw {
            restore_terminal();
            self.raw = false;
        }
    }
}

impl Drop for KeyboardTask {
    fn drop(&mut self) {
        self.shutdown();
    }
}

fn read_keys(stop: &AtomicBool, shared: &Shared) {
    while !stop.load(Ordering::SeqCst) {
        if shared.paused.load(Ordering::SeqCst) {
            shared.parked.store(true, Ordering::SeqCst);
            std::thread::sleep(POLL);
            continue;
        }
        match event::poll(POLL) {
            Ok(true) => match event::read() {
                Ok(ev) => shared.dispatch(ev),
                Err(_) => break,
            },
            Ok(false) => {}
            Err(_) => break,
        }
    }
    // crossterm reads ahead into its own buffer: what it holds now was typed during the task, and would
    // otherwise surface only when the next task starts reading. It is type-ahead.
    while let Ok(true) = event::poll(Duration::ZERO) {
        match event::read() {
            Ok(ev) => shared.dispatch(ev),
            Err(_) => break,
        }
    }
    let mut state = shared.lock();
    state.reading = false;
    state.listener = None;
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
mod tests;
