//! Streaming Markdown. Finished blocks are rendered whole; the open block streams too: prose and list items
//! word by word (whole words once the next space arrives, never inside an open `**span**`), code blocks line by
//! line. Only tables (and indented code and HTML) wait for their block to end.
//!
//! The open block is re-rendered from its start at each step and the lines that can no longer change are
//! handed out: greedy wrapping means every line but the last is final once the words after it exist. The last
//! line is offered as [`MarkdownStream::pending_line`], which a terminal may show and extend in place.

use super::wrap::may_break_between;

use super::{Style, render_markdown};

/// Accumulates answer deltas and hands out rendered lines as soon as they can no longer change.
#[derive(Debug, Default)]
pub struct MarkdownStream {
    buf: String,
    width: usize,
    /// Applies from the next block: lines already shown of the open block were wrapped at the old width.
    next_width: Option<usize>,
    style: Option<Style>,
    /// Lines of the open block (the start of `buf`) already handed out.
    emitted: usize,
    /// The open block's last, still growing line.
    pending: Option<String>,
    /// Bytes of the open block rendered last time: a delta that adds no whole word needs no new render.
    rendered_len: usize,
}

impl MarkdownStream {
    /// A stream rendering at `width` columns.
    pub fn new(width: usize, style: Style) -> Self {
        MarkdownStream {
            buf: String::new(),
            width,
            next_width: None,
            style: Some(style),
            emitted: 0,
            pending: None,
            rendered_len: 0,
        }
    }

    /// Changes the width (a resize); it applies from the next block, so lines already shown stay consistent.
    /// The last width set wins: resized and resized back within a block, the next block keeps the width.
    pub fn set_width(&mut self, width: usize) {
        if self.buf.is_empty() {
            self.width = width;
            self.next_width = None;
        } else {
            self.next_width = (width != self.width).then_some(width);
        }
    }

    /// Adds a delta; returns every line it made final (often none).
    pub fn push(&mut self, delta: &str) -> Vec<String> {
        self.buf.push_str(delta);
        let mut out = Vec::new();
        let ends = block_ends(&self.buf);
        if let Some(&cut) = ends.last() {
            // The open block finishes at the width its shown lines used; a new width applies after it.
            let first = if self.next_width.is_some() {
                ends[0]
            } else {
                cut
            };
            let done: String = self.buf.drain(..first).collect();
            out.extend(self.render(&done).into_iter().skip(self.emitted));
            self.emitted = 0;
            self.pending = None;
            self.rendered_len = 0;
            if let Some(w) = self.next_width.take() {
                self.width = w;
            }
            if cut > first {
                let rest: String = self.buf.drain(..cut - first).collect();
                out.extend(self.render(&rest));
            }
        }
        out.extend(self.stream_open_block());
        out
    }

    /// Renders whatever is left (the stream ended).
    pub fn finish(&mut self) -> Vec<String> {
        let rest = std::mem::take(&mut self.buf);
        let skip = std::mem::take(&mut self.emitted);
        self.pending = None;
        self.rendered_len = 0;
        // The open block ends at the width its shown lines used (as in `push`); a new width applies after it.
        let lines = if rest.trim().is_empty() {
            Vec::new()
        } else {
            self.render(&rest).into_iter().skip(skip).collect()
        };
        if let Some(w) = self.next_width.take() {
            self.width = w;
        }
        lines
    }

    /// Whether text is being held back.
    pub fn has_pending(&self) -> bool {
        !self.buf.trim().is_empty()
    }

    /// The open block's last line as rendered so far: it only grows (by whole words) until it is handed out by
    /// [`MarkdownStream::push`], except when later text changes the block's kind (then it is replaced).
    pub fn pending_line(&self) -> Option<&str> {
        self.pending.as_deref()
    }

    /// Hands out the open block's lines that are final, and remembers the growing last one.
    fn stream_open_block(&mut self) -> Vec<String> {
        let Some((prefix, keep_last)) = streamable_prefix(&self.buf) else {
            self.pending = None;
            self.rendered_len = 0;
            return Vec::new();
        };
        if prefix.len() == self.rendered_len {
            return Vec::new();
        }
        self.rendered_len = prefix.len();
        let mut lines = self.render(prefix);
        while lines.last().is_some_and(String::is_empty) {
            lines.pop();
        }
        match keep_last {
            Tail::Prose => self.pending = lines.pop(),
            Tail::Code { only_fence } => {
                // The closing fence the renderer adds to an unclosed block is not in the text yet.
                lines.pop();
                if only_fence {
                    lines.truncate(1);
                }
                self.pending = None;
            }
        }
        if lines.len() <= self.emitted {
            return Vec::new();
        }
        let fresh = lines.split_off(self.emitted);
        self.emitted += fresh.len();
        fresh
    }

