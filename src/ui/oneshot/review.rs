//! `paicli review [<base>|<commit>] [--staged]`: the reviewer agent's findings on stdout (text, or with
//! `--output-format json` the object `{"findings": [...]}`), its progress on stderr; exits 1 when a finding is as
//! bad as `[agents] review_fail_on` (default `blocking`), 2 when there is no review, else 0.

use tokio_util::sync::CancellationToken;

use super::OutputFormat;
use super::text_progress::TextProgress;
use crate::app::review::{Review, ReviewTarget, fail_threshold, run_review};
use crate::config::Config;
use crate::text::{Lang, Msg, tr, visible_lines};

/// Runs the review; returns the exit code.
pub fn run(config: &Config, target: ReviewTarget, format: OutputFormat, lang: Lang) -> i32 {
    let threshold = match fail_threshold(&config.agents.review_fail_on) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("paicli: {e}");
            return 2;
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("paicli: {e}");
            return 2;
        }
    };
    let mut agent = match crate::app::build_agent(config) {
        Ok(agent) => agent,
        Err(e) => {
            eprintln!("paicli: {e}");
            return 2;
        }
    };
    let progress = TextProgress::new(lang, true);
    let reviewed = runtime.block_on(run_review(
        &mut agent,
        &target,
        &progress,
        CancellationToken::new(),
    ));
    progress.finish();
    match reviewed {
        Ok(review) => {
            match format {
                OutputFormat::Text => print!("{}", findings_text(&review, lang)),
                _ => match serde_json::to_string(&review) {
                    Ok(json) => println!("{json}"),
                    Err(e) => eprintln!("paicli: {e}"),
                },
            }
            i32::from(review.fails_at(threshold))
        }
        Err(e) => {
            eprintln!("paicli: {e}");
            2
        }
    }
}

/// One block per finding: `blocking a.rs:3 title`, then its body indented; made safe for a terminal.
pub fn findings_text(review: &Review, lang: Lang) -> String {
    if review.findings.is_empty() {
        return format!("{}\n", tr(lang, Msg::ReviewNoFindings));
    }
    let mut out = String::new();
    for f in &review.findings {
        let at = match f.line {
            Some(line) => format!("{}:{line}", f.path),
            None => f.path.clone(),
        };
        let severity = serde_json::to_value(f.severity)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        out.push_str(&visible_lines(&format!("{severity} {at} {}\n", f.title)));
        for line in f.body.lines() {
            out.push_str(&visible_lines(&format!("  {line}\n")));
        }
    }
    out
}
