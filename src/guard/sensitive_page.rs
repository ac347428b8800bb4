//! Pages where an action can do harm that is hard to undo: logins, payments, account settings (spec §6.3). The
//! approval gate asks the person before a write-like browser call on such a page, in every mode but `full`.
//! Judged from the page's URL and title only: the page's text is the page's own claim.

use std::sync::LazyLock;

use regex::Regex;

use super::constant_regex::constant_regex;

/// What a sensitive page looks like.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PageKind {
    Login,
    Payment,
    Account,
}

impl PageKind {
    /// `login`, `payment` or `account`.
    pub fn label(self) -> &'static str {
        match self {
            PageKind::Login => "login",
            PageKind::Payment => "payment",
            PageKind::Account => "account",
        }
    }
}

// URL words, matched against the host and path as separate words (`/signin`, `login.example.com`, `?next=pay`
// does not count: only the host and path are read).
const LOGIN_URL: &str = r"(?i)(^|[^a-z])(log-?in|log-?on|sign-?in|signin|sign-?up|auth|oauth2?|sso|password|passwd|2fa|mfa|otp)([^a-z]|$)";
const PAYMENT_URL: &str = r"(?i)(^|[^a-z])(pay|payment|payments|checkout|billing|cart|order|orders|purchase|invoice|wallet|transfer|bank|banking|subscribe|subscription)([^a-z]|$)";
const ACCOUNT_URL: &str =
    r"(?i)(^|[^a-z])(account|accounts|myaccount|profile|settings|security|admin)([^a-z]|$)";

const LOGIN_TITLE: &str = r"(?i)\b(log\s*in|sign\s*in|sign\s*up|password|two-factor|verification code)\b|登录|登陆|注册|密码|验证码";
const PAYMENT_TITLE: &str = r"(?i)\b(checkout|payment|pay now|billing|order|purchase|cart|invoice|bank)\b|支付|付款|收银台|结算|订单|购物车|转账|银行";
const ACCOUNT_TITLE: &str =
    r"(?i)\b(account|profile|security settings)\b|账户|账号|帐户|帐号|个人资料|安全设置";

static PATTERNS: LazyLock<[(PageKind, Regex, Regex); 3]> = LazyLock::new(|| {
    [
        (
            PageKind::Login,
            constant_regex(LOGIN_URL),
            constant_regex(LOGIN_TITLE),
        ),
        (
            PageKind::Payment,
            constant_regex(PAYMENT_URL),
            constant_regex(PAYMENT_TITLE),
        ),
        (
            PageKind::Account,
            constant_regex(ACCOUNT_URL),
            constant_regex(ACCOUNT_TITLE),
        ),
    ]
});

/// The kind of sensitive page `url` with `title` looks like, if any.
pub fn sensitive_page(url: &str, title: &str) -> Option<PageKind> {
    let place = host_and_path(url);
    PATTERNS
        .iter()
        .find(|(_, by_url, by_title)| by_url.is_match(&place) || by_title.is_match(title))
        .map(|(kind, _, _)| *kind)
}

/// The host and path of `url` (query and fragment dropped); the whole text when it does not parse.
fn host_and_path(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(parsed) if parsed.host_str().is_some() => {
            format!("{}{}", parsed.host_str().unwrap_or_default(), parsed.path())
        }
        // data:, about: and friends have no host: nothing in them names a site.
        Ok(_) => String::new(),
        Err(_) => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pattern_compiles() {
        let broken = super::super::constant_regex::broken_patterns([
            LOGIN_URL,
            PAYMENT_URL,
            ACCOUNT_URL,
            LOGIN_TITLE,
            PAYMENT_TITLE,
            ACCOUNT_TITLE,
        ]);
        assert!(broken.is_empty(), "{broken:?}");
    }

    #[test]
    fn logins_payments_and_accounts_are_found_by_url_or_title() {
        let cases = [
            ("https://github.com/login", "", Some(PageKind::Login)),
            (
                "https://accounts.example.com/signin/v2",
                "",
                Some(PageKind::Login),
            ),
            (
                "https://login.microsoftonline.com/",
                "",
                Some(PageKind::Login),
            ),
            ("https://shop.example/checkout", "", Some(PageKind::Payment)),
            (
                "https://example.com/billing/cards",
                "",
                Some(PageKind::Payment),
            ),
            (
                "https://example.com/settings/profile",
                "",
                Some(PageKind::Account),
            ),
            (
                "https://example.com/x",
                "Sign in to continue",
                Some(PageKind::Login),
            ),
            (
                "https://example.com/x",
                "收银台 - 支付宝",
                Some(PageKind::Payment),
            ),
            ("https://example.com/x", "用户登录", Some(PageKind::Login)),
            ("https://example.com/x", "我的账户", Some(PageKind::Account)),
        ];
        for (url, title, expected) in cases {
            assert_eq!(sensitive_page(url, title), expected, "{url} {title:?}");
        }
    }

    #[test]
    fn ordinary_pages_and_words_inside_words_are_not_sensitive() {
        let cases = [
            ("https://docs.rs/tokio/latest/tokio/", "tokio - Rust"),
            (
                "https://example.com/blog/paying-attention",
                "Paying attention",
            ),
            ("https://example.com/catalog", "Catalogue"),
            ("https://example.com/search?q=login", "Search results"),
            ("about:blank", ""),
            ("data:text/html,<p>login</p>", "Notes"),
            ("http://127.0.0.1:8080/", "Dynamic page"),
        ];
        for (url, title) in cases {
            assert_eq!(sensitive_page(url, title), None, "{url} {title:?}");
        }
    }
}