    fn render(&self, text: &str) -> Vec<String> {
        if text.trim().is_empty() {
            return Vec::new();
        }
        render_markdown(text, self.width, self.style.unwrap_or(Style::new(false)))
    }
}

/// What the rendering of a streamable prefix ends with, which is not final yet.
enum Tail {
    /// The last line may still grow.
    Prose,
    /// The renderer's closing fence; `only_fence` when no code line is complete yet.
    Code { only_fence: bool },
}

/// The part of the open block `block` that can be rendered now, or `None` when the block must wait for its end.
fn streamable_prefix(block: &str) -> Option<(&str, Tail)> {
    let first = block.lines().next()?;
    if fence_of(first).is_some() {
        let end = block.rfind('\n').map_or(0, |i| i + 1);
        if end == 0 {
            return None;
        }
        let only_fence = !block[..end].trim_end_matches('\n').contains('\n');
        return Some((&block[..end], Tail::Code { only_fence }));
    }
    let trimmed = first.trim_start_matches(' ');
    let indent = first.len() - trimmed.len();
    if indent >= 4 || trimmed.starts_with('|') || trimmed.starts_with('<') {
        return None;
    }
    // Stop before a line that may start a table or a code block: those wait for their own end.
    let mut limit = block.len();
    let mut pos = first.len() + 1;
    while pos < block.len() {
        let line = block[pos..].split('\n').next().unwrap_or("");
        let t = line.trim_start_matches(' ');
        if t.starts_with('|') || fence_of(line).is_some() || is_setext_underline(t) {
            limit = pos;
            break;
        }
        pos += line.len() + 1;
    }
    let mut end = safe_word_end(&block[..limit]);
    // A last line holding only a marker (`-`, `2.`) may still become a heading underline or an item.
    let line_start = block[..end].rfind('\n').map_or(0, |i| i + 1);
    if is_bare_marker(block[line_start..end].trim()) {
        end = line_start;
    }
    (end > 0).then(|| (&block[..end], Tail::Prose))
}

/// A list marker with nothing after it yet, or a line of `=`/`-`.
fn is_bare_marker(t: &str) -> bool {
    let digits = t.trim_end_matches(['.', ')']);
    is_setext_underline(t)
        || matches!(t, "*" | "+")
        || (digits.len() < t.len()
            && !digits.is_empty()
            && digits.bytes().all(|b| b.is_ascii_digit()))
}

/// A line of `=` or `-` that would turn the paragraph above it into a heading (or a rule): wait for it.
fn is_setext_underline(t: &str) -> bool {
    let t = t.trim_end();
    !t.is_empty() && (t.chars().all(|c| c == '=') || t.chars().all(|c| c == '-'))
}

/// Inline spans open at a point of the text.
#[derive(Default)]
struct OpenSpans {
    code_ticks: usize,
    /// Delimiter runs seen; an odd count means a span is open.
    stars: usize,
    unders: usize,
    tildes: usize,
    brackets: usize,
    in_url: bool,
}

impl OpenSpans {
    fn balanced(&self) -> bool {
        self.code_ticks == 0
            && self.stars.is_multiple_of(2)
            && self.unders.is_multiple_of(2)
            && self.tildes.is_multiple_of(2)
            && self.brackets == 0
            && !self.in_url
    }

    /// Notes the delimiter run of `run` bytes `b` at `i` (outside code).
    fn delimiter(&mut self, bytes: &[u8], i: usize, run: usize) {
        let b = bytes[i];
        match b {
            b'`' => self.code_ticks = run,
            b'*' | b'_' => {
                let before = i.checked_sub(1).map(|j| bytes[j]);
                let after = bytes.get(i + run).copied();
                let blank = |c: Option<u8>| c.is_none_or(|c| c.is_ascii_whitespace());
                // Between spaces (`2 * 3`, a `* item` bullet) it is literal; `_` inside a word too.
                let literal = (blank(before) && blank(after))
                    || (b == b'_'
                        && before.is_some_and(|c| c.is_ascii_alphanumeric())
                        && after.is_some_and(|c| c.is_ascii_alphanumeric()));
                // Each run opens or closes a span.
                match (literal, b) {
                    (true, _) => {}
                    (false, b'*') => self.stars += 1,
                    (false, _) => self.unders += 1,
                }
            }
            b'~' if run == 2 => self.tildes += 1,
            b'[' => self.brackets += run,
            b']' => {
                self.brackets = self.brackets.saturating_sub(run);
                if bytes.get(i + run) == Some(&b'(') {
                    self.in_url = true;
                }
            }
            b')' if self.in_url => self.in_url = false,
            b'\n' => {
                // A stray bracket holds back only its own line.
                self.brackets = 0;
                self.in_url = false;
            }
            _ => {}
        }
    }
}

