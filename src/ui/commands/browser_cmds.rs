//! `/browser [status|connect [port]|tabs|disconnect]`: the session's browser (the built-in `chrome-devtools`
//! server). Status and tabs never start a browser; connect waits for the user's Chrome, and ESC or Ctrl-C stop
//! the wait (the isolated browser is then back).

use super::{Flow, say_error, say_wrapped};
use crate::mcp::browser_entry::BrowserMode;
use crate::text::{Lang, Msg, tr, trf};
use crate::tools::browser::{BrowserController, BrowserReport, DEFAULT_BROWSER_URL, Tab};
use crate::ui::repl::Session;

pub(super) fn browser(session: &mut Session, args: &str) -> Flow {
    let Some(browser) = session.services.browser.clone() else {
        say_wrapped(session, session.tr(Msg::BrowserOff));
        return Flow::Continue;
    };
    let words: Vec<&str> = args.split_whitespace().collect();
    match words.as_slice() {
        [] | ["status"] => {
            let report = session
                .block_on_cancellable(|cancel| async move { browser.report(false, &cancel).await });
            say_wrapped(session, &report_lines(&report, session.lang));
        }
        ["tabs"] => {
            if !browser.running() {
                say_wrapped(session, session.tr(Msg::BrowserNotStarted));
                return Flow::Continue;
            }
            let tabs =
                session.block_on_cancellable(|cancel| async move { browser.tabs(&cancel).await });
            match tabs {
                Ok(tabs) => say_wrapped(session, &tab_lines(&tabs, session.lang)),
                Err(e) => browser_error(session, &e.to_string()),
            }
        }
        ["connect"] => connect(session, &browser, DEFAULT_BROWSER_URL),
        ["connect", target] => match endpoint(target) {
            Some(url) => connect(session, &browser, &url),
            None => say_error(session, session.tr(Msg::BrowserUsage)),
        },
        ["disconnect"] => match session.runtime.block_on(browser.disconnect()) {
            Ok(()) => say_wrapped(session, session.tr(Msg::BrowserDisconnected)),
            Err(e) => browser_error(session, &e.to_string()),
        },
        _ => say_error(session, session.tr(Msg::BrowserUsage)),
    }
    Flow::Continue
}

/// `9333` → the loopback endpoint on that port; an http(s) URL as written.
fn endpoint(target: &str) -> Option<String> {
    if let Ok(port) = target.parse::<u16>() {
        return (port > 0).then(|| format!("http://127.0.0.1:{port}"));
    }
    (target.starts_with("http://") || target.starts_with("https://")).then(|| target.to_string())
}

fn connect(session: &mut Session, browser: &std::sync::Arc<BrowserController>, url: &str) {
    say_wrapped(
        session,
        &trf(session.lang, Msg::BrowserConnecting, &[("url", &url)]),
    );
    let attach = std::sync::Arc::clone(browser);
    let target = url.to_string();
    let result = session.block_on_cancellable(|cancel| async move {
        tokio::select! {
            result = attach.connect(&target, &cancel) => Some(result),
            () = cancel.cancelled() => None,
        }
    });
    match result {
        Some(Ok(tabs)) => {
            let count = tabs.len();
            say_wrapped(
                session,
                &trf(
                    session.lang,
                    Msg::BrowserConnected,
                    &[("url", &url), ("count", &count)],
                ),
            );
            say_wrapped(session, &tab_lines(&tabs, session.lang));
        }
        Some(Err(e)) => browser_error(session, &e.to_string()),
        None => {
            // A connect stopped half-way may have left the server pointed at the user's Chrome. Closing a server
            // stuck on a silent endpoint takes seconds: the prompt does not wait (the next switch does).
            let detach = std::sync::Arc::clone(browser);
            session
                .runtime
                .spawn(async move { detach.disconnect().await });
            say_wrapped(session, session.tr(Msg::BrowserCancelled));
        }
    }
}

fn browser_error(session: &Session, error: &str) {
    say_error(
        session,
        &trf(session.lang, Msg::BrowserFailed, &[("error", &error)]),
    );
}

/// The `/browser status` lines.
pub fn report_lines(report: &BrowserReport, lang: Lang) -> String {
    let mode = match &report.mode {
        _ if report.user_entry => tr(lang, Msg::BrowserModeUser).to_string(),
        BrowserMode::Isolated => tr(lang, Msg::BrowserModeIsolated).to_string(),
        BrowserMode::Connected { browser_url } => {
            trf(lang, Msg::BrowserModeConnected, &[("url", browser_url)])
        }
    };
    let mut lines = vec![mode];
    if report.running {
        lines.push(tr(lang, Msg::BrowserRunning).to_string());
        lines.push(tab_lines(&report.tabs, lang));
    } else {
        lines.push(tr(lang, Msg::BrowserNotStarted).to_string());
    }
    if let Some(error) = &report.last_error {
        lines.push(trf(lang, Msg::BrowserLastError, &[("error", error)]));
    }
    lines.join("\n")
}

/// One line per tab: number, title, URL, and a mark on the selected one.
pub fn tab_lines(tabs: &[Tab], lang: Lang) -> String {
    if tabs.is_empty() {
        return tr(lang, Msg::BrowserNoTabs).to_string();
    }
    tabs.iter()
        .enumerate()
        .map(|(i, tab)| {
            let mark = if tab.selected { "*" } else { " " };
            let title = if tab.title.is_empty() {
                tr(lang, Msg::BrowserUntitled)
            } else {
                &tab.title
            };
            format!("  {mark}{}. {title} — {}", i + 1, tab.url)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(mode: BrowserMode, running: bool) -> BrowserReport {
        BrowserReport {
            mode,
            running,
            user_entry: false,
            tabs: vec![Tab {
                title: "Home".to_string(),
                url: "http://127.0.0.1:1/".to_string(),
                selected: true,
            }],
            last_error: None,
        }
    }

    #[test]
    fn status_lines_speak_both_languages() {
        let isolated = report(BrowserMode::Isolated, true);
        assert_eq!(
            report_lines(&isolated, Lang::En),
            "mode: isolated browser (a fresh profile, thrown away afterwards)\nserver: running\n  *1. Home — http://127.0.0.1:1/"
        );
        let connected = report(
            BrowserMode::Connected {
                browser_url: "http://127.0.0.1:9222".to_string(),
            },
            false,
        );
        assert_eq!(
            report_lines(&connected, Lang::Zh),
            "模式：已连接到你的 Chrome（http://127.0.0.1:9222）\n服务：未启动（首次使用浏览器工具时启动）"
        );
    }

    #[test]
    fn a_port_or_a_url_names_the_endpoint() {
        assert_eq!(endpoint("9333").as_deref(), Some("http://127.0.0.1:9333"));
        assert_eq!(
            endpoint("http://localhost:9222").as_deref(),
            Some("http://localhost:9222")
        );
        assert_eq!(endpoint("0"), None);
        assert_eq!(endpoint("chrome"), None);
    }
}
