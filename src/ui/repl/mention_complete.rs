//! Tab completion of `@server:uri` mentions from the servers' cached resource listings: `@ev` offers
//! `@everything:`, `@everything:demo://re` offers the matching URIs. Nothing is fetched while completing.

use rustyline::completion::Pair;

use crate::mcp::RemoteResource;

/// Candidates for `partial` (the mention without its `@`).
pub fn complete_mention(resources: &[(String, Vec<RemoteResource>)], partial: &str) -> Vec<Pair> {
    match partial.split_once(':') {
        None => resources
            .iter()
            .filter(|(server, _)| server.starts_with(partial))
            .map(|(server, _)| Pair {
                display: format!("@{server}:"),
                replacement: format!("@{server}:"),
            })
            .collect(),
        Some((server, uri)) => resources
            .iter()
            .filter(|(name, _)| name == server)
            .flat_map(|(_, list)| list)
            .filter(|r| r.uri.starts_with(uri))
            .map(|r| Pair {
                display: r.uri.clone(),
                replacement: format!("@{server}:{}", r.uri),
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resources() -> Vec<(String, Vec<RemoteResource>)> {
        let r = |uri: &str| RemoteResource {
            uri: uri.into(),
            name: "n".into(),
            description: None,
            mime_type: None,
        };
        vec![(
            "everything".into(),
            vec![
                r("demo://resource/1"),
                r("demo://resource/2"),
                r("file:///x"),
            ],
        )]
    }

    #[test]
    fn completes_server_names_then_uris() {
        let names = |pairs: Vec<Pair>| pairs.into_iter().map(|p| p.replacement).collect::<Vec<_>>();
        assert_eq!(
            names(complete_mention(&resources(), "ev")),
            ["@everything:"]
        );
        assert!(complete_mention(&resources(), "x").is_empty());
        assert_eq!(
            names(complete_mention(&resources(), "everything:demo://")),
            [
                "@everything:demo://resource/1",
                "@everything:demo://resource/2"
            ]
        );
        assert!(complete_mention(&resources(), "other:demo").is_empty());
    }
}
