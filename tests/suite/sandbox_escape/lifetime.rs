//! Processes a command starts end with it: after it returns, times out or is cancelled, however they were
//! started (`setsid`, a double fork, `nohup … & disown`).

use std::time::{Duration, Instant};

use super::{Attack, assert_ok, kernel_confines, run};
use paicli::tools::ToolOutcome;

/// A number no other test's `sleep` uses, so the scan below finds only ours.
fn unique_seconds(offset: u32) -> u32 {
    40_000 + (std::process::id() % 10_000) * 10 + offset
}

/// Pids of live processes whose command line is `sleep <seconds>`.
pub(super) fn sleepers(seconds: u32) -> Vec<u32> {
    let wanted = format!("sleep\0{seconds}\0");
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|c| c == wanted.as_bytes())
        })
        .collect()
}

/// Waits (bounded) until `check` holds; its last value.
fn wait_until(limit: Duration, check: impl Fn() -> bool) -> bool {
    let start = Instant::now();
    loop {
        if check() {
            return true;
        }
        if start.elapsed() > limit {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Starts three escapees that do not hold the output pipe, then `tail` (what happens after they start).
fn escapees(base: u32, tail: &str) -> String {
    format!(
        "setsid sleep {a} >/dev/null 2>&1 < /dev/null & \
         (sleep {b} >/dev/null 2>&1 < /dev/null &) ; \
         nohup sleep {c} >/dev/null 2>&1 < /dev/null & disown; {tail}",
        a = base,
        b = base + 1,
        c = base + 2
    )
}

fn all_gone(base: u32) -> bool {
    (0..3).all(|i| sleepers(base + i).is_empty())
}

#[tokio::test]
async fn nothing_a_command_started_outlives_its_normal_end() {
    if !kernel_confines() {
        return;
    }
    let a = Attack::new();
    let base = unique_seconds(0);
    assert_ok(&run(&a.ctx(), &escapees(base, "echo started")).await);
    assert!(
        wait_until(Duration::from_secs(5), || all_gone(base)),
        "still alive after the command ended"
    );
}

#[tokio::test]
async fn nothing_a_command_started_outlives_a_cancel_or_a_timeout() {
    if !kernel_confines() {
        return;
    }
    let a = Attack::new();
    let base = unique_seconds(3);
    let ctx = a.ctx();
    let cancel = ctx.cancel.clone();
    let watcher = std::thread::spawn(move || {
        let started = wait_until(Duration::from_secs(20), || !sleepers(base).is_empty());
        cancel.cancel();
        started
    });
    let outcome = run(&ctx, &escapees(base, "sleep 600")).await;
    assert!(watcher.join().unwrap(), "the escapees never started");
    assert!(
        matches!(outcome, ToolOutcome::Cancelled { .. }),
        "{outcome:?}"
    );
    assert!(
        wait_until(Duration::from_secs(5), || all_gone(base)),
        "still alive after cancel"
    );

    let base = unique_seconds(6);
    let mut ctx = a.ctx();
    ctx.limits.command_timeout = Duration::from_secs(2);
    let outcome = run(&ctx, &escapees(base, "sleep 600")).await;
    assert!(
        matches!(&outcome, ToolOutcome::Failed { reason } if reason.contains("timed out")),
        "{outcome:?}"
    );
    assert!(
        wait_until(Duration::from_secs(5), || all_gone(base)),
        "still alive after the timeout"
    );
}
