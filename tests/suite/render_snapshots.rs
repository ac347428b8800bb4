//! What the REPL prints, as snapshots: Markdown (whole and streamed at awkward splits), tool lines, diffs.

#![allow(clippy::unwrap_used)]

use std::time::Duration;

use paicli::agent::{AgentEvent, DiagnosticsFile, EventSink, Notice, ToolStatus};
use paicli::llm::Usage;
use paicli::text::Lang;
use paicli::tools::{SpillStore, ToolLimits, ToolRegistry, core_tools};
use paicli::ui::render::{
    MarkdownStream, Phase, StatusInfo, Style, Surface, TerminalSink, ToolResultView, TypedAhead,
    WorkingLine, diagnostics_line, render_diff, render_markdown, status_line_in,
    tool_finished_line, tool_result_lines, tool_started_line,
};

const DOC: &str = "\
# Release notes

Intro with *emphasis*, **strong** and `code`, plus a [link](https://example.com).

## Steps

1. Build the project
2. Run the tests
   - unit
   - integration
3. Ship it

- [x] done item
- [ ] open item

> A quote
> over two lines.

```rust
fn main() {

    println!(\"hi\");
}
```

| 模块 | 说明 | Status |
|:-----|:----:|-------:|
| 渲染器 | 流式 Markdown 渲染，表格按显示宽度对齐 | ok |
| cancel | ESC watcher | 进行中 |

---

Done.
";

fn plain(text: &str, width: usize) -> String {
    render_markdown(text, width, Style::new(false)).join("\n")
}

/// Feeds `pieces` through a stream and collects every line it prints.
fn streamed(pieces: &[&str], width: usize) -> String {
    let mut s = MarkdownStream::new(width, Style::new(false));
    let mut lines = Vec::new();
    for p in pieces {
        lines.extend(s.push(p));
    }
    lines.extend(s.finish());
    lines.join("\n")
}

fn visible_escapes(text: &str) -> String {
    text.replace('\x1b', "\\e")
}

#[test]
fn markdown_document() {
    insta::assert_snapshot!(plain(DOC, 80));
}

#[test]
fn cjk_table_fitted_to_a_narrow_terminal() {
    let table = "| 名称 | 描述 |\n|---|---|\n| 渲染器 | 流式 Markdown 渲染，表格按显示宽度对齐，过长的单元格会换行 |\n| esc | a lone ESC cancels within 200 ms |\n";
    let out = plain(table, 36);
    for line in out.lines() {
        assert!(unicode_width::UnicodeWidthStr::width(line) <= 36, "{line}");
    }
    insta::assert_snapshot!(out);
}

#[test]
fn streamed_message_split_at_awkward_points() {
    // Splits inside a fence marker, between the two newlines of a blank line, inside a table row, mid-word.
    let pieces = [
        "# Release no",
        "tes\n",
        "\nIntro with *emph",
        "asis*, **strong** and `code`, plus a [link](https://example.com).\n",
        "\n## Steps\n\n1. Build the project\n2. Run",
        " the tests\n   - unit\n   - integration\n3. Ship it\n",
        "\n",
        "- [x] done item\n- [ ] open item\n\n> A quote\n> over two lines.\n\n``",
        "`rust\nfn main() {\n",
        "\n",
        "    println!(\"hi\");\n}\n`",
        "``\n\n| 模块 | 说明 | Status |\n|:-----|:----:|-------:|\n| 渲染器 | 流式 Markdown",
        " 渲染，表格按显示宽度对齐 | ok |\n| cancel | ESC watcher | 进行中 |\n\n---\n\nDone.",
        "\n",
    ];
    assert_eq!(pieces.concat(), DOC);
    let out = streamed(&pieces, 80);
    assert_eq!(out, plain(DOC, 80));
    insta::assert_snapshot!(out);
}

#[test]
fn streaming_in_any_chunk_size_matches_the_whole_render() {
    let chars: Vec<char> = DOC.chars().collect();
    for size in 1..=9 {
        let pieces: Vec<String> = chars.chunks(size).map(|c| c.iter().collect()).collect();
        let refs: Vec<&str> = pieces.iter().map(String::as_str).collect();
        assert_eq!(streamed(&refs, 80), plain(DOC, 80), "chunk size {size}");
    }
}

#[test]
fn streaming_wrapped_prose_in_any_chunk_size_matches_the_whole_render() {
    let doc = "A paragraph long enough to wrap several times at a narrow width, with **bold words \
               split** across chunks and `inline code` too.\n\n- a list item whose text wraps onto a second \
               line under its bullet\n- 第二项包含中文文本，可以在任意两个字符之间换行。\n\n1. numbered and long enough \
               to wrap as well\n";
    let chars: Vec<char> = doc.chars().collect();
    for width in [24, 31] {
        let whole = plain(doc, width);
        for line in whole.lines() {
            assert!(
                unicode_width::UnicodeWidthStr::width(line) <= width,
                "{line}"
            );
        }
        for size in 1..=7 {
            let pieces: Vec<String> = chars.chunks(size).map(|c| c.iter().collect()).collect();
            let refs: Vec<&str> = pieces.iter().map(String::as_str).collect();
            assert_eq!(
                streamed(&refs, width),
                whole,
                "width {width}, chunk size {size}"
            );
        }
    }
}

/// The start line of a call as the REPL prints it: summed up by the real tool (core tools; anything else, such
/// as an MCP tool, by the usual arguments or its JSON).
fn started(name: &str, arguments: &str, style: Style) -> String {
    let root = std::path::Path::new("/project");
    let spill = SpillStore::new(root, true, 32_000);
    let tools = ToolRegistry::with_tools(core_tools(&ToolLimits::default(), &spill));
    tool_started_line(name, &tools.view_call(name, arguments, root).summary, style)
}

#[test]
fn tool_call_lines() {
    let s = Style::new(false);
    let lines = [
        started("read_file", r#"{"path":"src/main.rs","offset":1}"#, s),
        tool_finished_line("read_file", ToolStatus::Ok, "", 12, 3456, s),
        started("execute_command", r#"{"command":"cargo test\n  --all"}"#, s),
        tool_finished_line(
            "execute_command",
            ToolStatus::Failed,
            "exit status 101: 2 tests failed",
            15_300,
            0,
            s,
        ),
        started("grep_code", r#"{"pattern":"fn main","path":"src"}"#, s),
        tool_finished_line(
            "grep_code",
            ToolStatus::Denied,
            "PATH_OUT_OF_BOUNDS: outside the root",
            0,
            0,
            s,
        ),
        started("execute_command", r#"{"command":"sleep 30"}"#, s),
        tool_finished_line(
            "execute_command",
            ToolStatus::Cancelled,
            "aborted by user",
            410,
            0,
            s,
        ),
        started("mcp__x__y", r#"{"a":1,"b":[true]}"#, s),
        started("web_fetch", "not json", s),
    ];
    insta::assert_snapshot!(lines.join("\n"));
    let colored = [
        started("read_file", r#"{"path":"a.rs"}"#, Style::new(true)),
        tool_finished_line("read_file", ToolStatus::Ok, "", 3, 10, Style::new(true)),
    ];
    insta::assert_snapshot!(
        "tool_call_lines_colored",
        visible_escapes(&colored.join("\n"))
    );
}

#[test]
fn diff_view() {
    let diff = "\
--- a/src/Hello.java
+++ b/src/Hello.java
@@ -1,5 +1,5 @@
 public class Hello {
     public static void main(String[] args) {
-        System.out.println(\"Hello World\");
+        System.out.println(\"Hello PaiCLI\");
     }
 }
";
    insta::assert_snapshot!(render_diff(diff, Style::new(false)).join("\n"));
    insta::assert_snapshot!(
        "diff_view_colored",
        visible_escapes(&render_diff(diff, Style::new(true)).join("\n"))
    );
    let long: String = (0..60).map(|i| format!("+line {i}\n")).collect();
    let folded = render_diff(&format!("@@ -0,0 +1,60 @@\n{long}"), Style::new(false));
    assert_eq!(folded.len(), 41);
    assert_eq!(folded[40], "    … 21 more lines");
}

/// The REPL's result lines, the diagnostics line, the working line and the status line in `lang`.
fn live_lines(lang: Lang) -> String {
    let s = Style::new(false);
    let width = 64;
    let output = (1..=8)
        .map(|i| format!("test case {i} ... ok\n"))
        .collect::<String>();
    let views = [
        ToolResultView {
            about: "",
            name: "execute_command",
            status: ToolStatus::Ok,
            detail: "",
            duration_ms: 1530,
            output_chars: output.len(),
            output: Some(&output),
        },
        ToolResultView {
            about: "",
            name: "execute_command",
            status: ToolStatus::Failed,
            detail: "command exited with code 101\nerror[E0425]: cannot find value `x` in this scope\n  --> src/main.rs:2:5",
            duration_ms: 15_300,
            output_chars: 0,
            output: None,
        },
        ToolResultView {
            about: "",
            name: "write_file",
            status: ToolStatus::Denied,
            detail: "PATH_OUT_OF_BOUNDS: the path /etc/hosts is outside the project root, so the file tools may \
                     not touch it; ask the user to copy it into the project first if it is really needed",
            duration_ms: 0,
            output_chars: 0,
            output: None,
        },
        ToolResultView {
            about: "",
            name: "execute_command",
            status: ToolStatus::Cancelled,
            detail: "aborted by user",
            duration_ms: 410,
            output_chars: 0,
            output: None,
        },
    ];
    let mut lines = Vec::new();
    for view in &views {
        lines.extend(tool_result_lines(view, lang, s, width));
    }
    let files = [
        DiagnosticsFile {
            path: "src/Hello.java".into(),
            problems: 2,
        },
        DiagnosticsFile {
            path: "src/Util.java".into(),
            problems: 1,
        },
    ];
    lines.push(diagnostics_line(&files, lang, s, width));
    let mut working = WorkingLine {
        tokens: 1234,
        input_preview: Some(TypedAhead {
            line: "fix the tests next".into(),
            queued: vec!["then update the docs".into()],
        }),
        ..WorkingLine::default()
    };
    lines.extend(working.render(Duration::from_millis(2300), width, s, lang));
    working.set_phase(Phase::Running {
        id: "c1".into(),
        label: "cargo test".into(),
    });
    for i in 1..=4 {
        working.push_output("c1", &format!("test case {i} ... ok"));
    }
    lines.extend(working.render(Duration::from_millis(12_900), width, s, lang));
    let info = StatusInfo {
        model: "deepseek-chat".into(),
        context: Some((3_000, 128_000)),
        turn: Usage {
            prompt_tokens: 1_200,
            completion_tokens: 80,
            ..Usage::default()
        },
        session: Usage {
            prompt_tokens: 5_400,
            completion_tokens: 300,
            cached_tokens: 1_000,
            ..Usage::default()
        },
        price: None,
        elapsed: Duration::from_millis(2_400),
        mode: Some("auto"),
    };
    lines.push(status_line_in(&info, s, lang));
    lines.join("\n")
}

#[test]
fn tool_lines_working_line_and_status_line_in_english() {
    insta::assert_snapshot!(live_lines(Lang::En));
}

#[test]
fn tool_lines_working_line_and_status_line_in_chinese() {
    let zh = live_lines(Lang::Zh);
    for line in zh.lines() {
        assert!(
            unicode_width::UnicodeWidthStr::width(line) <= 64 || line.contains("deepseek"),
            "{line}"
        );
    }
    insta::assert_snapshot!(zh);
}

/// Warnings and turn endings as the REPL prints them on a 40-column terminal.
fn notices_at_40_columns(lang: Lang) -> String {
    // The sink writes to a file (unbuffered), read back once it is done.
    let out = tempfile::NamedTempFile::new().unwrap();
    let file = out.reopen().unwrap();
    let sink = TerminalSink::new(Surface::plain(40), lang, Box::new(file));
    for notice in [
        Notice::RunawayReminder,
        Notice::McpServerFailed {
            server: "github".into(),
            error: "connection refused by https://api.githubcopilot.com/mcp/".into(),
        },
    ] {
        sink.emit(AgentEvent::Notice { notice });
    }
    sink.emit(AgentEvent::TurnPartial {
        text: String::new(),
        reason: "the iteration budget of 25 rounds was spent".into(),
    });
    sink.emit(AgentEvent::TurnFailed {
        error: "model request failed: 401 Unauthorized: invalid api key".into(),
    });
    drop(sink);
    std::fs::read_to_string(out.path()).unwrap()
}

/// Every line fits the 40 columns, and none is broken inside a word.
fn assert_wrapped_at_40(text: &str) {
    for line in text.lines() {
        assert!(
            unicode_width::UnicodeWidthStr::width(line) <= 40,
            "wider than 40: {line:?}"
        );
    }
    for word in ["repeating", "refused", "iteration", "Unauthorized"] {
        if text.contains(word) {
            assert!(
                text.lines().any(|l| l.contains(word)),
                "`{word}` split:\n{text}"
            );
        }
    }
}

#[test]
fn notices_wrap_at_word_boundaries_in_english() {
    let text = notices_at_40_columns(Lang::En);
    assert_wrapped_at_40(&text);
    insta::assert_snapshot!(text);
}

#[test]
fn notices_wrap_between_characters_in_chinese() {
    let text = notices_at_40_columns(Lang::Zh);
    assert_wrapped_at_40(&text);
    insta::assert_snapshot!(text);
}

mod streaming_props {
    use proptest::prelude::*;

    use super::{DOC, plain, streamed};

    const PROSE: &str = "Some **bold text that spans words**, `code span`, _emphasis_ and a [link](https://x.y) \
                         in one long paragraph that wraps.\n\n- item one with enough words to wrap around\n  \
                         continued line\n- 第二项：中文可以在任意字符之间换行，不需要空格。\n\n1. first\n2. second \
                         with ~~struck~~ words and 2 * 3 = 6\n\n> a quote that is long enough to wrap at narrow \
                         widths too\n\nDone.\n";

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

        /// Any split of the text, at any width, prints exactly the lines of the whole render.
        #[test]
        fn streaming_any_split_matches_the_whole_render(
            doc in prop::sample::select(vec![DOC, PROSE]),
            width in 20usize..100,
            raw_cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..40),
        ) {
            let chars: Vec<char> = doc.chars().collect();
            let mut cuts: Vec<usize> = raw_cuts.iter().map(|i| i.index(chars.len())).collect();
            cuts.sort_unstable();
            cuts.dedup();
            let mut pieces = Vec::new();
            let mut start = 0;
            for cut in cuts.into_iter().chain([chars.len()]) {
                pieces.push(chars[start..cut].iter().collect::<String>());
                start = cut;
            }
            let refs: Vec<&str> = pieces.iter().map(String::as_str).collect();
            prop_assert_eq!(streamed(&refs, width), plain(doc, width));
        }
    }
}

/// A turn whose every untrusted text carries escapes, rendered in colour as the REPL renders it.
fn hostile_turn(lang: Lang) -> String {
    let out = tempfile::NamedTempFile::new().unwrap();
    let file = out.reopen().unwrap();
    let surface = Surface {
        style: Style::new(true),
        ..Surface::plain(60)
    };
    let sink = TerminalSink::new(surface, lang, Box::new(file));
    sink.emit(AgentEvent::ReasoningDelta {
        text: "Plan \x1b]0;title\x07 with \x1b]8;;https://evil.example\x07a link\x1b]8;;\x1b\\"
            .into(),
    });
    sink.emit(AgentEvent::ToolCallStarted {
        id: "c1".into(),
        name: "execute_command".into(),
        arguments: String::new(),
        kind: paicli::protocol::ToolKind::Execute,
        summary: "echo PWNED > pwned.txt #\x1b[2K\x1b[1G● execute_command cargo test --quiet"
            .into(),
    });
    sink.emit(AgentEvent::ToolCallFinished {
        id: "c1".into(),
        name: "execute_command".into(),
        status: ToolStatus::Failed,
        detail: "exit 1\n\x1b[31mred\x1b[0m \x1b]52;c;eA==\x07\rover\u{202E}txt".into(),
        duration_ms: 5,
        output_chars: 0,
        diff: None,
    });
    sink.emit(AgentEvent::ToolCallStarted {
        id: "c2".into(),
        name: "write_file".into(),
        arguments: String::new(),
        kind: paicli::protocol::ToolKind::Edit,
        summary: "src/\u{202E}txt.rs".into(),
    });
    sink.emit(AgentEvent::ToolCallFinished {
        id: "c2".into(),
        name: "write_file".into(),
        status: ToolStatus::Ok,
        detail: String::new(),
        duration_ms: 1,
        output_chars: 3,
        diff: Some("@@ -1 +1 @@\n-a\n+b\x1b[2J\tc\n".into()),
    });
    sink.emit(AgentEvent::Notice {
        notice: Notice::McpServerFailed {
            server: "srv\x1b]0;x\x07".into(),
            error: "down\u{9b}2J".into(),
        },
    });
    for piece in [
        "# Done \x1b]52;c;cHduZWQ=\x07\n\nClear \x1b[2J, entity &#27;]0;t&#7; and `code \x1b[H`.\n\n",
        "```sh\nprintf \x1b[31m\tx\n```\n",
    ] {
        sink.emit(AgentEvent::TextDelta { text: piece.into() });
    }
    sink.emit(AgentEvent::TurnFinished {
        text: String::new(),
    });
    drop(sink);
    std::fs::read_to_string(out.path()).unwrap()
}

#[test]
fn untrusted_text_reaches_the_screen_with_its_escapes_shown_and_only_paicli_colours_raw() {
    for lang in [Lang::En, Lang::Zh] {
        let out = hostile_turn(lang);
        // Every raw escape left is a colour paicli added.
        for (i, _) in out.match_indices('\x1b') {
            let rest = &out[i + 1..];
            let end = rest.find('m').unwrap();
            assert!(
                rest.starts_with('[')
                    && rest[1..end].chars().all(|c| c.is_ascii_digit() || c == ';'),
                "{:?}",
                &rest[..rest.len().min(12)]
            );
        }
        assert!(
            !out.chars()
                .any(|c| ('\u{80}'..='\u{9f}').contains(&c) || c == '\x07' || c == '\r')
        );
        assert!(!out.contains('\u{202E}'));
        assert!(
            !out.lines()
                .any(|l| l.starts_with("● execute_command cargo"))
        );
    }
    insta::assert_snapshot!(visible_escapes(&hostile_turn(Lang::En)));
}
