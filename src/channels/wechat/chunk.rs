//! Splitting a reply into messages WeChat accepts: at most `max` characters each, cut at a line break where one
//! is near the end, else at a space, else (one long word, CJK text without spaces) at the limit.

/// The longest message sent, in characters (WeChat takes about 4,000; the margin keeps clear of it).
pub const MAX_CHARS: usize = 3_800;

/// `text` in pieces of at most `max` characters. A piece ends at the last line break of its window, or the
/// last space, when that keeps it at least half full; the break itself is dropped. No piece is blank.
pub fn split_chunks(text: &str, max: usize) -> Vec<String> {
    let max = max.max(1);
    let mut chunks = Vec::new();
    let mut rest = text;
    loop {
        let Some((window_end, next)) = rest.char_indices().nth(max) else {
            push_piece(&mut chunks, rest);
            return chunks;
        };
        let window = &rest[..window_end];
        // A separator right after the window ends a full piece, so the search takes one character more.
        let searched = &rest[..window_end + next.len_utf8()];
        let half = window.char_indices().nth(max / 2).map_or(0, |(i, _)| i);
        let at_line = searched.rfind('\n').filter(|i| *i >= half);
        let at_word = || searched.rfind([' ', '\t']).filter(|i| *i >= half);
        match at_line.or_else(at_word) {
            // The separator is one byte (`\n`, ` `, `\t`) and is dropped.
            Some(cut) => {
                push_piece(&mut chunks, &rest[..cut]);
                rest = &rest[cut + 1..];
            }
            None => {
                push_piece(&mut chunks, window);
                rest = &rest[window_end..];
            }
        }
    }
}

fn push_piece(chunks: &mut Vec<String>, piece: &str) {
    if !piece.trim().is_empty() {
        chunks.push(piece.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::split_chunks;

    #[test]
    fn short_text_is_one_piece() {
        assert_eq!(split_chunks("hello", 10), vec!["hello"]);
        assert!(split_chunks("  \n ", 10).is_empty());
    }

    #[test]
    fn pieces_end_at_line_breaks() {
        let text = "aaaa bbbb\ncccc dddd\neeee";
        assert_eq!(
            split_chunks(text, 12),
            vec!["aaaa bbbb", "cccc dddd", "eeee"]
        );
    }

    #[test]
    fn a_long_line_is_cut_at_a_space() {
        let text = "one two three four five six";
        let pieces = split_chunks(text, 10);
        assert_eq!(pieces, vec!["one two", "three four", "five six"]);
    }

    #[test]
    fn a_break_too_early_is_not_used() {
        // The only line break is in the first tenth: cutting there would waste a message.
        let text = format!("a\n{}", "b".repeat(30));
        let pieces = split_chunks(&text, 20);
        assert_eq!(pieces[0].chars().count(), 20);
        assert_eq!(pieces.concat(), text);
    }

    #[test]
    fn text_without_spaces_is_cut_at_the_limit_by_characters() {
        let text = "汉".repeat(25);
        let pieces = split_chunks(&text, 10);
        let counts: Vec<usize> = pieces.iter().map(|p| p.chars().count()).collect();
        assert_eq!(counts, vec![10, 10, 5]);
        assert_eq!(pieces.concat(), text);
    }

    #[test]
    fn every_piece_fits_and_nothing_but_separators_is_lost() {
        let text: String =
            (0..2_000).map(|i| format!("word{i} ")).collect::<String>() + &"line\n".repeat(500);
        for max in [50, 333, 3_800] {
            let pieces = split_chunks(&text, max);
            assert!(pieces.iter().all(|p| p.chars().count() <= max));
            let squash = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
            assert_eq!(squash(&pieces.join(" ")), squash(&text));
        }
    }
}
