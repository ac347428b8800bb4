//! Runs `paicli -p` with the built-in browser against the scripted model: Debian's Chromium and chrome-devtools-mcp
//! from npm (`scripts/test` installs both and exports `PAICLI_TEST_CHROMIUM` / `PAICLI_TEST_CHROME_DEVTOOLS_MCP`).
//! Both are reached through wrapper scripts that leave a marker file, so a test can tell whether the server or a
//! browser was ever started.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::{Arc, Mutex};

use assert_cmd::cargo::CommandCargoExt;
use serde_json::Value;

use crate::support::{ScriptedServer, skip_missing_peer};

/// Chromium and the server, or `None` (with a message; a failure under CI) when they are not installed.
pub fn peers() -> Option<(PathBuf, PathBuf)> {
    let find = |var: &str, default: Option<&str>| -> Option<PathBuf> {
        let path = std::env::var_os(var)
            .map(PathBuf::from)
            .or_else(|| default.map(|d| Path::new(env!("CARGO_MANIFEST_DIR")).join(d)))?;
        path.exists().then_some(path)
    };
    let chromium = find("PAICLI_TEST_CHROMIUM", None).or_else(|| {
        ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
            .iter()
            .map(PathBuf::from)
            .find(|p| p.exists())
    });
    let server = find(
        "PAICLI_TEST_CHROME_DEVTOOLS_MCP",
        Some(".ci/browser/node_modules/.bin/chrome-devtools-mcp"),
    );
    match (chromium, server) {
        (Some(chromium), Some(server)) => Some((chromium, server)),
        _ => {
            skip_missing_peer("Chromium or chrome-devtools-mcp not found (run scripts/test)");
            None
        }
    }
}

/// A project, a home and a temp dir for one run, and wrapper scripts around the server and the browser.
pub struct BrowserSandbox {
    pub project: tempfile::TempDir,
    pub home: tempfile::TempDir,
    pub tmp: tempfile::TempDir,
    server_wrapper: PathBuf,
    browser_wrapper: PathBuf,
}

impl BrowserSandbox {
    /// Wrappers that record each start (`server-started`, `browser-started` with the PID) and run `server` and
    /// `chromium`.
    pub fn new(server: &Path, chromium: &Path) -> Self {
        let sandbox = BrowserSandbox {
            project: tempfile::tempdir().unwrap(),
            home: tempfile::tempdir().unwrap(),
            tmp: tempfile::tempdir().unwrap(),
            server_wrapper: PathBuf::new(),
            browser_wrapper: PathBuf::new(),
        };
        let server_wrapper = sandbox.wrapper("server", server);
        let browser_wrapper = sandbox.wrapper("browser", chromium);
        BrowserSandbox {
            server_wrapper,
            browser_wrapper,
            ..sandbox
        }
    }

    fn wrapper(&self, what: &str, target: &Path) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let marker = self.marker(what);
        let script = self.tmp.path().join(format!("{what}-wrapper"));
        std::fs::write(
            &script,
            format!(
                "#!/bin/sh\necho $$ >> '{}'\nexec '{}' \"$@\"\n",
                marker.display(),
                target.display()
            ),
        )
        .unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        script
    }

    fn marker(&self, what: &str) -> PathBuf {
        self.tmp.path().join(format!("{what}-started"))
    }

    /// The PIDs the wrapper of `what` (`server` or `browser`) started with, one per start.
    pub fn starts(&self, what: &str) -> Vec<u32> {
        std::fs::read_to_string(self.marker(what))
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect()
    }

    pub fn paicli_home(&self) -> PathBuf {
        self.home.path().join(".paicli")
    }

    /// `paicli -p prompt` with the given extra flags, streaming events as JSON lines.
    pub fn run(&self, server: &ScriptedServer, prompt: &str, extra: &[&str]) -> Output {
        Command::cargo_bin("paicli")
            .unwrap()
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", self.home.path())
            .env("TMPDIR", self.tmp.path())
            .env("PAICLI_HOME", self.paicli_home())
            .env("PAICLI_BROWSER_MCP_COMMAND", &self.server_wrapper)
            .env("PAICLI_BROWSER_EXECUTABLE", &self.browser_wrapper)
            .arg("-C")
            .arg(self.project.path())
            .args(["--base-url", &server.url(), "--model", "scripted-model"])
            .args(["--output-format", "stream-json"])
            .args(extra)
            .args(["-p", prompt])
            .stdin(Stdio::null())
            .output()
            .unwrap()
    }
}

/// A page server on 127.0.0.1: every path gets `html` (a page whose text JavaScript writes), by path.
pub fn serve_pages(pages: Vec<(&'static str, String)>) -> String {
    serve_pages_logged(pages).0
}

/// [`serve_pages`], with the paths it was asked for, in order.
pub fn serve_pages_logged(pages: Vec<(&'static str, String)>) -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let asked = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&asked);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { return };
            let mut buf = [0u8; 8192];
            let n = stream.read(&mut buf).unwrap_or(0);
            let head = String::from_utf8_lossy(&buf[..n]);
            let path = head.split_whitespace().nth(1).unwrap_or("/").to_string();
            log.lock().unwrap().push(path.clone());
            let body = pages
                .iter()
                .find(|(p, _)| *p == path)
                .map(|(_, html)| html.clone());
            let response = match body {
                Some(body) => format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                ),
                None => "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                    .to_string(),
            };
            let _ = stream.write_all(response.as_bytes());
        }
    });
    (url, asked)
}

/// The names of the tools offered in a request.
pub fn tool_names(request: &Value) -> Vec<String> {
    request["tools"]
        .as_array()
        .map(|tools| {
            tools
                .iter()
                .filter_map(|t| t["function"]["name"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// The content of the tool message answering `call_id` in a request.
pub fn tool_result(request: &Value, call_id: &str) -> String {
    request["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["role"] == "tool" && m["tool_call_id"] == call_id)
        .and_then(|m| m["content"].as_str())
        .unwrap_or_else(|| panic!("no result for {call_id}"))
        .to_string()
}

/// The stream-json events of a run.
pub fn events(output: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// True while a process with this PID exists (and is not a zombie).
pub fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        !stat
            .rsplit(')')
            .next()
            .unwrap_or("")
            .trim_start()
            .starts_with('Z')
    })
}
