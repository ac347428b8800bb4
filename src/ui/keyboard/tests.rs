#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;

fn key(code: KeyCode) -> Event {
    Event::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

/// A keyboard whose "reader" is the test: `dispatch` stands in for the thread.
fn reading(keyboard: &Keyboard, cancel: &CancellationToken) {
    let mut state = keyboard.shared.lock();
    state.reading = true;
    state.cancel = Some(cancel.clone());
}

#[test]
fn esc_and_ctrl_c_cancel_the_task_and_other_keys_are_type_ahead() {
    let keyboard = Keyboard::default();
    let cancel = CancellationToken::new();
    reading(&keyboard, &cancel);
    for code in [
        KeyCode::Up,
        KeyCode::BackTab,
        KeyCode::Char('h'),
        KeyCode::Char('i'),
    ] {
        keyboard.shared.dispatch(key(code));
    }
    keyboard
        .shared
        .dispatch(Event::Paste("\u{1b}x".to_string()));
    assert!(!cancel.is_cancelled());
    assert_eq!(keyboard.type_ahead().line(), "hix");
    keyboard.shared.dispatch(Event::Key(KeyEvent::new(
        KeyCode::Char('c'),
        KeyModifiers::CONTROL,
    )));
    assert!(cancel.is_cancelled());
    let esc = CancellationToken::new();
    reading(&keyboard, &esc);
    keyboard.shared.dispatch(key(KeyCode::Esc));
    assert!(esc.is_cancelled());
}

#[test]
fn a_listening_prompt_takes_every_key_and_gives_them_back_when_dropped() {
    let keyboard = Keyboard::default();
    let cancel = CancellationToken::new();
    reading(&keyboard, &cancel);
    let listener = keyboard.listen().unwrap();
    keyboard.shared.dispatch(key(KeyCode::Esc));
    keyboard.shared.dispatch(key(KeyCode::Char('y')));
    assert!(!cancel.is_cancelled(), "ESC went to the prompt");
    assert_eq!(
        listener.next(),
        Some(Input::Key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE)))
    );
    assert_eq!(
        listener.next(),
        Some(Input::Key(KeyEvent::new(
            KeyCode::Char('y'),
            KeyModifiers::NONE
        )))
    );
    assert_eq!(keyboard.type_ahead().line(), "");
    drop(listener);
    keyboard.shared.dispatch(key(KeyCode::Char('z')));
    assert_eq!(keyboard.type_ahead().line(), "z");
}

#[test]
fn stopping_the_task_ends_a_waiting_prompt_and_no_listener_without_a_reader() {
    let keyboard = Keyboard::default();
    assert!(
        keyboard.listen().is_none(),
        "nobody reads keys between tasks"
    );
    // stdin is not a terminal under `cargo test`: no thread starts, and listening is refused.
    let task = keyboard.start_task(CancellationToken::new());
    assert!(keyboard.listen().is_none());
    let cancel = CancellationToken::new();
    reading(&keyboard, &cancel);
    let listener = keyboard.listen().unwrap();
    task.stop();
    assert_eq!(listener.next(), None, "the prompt is not left waiting");
    assert!(keyboard.listen().is_none());
}
