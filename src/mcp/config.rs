//! `mcp.json` files: `$PAICLI_HOME/mcp.json`, then the project's `.mcp.json` (Claude Code / Cursor), then
//! `<project>/.paicli/mcp.json`; later files override earlier ones by server name. Each server is resolved on its
//! own so one bad entry (unknown variable, neither `command` nor `url`) fails only that server.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::Value;

use super::oauth::OAuthSettings;
use super::sdk_relay::SdkServer;
use crate::config::safe_read::{FileNotice, SETTINGS_CAP, read_whole_noticed};

/// Where a server's entry came from; project entries need the user's approval before they run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    User,
    Project,
}

/// How to reach a server, with every `${…}` expanded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Launch {
    /// A child process speaking newline-delimited JSON-RPC on stdin/stdout.
    Stdio {
        command: String,
        args: Vec<String>,
        env: BTreeMap<String, String>,
        cwd: PathBuf,
    },
    /// A streamable-HTTP endpoint.
    Http {
        url: String,
        headers: BTreeMap<String, String>,
        /// How to authorize (the `oauth` object; default: dynamic registration and the browser step).
        oauth: OAuthSettings,
    },
    /// A server inside the client process (an Agent SDK's `"type": "sdk"`), reached through the client.
    Sdk(SdkServer),
}

impl Launch {
    /// The command line (or URL) approvals are remembered by.
    pub fn command_line(&self) -> String {
        match self {
            Launch::Stdio { command, args, .. } => std::iter::once(command.as_str())
                .chain(args.iter().map(String::as_str))
                .map(quote)
                .collect::<Vec<_>>()
                .join(" "),
            Launch::Http { url, .. } => url.clone(),
            Launch::Sdk(server) => format!("sdk:{}", server.name),
        }
    }
}

fn quote(word: &str) -> String {
    if !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=@,+%".contains(c))
    {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// One configured server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerConfig {
    pub name: String,
    pub origin: Origin,
    /// The file the winning entry came from.
    pub source: PathBuf,
    pub disabled: bool,
    /// How to start it, or why it cannot be started.
    pub launch: Result<Launch, String>,
}

/// Every configured server (sorted by name) and problems with whole files.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct McpConfig {
    pub servers: Vec<ServerConfig>,
    /// Files that could not be parsed; their servers are skipped.
    pub file_errors: Vec<String>,
    /// Files the safe reader refused (a link out of their folder, not a regular file, too large); the front-ends
    /// say each once, with the other refused settings files.
    pub file_notices: Vec<FileNotice>,
}

/// The files read, lowest precedence first.
pub fn config_files(home: &Path, project_root: &Path) -> Vec<(PathBuf, Origin)> {
    vec![
        (home.join("mcp.json"), Origin::User),
        (project_root.join(".mcp.json"), Origin::Project),
        (project_root.join(".paicli/mcp.json"), Origin::Project),
    ]
}

/// Why an Agent SDK's in-process server (`"type": "sdk"`) does not start from a file or from `-p`: only a client
/// speaking the stream-json protocol can carry its messages (`crate::mcp::sdk_relay`).
pub const SDK_SERVER: &str = "an SDK server (`\"type\": \"sdk\"`) runs inside the client process; paicli reaches it only through a client of `--input-format stream-json`";

/// Where servers named by the caller say they came from.
pub const CALLER_SOURCE: &str = "--mcp-config";

/// The servers of one `--mcp-config` argument: inline JSON (starts with `{`) or the path of a JSON file, in
/// Claude's `{"mcpServers": {...}}` shape.
pub fn parse_caller(arg: &str) -> Result<BTreeMap<String, Value>, String> {
    let text = if arg.trim_start().starts_with('{') {
        arg.to_string()
    } else {
        std::fs::read_to_string(arg).map_err(|e| format!("{arg}: {e}"))?
    };
    parse_file(&text).map_err(|e| format!("{arg}: {e}"))
}

