//! Ctrl+O: the last tool result, reason or diagnostics block, kept (bounded) by the sink and shown in full on
//! request, through a pager when it is taller than the screen.

use std::io::{self, Write};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex, PoisonError};

use super::Style;
use super::wrap::wrap_plain;

/// A block the person can expand: a heading (the tool line) and the full text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expandable {
    pub title: String,
    pub text: String,
}

/// The most recent expandable block, shared by the turn's sink (which sets it) and the prompt (which shows it).
#[derive(Clone, Debug, Default)]
pub struct LastExpandable(Arc<Mutex<Option<Expandable>>>);

impl LastExpandable {
    /// Replaces the block.
    pub fn set(&self, item: Expandable) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = Some(item);
    }

    /// A copy of the block, if there is one.
    pub fn get(&self) -> Option<Expandable> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

/// The lines of `item` wrapped at `width`: its title, then the text.
pub fn expanded_lines(item: &Expandable, width: usize, style: Style) -> Vec<String> {
    let mut lines = vec![style.bold(&item.title)];
    for line in item.text.lines() {
        lines.extend(wrap_plain(line, width, 0));
    }
    lines
}

/// Shows `item` in full on the terminal: printed when it fits in `height` rows, else piped to `$PAGER`
/// (`less -R` by default); printed anyway when the pager cannot start. Lines end with `newline`.
pub fn show_expanded(
    item: &Expandable,
    width: usize,
    height: usize,
    style: Style,
    newline: &str,
    out: &mut dyn Write,
) -> io::Result<()> {
    let lines = expanded_lines(item, width, style);
    if lines.len() + 2 > height && page(&lines).is_ok() {
        return Ok(());
    }
    let mut text = lines.join(newline);
    text.push_str(newline);
    out.write_all(text.as_bytes())?;
    out.flush()
}

/// Pipes `lines` to `$PAGER` (`less -R` by default) and waits for it.
pub fn page(lines: &[String]) -> io::Result<()> {
    let chosen = std::env::var("PAGER").ok().filter(|p| !p.trim().is_empty());
    let mut command = Command::new("sh");
    command.arg("-c").stdin(Stdio::piped());
    match chosen {
        Some(pager) => command.arg(pager),
        // What is paged is UTF-8 whatever the locale says (less shows `<E6><96>` for CJK in a C locale).
        None if std::env::var_os("LESSCHARSET").is_none() => {
            command.arg("less -R").env("LESSCHARSET", "utf-8")
        }
        None => command.arg("less -R"),
    };
    let mut child = command.spawn()?;
    if let Some(mut stdin) = child.stdin.take() {
        // The person may quit the pager before reading everything: a broken pipe is fine.
        let _ = stdin.write_all(lines.join("\n").as_bytes());
        let _ = stdin.write_all(b"\n");
    }
    let status = child.wait()?;
    if status.success() {
        Ok(())
    } else {
        Err(io::Error::other(format!("pager exited with {status}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_block_is_printed_whole_with_its_title() {
        let item = Expandable {
            title: "● execute_command seq 1 3".into(),
            text: "1\n2\n3".into(),
        };
        let mut out = Vec::new();
        show_expanded(&item, 40, 24, Style::new(false), "\r\n", &mut out).unwrap_or(());
        assert_eq!(
            String::from_utf8_lossy(&out),
            "● execute_command seq 1 3\r\n1\r\n2\r\n3\r\n"
        );
    }

    #[test]
    fn the_last_block_wins() {
        let last = LastExpandable::default();
        assert_eq!(last.get(), None);
        for t in ["a", "b"] {
            last.set(Expandable {
                title: t.into(),
                text: String::new(),
            });
        }
        assert_eq!(last.get().map(|e| e.title), Some("b".to_string()));
    }
}
