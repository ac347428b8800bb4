//! The browser page a session has open, as the browser tools last saw it: the approval gate reads it to know
//! whether a page action lands on a login, payment or account page.

/// The selected tab of the browser.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PageInfo {
    pub url: String,
    /// Empty when the page has none (or it is not known yet).
    pub title: String,
}

/// Tells which page is open (the browser tools implement it; gates read it).
pub trait OpenPage: Send + Sync {
    /// The selected page, or `None` when no browser runs.
    fn open_page(&self) -> Option<PageInfo>;
}
