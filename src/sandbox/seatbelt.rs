//! macOS: a Seatbelt profile for `sandbox-exec -p`, with the same rules as the Landlock ruleset. Generated and
//! unit-tested on every platform; it only runs on macOS.

use std::fmt::Write;
use std::path::Path;

use super::Policy;

/// The program that applies a profile and execs the command.
pub const SANDBOX_EXEC: &str = "/usr/bin/sandbox-exec";

/// The profile text for `policy`. Everything is allowed except writing outside the writable folders and devices
/// (later rules win in Seatbelt), writing to protected and read-only paths (`$PAICLI_HOME`, the control paths,
/// whether they exist yet or not), and, with the
/// network off, IP connect and bind
/// (Unix sockets stay usable).
pub fn profile(policy: &Policy) -> String {
    let mut p = String::from("(version 1)\n(allow default)\n(deny file-write*)\n");
    let writable: Vec<String> = policy
        .writable
        .iter()
        .map(|root| format!("(subpath {})", quote(&root.path)))
        .chain(
            policy
                .devices
                .iter()
                .map(|dev| format!("(subpath {})", quote(dev))),
        )
        .collect();
    if !writable.is_empty() {
        p.push_str("(allow file-write*");
        for rule in writable {
            let _ = write!(p, "\n    {rule}");
        }
        p.push_str(")\n");
    }
    let control = policy.control.iter().chain(&policy.control_watch);
    for path in policy
        .protected
        .iter()
        .chain(&policy.read_only)
        .chain(control)
    {
        let _ = writeln!(p, "(deny file-write* (subpath {}))", quote(path));
    }
    if !policy.network {
        p.push_str("(deny network-outbound (remote ip))\n(deny network-bind (local ip))\n");
    }
    p
}

/// A Seatbelt string literal: backslashes and quotes escaped.
fn quote(path: &Path) -> String {
    let text = path.to_string_lossy();
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        if matches!(c, '"' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}
