//! Streaming Markdown: finished blocks are rendered as soon as they are complete, the open block is held back.

use super::{Style, render_markdown};

/// Accumulates answer deltas and hands out the rendered lines of each block once it can no longer change.
#[derive(Debug, Default)]
pub struct MarkdownStream {
    buf: String,
    width: usize,
    style: Option<Style>,
}

impl MarkdownStream {
    /// A stream rendering at `width` columns.
    pub fn new(width: usize, style: Style) -> Self {
        MarkdownStream {
            buf: String::new(),
            width,
            style: Some(style),
        }
    }

    /// Adds a delta; returns the lines of every block it completed (often none).
    pub fn push(&mut self, delta: &str) -> Vec<String> {
        self.buf.push_str(delta);
        let cut = finished_prefix_len(&self.buf);
        if cut == 0 {
            return Vec::new();
        }
        let done: String = self.buf.drain(..cut).collect();
        self.render(&done)
    }

    /// Renders whatever is left (the stream ended).
    pub fn finish(&mut self) -> Vec<String> {
        let rest = std::mem::take(&mut self.buf);
        if rest.trim().is_empty() {
            return Vec::new();
        }
        self.render(&rest)
    }

    /// Whether text is being held back.
    pub fn has_pending(&self) -> bool {
        !self.buf.trim().is_empty()
    }

    fn render(&self, text: &str) -> Vec<String> {
        if text.trim().is_empty() {
            return Vec::new();
        }
        render_markdown(text, self.width, self.style.unwrap_or(Style::new(false)))
    }
}

/// A fence that opened a code block: its character and length.
#[derive(Clone, Copy)]
struct Fence {
    ch: char,
    len: usize,
}

fn fence_of(line: &str) -> Option<(Fence, &str)> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return None;
    }
    let rest = &line[indent..];
    let ch = rest.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let len = rest.chars().take_while(|c| *c == ch).count();
    (len >= 3).then(|| (Fence { ch, len }, &rest[len..]))
}

fn is_heading(line: &str) -> bool {
    let t = line.trim_start_matches(' ');
    if line.len() - t.len() > 3 {
        return false;
    }
    let hashes = t.chars().take_while(|c| *c == '#').count();
    (1..=6).contains(&hashes) && t[hashes..].chars().next().is_none_or(char::is_whitespace)
}

/// Bytes of `buf` that form finished blocks: up to the last blank line, closed fence or heading line that lies
/// outside a code block. Only whole lines are considered, so a delta may end anywhere (inside a fence marker, a
/// multi-byte character's neighbours, a table row).
fn finished_prefix_len(buf: &str) -> usize {
    let mut open: Option<Fence> = None;
    let mut cut = 0;
    let mut pos = 0;
    while let Some(nl) = buf[pos..].find('\n') {
        let line = &buf[pos..pos + nl];
        let end = pos + nl + 1;
        match open {
            Some(f) => {
                if let Some((close, rest)) = fence_of(line)
                    && close.ch == f.ch
                    && close.len >= f.len
                    && rest.trim().is_empty()
                {
                    open = None;
                    cut = end;
                }
            }
            None => {
                if let Some((fence, _)) = fence_of(line) {
                    open = Some(fence);
                } else if line.trim().is_empty() || is_heading(line) {
                    cut = end;
                }
            }
        }
        pos = end;
    }
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_open_block_is_held_back() {
        let mut s = MarkdownStream::new(60, Style::new(false));
        assert!(s.push("First para").is_empty());
        assert!(s.push("graph.\n").is_empty());
        assert_eq!(s.push("\nSecond"), vec!["First paragraph.", ""]);
        assert_eq!(s.finish(), vec!["Second", ""]);
    }

    #[test]
    fn blank_lines_inside_a_fence_do_not_end_it() {
        let mut s = MarkdownStream::new(60, Style::new(false));
        assert!(s.push("```\na\n\nb\n").is_empty());
        assert_eq!(s.push("```\n"), vec!["```", "a", "", "b", "```", ""]);
    }

    #[test]
    fn split_points_ignore_partial_lines() {
        assert_eq!(finished_prefix_len("# H"), 0);
        assert_eq!(finished_prefix_len("# H\nx"), 4);
        assert_eq!(finished_prefix_len("a\n\nb"), 3);
        assert_eq!(finished_prefix_len("~~~~\n\n~~~\n"), 0);
    }
}
