//! What a turn shows while it runs: the answer streaming inside a paragraph, the working line during a model
//! delay and a running command, a command's output preview, Ctrl+O; and `-p` output without any of it.

use std::time::Duration;

use serde_json::json;

use super::Sandbox;
use super::terminal;
use crate::support::{Reply, ScriptedServer};

const WORDS: &str = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november \
                     oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu";

#[test]
fn a_paragraph_streams_word_by_word_before_it_ends() {
    let sandbox = Sandbox::new();
    // About 700 chars in 4-char frames, 20 ms apart: over 3 s for one paragraph.
    let paragraph = format!("{WORDS} {WORDS} {WORDS} {WORDS} end-of-paragraph.");
    let frames = paragraph.len() / 4;
    let server = ScriptedServer::with_replies([
        Reply::text(paragraph).chunk_delay(Duration::from_millis(20))
    ]);
    let t = sandbox.start(&server);
    t.submit("tell me the alphabet");
    let reply = server.reply(0);
    reply.wait_sent_blocking(frames / 3);
    let early = t.screen();
    reply.wait_sent_blocking(frames * 2 / 3);
    let later = t.screen();
    assert!(
        reply.sent() < frames,
        "the reply ended before the second capture"
    );
    let count = |s: &str| s.matches("alpha").count();
    assert!(
        count(&early) >= 1 && !early.contains("end-of-paragraph"),
        "{early}"
    );
    assert!(
        count(&later) > count(&early),
        "early:\n{early}\nlater:\n{later}"
    );
    let done = t.wait_prompt(2, terminal::DEADLINE);
    assert!(done.contains("end-of-paragraph."), "{done}");
    // Word-wrapped at the 110-column terminal: no line is longer, and no word is split.
    let answer: Vec<&str> = done.lines().filter(|l| l.contains("golf")).collect();
    assert!(answer.len() >= 4, "{done}");
    for line in answer {
        assert!(line.chars().count() <= 110, "{line}");
        assert!(
            line.ends_with(|c: char| c.is_ascii_lowercase() || c == '.'),
            "{line:?}"
        );
    }
    assert!(done.contains("alpha bravo"), "{done}");
}

#[test]
fn the_working_line_moves_during_a_model_delay_and_shows_a_running_commands_output() {
    let sandbox = Sandbox::new();
    let marker = format!("paicli-tail-{:08x}", fastrand::u32(..));
    let command =
        format!("for i in 1 2 3 4 5; do echo {marker}-$i; done; sleep 2.5; echo done-{marker}");
    let server = ScriptedServer::with_replies([
        // A slow first frame: eight frames 400 ms apart, over 3 s of waiting for the model.
        Reply::tool_calls([("call_1", "execute_command", json!({ "command": command }))])
            .chunk_delay(Duration::from_millis(400)),
        Reply::text("All done."),
    ]);
    let t = sandbox.start(&server);
    t.submit("run it");
    let first = t.wait_for("waiting for the model");
    let spinner_line = |s: &str| {
        s.lines()
            .find(|l| l.contains("waiting for the model"))
            .map(str::to_string)
    };
    let before = spinner_line(&first);
    let moved = t.wait_until("the working line to move", terminal::DEADLINE, |s| {
        spinner_line(s).is_some_and(|l| Some(&l) != before.as_ref())
    });
    assert!(spinner_line(&moved).is_some(), "{moved}");

    let running = t.wait_for(&format!("{marker}-5"));
    assert!(running.contains("running for i in"), "{running}");
    assert!(running.contains(&format!("│ {marker}-3")), "{running}");
    assert!(!running.contains(&format!("│ {marker}-2")), "{running}");
    let elapsed = |s: &str| {
        s.lines()
            .find(|l| l.contains("running for i in"))
            .map(str::to_string)
    };
    let seen = elapsed(&running);
    t.wait_until("the elapsed time to change", terminal::DEADLINE, |s| {
        elapsed(s).is_some_and(|l| Some(&l) != seen.as_ref())
    });

    let done = t.wait_prompt(2, terminal::DEADLINE);
    assert!(done.contains("All done."), "{done}");
    assert!(
        !done.contains("esc to stop"),
        "the working line stayed:\n{done}"
    );
    // The result line previews the first output lines.
    assert!(done.contains(&format!("    {marker}-1")), "{done}");
    assert!(done.contains("more lines (ctrl+o to expand)"), "{done}");

    // Ctrl+O shows the whole output, and the prompt comes back with the line being typed intact.
    t.keys(&["-l", "draft"]);
    t.keys(&["C-o"]);
    // The command line on screen names `done-…` too (`echo done-…`): wait for the output's own lines, which
    // only the expanded view shows (the preview stops at the third).
    let output_line = |s: &str, text: &str| {
        s.lines()
            .any(|l| l.trim_end().ends_with(text) && !l.contains("echo"))
    };
    t.wait_until("the expanded output", terminal::DEADLINE, |s| {
        output_line(s, &format!("{marker}-5")) && output_line(s, &format!("done-{marker}"))
    });
    t.wait_until("the draft back at the prompt", terminal::DEADLINE, |s| {
        s.lines().rev().find(|l| !l.trim().is_empty()) == Some("› draft")
    });
}

