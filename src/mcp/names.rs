//! Model-facing names for MCP tools: `mcp__{server}__{tool}`, only `[A-Za-z0-9_-]`, at most 64 characters.

/// Longest tool name providers accept.
pub const MAX_TOOL_NAME: usize = 64;

/// The name the model calls `tool` of `server` by. Other characters become `_`; a name longer than
/// [`MAX_TOOL_NAME`] is cut and gets a hash of the full name, so distinct long names stay distinct.
pub fn tool_name(server: &str, tool: &str) -> String {
    let full = format!("mcp__{}__{}", sanitize(server), sanitize(tool));
    if full.len() <= MAX_TOOL_NAME {
        return full;
    }
    let suffix = format!(
        "_{:08x}",
        fnv1a(format!("{server}\u{0}{tool}").as_bytes()) as u32
    );
    // Every character is ASCII after sanitizing, so byte cuts are character cuts.
    let keep = MAX_TOOL_NAME - suffix.len();
    format!("{}{suffix}", &full[..keep])
}

/// `s` with every character outside `[A-Za-z0-9_-]` replaced by `_`.
pub fn sanitize(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// FNV-1a: tiny and stable across Rust versions (the std hasher is not), so names survive upgrades.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, b| {
        (hash ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_names_are_prefixed_and_sanitized() {
        assert_eq!(tool_name("everything", "echo"), "mcp__everything__echo");
        assert_eq!(
            tool_name("my server", "get.sum/v2"),
            "mcp__my_server__get_sum_v2"
        );
        assert_eq!(tool_name("s", "日本"), "mcp__s____");
        assert_eq!(tool_name("a-b_c", "X-1"), "mcp__a-b_c__X-1");
    }

    #[test]
    fn long_names_are_cut_to_64_with_a_stable_distinct_hash() {
        let long = "t".repeat(80);
        let a = tool_name("server", &long);
        let b = tool_name("server", &format!("{long}x"));
        assert_eq!(a.len(), MAX_TOOL_NAME);
        assert_eq!(b.len(), MAX_TOOL_NAME);
        assert_ne!(a, b);
        assert_eq!(a, tool_name("server", &long));
        assert!(a.starts_with("mcp__server__ttt"));
        assert!(
            a.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        );
        // Exactly 64 is kept as is.
        let exact = "u".repeat(MAX_TOOL_NAME - "mcp__s__".len());
        assert_eq!(tool_name("s", &exact), format!("mcp__s__{exact}"));
    }
}
