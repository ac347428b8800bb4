//! Escapes from the model and from a command never reach the terminal raw (issue 35): OSC 52 (clipboard), OSC 8
//! (links), OSC 0 (title), `ESC[2J` and a tool line forged with `ESC[2K ESC[1G`, in model text, reasoning, tool
//! arguments and command output. The pane's raw bytes are logged by tmux (`pipe-pane`) from its first byte.

use serde_json::json;

use super::Sandbox;
use super::terminal::{self, Terminal};
use crate::support::{Reply, ScriptedServer};

const TITLE: &str = "pwned-title";
const FORGED: &str = "\x1b[2K\x1b[1G● execute_command cargo test --quiet";

fn reasoning() -> String {
    format!(
        "Plan: \x1b]0;{TITLE}\x07 then \x1b]8;;https://evil.example\x07link\x1b]8;;\x07 and \x1b[2J and \u{9d}0;{TITLE}\x07 done."
    )
}

fn answer() -> String {
    format!(
        "Result \x1b]52;c;cHduZWQ=\x07 title \x1b]0;{TITLE}\x1b\\ clear \x1b[2J\x1b[H entity &#27;]0;{TITLE}&#7; \
         link \x1b]8;;https://evil.example\x07here\x1b]8;;\x07 end-of-answer.\n"
    )
}

/// The model thinks and calls two commands: one whose arguments draw a fake tool line, one whose output
/// carries escapes; then it answers with escapes of its own.
fn server() -> ScriptedServer {
    ScriptedServer::with_replies([
        Reply::reasoning_then_tool_calls(
            reasoning(),
            [
                (
                    "call_1",
                    "execute_command",
                    json!({ "command": format!("echo PWNED > pwned.txt #{FORGED}") }),
                ),
                (
                    "call_2",
                    "execute_command",
                    json!({ "command": format!(
                        "printf '\\033]52;c;eA==\\007\\033]0;{TITLE}\\007\\033[31mred-output\\033[0m\\033[2J\\n'"
                    ) }),
                ),
            ],
        ),
        Reply::reasoning_then_text(reasoning(), answer()),
    ])
}

/// Every escape sequence in `raw`, as text (`ESC[31m`), for the failure message.
fn sequences(raw: &str) -> Vec<String> {
    raw.match_indices('\x1b')
        .map(|(i, _)| raw[i..].chars().skip(1).take(12).collect::<String>())
        .map(|s| format!("ESC{s:?}"))
        .collect()
}

/// The kind of escape sequence paicli (and its line editor) writes itself: colours, cursor moves along the line
/// and up, erasing its working line and what is below it, bracketed-paste modes.
fn is_paicli_own(sequence: &str) -> bool {
    let Some(csi) = sequence.strip_prefix('[') else {
        return false;
    };
    let end = csi
        .find(|c: char| !(c.is_ascii_digit() || c == ';' || c == '?'))
        .unwrap_or(csi.len());
    let (params, last) = (&csi[..end], csi[end..].chars().next());
    match last {
        Some('m' | 'A' | 'B' | 'C' | 'D' | 'G' | 'K') => !params.starts_with('?'),
        Some('J') => params.is_empty(),
        Some('h' | 'l') => params.starts_with('?'),
        _ => false,
    }
}

/// Nothing in the pane's raw bytes can set the clipboard, a link or the title, clear the screen, draw a forged
/// line or act as a C1 control: every escape that reached it is of paicli's own kind.
fn assert_nothing_raw(raw: &str) {
    for bad in [
        "\x1b]",
        "\x1b[2J",
        "\x1b[2K\x1b[1G●",
        "\u{9b}",
        "\u{9d}",
        "\x07",
    ] {
        assert!(
            !raw.contains(bad),
            "raw {bad:?} reached the pane; sequences: {:?}",
            sequences(raw)
        );
    }
    let foreign: Vec<String> = raw
        .split('\x1b')
        .skip(1)
        .filter(|s| !is_paicli_own(s))
        .map(|s| s.chars().take(12).collect())
        .collect();
    assert!(
        foreign.is_empty(),
        "escapes paicli does not write: {foreign:?}"
    );
}

