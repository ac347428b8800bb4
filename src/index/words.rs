//! Identifier splitting for the keyword index: `retryUpload`, `retry_upload` and `RetryUPLOAD2` all give the words
//! `retry` and `upload`, so a question in plain words finds code that spells them as one identifier.

/// The words of one identifier, lower-cased: split at `_`, `-`, digits and case changes (`HTTPServer` →
/// `http`, `server`). An identifier that is one word gives that word.
pub fn split_identifier(ident: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let chars: Vec<char> = ident.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() || c.is_ascii_digit() {
            push_word(&mut words, &mut current);
            continue;
        }
        let prev = i.checked_sub(1).map(|p| chars[p]);
        let next = chars.get(i + 1).copied();
        // A capital starts a word after a lower-case letter (`retryUpload`), and the last capital of a run starts
        // a word when a lower-case letter follows it (`HTTPServer` → `HTTP`, `Server`).
        let starts_word = c.is_uppercase()
            && prev.is_some_and(|p| {
                p.is_lowercase() || (p.is_uppercase() && next.is_some_and(char::is_lowercase))
            });
        if starts_word {
            push_word(&mut words, &mut current);
        }
        current.extend(c.to_lowercase());
    }
    push_word(&mut words, &mut current);
    words
}

fn push_word(words: &mut Vec<String>, current: &mut String) {
    if !current.is_empty() {
        words.push(std::mem::take(current));
    }
}

/// The identifiers of `text`: runs of letters, digits and `_` that start with a letter or `_`.
pub fn identifiers(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| {
            w.chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_')
        })
}

/// The text the keyword index stores for `text`: the text itself, then the split words of every identifier that
/// splits into more than one (the tokenizer already splits at `_`, not at case changes).
pub fn index_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    out.push_str(text);
    out.push('\n');
    for ident in identifiers(text) {
        if !ident.chars().any(char::is_uppercase) {
            continue;
        }
        let words = split_identifier(ident);
        if words.len() > 1 {
            for w in words {
                out.push_str(&w);
                out.push(' ');
            }
        }
    }
    out
}

/// Words a question carries that say nothing about code (`where`, `do`, `the`…).
const STOP_WORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "by", "can", "code", "do", "does", "done", "find",
    "for", "from", "get", "gets", "happen", "happens", "how", "i", "if", "in", "into", "is", "it",
    "its", "me", "of", "on", "or", "our", "show", "that", "the", "their", "them", "there", "this",
    "to", "up", "we", "what", "when", "where", "which", "who", "why", "with", "you",
];

/// The search terms of a question: its identifiers and their split words, lower-cased, without stop words and
/// without repeats, in the order they appear.
pub fn query_terms(query: &str) -> Vec<String> {
    let mut terms: Vec<String> = Vec::new();
    let mut add = |w: String| {
        if w.chars().count() > 1 && !STOP_WORDS.contains(&w.as_str()) && !terms.contains(&w) {
            terms.push(w);
        }
    };
    for ident in identifiers(query) {
        let whole = ident.to_lowercase();
        let parts = split_identifier(ident);
        // A camel-case identifier is also one token in the index (`retryupload`); a snake-case one is not.
        if parts.len() > 1 && !ident.contains('_') {
            add(whole);
        }
        for part in parts {
            add(part);
        }
    }
    terms
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_split_at_case_underscores_and_digits() {
        assert_eq!(split_identifier("retryUpload"), ["retry", "upload"]);
        assert_eq!(split_identifier("retry_upload"), ["retry", "upload"]);
        assert_eq!(split_identifier("RetryUpload"), ["retry", "upload"]);
        assert_eq!(split_identifier("HTTPServer"), ["http", "server"]);
        assert_eq!(split_identifier("parseJSON"), ["parse", "json"]);
        assert_eq!(
            split_identifier("MAX_RETRY_COUNT"),
            ["max", "retry", "count"]
        );
        assert_eq!(split_identifier("utf8Decode"), ["utf", "decode"]);
        assert_eq!(split_identifier("__init__"), ["init"]);
        assert_eq!(split_identifier("run"), ["run"]);
    }

    #[test]
    fn index_text_adds_the_words_of_camel_case_identifiers() {
        let text = index_text("fn retryUpload(x: u8) { do_it() }");
        assert!(text.starts_with("fn retryUpload(x: u8) { do_it() }\n"));
        assert!(text.ends_with("retry upload "), "{text:?}");
    }

    #[test]
    fn query_terms_drop_stop_words_and_split_identifiers() {
        assert_eq!(
            query_terms("Where do we retry failed uploads?"),
            ["retry", "failed", "uploads"]
        );
        assert_eq!(
            query_terms("retryUpload in the HTTP client"),
            ["retryupload", "retry", "upload", "http", "client"]
        );
    }
}