/// The caller's servers (`(name, entry)`, a later one winning by name) resolved as the user's own: they start
/// without the project trust prompt, and still go through the MCP client and the approval gates.
pub fn caller_servers(
    entries: &[(String, Value)],
    project_root: &Path,
    lookup: &dyn Fn(&str) -> Option<String>,
) -> Vec<ServerConfig> {
    let vars = Vars {
        project_dir: project_root.to_string_lossy().into_owned(),
        home: dirs::home_dir().map(|h| h.to_string_lossy().into_owned()),
        lookup,
    };
    let merged: BTreeMap<&String, &Value> = entries.iter().map(|(n, e)| (n, e)).collect();
    merged
        .into_iter()
        .map(|(name, entry)| {
            resolve(
                name,
                entry,
                Origin::User,
                PathBuf::from(CALLER_SOURCE),
                project_root,
                &vars,
            )
        })
        .collect()
}

impl McpConfig {
    /// `caller`'s servers added, replacing configured ones of the same name.
    pub fn with_caller(mut self, caller: Vec<ServerConfig>) -> McpConfig {
        self.servers
            .retain(|s| !caller.iter().any(|c| c.name == s.name));
        self.servers.extend(caller);
        self.servers.sort_by(|a, b| a.name.cmp(&b.name));
        self
    }
}

/// Loads and merges the config files. `lookup` resolves `${VAR}` (environment and `.env` files).
pub fn load(
    home: &Path,
    project_root: &Path,
    lookup: &dyn Fn(&str) -> Option<String>,
) -> McpConfig {
    let mut merged: BTreeMap<String, (Value, Origin, PathBuf)> = BTreeMap::new();
    let mut file_errors = Vec::new();
    let mut file_notices = Vec::new();
    for (path, origin) in config_files(home, project_root) {
        // The user file may also be the project's (paicli run in $HOME); read it once, as the user's.
        if origin == Origin::Project && path == home.join("mcp.json") {
            continue;
        }
        // By the one safe reader: a project's file beneath the project (a link out of it is refused), the user's
        // own wherever it links.
        let base = match origin {
            Origin::User => Path::new(crate::config::safe_read::USER_FILES_BASE),
            Origin::Project => project_root,
        };
        let Some(text) = read_whole_noticed(base, &path, SETTINGS_CAP, &mut file_notices) else {
            continue;
        };
        match parse_file(&text) {
            Ok(servers) => {
                for (name, entry) in servers {
                    merged.insert(name, (entry, origin, path.clone()));
                }
            }
            Err(e) => file_errors.push(format!("{}: {e}", path.display())),
        }
    }
    let vars = Vars {
        project_dir: project_root.to_string_lossy().into_owned(),
        home: dirs::home_dir().map(|h| h.to_string_lossy().into_owned()),
        lookup,
    };
    let servers = merged
        .into_iter()
        .map(|(name, (entry, origin, source))| {
            resolve(&name, &entry, origin, source, project_root, &vars)
        })
        .collect();
    McpConfig {
        servers,
        file_errors,
        file_notices,
    }
}

/// The `mcpServers` map of one file, entries still raw so each is judged on its own.
pub fn parse_file(text: &str) -> Result<BTreeMap<String, Value>, String> {
    #[derive(Deserialize)]
    struct File {
        #[serde(rename = "mcpServers", default)]
        mcp_servers: BTreeMap<String, Value>,
    }
    serde_json::from_str::<File>(text)
        .map(|f| f.mcp_servers)
        .map_err(|e| format!("invalid mcp.json: {e}"))
}

/// One raw entry (Claude Code's format; unknown keys are ignored, `type` only tells SDK servers apart).
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawServer {
    #[serde(rename = "type")]
    kind: Option<String>,
    command: Option<String>,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default)]
    env: BTreeMap<String, String>,
    cwd: Option<String>,
    url: Option<String>,
    #[serde(default)]
    headers: BTreeMap<String, String>,
    oauth: Option<OAuthSettings>,
    #[serde(default)]
    disabled: bool,
}

/// What `${NAME}` can refer to.
pub struct Vars<'a> {
    pub project_dir: String,
    pub home: Option<String>,
    pub lookup: &'a dyn Fn(&str) -> Option<String>,
}

fn resolve(
    name: &str,
    entry: &Value,
    origin: Origin,
    source: PathBuf,
    project_root: &Path,
    vars: &Vars<'_>,
) -> ServerConfig {
    let raw: Result<RawServer, String> = serde_json::from_value(entry.clone())
        .map_err(|e| format!("server `{name}`: invalid entry: {e}"));
    let disabled = raw.as_ref().is_ok_and(|r| r.disabled);
    let launch = raw.and_then(|raw| {
        resolve_launch(&raw, project_root, vars)
            .map_err(|e| format!("server `{name}` ({}): {e}", source.display()))
    });
    ServerConfig {
        name: name.to_string(),
        origin,
        source,
        disabled,
        launch,
    }
}

