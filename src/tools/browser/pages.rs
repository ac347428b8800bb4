//! What the browser shows, read from chrome-devtools-mcp's own replies: the `## Pages` list most page tools
//! append (`1: Title (url) [selected]`) and the snapshot's root line (`RootWebArea "Title" url="…"`). The
//! approval gate reads the selected page through [`OpenPage`] to spot login, payment and account pages.

use std::sync::{Mutex, PoisonError};

use crate::protocol::{OpenPage, PageInfo};

/// One open tab.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tab {
    pub title: String,
    pub url: String,
    pub selected: bool,
}

/// The tabs listed in a reply's `## Pages` section, or `None` when the reply has none.
pub fn parse_tabs(text: &str) -> Option<Vec<Tab>> {
    let start = text.find("## Pages")?;
    let tabs = text[start..]
        .lines()
        .skip(1)
        .take_while(|line| !line.starts_with("## "))
        .filter_map(parse_tab_line)
        .collect();
    Some(tabs)
}

/// `3: Title (https://x/) [selected]`, or `1: about:blank` for a page without a title.
fn parse_tab_line(line: &str) -> Option<Tab> {
    let (number, rest) = line.trim().split_once(": ")?;
    if number.is_empty() || !number.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let (rest, selected) = match rest.strip_suffix(" [selected]") {
        Some(rest) => (rest, true),
        None => (rest, false),
    };
    // URLs have no spaces, titles may have parentheses: the last ` (` opens the URL.
    let (title, url) = match rest.strip_suffix(')').and_then(|r| r.rsplit_once(" (")) {
        Some((title, url)) if !url.contains(' ') => (title.to_string(), url.to_string()),
        _ => (String::new(), rest.to_string()),
    };
    Some(Tab {
        title,
        url,
        selected,
    })
}

/// The page a snapshot shows: its root line's title and URL.
fn parse_snapshot_root(text: &str) -> Option<PageInfo> {
    let line = text.lines().find(|l| l.contains(" RootWebArea "))?;
    let after = line.split_once(" RootWebArea ")?.1;
    let title = after
        .strip_prefix('"')
        .and_then(|t| t.split_once('"'))
        .map(|(title, _)| title.to_string())
        .unwrap_or_default();
    let url = after
        .split_once("url=\"")
        .and_then(|(_, u)| u.rsplit_once('"'))
        .map(|(url, _)| url.to_string())?;
    Some(PageInfo { url, title })
}

/// The selected page as the browser server last reported it.
#[derive(Debug, Default)]
pub struct PageTracker {
    page: Mutex<Option<PageInfo>>,
}

impl PageTracker {
    /// Learns from one reply of the browser server; replies that name no page change nothing.
    pub fn observe(&self, reply_text: &str) {
        let selected = parse_tabs(reply_text).and_then(|tabs| {
            tabs.into_iter().find(|t| t.selected).map(|t| PageInfo {
                url: t.url,
                title: t.title,
            })
        });
        if let Some(page) = selected.or_else(|| parse_snapshot_root(reply_text)) {
            *self.lock() = Some(page);
        }
    }

    /// The server stopped: no page is open.
    pub fn clear(&self) {
        *self.lock() = None;
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<PageInfo>> {
        self.page.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl OpenPage for PageTracker {
    fn open_page(&self) -> Option<PageInfo> {
        self.lock().clone()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn the_pages_section_gives_titles_urls_and_the_selected_tab() {
        let text = "Successfully navigated.\n## Pages\n1: about:blank\n2: Sign in (a) (https://x.test/login?a=1) [selected]\n## Other\n3: nope (y)";
        assert_eq!(
            parse_tabs(text).unwrap(),
            [
                Tab {
                    title: String::new(),
                    url: "about:blank".to_string(),
                    selected: false
                },
                Tab {
                    title: "Sign in (a)".to_string(),
                    url: "https://x.test/login?a=1".to_string(),
                    selected: true
                },
            ]
        );
        assert_eq!(parse_tabs("no pages here"), None);
    }

    #[test]
    fn the_tracker_follows_page_lists_and_snapshots() {
        let tracker = PageTracker::default();
        assert_eq!(tracker.open_page(), None);
        tracker.observe("## Pages\n1: Home (http://127.0.0.1:1/) [selected]");
        assert_eq!(tracker.open_page().unwrap().url, "http://127.0.0.1:1/");
        tracker.observe(
            "## Latest page snapshot\nuid=1_0 RootWebArea \"Checkout\" url=\"https://shop.test/pay\"\n  uid=1_1 \"hi\"",
        );
        assert_eq!(
            tracker.open_page().unwrap(),
            PageInfo {
                url: "https://shop.test/pay".to_string(),
                title: "Checkout".to_string()
            }
        );
        tracker.observe("Clicked the element.");
        assert_eq!(tracker.open_page().unwrap().title, "Checkout");
        tracker.clear();
        assert_eq!(tracker.open_page(), None);
    }
}
