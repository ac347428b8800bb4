//! A real terminal for the REPL: `paicli` inside a private tmux server (unique `-L` socket), driven by
//! `send-keys` and read with `capture-pane`, polled against deadlines. The tmux server dies with the guard.

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use assert_cmd::cargo::cargo_bin;

use crate::support::ScriptedServer;

/// How long any expected screen content may take to appear.
pub const DEADLINE: Duration = Duration::from_secs(20);

/// A tmux session running `paicli`; killed (with its server) on drop.
pub struct Terminal {
    socket: String,
}

fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

impl Terminal {
    /// Starts `paicli -C project --base-url <server> --model scripted-model` with a clean environment. Approval
    /// defaults to `full` (via `PAICLI_APPROVAL`) so the scripted replies are not spent on the auto-mode
    /// classifier; a test that is about approval sets the variable itself.
    pub fn start(
        server: &ScriptedServer,
        project: &Path,
        home: &Path,
        env: &[(&str, &str)],
    ) -> Terminal {
        Terminal::start_with_args(server, project, home, env, &[])
    }

    /// [`Terminal::start`] with extra command-line arguments (`--resume`).
    pub fn start_with_args(
        server: &ScriptedServer,
        project: &Path,
        home: &Path,
        env: &[(&str, &str)],
        args: &[&str],
    ) -> Terminal {
        Terminal::launch(server, project, home, env, args, None)
    }

    /// [`Terminal::start_with_args`], every byte the pane receives appended to `log` from the first one on (the
    /// pipe is set in the same tmux command as the session, so no output comes before it).
    pub fn start_logged(
        server: &ScriptedServer,
        project: &Path,
        home: &Path,
        args: &[&str],
        log: &Path,
    ) -> Terminal {
        Terminal::launch(server, project, home, &[], args, Some(log))
    }