#[test]
fn print_mode_output_has_no_working_line() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "call_1",
            "execute_command",
            json!({ "command": "echo one; echo two" }),
        )])
        .chunk_delay(Duration::from_millis(300)),
        Reply::text("Finished **now**."),
    ]);
    let out = assert_cmd::Command::cargo_bin("paicli")
        .unwrap()
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", sandbox.home.path())
        .env("PAICLI_HOME", sandbox.paicli_home())
        .env("PAICLI_APPROVAL", "full")
        .args(["-C"])
        .arg(sandbox.project.path())
        .args([
            "--base-url",
            &server.url(),
            "--model",
            "scripted-model",
            "-p",
            "go",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("Finished"), "{stdout}");
    for text in [&stdout, &stderr] {
        assert!(!text.contains("esc to stop"), "{text}");
        assert!(!text.contains("waiting for the model"), "{text}");
        assert!(!text.contains('⠋'), "{text}");
        assert!(!text.contains("\x1b[2K"), "{text:?}");
    }
}

#[test]
fn the_working_line_is_cleared_before_an_approval_prompt_and_returns_after() {
    let sandbox = Sandbox::new();
    let marker = format!("paicli-approve-{:08x}", fastrand::u32(..));
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "call_1",
            "execute_command",
            json!({ "command": format!("sleep 1.5; echo {marker} > ran.txt") }),
        )]),
        Reply::text("Approved and done."),
    ]);
    let t = sandbox.start_with(&server, &[("PAICLI_APPROVAL", "ask")]);
    t.submit("write the file");
    let prompt = t.wait_for("Approve?");
    assert!(!prompt.contains("esc to stop"), "{prompt}");
    t.keys(&["y", "Enter"]);
    let running = t.wait_for("running sleep 1.5");
    assert!(running.contains("esc to stop"), "{running}");
    let done = t.wait_prompt(2, terminal::DEADLINE);
    assert!(done.contains("Approved and done."), "{done}");
    assert!(!done.contains("esc to stop"), "{done}");
}

#[test]
fn ctrl_o_pages_a_result_taller_than_the_screen_and_the_prompt_comes_back() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "call_1",
            "execute_command",
            json!({ "command": "seq 1 300" }),
        )]),
        Reply::text("Counted."),
    ]);
    let t = sandbox.start_with(&server, &[("PAGER", "less -R")]);
    t.submit("count");
    let done = t.wait_prompt(2, terminal::DEADLINE);
    assert!(
        done.contains("… 297 more lines (ctrl+o to expand)"),
        "{done}"
    );
    let line_40 = |s: &str| s.lines().any(|l| l.trim() == "40");
    assert!(!line_40(&done), "{done}");
    t.keys(&["-l", "typed"]);
    t.keys(&["C-o"]);
    t.wait_until("the pager", terminal::DEADLINE, line_40);
    t.keys(&["q"]);
    let back = t.wait_until("the prompt after the pager", terminal::DEADLINE, |s| {
        s.lines().rev().find(|l| !l.trim().is_empty()) == Some("› typed")
    });
    assert!(!line_40(&back), "{back}");
}

#[test]
fn a_chinese_answer_never_starts_a_line_with_a_comma() {
    let sandbox = Sandbox::new();
    // Commas after every character, in both parities, so one of the two paragraphs would put a comma first on
    // some line if wide characters could break before punctuation.
    let odd = "甲，".repeat(90);
    let even = format!("乙{odd}");
    let server = ScriptedServer::with_replies([
        Reply::text(format!("{odd}\n\n{even}")).chunk_delay(Duration::from_millis(2))
    ]);
    let t = sandbox.start(&server);
    t.submit("用中文回答");
    let done = t.wait_prompt(2, terminal::DEADLINE);
    let answer: Vec<&str> = done.lines().filter(|l| l.contains('甲')).collect();
    assert!(answer.len() >= 6, "{done}");
    for line in answer {
        assert!(!line.trim_start().starts_with('，'), "{done}");
    }
}