fn resolve_launch(raw: &RawServer, project_root: &Path, vars: &Vars<'_>) -> Result<Launch, String> {
    let x = |s: &str| expand(s, vars);
    if raw.kind.as_deref() == Some("sdk") {
        return Err(SDK_SERVER.into());
    }
    match (&raw.command, &raw.url) {
        (Some(command), None) => {
            let cwd = match &raw.cwd {
                Some(dir) => project_root.join(x(dir)?),
                None => project_root.to_path_buf(),
            };
            Ok(Launch::Stdio {
                command: x(command)?,
                args: raw.args.iter().map(|a| x(a)).collect::<Result<_, _>>()?,
                env: expand_map(&raw.env, vars)?,
                cwd,
            })
        }
        (None, Some(url)) => {
            let mut oauth = raw.oauth.clone().unwrap_or_default();
            for field in oauth.strings_mut() {
                *field = x(field)?;
            }
            Ok(Launch::Http {
                url: x(url)?,
                headers: expand_map(&raw.headers, vars)?,
                oauth,
            })
        }
        (Some(_), Some(_)) => Err("set either `command` (stdio) or `url` (HTTP), not both".into()),
        (None, None) => Err("needs `command` (stdio) or `url` (HTTP)".into()),
    }
}

fn expand_map(
    map: &BTreeMap<String, String>,
    vars: &Vars<'_>,
) -> Result<BTreeMap<String, String>, String> {
    map.iter()
        .map(|(k, v)| Ok((k.clone(), expand(v, vars)?)))
        .collect()
}

