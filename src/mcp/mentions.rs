//! `@server:scheme://path` in user input: each mention is replaced by the resource's contents in a
//! `<resource …>` block, or a `<resource_error …>` saying why it could not be read. Front-ends call
//! [`expand_mentions`] on what the user typed before handing it to the agent.

use std::sync::LazyLock;

use regex::Regex;
use tokio_util::sync::CancellationToken;

use super::content::{attr, render_resource_contents};
use super::manager::McpManager;

/// Most characters one mention may add.
pub const MAX_MENTION_CHARS: usize = 200_000;

#[allow(clippy::expect_used)] // A constant pattern: a failure here is a bug caught by every test run.
static MENTION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"@([a-zA-Z][\w-]*):([a-z]+://[^\s@]+)").expect("valid mention regex")
});

/// A mention found in the input: byte range, server name and URI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mention {
    pub start: usize,
    pub end: usize,
    pub server: String,
    pub uri: String,
}

/// Every mention in `input`, left to right.
pub fn find_mentions(input: &str) -> Vec<Mention> {
    // Most input has no `@`: it then needs no pattern (whose first use compiles it).
    if !input.contains('@') {
        return Vec::new();
    }
    MENTION
        .captures_iter(input)
        .filter_map(|c| {
            let whole = c.get(0)?;
            Some(Mention {
                start: whole.start(),
                end: whole.end(),
                server: c.get(1)?.as_str().to_string(),
                uri: c.get(2)?.as_str().to_string(),
            })
        })
        .collect()
}

/// One mention as it was read, for the audit log (`approver = "mention"`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MentionRead {
    pub server: String,
    pub uri: String,
    /// Why it could not be read; `None` when its contents were attached.
    pub error: Option<String>,
    pub duration_ms: u64,
}

/// `input` with every mention replaced by its resource block (or an error block). Input without mentions is
/// returned unchanged.
pub async fn expand_mentions(
    manager: &McpManager,
    input: &str,
    cancel: &CancellationToken,
) -> String {
    expand_mentions_observed(manager, input, cancel, &|_| {}).await
}

/// [`expand_mentions`], telling `observe` about each mention read (the front-ends audit them).
pub async fn expand_mentions_observed(
    manager: &McpManager,
    input: &str,
    cancel: &CancellationToken,
    observe: &(dyn Fn(&MentionRead) + Send + Sync),
) -> String {
    let mentions = find_mentions(input);
    let mut out = input.to_string();
    // Right to left so earlier byte ranges stay valid.
    for mention in mentions.iter().rev() {
        let started = std::time::Instant::now();
        let result = read(manager, mention, cancel).await;
        observe(&MentionRead {
            server: mention.server.clone(),
            uri: mention.uri.clone(),
            error: result.as_ref().err().cloned(),
            duration_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        });
        let block = match result {
            Ok(block) => block,
            Err(reason) => format!(
                "<resource_error server=\"{}\" uri=\"{}\">{reason}</resource_error>",
                attr(&mention.server),
                attr(&mention.uri)
            ),
        };
        out.replace_range(mention.start..mention.end, &block);
    }
    out
}

async fn read(
    manager: &McpManager,
    mention: &Mention,
    cancel: &CancellationToken,
) -> Result<String, String> {
    let Some(link) = manager.link(&mention.server) else {
        return Err(if manager.has_server(&mention.server) {
            format!("MCP server `{}` is not ready", mention.server)
        } else {
            format!("no MCP server named `{}`", mention.server)
        });
    };
    let contents = link
        .read_resource(&mention.uri, cancel)
        .await
        .map_err(|e| e.to_string())?;
    Ok(render_resource_contents(
        &mention.server,
        &contents,
        MAX_MENTION_CHARS,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_mentions_with_server_and_uri() {
        let found = find_mentions(
            "see @everything:demo://resource/static/document/architecture.md, and a@b.c",
        );
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].server, "everything");
        assert_eq!(
            found[0].uri,
            "demo://resource/static/document/architecture.md,"
        );
        assert!(find_mentions("mail me at x@example.com or @1bad:x://y").is_empty());
        let two = find_mentions("@a:file:///x @b-2:test://y/z");
        assert_eq!(
            two.iter().map(|m| m.server.as_str()).collect::<Vec<_>>(),
            ["a", "b-2"]
        );
    }
}