/// Bytes of `text` up to the last whitespace (or wide character) after which no inline span (emphasis, strong,
/// strike, code, link) is open, so the words before it render as they will in the end.
fn safe_word_end(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut safe = 0;
    let mut spans = OpenSpans::default();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b >= 0x80 {
            // A line may break after a wide (CJK) character, like after a space, unless punctuation follows
            // that must stay with it; that is only known once the next character has arrived.
            let ch = text[i..].chars().next().unwrap_or(' ');
            i += ch.len_utf8();
            let next = text[i..].chars().next();
            if spans.balanced() && next.is_some_and(|n| may_break_between(ch, n)) {
                safe = i;
            }
            continue;
        }
        if b == b'\\' && spans.code_ticks == 0 {
            // An escaped character is literal.
            i += 1 + text[i + 1..].chars().next().map_or(0, char::len_utf8);
            continue;
        }
        let run = bytes[i..].iter().take_while(|c| **c == b).count();
        if spans.code_ticks > 0 {
            if b == b'`' && run == spans.code_ticks {
                spans.code_ticks = 0;
            }
            i += run;
            continue;
        }
        let space = b == b' ' || b == b'\n' || b == b'\t';
        if space && spans.balanced() {
            safe = i + run;
        }
        spans.delimiter(bytes, i, run);
        i += run;
    }
    safe
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
#[cfg(test)]
fn finished_prefix_len(buf: &str) -> usize {
    block_ends(buf).last().copied().unwrap_or(0)
}

