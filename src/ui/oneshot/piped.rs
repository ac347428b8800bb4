//! `cat file | paicli -p "task"`: the piped text goes after the task as context, size-capped; binary is refused.

use std::io::{IsTerminal, Read};

/// Most characters of piped text attached; more is cut with a note.
pub const MAX_PIPED_CHARS: usize = 200_000;

/// What became of the piped bytes.
#[derive(Debug, PartialEq, Eq)]
pub enum Piped {
    /// Nothing was piped (a terminal, `/dev/null`, or an empty pipe).
    Nothing,
    /// Text to attach; `cut_from` is the full length in characters when it was cut.
    Text {
        text: String,
        cut_from: Option<usize>,
    },
    /// The bytes are not text; nothing is attached.
    Binary { bytes: usize },
}

/// Reads stdin when it is a pipe or a redirected file. A terminal, a character device (`/dev/null`) or a socket
/// is left alone, so a `-p` run started by a parent that keeps stdin open never waits for input that won't come.
pub fn read_stdin() -> std::io::Result<Piped> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() || !is_pipe_or_file(&stdin) {
        return Ok(Piped::Nothing);
    }
    let mut bytes = Vec::new();
    stdin.lock().read_to_end(&mut bytes)?;
    Ok(classify(&bytes))
}

#[cfg(unix)]
fn is_pipe_or_file(stdin: &std::io::Stdin) -> bool {
    use std::os::fd::AsFd;
    use std::os::unix::fs::FileTypeExt;
    let Ok(fd) = stdin.as_fd().try_clone_to_owned() else {
        return false;
    };
    std::fs::File::from(fd)
        .metadata()
        .map(|m| m.file_type().is_fifo() || m.file_type().is_file())
        .unwrap_or(false)
}

#[cfg(not(unix))]
fn is_pipe_or_file(_stdin: &std::io::Stdin) -> bool {
    true
}

/// Text, binary or nothing: a NUL byte or invalid UTF-8 means binary.
pub fn classify(bytes: &[u8]) -> Piped {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Piped::Nothing;
    }
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Piped::Binary { bytes: bytes.len() };
    };
    if text.contains('\0') {
        return Piped::Binary { bytes: bytes.len() };
    }
    let total = text.chars().count();
    if total <= MAX_PIPED_CHARS {
        return Piped::Text {
            text: text.to_string(),
            cut_from: None,
        };
    }
    Piped::Text {
        text: text.chars().take(MAX_PIPED_CHARS).collect(),
        cut_from: Some(total),
    }
}

/// The piped text in a `<stdin>` block the model can tell from the task (the session adds it after the task);
/// `None` when nothing is attached.
pub fn stdin_block(piped: &Piped) -> Option<String> {
    let Piped::Text { text, cut_from } = piped else {
        return None;
    };
    let mut block = format!("<stdin>\n{}\n", text.trim_end_matches('\n'));
    if let Some(total) = cut_from {
        block.push_str(&format!(
            "[stdin cut at {MAX_PIPED_CHARS} of {total} characters]\n"
        ));
    }
    block.push_str("</stdin>");
    Some(block)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn text_goes_in_a_stdin_block() {
        let piped = classify(b"def f():\n    return 1\n");
        assert_eq!(
            stdin_block(&piped).unwrap(),
            "<stdin>\ndef f():\n    return 1\n</stdin>"
        );
    }

    #[test]
    fn long_text_is_cut_with_a_note_and_binary_is_refused() {
        let long = "x".repeat(MAX_PIPED_CHARS + 5);
        let piped = classify(long.as_bytes());
        assert!(
            matches!(&piped, Piped::Text { cut_from: Some(n), text } if *n == MAX_PIPED_CHARS + 5 && text.len() == MAX_PIPED_CHARS)
        );
        assert!(stdin_block(&piped).unwrap().ends_with(&format!(
            "[stdin cut at {MAX_PIPED_CHARS} of {} characters]\n</stdin>",
            MAX_PIPED_CHARS + 5
        )));
        assert_eq!(
            classify(b"\x89PNG\r\n\x1a\n\0\0"),
            Piped::Binary { bytes: 10 }
        );
        assert_eq!(stdin_block(&Piped::Binary { bytes: 10 }), None);
        assert_eq!(classify(b" \n"), Piped::Nothing);
    }
}
