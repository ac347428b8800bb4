//! The built-in `chrome-devtools` server entry (spec §7): chrome-devtools-mcp, isolated and headless by default,
//! or attached to the user's own Chrome. Present unless an `mcp.json` defines a server of that name (which then
//! replaces it, or with `"disabled": true` removes it). It starts on the first browser call, never at start-up.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::config::Launch;
use crate::config::BrowserSettings;

/// The server's name; its tools are `mcp__chrome-devtools__…`.
pub const CHROME_DEVTOOLS: &str = "chrome-devtools";

/// The command that runs when neither `[browser] mcp_command` nor a `chrome-devtools-mcp` on `PATH` exists. It
/// asks the npm registry on every start, which is why the other two come first.
const NPX_FALLBACK: [&str; 3] = ["npx", "-y", "chrome-devtools-mcp@latest"];

/// Which browser the server drives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BrowserMode {
    /// A fresh browser with a temporary profile, thrown away when the server stops.
    Isolated,
    /// The user's own Chrome, reached through its remote-debugging endpoint.
    Connected { browser_url: String },
}

/// What the launch needs from the machine it runs on.
#[derive(Clone, Debug)]
pub struct Host {
    /// Where `chrome-devtools-mcp` would be found (the `PATH` entries).
    pub path: Vec<PathBuf>,
    /// paicli runs as root: Chromium then starts only with `--no-sandbox`.
    pub root: bool,
    /// The server's working directory.
    pub cwd: PathBuf,
}

impl Host {
    /// This process's `PATH` and user, with `cwd` as the working directory.
    pub fn current(cwd: &Path) -> Host {
        Host {
            path: std::env::var_os("PATH")
                .map(|p| std::env::split_paths(&p).collect())
                .unwrap_or_default(),
            root: runs_as_root(),
            cwd: cwd.to_path_buf(),
        }
    }
}

/// Whether this process runs as root. Asked of the kernel: `/proc/self` belongs to root for every user once
/// paicli makes itself non-dumpable (`sandbox::harden_process`).
fn runs_as_root() -> bool {
    // SAFETY: a plain getter.
    unsafe { libc::geteuid() == 0 }
}

/// How to start chrome-devtools-mcp for `mode`.
pub fn launch(settings: &BrowserSettings, mode: &BrowserMode, host: &Host) -> Launch {
    let configured: Vec<String> = settings
        .mcp_command
        .as_deref()
        .unwrap_or_default()
        .split_whitespace()
        .map(str::to_string)
        .collect();
    let on_path = || {
        host.path
            .iter()
            .map(|dir| dir.join("chrome-devtools-mcp"))
            .find(|p| p.is_file())
    };
    let mut words = if !configured.is_empty() {
        configured
    } else if let Some(found) = on_path() {
        vec![found.to_string_lossy().into_owned()]
    } else {
        NPX_FALLBACK.iter().map(|w| w.to_string()).collect()
    };
    let command = words.remove(0);
    let mut args = words;
    // Page tools without a `pageId`: they act on the selected page, which is what one agent wants.
    args.push("--no-page-id-routing".to_string());
    // Privacy defaults: no usage statistics to Google, no page URLs sent to the CrUX API.
    args.push("--no-usage-statistics".to_string());
    args.push("--no-performance-crux".to_string());
    match mode {
        BrowserMode::Isolated => {
            args.push("--isolated".to_string());
            if settings.headless {
                args.push("--headless".to_string());
            }
            if let Some(executable) = settings.executable.as_deref().filter(|e| !e.is_empty()) {
                args.push(format!("--executablePath={executable}"));
            }
            if host.root {
                args.push("--chromeArg=--no-sandbox".to_string());
            }
        }
        BrowserMode::Connected { browser_url } => {
            args.push(format!("--browserUrl={browser_url}"));
        }
    }
    let env = BTreeMap::from([
        (
            "CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS".to_string(),
            "1".to_string(),
        ),
        (
            "CHROME_DEVTOOLS_MCP_NO_UPDATE_CHECKS".to_string(),
            "1".to_string(),
        ),
    ]);
    Launch::Stdio {
        command,
        args,
        env,
        cwd: host.cwd.clone(),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn host(path: Vec<PathBuf>, root: bool) -> Host {
        Host {
            path,
            root,
            cwd: PathBuf::from("/"),
        }
    }

    fn words(launch: &Launch) -> (String, Vec<String>) {
        match launch {
            Launch::Stdio { command, args, .. } => (command.clone(), args.clone()),
            Launch::Http { .. } | Launch::Sdk(_) => panic!("stdio expected"),
        }
    }

    #[test]
    fn without_a_local_server_it_falls_back_to_npx_isolated_and_headless() {
        let (command, args) = words(&launch(
            &BrowserSettings::default(),
            &BrowserMode::Isolated,
            &host(Vec::new(), false),
        ));
        assert_eq!(command, "npx");
        assert_eq!(
            args,
            [
                "-y",
                "chrome-devtools-mcp@latest",
                "--no-page-id-routing",
                "--no-usage-statistics",
                "--no-performance-crux",
                "--isolated",
                "--headless"
            ]
        );
    }

    #[test]
    fn a_server_on_path_wins_over_npx_and_the_setting_wins_over_both() {
        let dir = tempfile::tempdir().unwrap();
        let bin = dir.path().join("chrome-devtools-mcp");
        std::fs::write(&bin, "").unwrap();
        let settings = BrowserSettings {
            executable: Some("/usr/bin/chromium".to_string()),
            ..BrowserSettings::default()
        };
        let on_path = host(vec![dir.path().to_path_buf()], true);
        let (command, args) = words(&launch(&settings, &BrowserMode::Isolated, &on_path));
        assert_eq!(command, bin.to_string_lossy());
        assert!(args.contains(&"--executablePath=/usr/bin/chromium".to_string()));
        assert!(
            args.contains(&"--chromeArg=--no-sandbox".to_string()),
            "root"
        );

        let settings = BrowserSettings {
            mcp_command: Some("node /opt/cdm/index.js".to_string()),
            ..BrowserSettings::default()
        };
        let (command, args) = words(&launch(&settings, &BrowserMode::Isolated, &on_path));
        assert_eq!(command, "node");
        assert_eq!(args[0], "/opt/cdm/index.js");
    }

    #[test]
    fn connected_mode_attaches_to_the_url_and_launches_nothing() {
        let launch = launch(
            &BrowserSettings {
                executable: Some("/usr/bin/chromium".to_string()),
                ..BrowserSettings::default()
            },
            &BrowserMode::Connected {
                browser_url: "http://127.0.0.1:9222".to_string(),
            },
            &host(Vec::new(), true),
        );
        let Launch::Stdio { args, env, .. } = &launch else {
            panic!("stdio expected")
        };
        assert!(args.contains(&"--browserUrl=http://127.0.0.1:9222".to_string()));
        for launching in ["--isolated", "--headless", "--chromeArg=--no-sandbox"] {
            assert!(!args.contains(&launching.to_string()), "{args:?}");
        }
        assert!(!args.iter().any(|a| a.starts_with("--executablePath")));
        assert_eq!(env["CHROME_DEVTOOLS_MCP_NO_UPDATE_CHECKS"], "1");
    }
}
