//! The text kept in context when a large output is offloaded or truncated: a header, a head and a tail.

/// Tail preview length in chars.
pub(super) const TAIL_CHARS: usize = 800;

/// Byte index just past the first `n` chars of `text` (or its length).
fn byte_index_of_char(text: &str, n: usize) -> usize {
    text.char_indices().nth(n).map_or(text.len(), |(i, _)| i)
}

/// Byte length of the head preview: at most `max_chars` chars, cut at the last newline when that newline lies
/// past the halfway point (so the preview ends on a whole line without losing half of it).
pub(super) fn head_end(text: &str, max_chars: usize) -> usize {
    let end = byte_index_of_char(text, max_chars);
    if end == text.len() {
        return end;
    }
    match text[..end].rfind('\n') {
        Some(nl) if text[..nl].chars().count() > max_chars / 2 => nl,
        _ => end,
    }
}

/// Byte index where the tail preview starts: the last `TAIL_CHARS` chars after `head_end`, if any remain.
pub(super) fn tail_start(text: &str, head_end: usize) -> usize {
    let rest = &text[head_end..];
    let rest_chars = rest.chars().count();
    let skip = rest_chars.saturating_sub(TAIL_CHARS);
    head_end + byte_index_of_char(rest, skip)
}

/// Size line: chars and lines of the whole text.
fn size_line(text: &str) -> String {
    format!(
        "size: {} chars, {} lines",
        text.chars().count(),
        text.lines().count()
    )
}

/// Head and tail of `text` with a marker for what lies between.
fn excerpt(text: &str, head_chars: usize) -> String {
    let head_end = head_end(text, head_chars);
    let head = &text[..head_end];
    // The head may end on the newline it was cut at; the tail starts after it.
    let body_start = if text[head_end..].starts_with('\n') {
        head_end + 1
    } else {
        head_end
    };
    let tail_start = tail_start(text, body_start);
    let tail = &text[tail_start..];
    let omitted = text[body_start..tail_start].chars().count();
    let mut out = format!("--- head ({} chars) ---\n{head}\n", head.chars().count());
    if omitted > 0 {
        out.push_str(&format!("--- {omitted} chars omitted ---\n"));
    }
    if !tail.is_empty() {
        out.push_str(&format!(
            "--- tail ({} chars) ---\n{tail}\n",
            tail.chars().count()
        ));
    }
    out.push_str("--- end of preview ---");
    out
}

/// The preview left in context after `text` was written to `rel_path`.
pub(super) fn render_offloaded(
    tool: &str,
    text: &str,
    rel_path: &str,
    head_chars: usize,
) -> String {
    let path_json = serde_json::Value::from(rel_path).to_string();
    format!(
        "[output too large, offloaded to a file]\ntool: {tool}\n{}\nfile: {rel_path}\n\
         read more with: read_file {{\"path\": {path_json}, \"offset\": 1, \"limit\": 200}}\n\n{}",
        size_line(text),
        excerpt(text, head_chars)
    )
}

/// The preview left in context when the full text could not be saved.
pub(super) fn render_truncated(tool: &str, text: &str, head_chars: usize, why: &str) -> String {
    format!(
        "[output truncated: {why}]\ntool: {tool}\n{}\n\n{}",
        size_line(text),
        excerpt(text, head_chars)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn head_cuts_at_a_newline_past_the_halfway_point() {
        let text = format!("{}\n{}", "a".repeat(15), "b".repeat(30));
        assert_eq!(&text[..head_end(&text, 20)], "a".repeat(15));
    }

    #[test]
    fn head_ignores_a_newline_before_the_halfway_point() {
        let text = format!("{}\n{}", "a".repeat(5), "b".repeat(30));
        assert_eq!(head_end(&text, 20), 20);
    }

    #[test]
    fn head_never_splits_a_character() {
        let text = "é".repeat(50);
        let end = head_end(&text, 20);
        assert_eq!(text[..end].chars().count(), 20);
    }

    #[test]
    fn tail_is_the_last_chars_after_the_head() {
        let text = "x".repeat(100) + &"终".repeat(TAIL_CHARS + 10);
        let start = tail_start(&text, 100);
        assert_eq!(text[start..].chars().count(), TAIL_CHARS);
        assert_eq!(tail_start("short", 5), 5);
    }

    #[test]
    fn short_remainders_are_shown_whole_without_an_omission_marker() {
        let text = format!("{}{}", "h".repeat(10), "t".repeat(5));
        let out = excerpt(&text, 10);
        assert_eq!(
            out,
            "--- head (10 chars) ---\nhhhhhhhhhh\n--- tail (5 chars) ---\nttttt\n--- end of preview ---"
        );
    }
}
