//! Text from outside (a project's file, a model, a command, a server) made safe to print: control, bidi and
//! invisible characters become visible `<U+XXXX>` marks, so nothing can move the cursor, recolour or rewrite the
//! screen, set the title or the clipboard, or hide what it says. Below `app`, so every front-end and every notice
//! can use the same one. Text without such a character is handed back borrowed (streamed deltas pass through here).
//!
//! Three shapes of the one rule:
//! - [`visible`]: one line (a tool name, a command, a path). Newlines and tabs become marks too.
//! - [`visible_lines`]: text with lines (an answer, reasoning, command output). `\n` stays a line break, `\r\n`
//!   and a bare `\r` become one (a bare `\r` would let a later line overwrite an earlier one), a `\r` ending the
//!   text is dropped (its `\n` may come in the next delta), a tab becomes spaces to the next column of four.
//! - [`strip_sgr`]: drops pure colour sequences (`ESC [ digits ; : m`), which only colour text; a command's output
//!   goes through it before [`visible_lines`], so `ls --color` is not shown as noise while every other escape is.

use std::borrow::Cow;
use std::fmt::Write;

/// Columns between tab stops when a tab becomes spaces.
const TAB_STOP: usize = 4;

/// `text` with control, bidi and invisible characters replaced by `<U+XXXX>` (newlines and tabs included); one
/// line.
pub fn visible(text: &str) -> Cow<'_, str> {
    let Some(first) = text.find(is_hidden) else {
        return Cow::Borrowed(text);
    };
    let mut out = String::with_capacity(text.len() + 16);
    out.push_str(&text[..first]);
    for c in text[first..].chars() {
        push_visible(&mut out, c);
    }
    Cow::Owned(out)
}

/// `text` with its lines kept: `\n` stays, `\r\n` and a bare `\r` become `\n` (a `\r` at the very end is
/// dropped), a tab becomes spaces to the next stop of four columns (counted from the last line break in `text`),
/// and every other control, bidi or invisible character becomes `<U+XXXX>`.
pub fn visible_lines(text: &str) -> Cow<'_, str> {
    lines_shown(text, false)
}

/// [`visible_lines`] that lets pure SGR sequences through: for lines paicli has already coloured, which may quote
/// text from outside. Only colours pass; a clear, a cursor move, an OSC or a C1 control is shown.
pub fn visible_lines_but_sgr(text: &str) -> Cow<'_, str> {
    lines_shown(text, true)
}

fn lines_shown(text: &str, keep_sgr: bool) -> Cow<'_, str> {
    let Some(first) = text.find(|c| c != '\n' && is_hidden(c)) else {
        return Cow::Borrowed(text);
    };
    let mut out = String::with_capacity(text.len() + 16);
    out.push_str(&text[..first]);
    let mut column = text[..first]
        .rsplit('\n')
        .next()
        .map_or(0, |line| line.chars().count());
    let rest = &text[first..];
    // Whether anything but a kept colour was rewritten.
    let mut changed = false;
    let mut chars = rest.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        match c {
            '\n' => {
                out.push('\n');
                column = 0;
            }
            '\r' => {
                changed = true;
                if chars.peek().is_some_and(|&(_, next)| next == '\n') {
                    continue;
                }
                if chars.peek().is_some() {
                    out.push('\n');
                    column = 0;
                }
            }
            '\t' => {
                changed = true;
                let spaces = TAB_STOP - column % TAB_STOP;
                out.extend(std::iter::repeat_n(' ', spaces));
                column += spaces;
            }
            '\x1b' if keep_sgr && sgr_len(&rest[at..]).is_some() => {
                let len = sgr_len(&rest[at..]).unwrap_or(1);
                out.push_str(&rest[at..at + len]);
                while chars.peek().is_some_and(|&(next, _)| next < at + len) {
                    chars.next();
                }
            }
            c if is_hidden(c) => {
                changed = true;
                let before = out.len();
                push_visible(&mut out, c);
                column += out.len() - before;
            }
            c => {
                out.push(c);
                column += 1;
            }
        }
    }
    if !changed {
        // Only colours were found, and kept.
        return Cow::Borrowed(text);
    }
    Cow::Owned(out)
}

/// `text` without its pure SGR sequences (`ESC [` digits, `;` and `:` only, then `m`): colours a command printed.
/// Every other escape is left for [`visible_lines`] to show.
pub fn strip_sgr(text: &str) -> Cow<'_, str> {
    if !text.contains('\x1b') {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('\x1b') {
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        match sgr_len(after) {
            Some(len) => rest = &after[len..],
            None => {
                out.push('\x1b');
                rest = &after[1..];
            }
        }
    }
    out.push_str(rest);
    if out.len() == text.len() {
        return Cow::Borrowed(text);
    }
    Cow::Owned(out)
}

/// Bytes of the SGR sequence `text` starts with, if it starts with one.
fn sgr_len(text: &str) -> Option<usize> {
    let params = text.strip_prefix("\x1b[")?;
    let end = params.find(|c: char| !(c.is_ascii_digit() || c == ';' || c == ':'))?;
    params[end..].starts_with('m').then_some(2 + end + 1)
}

fn push_visible(out: &mut String, c: char) {
    if is_hidden(c) {
        let _ = write!(out, "<U+{:04X}>", u32::from(c));
    } else {
        out.push(c);
    }
}

/// A character that would act on the terminal or hide itself instead of showing: C0 and C1 controls (ESC, CSI
/// U+009B, OSC U+009D, BEL, CR, backspace, …), DEL, bidi overrides and isolates, zero-width and other invisible
/// characters.
pub fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061C}'
                | '\u{115F}'
                | '\u{1160}'
                | '\u{180E}'
                | '\u{200B}'..='\u{200F}'
                | '\u{2028}'..='\u{202E}'
                | '\u{2060}'..='\u{2069}'
                | '\u{3164}'
                | '\u{FEFF}'
                | '\u{FFF9}'..='\u{FFFB}'
                | '\u{E0000}'..='\u{E007F}'
        )
}

#[cfg(test)]
mod tests;
