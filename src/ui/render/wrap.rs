//! Word wrapping by display width: words break at spaces, CJK (double-width) text between any two characters,
//! and a word wider than a line between characters. ANSI colour codes take no columns.

use unicode_width::UnicodeWidthChar;

/// Display columns of `text`, not counting ANSI escape sequences.
pub fn visible_width(text: &str) -> usize {
    let mut width = 0;
    let mut chars = text.chars();
    while let Some(ch) = chars.next() {
        if ch == '\x1b' {
            // CSI: ESC [ parameters, then one final byte in @..~.
            if chars.next() == Some('[') {
                for c in chars.by_ref() {
                    if ('@'..='~').contains(&c) {
                        break;
                    }
                }
            }
            continue;
        }
        width += ch.width().unwrap_or(0);
    }
    width
}

/// One unit the wrapper places: a run of spaces, a word, or one wide character (breakable on either side).
#[derive(Debug, PartialEq, Eq)]
pub enum Token<'a> {
    Space,
    Word(&'a str),
}

/// Splits plain `text` into spaces and breakable units.
pub fn tokens(text: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    for (i, ch) in text.char_indices() {
        let wide = ch.width().unwrap_or(0) > 1;
        if ch == ' ' || ch == '\t' || wide {
            if let Some(s) = start.take() {
                out.push(Token::Word(&text[s..i]));
            }
            if wide {
                out.push(Token::Word(&text[i..i + ch.len_utf8()]));
            } else if out.last() != Some(&Token::Space) {
                out.push(Token::Space);
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push(Token::Word(&text[s..]));
    }
    out
}

/// Wraps plain `text` to `width` columns; lines after the first start with `indent` spaces.
pub fn wrap_plain(text: &str, width: usize, indent: usize) -> Vec<String> {
    let width = width.max(indent + 8);
    let mut lines = Vec::new();
    let mut line = String::new();
    let mut col = 0;
    let mut space = false;
    for token in tokens(text) {
        let word = match token {
            Token::Space => {
                space = col > 0;
                continue;
            }
            Token::Word(w) => w,
        };
        let w = visible_width(word);
        let gap = usize::from(space);
        let at_start = line.trim().is_empty();
        if col + gap + w > width && !at_start {
            lines.push(std::mem::take(&mut line));
            line = " ".repeat(indent);
            col = indent;
        } else if gap == 1 {
            line.push(' ');
            col += 1;
        }
        space = false;
        for ch in word.chars() {
            let cw = ch.width().unwrap_or(0);
            if col + cw > width && col > indent {
                lines.push(std::mem::take(&mut line));
                line = " ".repeat(indent);
                col = indent;
            }
            line.push(ch);
            col += cw;
        }
    }
    if !line.trim().is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// Cuts `text` to at most `columns` columns at a word boundary (or between wide characters), ending with `…`.
/// Leading spaces are kept.
pub fn fold_words(text: &str, columns: usize) -> String {
    if visible_width(text) <= columns {
        return text.to_string();
    }
    let body = text.trim_start_matches(' ');
    let indent = &text[..text.len() - body.len()];
    let room = columns.saturating_sub(indent.len() + 1).max(8);
    let lines = wrap_plain(body, room, 0);
    let first = lines.first().map_or("", String::as_str).trim_end();
    format!("{indent}{first}…")
}

/// Word-wraps text that arrives in pieces (reasoning): a word is written once the space after it arrives, so a
/// line is broken before the word that would not fit.
#[derive(Debug, Default)]
pub struct StreamWrap {
    col: usize,
    word: String,
    space: bool,
}

impl StreamWrap {
    /// What to write for `piece` at `width` columns; `\n` ends a line.
    pub fn push(&mut self, piece: &str, width: usize) -> String {
        let mut out = String::new();
        for ch in piece.chars() {
            match ch {
                '\n' => {
                    self.flush_word(&mut out, width);
                    out.push('\n');
                    self.col = 0;
                    self.space = false;
                }
                ' ' | '\t' => {
                    self.flush_word(&mut out, width);
                    self.space = self.col > 0;
                }
                '\r' => {}
                c if c.width().unwrap_or(0) > 1 => {
                    self.word.push(c);
                    self.flush_word(&mut out, width);
                }
                c => self.word.push(c),
            }
        }
        out
    }

    /// Writes the word held back (the text ended).
    pub fn finish(&mut self, width: usize) -> String {
        let mut out = String::new();
        self.flush_word(&mut out, width);
        self.space = false;
        out
    }

    /// The cursor's column after what was written.
    pub fn column(&self) -> usize {
        self.col
    }

    fn flush_word(&mut self, out: &mut String, width: usize) {
        if self.word.is_empty() {
            return;
        }
        let width = width.max(10);
        let gap = usize::from(self.space);
        if self.col > 0 && self.col + gap + visible_width(&self.word) > width {
            out.push('\n');
            self.col = 0;
        } else if gap == 1 {
            out.push(' ');
            self.col += 1;
        }
        self.space = false;
        for ch in std::mem::take(&mut self.word).chars() {
            let cw = ch.width().unwrap_or(0);
            if self.col > 0 && self.col + cw > width {
                out.push('\n');
                self.col = 0;
            }
            out.push(ch);
            self.col += cw;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_take_no_columns_and_cjk_takes_two() {
        assert_eq!(visible_width("\x1b[1mab\x1b[0m"), 2);
        assert_eq!(visible_width("中文"), 4);
    }

    #[test]
    fn words_wrap_at_spaces_with_an_indent() {
        assert_eq!(
            wrap_plain("one two three four five", 10, 2),
            vec!["one two", "  three", "  four", "  five"]
        );
    }

    #[test]
    fn cjk_breaks_between_characters_and_long_words_break_inside() {
        assert_eq!(wrap_plain("中文中文中文", 8, 0), vec!["中文中文", "中文"]);
        assert_eq!(wrap_plain("abcdefghijkl", 8, 0), vec!["abcdefgh", "ijkl"]);
    }

    #[test]
    fn streamed_words_wrap_before_the_word_that_does_not_fit() {
        let mut w = StreamWrap::default();
        let mut out = w.push("one two thr", 12);
        assert_eq!(out, "one two");
        out.push_str(&w.push("ee four\nfive", 12));
        out.push_str(&w.finish(12));
        assert_eq!(out, "one two\nthree four\nfive");
        assert_eq!(w.column(), 4);
    }

    #[test]
    fn folding_never_cuts_a_word() {
        assert_eq!(
            fold_words("the command guard refused this line", 20),
            "the command guard…"
        );
        assert_eq!(fold_words("short", 20), "short");
        assert_eq!(fold_words("    indented words here", 16), "    indented…");
    }
}
