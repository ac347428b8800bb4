//! URLs in the user's text, normalized so two spellings of one page compare equal: the turn's grounded URLs
//! (`policy::exposure`) and the local pages the user named for the browser (`network::page`).

use std::sync::LazyLock;

use regex::Regex;
use url::Url;

use super::constant_regex::constant_regex;

// Stops at whitespace, quotes and CJK punctuation, which often follow a pasted link without a space.
const URL_PATTERN: &str = r#"(?i)(?-u:\b)https?://[^\s<>"'`，。！？、；：（）【】《》「」]+"#;

static URL_IN_TEXT: LazyLock<Regex> = LazyLock::new(|| constant_regex(URL_PATTERN));

/// Compiles the URL pattern now (see `policy::exposure::prewarm`).
pub fn prewarm() {
    LazyLock::force(&URL_IN_TEXT);
}

/// Normalizes an http(s) URL: lower-case scheme and host (the parser does that), no fragment, no trailing slash
/// when there is no query. `None` for anything that is not an absolute http(s) URL.
pub fn normalize_url(raw: &str) -> Option<String> {
    let mut url = Url::parse(raw.trim()).ok()?;
    if !matches!(url.scheme(), "http" | "https") || url.host().is_none() {
        return None;
    }
    url.set_fragment(None);
    let mut text = url.to_string();
    if url.query().is_none() && text.ends_with('/') {
        text.pop();
    }
    Some(text)
}

/// The normalized http(s) URLs written in `text`, in order, without duplicates.
pub fn urls_in_text(text: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    // Every match holds `://`; text without it does not compile the pattern.
    if !text.contains("://") {
        return found;
    }
    for m in URL_IN_TEXT.find_iter(text) {
        // Sentence punctuation right after a link is not part of it.
        let trimmed = m
            .as_str()
            .trim_end_matches(['.', ',', ';', ':', '!', '?', ')', ']', '}', '\'', '"']);
        if let Some(url) = normalize_url(trimmed)
            && !found.contains(&url)
        {
            found.push(url);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guard::constant_regex::broken_patterns;

    #[test]
    fn the_url_pattern_compiles() {
        assert_eq!(broken_patterns([URL_PATTERN]), Vec::<String>::new());
    }
}