/// Every end of a finished block in `buf` (see [`finished_prefix_len`]), in order.
fn block_ends(buf: &str) -> Vec<usize> {
    let mut open: Option<Fence> = None;
    let mut ends = Vec::new();
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
                    ends.push(end);
                }
            }
            None => {
                if let Some((fence, _)) = fence_of(line) {
                    open = Some(fence);
                } else if line.trim().is_empty() || is_heading(line) {
                    ends.push(end);
                }
            }
        }
        pos = end;
    }
    ends
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
    fn code_streams_line_by_line_and_blank_lines_inside_a_fence_do_not_end_it() {
        let mut s = MarkdownStream::new(60, Style::new(false));
        assert!(s.push("```").is_empty());
        assert_eq!(s.push("\na\n"), vec!["```", "a"]);
        assert_eq!(s.push("\nb"), vec![""]);
        assert_eq!(s.push("\n"), vec!["b"]);
        assert_eq!(s.push("```\n"), vec!["```", ""]);
    }

    /// Feeds `text` one char at a time; returns the lines handed out before the end, and all lines.
    fn trickle(text: &str, width: usize) -> (Vec<String>, Vec<String>) {
        let mut s = MarkdownStream::new(width, Style::new(false));
        let mut lines = Vec::new();
        for ch in text.chars() {
            lines.extend(s.push(ch.encode_utf8(&mut [0; 4])));
        }
        let early = lines.clone();
        lines.extend(s.finish());
        (early, lines)
    }

    #[test]
    fn a_long_paragraph_streams_wrapped_lines_before_it_ends() {
        let text = "one two three four five six seven eight nine ten eleven twelve thirteen";
        let (early, all) = trickle(text, 20);
        assert_eq!(all, render_markdown(text, 20, Style::new(false)));
        assert_eq!(
            early,
            vec![
                "one two three four",
                "five six seven eight",
                "nine ten eleven"
            ]
        );
    }

    #[test]
    fn the_growing_line_holds_only_whole_words() {
        let mut s = MarkdownStream::new(40, Style::new(false));
        s.push("Hello wor");
        assert_eq!(s.pending_line(), Some("Hello"));
        s.push("ld and");
        assert_eq!(s.pending_line(), Some("Hello world"));
    }

    #[test]
    fn an_open_strong_span_is_held_back_whole() {
        let mut s = MarkdownStream::new(40, Style::new(true));
        s.push("say **very loud");
        assert_eq!(s.pending_line(), Some("say"));
        s.push(" words** now ");
        assert_eq!(
            s.pending_line(),
            Some("say \x1b[1mvery loud words\x1b[0m now")
        );
    }

    #[test]
    fn list_items_stream_with_continuation_lines_indented() {
        let text = "- alpha beta gamma delta epsilon\n- zeta eta theta\n";
        let (early, all) = trickle(text, 20);
        assert_eq!(all, render_markdown(text, 20, Style::new(false)));
        assert_eq!(
            all,
            vec![
                "• alpha beta gamma",
                "  delta epsilon",
                "• zeta eta theta",
                ""
            ]
        );
        assert_eq!(early, vec!["• alpha beta gamma", "  delta epsilon"]);
    }

    #[test]
    fn cjk_prose_breaks_between_characters_while_streaming() {
        let text = "流式渲染让答案逐字出现在终端里而不是最后一次性出现。";
        let (early, all) = trickle(text, 20);
        assert_eq!(all, render_markdown(text, 20, Style::new(false)));
        assert!(!early.is_empty(), "{all:?}");
        for line in &all {
            assert!(super::super::wrap::visible_width(line) <= 20, "{line}");
        }
    }

    #[test]
    fn chinese_punctuation_never_starts_a_streamed_line() {
        let text = "流式渲染让答案逐字出现，而不是最后一次性出现。（终端里）也一样：逐字显示！";
        for width in 10..=30 {
            let (_, all) = trickle(text, width);
            assert_eq!(
                all,
                render_markdown(text, width, Style::new(false)),
                "{width}"
            );
            for line in &all {
                assert!(
                    !line.starts_with(['，', '。', '）', '：', '！']),
                    "{width}: {all:?}"
                );
                assert!(!line.ends_with('（'), "{width}: {all:?}");
            }
        }
    }

    #[test]
    fn a_wide_character_waits_for_the_punctuation_after_it() {
        let mut s = MarkdownStream::new(40, Style::new(false));
        s.push("中文");
        assert_eq!(s.pending_line(), Some("中"));
        s.push("。好");
        assert_eq!(s.pending_line(), Some("中文。"));
    }

    #[test]
    fn tables_wait_for_their_block() {
        let text = "| a | b |\n|---|---|\n| 1 | 2 |\n";
        let (early, _) = trickle(text, 40);
        assert!(early.is_empty(), "{early:?}");
    }

    #[test]
    fn a_resize_applies_from_the_next_block() {
        let mut s = MarkdownStream::new(20, Style::new(false));
        let mut lines = s.push("aaa bbb ccc ddd eee fff ggg ");
        s.set_width(40);
        lines.extend(s.push("hhh\n\nxxx yyy zzz www vvv uuu ttt sss\n\n"));
        assert_eq!(
            lines,
            vec![
                "aaa bbb ccc ddd eee",
                "fff ggg hhh",
                "",
                "xxx yyy zzz www vvv uuu ttt sss",
                ""
            ]
        );
    }

    #[test]
    fn the_last_resize_wins_when_the_window_goes_back() {
        let mut s = MarkdownStream::new(40, Style::new(false));
        let mut lines = s.push("aaa bbb ccc ");
        s.set_width(12);
        s.set_width(40);
        lines.extend(s.push("ddd eee fff ggg hhh iii jjj\n\nkkk lll mmm nnn ooo ppp qqq rrr"));
        lines.extend(s.finish());
        assert_eq!(
            lines,
            vec![
                "aaa bbb ccc ddd eee fff ggg hhh iii jjj",
                "",
                "kkk lll mmm nnn ooo ppp qqq rrr",
                ""
            ]
        );
    }

    #[test]
    fn the_open_block_ends_at_its_own_width_when_the_stream_ends() {
        let mut s = MarkdownStream::new(20, Style::new(false));
        let mut lines = s.push("aaa bbb ccc ddd eee fff ggg ");
        s.set_width(8);
        lines.extend(s.push("hhh"));
        lines.extend(s.finish());
        // No line is shown twice and none is lost: the block keeps the width its first line was shown at.
        assert_eq!(lines, vec!["aaa bbb ccc ddd eee", "fff ggg hhh", ""]);
    }

    #[test]
    fn split_points_ignore_partial_lines() {
        assert_eq!(finished_prefix_len("# H"), 0);
        assert_eq!(finished_prefix_len("# H\nx"), 4);
        assert_eq!(finished_prefix_len("a\n\nb"), 3);
        assert_eq!(finished_prefix_len("~~~~\n\n~~~\n"), 0);
    }
}