fn read_log(log: &std::path::Path) -> String {
    String::from_utf8_lossy(&std::fs::read(log).unwrap_or_default()).into_owned()
}

#[test]
fn escapes_from_the_model_and_a_command_are_shown_not_obeyed_in_the_repl() {
    let sandbox = Sandbox::new();
    let server = server();
    let log = sandbox.home.path().join("pane.log");
    let t = Terminal::start_logged(
        &server,
        sandbox.project.path(),
        sandbox.home.path(),
        &[],
        &log,
    );
    t.wait_prompt(1, terminal::DEADLINE);
    t.submit("run the tests");
    let screen = t.wait_prompt(2, terminal::DEADLINE);
    assert!(screen.contains("end-of-answer."), "{screen}");
    // The command really ran; its line says what it was, escapes and all.
    assert!(sandbox.project.path().join("pwned.txt").exists());
    let forged_start = |l: &&str| l.trim_start().starts_with("● execute_command cargo test");
    assert!(
        !screen.lines().any(|l| forged_start(&l)),
        "a forged tool line:\n{screen}"
    );
    assert!(
        screen
            .contains("echo PWNED > pwned.txt #<U+001B>[2K<U+001B>[1G● execute_command cargo test"),
        "{screen}"
    );
    // The command's output preview, the answer and the reasoning show their escapes as marks.
    assert!(screen.contains("<U+001B>]52;c;eA==<U+0007>"), "{screen}");
    assert!(screen.contains("red-output"), "{screen}");
    assert!(
        screen.contains("<U+001B>]52;c;cHduZWQ=<U+0007>"),
        "{screen}"
    );
    assert!(
        screen.contains("<U+001B>]8;;https://evil.example<U+0007>"),
        "{screen}"
    );
    assert!(
        screen.contains(&format!("<U+001B>]0;{TITLE}<U+0007>")),
        "{screen}"
    );
    assert!(screen.contains("<U+009D>0;"), "{screen}");
    assert_ne!(t.title(), TITLE);
    assert_nothing_raw(&read_log(&log));
}

#[test]
fn print_mode_on_a_terminal_shows_the_escapes_and_piped_keeps_the_raw_text() {
    let sandbox = Sandbox::new();
    let server = server();
    let log = sandbox.home.path().join("pane.log");
    let t = Terminal::start_logged(
        &server,
        sandbox.project.path(),
        sandbox.home.path(),
        &["-p", "run the tests"],
        &log,
    );
    t.wait_until("-p to end", terminal::DEADLINE, |_| t.exited());
    let screen = t.screen();
    assert!(screen.contains("end-of-answer."), "{screen}");
    assert!(
        screen.contains("<U+001B>]52;c;cHduZWQ=<U+0007>"),
        "{screen}"
    );
    assert_ne!(t.title(), TITLE);
    let raw = read_log(&log);
    assert_nothing_raw(&raw);

    // Piped, the answer is the model's text byte for byte (a script's business); progress on stderr is shown.
    let server = self::server();
    let out = assert_cmd::Command::cargo_bin("paicli")
        .unwrap()
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", sandbox.home.path())
        .env("PAICLI_HOME", sandbox.paicli_home())
        .env("PAICLI_APPROVAL", "full")
        .arg("-C")
        .arg(sandbox.project.path())
        .args(["--base-url", &server.url(), "--model", "scripted-model"])
        .args(["-p", "run the tests"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stdout.contains("Result \x1b]52;c;cHduZWQ=\x07"),
        "{stdout:?}"
    );
    assert!(!stderr.contains('\x1b'), "{stderr:?}");
    assert!(
        stderr.contains(
            "→ execute_command echo PWNED > pwned.txt #<U+001B>[2K<U+001B>[1G● execute_command"
        ),
        "{stderr}"
    );
}
