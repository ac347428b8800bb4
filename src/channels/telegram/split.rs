//! Long replies in parts Telegram accepts: at most 4,096 characters as Telegram counts them (UTF-16 code units),
//! cut at a line break where there is one, else at a space, else anywhere.

/// Telegram's longest message text.
pub const MAX_MESSAGE_UNITS: usize = 4_096;

/// Splits `text` into parts of at most `max` UTF-16 units each; nothing is lost but the blank a cut falls on.
pub fn split_message(text: &str, max: usize) -> Vec<String> {
    let mut parts = Vec::new();
    let mut rest = text.trim_end();
    while !rest.is_empty() {
        let end = fitting_end(rest, max);
        if end == rest.len() {
            parts.push(rest.to_string());
            break;
        }
        let head = &rest[..end];
        let cut = head
            .rfind('\n')
            .or_else(|| head.rfind(' '))
            .filter(|&at| at > 0)
            .unwrap_or(end);
        parts.push(rest[..cut].to_string());
        rest = rest[cut..]
            .strip_prefix(['\n', ' '])
            .unwrap_or(&rest[cut..]);
    }
    parts
}

/// The byte length of the longest prefix of `text` within `max` UTF-16 units.
fn fitting_end(text: &str, max: usize) -> usize {
    let mut units = 0;
    for (at, c) in text.char_indices() {
        units += c.len_utf16();
        if units > max {
            return at;
        }
    }
    text.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_fit_and_rejoin() {
        let line = "word ".repeat(30);
        let text = format!("{line}\n").repeat(300);
        let parts = split_message(&text, MAX_MESSAGE_UNITS);
        assert!(parts.len() > 1);
        for part in &parts {
            assert!(part.encode_utf16().count() <= MAX_MESSAGE_UNITS);
        }
        let words: usize = parts.iter().map(|p| p.split_whitespace().count()).sum();
        assert_eq!(words, 30 * 300);
    }

    #[test]
    fn text_without_blanks_and_wide_characters_is_cut_by_units() {
        let text = "😀".repeat(3000);
        let parts = split_message(&text, MAX_MESSAGE_UNITS);
        assert_eq!(parts.len(), 2);
        assert_eq!(parts[0].encode_utf16().count(), 4096);
        assert_eq!(parts.concat(), text);
    }
}