/// `text` with `${PROJECT_DIR}`, `${HOME}` and `${VAR}` replaced; an unknown variable is an error naming it.
pub fn expand(text: &str, vars: &Vars<'_>) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let Some(end) = after.find('}') else {
            return Err(format!("unclosed `${{` in `{text}`"));
        };
        let name = &after[..end];
        let value = match name {
            "PROJECT_DIR" => Some(vars.project_dir.clone()),
            "HOME" => vars.home.clone().or_else(|| (vars.lookup)("HOME")),
            _ => (vars.lookup)(name),
        };
        match value {
            Some(v) => out.push_str(&v),
            None => {
                return Err(format!(
                    "variable ${{{name}}} is not set (environment or .env)"
                ));
            }
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use pretty_assertions::assert_eq;

    fn vars(lookup: &dyn Fn(&str) -> Option<String>) -> Vars<'_> {
        Vars {
            project_dir: "/proj".into(),
            home: Some("/home/u".into()),
            lookup,
        }
    }

    #[test]
    fn expands_builtin_and_environment_variables() {
        let lookup = |k: &str| (k == "TOKEN").then(|| "s3cret".to_string());
        let v = vars(&lookup);
        assert_eq!(expand("${PROJECT_DIR}/a", &v).unwrap(), "/proj/a");
        assert_eq!(
            expand("${HOME}/.x:${TOKEN}", &v).unwrap(),
            "/home/u/.x:s3cret"
        );
        assert_eq!(expand("no vars $HOME", &v).unwrap(), "no vars $HOME");
        assert_eq!(
            expand("Bearer ${MISSING}", &v).unwrap_err(),
            "variable ${MISSING} is not set (environment or .env)"
        );
        assert!(expand("${OPEN", &v).unwrap_err().contains("unclosed"));
    }

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn project_entries_override_user_entries_by_name() {
        let home = tempfile::tempdir().unwrap();
        let proj = tempfile::tempdir().unwrap();
        write(
            &home.path().join("mcp.json"),
            r#"{"mcpServers": {"a": {"command": "user-a"}, "b": {"url": "http://u/b"}, "c": {"command": "user-c"}}}"#,
        );
        write(
            &proj.path().join(".mcp.json"),
            r#"{"mcpServers": {"b": {"command": "dot-b", "args": ["${PROJECT_DIR}"]}, "c": {"command": "dot-c"}}}"#,
        );
        write(
            &proj.path().join(".paicli/mcp.json"),
            r#"{"mcpServers": {"c": {"command": "paicli-c", "cwd": "sub", "env": {"K": "${TOKEN}"}}, "d": {"command": "x", "disabled": true}}}"#,
        );
        let lookup = |k: &str| (k == "TOKEN").then(|| "t".to_string());
        let cfg = load(home.path(), proj.path(), &lookup);
        assert!(cfg.file_errors.is_empty(), "{:?}", cfg.file_errors);
        let names: Vec<_> = cfg
            .servers
            .iter()
            .map(|s| (s.name.as_str(), s.origin))
            .collect();
        assert_eq!(
            names,
            [
                ("a", Origin::User),
                ("b", Origin::Project),
                ("c", Origin::Project),
                ("d", Origin::Project)
            ]
        );
        let root = proj.path().to_string_lossy().into_owned();
        assert_eq!(
            cfg.servers[1].launch,
            Ok(Launch::Stdio {
                command: "dot-b".into(),
                args: vec![root],
                env: BTreeMap::new(),
                cwd: proj.path().to_path_buf()
            })
        );
        assert_eq!(
            cfg.servers[2].launch,
            Ok(Launch::Stdio {
                command: "paicli-c".into(),
                args: vec![],
                env: BTreeMap::from([("K".into(), "t".into())]),
                cwd: proj.path().join("sub")
            })
        );
        assert!(cfg.servers[3].disabled);
    }

    #[test]
    fn the_oauth_object_is_read_with_its_variables_expanded() {
        let home = tempfile::tempdir().unwrap();
        let proj = tempfile::tempdir().unwrap();
        write(
            &home.path().join("mcp.json"),
            r#"{"mcpServers": {"m2m": {"url": "http://h/mcp", "oauth": {"grant": "client_credentials", "clientId": "svc", "clientSecret": "${SECRET}"}}, "typo": {"url": "http://h/mcp", "oauth": {"grnt": "x"}}}}"#,
        );
        let lookup = |v: &str| (v == "SECRET").then(|| "from-env".to_string());
        let cfg = load(home.path(), proj.path(), &lookup);
        let Ok(Launch::Http { oauth, .. }) = &cfg.servers[0].launch else {
            panic!("{:?}", cfg.servers[0].launch)
        };
        assert_eq!(oauth.grant, crate::mcp::oauth::Grant::ClientCredentials);
        assert_eq!(oauth.client_id.as_deref(), Some("svc"));
        assert_eq!(oauth.client_secret.as_deref(), Some("from-env"));
        let typo = cfg.servers[1].launch.as_ref().unwrap_err();
        assert!(typo.contains("grnt"), "{typo}");
    }

    #[test]
    fn a_bad_entry_fails_only_its_server_and_a_bad_file_is_reported() {
        let home = tempfile::tempdir().unwrap();
        let proj = tempfile::tempdir().unwrap();
        write(
            &home.path().join("mcp.json"),
            r#"{"mcpServers": {"ok": {"url": "http://h/mcp", "headers": {"A": "1"}}, "none": {}, "both": {"command": "x", "url": "y"}, "var": {"command": "${NOPE}"}, "typed": {"command": 3}}}"#,
        );
        write(&proj.path().join(".mcp.json"), "{not json");
        let cfg = load(home.path(), proj.path(), &|_| None);
        assert_eq!(cfg.file_errors.len(), 1);
        assert!(cfg.file_errors[0].contains(".mcp.json"));
        let by_name: BTreeMap<_, _> = cfg
            .servers
            .iter()
            .map(|s| (s.name.as_str(), &s.launch))
            .collect();
        assert!(by_name["ok"].is_ok());
        assert!(
            by_name["none"]
                .as_ref()
                .unwrap_err()
                .contains("needs `command`")
        );
        assert!(by_name["both"].as_ref().unwrap_err().contains("not both"));
        assert!(
            by_name["var"]
                .as_ref()
                .unwrap_err()
                .contains("${NOPE} is not set")
        );
        assert!(
            by_name["typed"]
                .as_ref()
                .unwrap_err()
                .contains("invalid entry")
        );
    }

    #[test]
    fn command_lines_are_shell_quoted() {
        let launch = Launch::Stdio {
            command: "npx".into(),
            args: vec!["-y".into(), "a b".into(), "it's".into()],
            env: BTreeMap::new(),
            cwd: PathBuf::new(),
        };
        assert_eq!(launch.command_line(), r"npx -y 'a b' 'it'\''s'");
    }
}
