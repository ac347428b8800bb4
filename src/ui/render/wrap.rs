//! The one word-wrapping core: display width (ANSI codes take no columns), the pieces a line may break between
//! (spaces, words, and wide CJK characters, with Chinese punctuation kept beside its character), and the
//! paragraph wrapper with a hanging indent. Command tables and the streaming Markdown build on these.

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
        width += char_width(ch);
    }
    width
}

fn char_width(c: char) -> usize {
    c.width().unwrap_or(0)
}

/// Spaces a line may break at; a newline is the caller's business (it ends a paragraph).
fn is_space(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// Punctuation a line may not start with (Chinese line-breaking rules), such as `，`, `。` and `）`.
fn is_closing(c: char) -> bool {
    "，。、；：？！）》」』】,.;:?!)".contains(c)
}

/// Punctuation a line may not end with, such as `（` and `「`.
fn is_opening(c: char) -> bool {
    "（《「『【(".contains(c)
}

/// Whether a line may break between two neighbouring non-space characters: around a wide (CJK) character,
/// unless that would start a line with closing punctuation or end one with opening punctuation.
pub(super) fn may_break_between(prev: char, next: char) -> bool {
    (char_width(prev) > 1 || char_width(next) > 1) && !is_closing(next) && !is_opening(prev)
}

/// Splits a paragraph into pieces a line may break between: runs of spaces (kept, so the caller decides
/// whether a break eats them), runs of narrow characters, and wide characters with their punctuation.
fn pieces(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut prev: Option<char> = None;
    for (i, c) in text.char_indices() {
        if let Some(p) = prev {
            let boundary = if is_space(p) || is_space(c) {
                is_space(p) != is_space(c)
            } else {
                may_break_between(p, c)
            };
            if boundary {
                out.push(&text[start..i]);
                start = i;
            }
        }
        prev = Some(c);
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

/// One unit the wrapper places: a run of spaces, or a word (a narrow run, or a wide character with its
/// punctuation).
#[derive(Debug, PartialEq, Eq)]
pub enum Token<'a> {
    Space,
    Word(&'a str),
}

/// Splits plain `text` into spaces and breakable units.
pub fn tokens(text: &str) -> Vec<Token<'_>> {
    pieces(text)
        .into_iter()
        .map(|piece| {
            if piece.starts_with(is_space) {
                Token::Space
            } else {
                Token::Word(piece)
            }
        })
        .collect()
}

/// Wraps `text` to lines of at most `max` cells, breaking at spaces (and around wide characters); a word longer
/// than a line is cut. Each input line is wrapped on its own; an empty input line stays an empty line.
pub fn wrap(text: &str, max: usize) -> Vec<String> {
    wrap_hanging(text, max, 0)
}

/// Lays out `items` joined by `sep` in lines of at most `max` cells, breaking only between items (an item wider
/// than a line wraps at its own words). For lines of units that read badly when split: the approval keys, the
/// status line's facts.
pub fn pack(items: &[String], sep: &str, max: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for item in items {
        if line.is_empty() {
            line.push_str(item);
        } else if visible_width(&line) + visible_width(sep) + visible_width(item) <= max {
            line.push_str(sep);
            line.push_str(item);
            continue;
        } else {
            lines.push(std::mem::take(&mut line).trim_end().to_string());
            line.push_str(item);
        }
        if visible_width(&line) > max {
            let mut parts = wrap(&line, max);
            line = parts.pop().unwrap_or_default();
            lines.extend(parts);
        }
    }
    lines.push(line);
    lines
}

/// Wraps `text` to `total` cells with every line after the first indented by `indent` spaces (list items, notes).
/// Spacing inside a line and a paragraph's own indentation are kept.
pub fn wrap_hanging(text: &str, total: usize, indent: usize) -> Vec<String> {
    text.split('\n')
        .flat_map(|paragraph| {
            hang(
                wrap_paragraph(paragraph, total, total.saturating_sub(indent)),
                indent,
            )
        })
        .collect()
}

/// A notice or warning as screen lines: `mark` (`!`, `⚠`), a space, then `text` wrapped at word boundaries (and
/// around CJK characters) within `width` cells, every further line and paragraph under the text's first column.
/// Colour is the caller's, added per line after wrapping so it never counts as width.
pub fn marked(mark: &str, text: &str, width: usize) -> Vec<String> {
    let indent = visible_width(mark) + 1;
    let room = width.saturating_sub(indent).max(10);
    let margin = " ".repeat(indent);
    let mut out: Vec<String> = text
        .split('\n')
        .flat_map(|paragraph| wrap_paragraph(paragraph, room, room))
        .map(|line| {
            if line.is_empty() {
                line
            } else {
                format!("{margin}{line}")
            }
        })
        .collect();
    if let Some(first) = out.first_mut() {
        *first = format!("{mark} {}", first.trim_start());
    }
    out
}

/// Wraps plain `text` to `width` columns (at least `indent + 8`) with runs of spaces squeezed to one and lines
/// after the first starting with `indent` spaces (tool lines).
pub fn wrap_plain(text: &str, width: usize, indent: usize) -> Vec<String> {
    let width = width.max(indent + 8);
    let words: Vec<&str> = text.split(is_space).filter(|w| !w.is_empty()).collect();
    hang(
        wrap_paragraph(&words.join(" "), width, width - indent),
        indent,
    )
}

/// Indents every line after the first by `indent` spaces.
fn hang(mut lines: Vec<String>, indent: usize) -> Vec<String> {
    let margin = " ".repeat(indent);
    for line in lines.iter_mut().skip(1) {
        line.insert_str(0, &margin);
    }
    lines
}

/// One paragraph: the first line at most `first` cells, the others at most `rest`.
fn wrap_paragraph(paragraph: &str, first: usize, rest: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    let mut line_width = 0;
    let max_of = |lines: &Vec<String>| if lines.is_empty() { first } else { rest }.max(1);
    for piece in pieces(paragraph) {
        let max = max_of(&lines);
        let piece_width = visible_width(piece);
        if piece.starts_with(is_space) {
            // Spaces inside a line and the paragraph's own indentation are kept; a break trims them away.
            let indentation = lines.is_empty() && line.is_empty();
            if indentation || line_width > 0 {
                line.push_str(piece);
                line_width += piece_width;
            }
            continue;
        }
        if line_width + piece_width > max && !line.trim().is_empty() {
            lines.push(std::mem::take(&mut line).trim_end().to_string());
            line_width = 0;
        }
        if piece_width <= max_of(&lines) {
            line.push_str(piece);
            line_width += piece_width;
            continue;
        }
        // Wider than a whole line (a long path or URL): it breaks after its separators, and only a part still
        // too wide breaks between characters.
        for part in separated(piece) {
            let part_width = visible_width(part);
            if line_width + part_width > max_of(&lines) && !line.trim().is_empty() {
                lines.push(std::mem::take(&mut line));
                line_width = 0;
            }
            if part_width <= max_of(&lines) {
                line.push_str(part);
                line_width += part_width;
                continue;
            }
            for c in part.chars() {
                let w = char_width(c);
                if line_width + w > max_of(&lines) && line_width > 0 {
                    lines.push(std::mem::take(&mut line));
                    line_width = 0;
                }
                line.push(c);
                line_width += w;
            }
        }
    }
    lines.push(line.trim_end().to_string());
    lines
}

/// Characters a word too wide for a line may break after: path and URL separators.
fn is_separator(c: char) -> bool {
    "/\\-_.,=&?".contains(c)
}

/// `word` in parts that each end after a separator (`/home/`, `me/`, `project`).
fn separated(word: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in word.char_indices() {
        if is_separator(c) {
            let end = i + c.len_utf8();
            out.push(&word[start..end]);
            start = end;
        }
    }
    if start < word.len() {
        out.push(&word[start..]);
    }
    out
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

/// Word-wraps text that arrives in pieces (reasoning): a word is written once what follows it shows where it
/// ends, so a line is broken before the word that would not fit.
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
                c if is_space(c) => {
                    self.flush_word(&mut out, width);
                    self.space = self.col > 0;
                }
                '\r' => {}
                c => {
                    if self
                        .word
                        .chars()
                        .last()
                        .is_some_and(|p| may_break_between(p, c))
                    {
                        self.flush_word(&mut out, width);
                    }
                    self.word.push(c);
                }
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
            let cw = char_width(ch);
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
mod tests;