    fn launch(
        server: &ScriptedServer,
        project: &Path,
        home: &Path,
        env: &[(&str, &str)],
        args: &[&str],
        log: Option<&Path>,
    ) -> Terminal {
        require_tmux();
        let socket = format!(
            "paicli-test-{}-{:08x}",
            std::process::id(),
            fastrand::u32(..)
        );
        let bin = cargo_bin("paicli");
        let mut vars = vec![
            (
                "PATH".to_string(),
                std::env::var("PATH").unwrap_or_default(),
            ),
            ("HOME".to_string(), home.display().to_string()),
            (
                "PAICLI_HOME".to_string(),
                home.join(".paicli").display().to_string(),
            ),
            ("LANG".to_string(), "C.UTF-8".to_string()),
            ("PAICLI_APPROVAL".to_string(), "full".to_string()),
        ];
        vars.extend(env.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        let assignments: Vec<String> = vars
            .iter()
            .map(|(k, v)| format!("{k}={}", quote(v)))
            .collect();
        let extra: Vec<String> = args.iter().map(|a| quote(a)).collect();
        let command = format!(
            "env -i TERM=\"$TERM\" {} {} -C {} --base-url {} --model scripted-model {}",
            assignments.join(" "),
            quote(&bin.display().to_string()),
            quote(&project.display().to_string()),
            quote(&server.url()),
            extra.join(" "),
        );
        let terminal = Terminal { socket };
        let pipe = log.map(|log| format!("cat >> {}", quote(&log.display().to_string())));
        let mut tmux_args = vec![
            "-f",
            "/dev/null",
            "new-session",
            "-d",
            "-s",
            "t",
            "-x",
            "110",
            "-y",
            "50",
            &command,
            ";",
            "set-option",
            "-w",
            "-t",
            "t",
            "remain-on-exit",
            "on",
        ];
        if let Some(pipe) = &pipe {
            tmux_args.extend([";", "pipe-pane", "-t", "t", "-O", pipe.as_str()]);
        }
        let out = terminal.tmux(&tmux_args);
        assert!(
            out.status.success(),
            "tmux new-session failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        terminal
    }

    fn tmux(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .expect("run tmux")
    }

    /// Sends tmux key names (`Enter`, `Escape`, `Up`, `C-c`, ...).
    pub fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "t"];
        args.extend_from_slice(keys);
        let out = self.tmux(&args);
        assert!(
            out.status.success(),
            "send-keys: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// Types `text` literally and presses Enter.
    pub fn submit(&self, text: &str) {
        let out = self.tmux(&["send-keys", "-t", "t", "-l", text]);
        assert!(out.status.success());
        self.keys(&["Enter"]);
    }

    /// Pastes `text` as a terminal does with bracketed paste on (the program sees it marked as a paste).
    pub fn paste(&self, text: &str) {
        let out = self.tmux(&["set-buffer", "-b", "p", "--", text]);
        assert!(
            out.status.success(),
            "set-buffer: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let out = self.tmux(&["paste-buffer", "-p", "-b", "p", "-t", "t"]);
        assert!(
            out.status.success(),
            "paste-buffer: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// Resizes the terminal to `columns` × `rows` and waits until the program's terminal has that width.
    pub fn resize(&self, columns: u16, rows: u16) {
        self.resize_now(columns, rows);
        self.wait_until(&format!("{columns} columns"), DEADLINE, |_| {
            self.width() == columns
        });
    }

    /// Resizes the terminal to `columns` × `rows` (the program gets SIGWINCH, as when a person drags the window),
    /// without waiting for the terminal to take the size.
    pub fn resize_now(&self, columns: u16, rows: u16) {
        let (x, y) = (columns.to_string(), rows.to_string());
        let out = self.tmux(&["resize-window", "-t", "t", "-x", &x, "-y", &y]);
        assert!(
            out.status.success(),
            "resize-window: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// The width the program can see: its terminal's own size (tmux reports a pane's new width at once, but
    /// applies a second quick resize to the terminal a moment later).
    pub fn width(&self) -> u16 {
        let out = self.tmux(&["display-message", "-p", "-t", "t", "#{pane_tty}"]);
        let tty = String::from_utf8_lossy(&out.stdout).trim().to_string();
        let size = Command::new("stty")
            .args(["-F", &tty, "size"])
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
            .unwrap_or_default();
        size.split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or(0)
    }

    /// The visible screen only, rows as the terminal shows them (not joined), without the scrollback.
    pub fn rows(&self) -> Vec<String> {
        let out = self.tmux(&["capture-pane", "-p", "-t", "t"]);
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_string)
            .collect()
    }

    /// The screen and scrollback as text.
    pub fn screen(&self) -> String {
        let out = self.tmux(&["capture-pane", "-p", "-J", "-t", "t", "-S", "-500"]);
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Polls until `pred` holds for the screen; panics with the screen after `timeout`.
    pub fn wait_until(&self, what: &str, timeout: Duration, pred: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if pred(&screen) {
                return screen;
            }
            if start.elapsed() > timeout {
                panic!("timed out after {timeout:?} waiting for {what}; screen:\n{screen}");
            }
            std::thread::sleep(Duration::from_millis(15));
        }
    }

    /// Waits until the screen contains `needle`.
    pub fn wait_for(&self, needle: &str) -> String {
        self.wait_until(needle, DEADLINE, |s| s.contains(needle))
    }

    /// Waits until the last non-empty line is the idle prompt and `count` prompts have been shown.
    pub fn wait_prompt(&self, count: usize, timeout: Duration) -> String {
        self.wait_until(&format!("prompt #{count}"), timeout, |s| {
            at_prompt(s) && prompts(s) >= count
        })
    }

    /// The process id of paicli in the pane (`env` execs it, so it is the pane's own process).
    pub fn pid(&self) -> u32 {
        let out = self.tmux(&["display-message", "-p", "-t", "t", "#{pane_pid}"]);
        String::from_utf8_lossy(&out.stdout)
            .trim()
            .parse()
            .expect("pane pid")
    }

    /// The pane's title (what an OSC 0 / OSC 2 sequence would set).
    pub fn title(&self) -> String {
        let out = self.tmux(&["display-message", "-p", "-t", "t", "#{pane_title}"]);
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// Whether the pane's process has exited.
    pub fn exited(&self) -> bool {
        let out = self.tmux(&["display-message", "-p", "-t", "t", "#{pane_dead}"]);
        String::from_utf8_lossy(&out.stdout).trim() == "1"
    }
}

/// Lines showing the prompt (with or without input after it).
pub fn prompts(screen: &str) -> usize {
    screen.lines().filter(|l| l.starts_with('›')).count()
}

/// Whether the last non-empty line is an empty prompt.
pub fn at_prompt(screen: &str) -> bool {
    screen
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .is_some_and(|l| l.trim_end() == "›")
}

impl Drop for Terminal {
    fn drop(&mut self) {
        let _ = self.tmux(&["kill-server"]);
    }
}

/// tmux is installed by `.ci/run`; without it these tests fail loudly rather than skip.
fn require_tmux() {
    let ok = Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        ok,
        "tmux is required for the REPL tests (.ci/run installs it with apt)"
    );
}
