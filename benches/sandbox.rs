//! The sandbox's cost per command: the median wall time of `true` through `execute_command` with the sandbox
//! on (Landlock ruleset built, applied between fork and exec) and off, interleaved so both see the same machine
//! load. Target: at most 2 ms added.
//!
//! Run with `cargo bench --bench sandbox` (release build). It prints; it never fails on a number.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use paicli::config::{SandboxMode, SandboxSettings};
use paicli::guard::path_guard::PathGuard;
use paicli::sandbox::{Sandbox, probe};
use paicli::tools::shell::ExecuteCommand;
use paicli::tools::{SpillStore, Tool, ToolContext, ToolLimits};
use serde_json::json;

const RUNS: usize = 200;

fn context(root: &std::path::Path, sandbox: Sandbox) -> ToolContext {
    ToolContext::new(
        PathGuard::new(root).unwrap(),
        SpillStore::new(root, true, 32_000),
        ToolLimits {
            sandbox,
            ..ToolLimits::default()
        },
    )
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let on = context(&root, Sandbox::default());
    let off = context(
        &root,
        Sandbox::new(
            SandboxSettings {
                mode: SandboxMode::Off,
                ..SandboxSettings::default()
            },
            Vec::new(),
        ),
    );
    println!("sandbox: {}", probe().describe());
    prepare_only(&root);
    let args = json!({"command": "true"});
    let args = args.as_object().unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (mut sandboxed, mut plain) = (Vec::new(), Vec::new());
    runtime.block_on(async {
        for _ in 0..RUNS {
            for (ctx, samples) in [(&on, &mut sandboxed), (&off, &mut plain)] {
                let start = Instant::now();
                let outcome = ExecuteCommand::new(&ctx.limits, &ctx.spill)
                    .execute(args, ctx)
                    .await;
                samples.push(start.elapsed());
                assert!(outcome.is_ok(), "{outcome:?}");
            }
        }
    });
    let (s, p) = (median(sandboxed), median(plain));
    println!(
        "execute_command `true`, median of {RUNS}: sandboxed {:.2} ms, unsandboxed {:.2} ms, added {:.2} ms",
        s.as_secs_f64() * 1e3,
        p.as_secs_f64() * 1e3,
        (s.as_secs_f64() - p.as_secs_f64()) * 1e3
    );
}

/// The parent's share alone: building the policy and the Landlock ruleset.
fn prepare_only(root: &std::path::Path) {
    let sandbox = Sandbox::default();
    let mut samples = Vec::new();
    for _ in 0..RUNS {
        let start = Instant::now();
        let launch = sandbox
            .prepare(root, None, paicli::protocol::Confinement::Sandboxed)
            .unwrap();
        samples.push(start.elapsed());
        drop(launch);
    }
    println!(
        "prepare only: {:.3} ms",
        median(samples).as_secs_f64() * 1e3
    );
}
