use std::sync::{Arc, Mutex};

use super::*;
use crate::agent::{Notice, ToolStatus};

#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A call starting, as the agent announces it: described by the real core tools.
fn started(id: &str, name: &str, arguments: &str) -> AgentEvent {
    let root = std::path::Path::new("/project");
    let spill = crate::tools::SpillStore::new(root, true, 32_000);
    let tools = crate::tools::ToolRegistry::with_tools(crate::tools::core_tools(
        &crate::tools::ToolLimits::default(),
        &spill,
    ));
    tools.started_event(id, name, arguments, root)
}

fn raw_surface() -> Surface {
    Surface {
        newline: "\r\n",
        ..Surface::plain(60)
    }
}

fn output(out: &Shared) -> String {
    let bytes = out.0.lock().unwrap_or_else(|e| e.into_inner()).clone();
    String::from_utf8_lossy(&bytes).into_owned()
}

fn live_sink() -> (TerminalSink, Shared, LastExpandable) {
    let out = Shared::default();
    let last = LastExpandable::default();
    let sink = TerminalSink::new(raw_surface(), Lang::En, Box::new(out.clone()))
        .with_expandable(last.clone())
        .with_live_state();
    (sink, out, last)
}

/// What a terminal shows after `text`: a small emulator of the sequences the sink writes (one cell per char).
fn screen(text: &str) -> Vec<String> {
    let mut rows: Vec<Vec<char>> = vec![Vec::new()];
    let (mut r, mut c) = (0usize, 0usize);
    let mut chars = text.chars().peekable();
    while let Some(ch) = chars.next() {
        match ch {
            '\r' => c = 0,
            '\n' => {
                r += 1;
                if rows.len() <= r {
                    rows.push(Vec::new());
                }
            }
            '\x1b' => {
                chars.next(); // '['
                let mut n = String::new();
                let mut end = ' ';
                for d in chars.by_ref() {
                    if d.is_ascii_digit() {
                        n.push(d);
                    } else {
                        end = d;
                        break;
                    }
                }
                let n: usize = n.parse().unwrap_or(0);
                match end {
                    'A' => r = r.saturating_sub(n.max(1)),
                    'G' => c = n.saturating_sub(1),
                    'K' => rows[r].clear(),
                    'J' => {
                        rows[r].truncate(c);
                        rows.truncate(r + 1);
                    }
                    _ => {}
                }
            }
            _ => {
                let row = &mut rows[r];
                while row.len() < c {
                    row.push(' ');
                }
                if c < row.len() {
                    row[c] = ch;
                } else {
                    row.push(ch);
                }
                c += 1;
            }
        }
    }
    rows.into_iter()
        .map(|row| row.into_iter().collect())
        .collect()
}

#[test]
fn the_working_line_is_cleared_before_every_write_and_gone_at_the_end() {
    let (sink, out, _) = live_sink();
    sink.emit(AgentEvent::RequestStarted { iteration: 1 });
    let shown = screen(&output(&out));
    assert!(shown[0].contains("waiting for the model"), "{shown:?}");
    sink.emit(AgentEvent::Notice {
        notice: Notice::Note {
            text: "hello".into(),
        },
    });
    let shown = screen(&output(&out));
    assert_eq!(shown[0], "! note: hello");
    assert!(shown[1].contains("waiting for the model"), "{shown:?}");
    sink.emit(AgentEvent::TurnFinished {
        text: String::new(),
    });
    sink.finish();
    assert_eq!(screen(&output(&out)), vec!["! note: hello", ""]);
}

#[test]
fn a_running_command_shows_its_last_three_output_lines_live() {
    let (sink, out, _) = live_sink();
    sink.emit(started("c1", "execute_command", r#"{"command":"seq 5"}"#));
    for i in 1..=5 {
        sink.emit(AgentEvent::ToolOutput {
            id: "c1".into(),
            line: i.to_string(),
        });
    }
    sink.tick();
    let shown = screen(&output(&out));
    assert_eq!(shown[0], "● execute_command seq 5");
    assert!(shown[1].contains("running seq 5"), "{shown:?}");
    assert_eq!(&shown[2..], ["  │ 3", "  │ 4", "  │ 5"]);
}

#[test]
fn a_command_result_previews_its_output_and_keeps_it_for_expansion() {
    let (sink, out, last) = live_sink();
    let text: String = (1..=5).map(|i| format!("{i}\n")).collect();
    sink.emit(started("c1", "execute_command", r#"{"command":"seq 5"}"#));
    sink.emit(AgentEvent::ToolCallOutput {
        id: "c1".into(),
        text: text.clone(),
    });
    sink.emit(AgentEvent::ToolCallFinished {
        id: "c1".into(),
        name: "execute_command".into(),
        status: ToolStatus::Ok,
        detail: String::new(),
        duration_ms: 12,
        output_chars: 10,
        diff: None,
    });
    sink.emit(AgentEvent::TurnFinished {
        text: String::new(),
    });
    sink.finish();
    assert_eq!(
        screen(&output(&out)),
        vec![
            "● execute_command seq 5",
            "  ⎿ execute_command ok · 12 ms · 10 chars",
            "    1",
            "    2",
            "    3",
            "    … 2 more lines (ctrl+o to expand)",
            ""
        ]
    );
    assert_eq!(
        last.get(),
        Some(Expandable {
            title: "● execute_command seq 5".into(),
            text
        })
    );
}

#[test]
fn reasoning_wraps_at_words_with_the_working_line_under_it() {
    let (sink, out, _) = live_sink();
    sink.emit(AgentEvent::ReasoningDelta {
        text: "first I read the files then I check which of the tests that fail and".into(),
    });
    let shown = screen(&output(&out));
    assert_eq!(
        &shown[..3],
        [
            "✻ Thinking…",
            "first I read the files then I check which of the tests that",
            "fail"
        ]
    );
    assert!(shown[3].contains("thinking"), "{shown:?}");
}

#[test]
fn an_approval_prompt_suspends_the_working_line_and_the_phase_comes_back() {
    let (sink, out, _) = live_sink();
    sink.emit(started("c1", "execute_command", r#"{"command":"make"}"#));
    let live = sink.live_handle();
    live.suspend();
    sink.tick();
    assert_eq!(screen(&output(&out)), vec!["● execute_command make", ""]);
    live.resume();
    let shown = screen(&output(&out));
    assert!(shown[1].contains("running make"), "{shown:?}");
    live.set_input_preview(Some(TypedAhead {
        line: "draft".into(),
        queued: vec!["next task".into(), "/cost".into()],
    }));
    let shown = screen(&output(&out));
    assert_eq!(shown[2], "  queued (+1 more) › next task");
    assert_eq!(shown[3], "  › draft");
    live.set_input_preview(Some(TypedAhead {
        line: String::new(),
        queued: vec!["/cost".into()],
    }));
    let shown = screen(&output(&out));
    assert_eq!(shown[2], "  queued › /cost (runs when the task ends)");
}

#[test]
fn the_answer_grows_word_by_word_on_a_terminal_with_the_working_line_under_it() {
    let (sink, out, _) = live_sink();
    sink.emit(AgentEvent::TextDelta {
        text: "Hello wor".into(),
    });
    let shown = screen(&output(&out));
    assert_eq!(shown[0], "Hello");
    assert!(shown[1].contains("writing the answer"), "{shown:?}");
    sink.emit(AgentEvent::TextDelta {
        text: "ld and".into(),
    });
    let shown = screen(&output(&out));
    assert_eq!(
        shown[0], "Hello world",
        "the line grows in place: {shown:?}"
    );
    assert!(shown[1].contains("writing the answer"), "{shown:?}");
    assert_eq!(shown.len(), 2, "{shown:?}");
    sink.finish();
    assert_eq!(screen(&output(&out)), vec!["Hello world and", "", ""]);
}

fn run(events: Vec<AgentEvent>) -> String {
    let out = Shared::default();
    let sink = TerminalSink::new(raw_surface(), Lang::En, Box::new(out.clone()));
    for e in events {
        sink.emit(e);
    }
    sink.finish();
    let bytes = out.0.lock().unwrap_or_else(|e| e.into_inner()).clone();
    String::from_utf8_lossy(&bytes).into_owned()
}

#[test]
fn blank_reasoning_prints_no_thinking_heading() {
    let text = run(vec![
        AgentEvent::ReasoningDelta {
            text: "\n  ".into(),
        },
        AgentEvent::TextDelta {
            text: "Hi.\n".into(),
        },
    ]);
    assert_eq!(text, "Hi.\r\n\r\n");
}

#[test]
fn reasoning_then_answer_then_tool_use_raw_mode_line_endings() {
    let text = run(vec![
        AgentEvent::ReasoningDelta {
            text: "step one\nstep".into(),
        },
        AgentEvent::ReasoningDelta {
            text: " two".into(),
        },
        AgentEvent::TextDelta {
            text: "Reading".into(),
        },
        started("c", "read_file", r#"{"path":"a.txt"}"#),
        AgentEvent::ToolCallFinished {
            id: "c".into(),
            name: "read_file".into(),
            status: ToolStatus::Ok,
            detail: String::new(),
            duration_ms: 5,
            output_chars: 12,
            diff: None,
        },
        AgentEvent::TurnCancelled,
    ]);
    assert_eq!(
        text,
        "✻ Thinking…\r\nstep one\r\nstep two\r\nReading\r\n\r\n● read_file a.txt\r\n  ⎿ read_file ok · 5 ms · 12 chars\r\n\
         ⏹ cancelled by user\r\n"
    );
    assert!(
        !text.replace("\r\n", "").contains('\n'),
        "bare LF in raw mode"
    );
}

#[test]
fn notices_are_worded_in_the_sessions_language() {
    let out = Shared::default();
    let sink = TerminalSink::new(Surface::plain(200), Lang::Zh, Box::new(out.clone()));
    for notice in [
        Notice::RunawayReminder,
        Notice::LedgerNotWritten {
            error: "disk full".into(),
        },
        Notice::McpStarting {
            server: "gh".into(),
        },
    ] {
        sink.emit(AgentEvent::Notice { notice });
    }
    sink.finish();
    assert_eq!(
        output(&out),
        "! 失控保护：模型一直在重复自己；已提醒它换个做法\n\
         ! 会话记录写入失败；恢复会话时可能缺少本轮：disk full\n\
         ! MCP 服务器 `gh` 仍在启动；就绪后会加入它的工具\n"
    );
}

#[test]
fn a_long_diff_after_a_write_is_folded_in_the_sessions_language() {
    let out = Shared::default();
    let sink = TerminalSink::new(Surface::plain(200), Lang::Zh, Box::new(out.clone()));
    let new: String = (1..=60).map(|i| format!("line {i}\n")).collect();
    sink.emit(started("w1", "write_file", r#"{"path":"a.txt"}"#));
    sink.emit(AgentEvent::ToolCallFinished {
        id: "w1".into(),
        name: "write_file".into(),
        status: crate::protocol::ToolStatus::Ok,
        detail: String::new(),
        duration_ms: 5,
        output_chars: 0,
        diff: Some(crate::ui::render::unified_diff("", &new)),
    });
    sink.finish();
    let text = output(&out);
    assert!(text.contains("… 还有 21 行"), "{text}");
    assert!(!text.contains("more lines"), "{text}");
}

// plan: the task list above the working line and the tagged lines of the sub-agents.

fn two_task_plan() -> crate::protocol::plan::Plan {
    use crate::protocol::plan::{Plan, PlanTask};
    let task = |id: &str, title: &str| PlanTask {
        id: id.into(),
        title: title.into(),
        description: String::new(),
        depends_on: Vec::new(),
    };
    Plan {
        goal: "g".into(),
        tasks: vec![task("A", "Read the code"), task("B", "Write hello")],
    }
}

fn task_event(task: &str, event: AgentEvent) -> AgentEvent {
    AgentEvent::PlanTaskEvent {
        task_id: task.into(),
        event: Box::new(event),
    }
}

#[test]
fn the_task_list_updates_in_place_above_the_working_line() {
    use crate::protocol::plan::TaskState;
    let (sink, out, _) = live_sink();
    sink.emit(AgentEvent::PlanProposed {
        plan: two_task_plan(),
        revision: 0,
    });
    // Proposed only (under review): no list yet.
    assert!(screen(&output(&out)).iter().all(|r| !r.contains("pending")));
    sink.emit(AgentEvent::PlanTaskStarted {
        task_id: "A".into(),
        title: "Read the code".into(),
    });
    let shown = screen(&output(&out));
    assert_eq!(shown[0], "[A] ▶ Read the code");
    assert_eq!(shown[1], "◐ A  Read the code · running");
    assert_eq!(shown[2], "○ B  Write hello · pending");
    assert!(shown[3].contains("waiting for the model"), "{shown:?}");
    sink.emit(AgentEvent::PlanTaskFinished {
        task_id: "A".into(),
        state: TaskState::Done,
        summary: "Found **main**.".into(),
    });
    let shown = screen(&output(&out));
    assert_eq!(shown[1], "[A] ✓ A  Read the code · done");
    assert_eq!(shown[2], "    Found main.");
    assert_eq!(shown[3], "✓ A  Read the code · done");
    assert_eq!(shown[4], "○ B  Write hello · pending");
    sink.emit(AgentEvent::PlanFinished {
        outcomes: vec![crate::protocol::plan::PlanTaskOutcome {
            task_id: "A".into(),
            title: "Read the code".into(),
            state: TaskState::Done,
            summary: "Found main.\nMore.".into(),
        }],
    });
    sink.finish();
    let shown = screen(&output(&out));
    assert_eq!(
        shown[3..],
        [
            "Plan finished: 1 of 1 tasks done",
            "✓ A  Read the code · done",
            "    Found main.",
            ""
        ]
    );
}

#[test]
fn sub_agent_calls_are_tagged_and_their_answers_are_not_streamed() {
    let text = run(vec![
        AgentEvent::PlanProposed {
            plan: two_task_plan(),
            revision: 0,
        },
        task_event("B", started("c1", "read_file", r#"{"path":"src/x.rs"}"#)),
        task_event(
            "A",
            AgentEvent::TextDelta {
                text: "streamed words".into(),
            },
        ),
        task_event(
            "B",
            AgentEvent::ToolCallFinished {
                id: "c1".into(),
                name: "read_file".into(),
                status: ToolStatus::Cancelled,
                detail: String::new(),
                duration_ms: 3,
                output_chars: 0,
                diff: None,
            },
        ),
    ]);
    assert!(text.contains("[B] ● read_file src/x.rs"), "{text}");
    assert!(text.contains("[B]   ⎿ read_file aborted"), "{text}");
    assert!(!text.contains("streamed words"), "{text}");
}

#[test]
fn what_a_parallel_task_prints_during_a_prompt_waits_for_the_answer() {
    let (sink, out, _) = live_sink();
    let live = sink.live_handle();
    live.suspend();
    let before = output(&out);
    sink.emit(task_event(
        "C",
        started("c2", "read_file", r#"{"path":"b.txt"}"#),
    ));
    assert_eq!(output(&out), before, "nothing is written under the prompt");
    live.resume();
    let shown = screen(&output(&out));
    assert_eq!(shown[0], "[C] ● read_file b.txt");
    assert!(
        shown[1].contains("running [C] read_file b.txt"),
        "{shown:?}"
    );
}

#[test]
fn the_line_comes_back_only_when_the_last_waiting_prompt_is_answered() {
    let (sink, out, _) = live_sink();
    let (first, second) = (sink.live_handle(), sink.live_handle());
    first.suspend();
    second.suspend();
    sink.emit(AgentEvent::Notice {
        notice: Notice::Note {
            text: "later".into(),
        },
    });
    first.resume();
    assert!(
        !output(&out).contains("later"),
        "the second prompt still owns the screen"
    );
    second.resume();
    let shown = screen(&output(&out));
    assert_eq!(shown[0], "! note: later");
    assert!(shown[1].contains("waiting for the model"), "{shown:?}");
}

#[test]
fn the_live_handle_names_the_task_of_each_running_call_until_it_finishes() {
    let (sink, _, _) = live_sink();
    let live = sink.live_handle();
    let in_task = |task: &str, call: &str| {
        task_event(task, started(call, "write_file", r#"{"path":"out.txt"}"#))
    };
    sink.emit(in_task("B", "b-write"));
    sink.emit(in_task("C", "c-write"));
    // The lead's own call belongs to no task.
    sink.emit(started("lead", "read_file", r#"{"path":"a.txt"}"#));
    assert_eq!(live.task_of("b-write").as_deref(), Some("B"));
    assert_eq!(live.task_of("c-write").as_deref(), Some("C"));
    assert_eq!(live.task_of("lead"), None);
    sink.emit(task_event(
        "B",
        AgentEvent::ToolCallFinished {
            id: "b-write".into(),
            name: "write_file".into(),
            status: ToolStatus::Ok,
            detail: String::new(),
            duration_ms: 3,
            output_chars: 0,
            diff: None,
        },
    ));
    assert_eq!(live.task_of("b-write"), None);
    assert_eq!(live.task_of("c-write").as_deref(), Some("C"));
    // Two running tasks' calls with one id: neither is named.
    sink.emit(in_task("D", "c-write"));
    assert_eq!(live.task_of("c-write"), None);
}

#[test]
fn parallel_tasks_command_output_is_tagged_under_the_working_line() {
    let (sink, out, _) = live_sink();
    for task in ["B", "C"] {
        sink.emit(task_event(
            task,
            started("run", "execute_command", r#"{"command":"count"}"#),
        ));
    }
    for (task, line) in [("B", "bee 1"), ("C", "sea 1"), ("B", "bee 2")] {
        sink.emit(task_event(
            task,
            AgentEvent::ToolOutput {
                id: "run".into(),
                line: line.into(),
            },
        ));
    }
    sink.tick();
    let shown = screen(&output(&out));
    assert_eq!(shown[0], "[B] ● execute_command count");
    assert_eq!(shown[1], "[C] ● execute_command count");
    assert!(
        shown[2].contains("running [C] execute_command count"),
        "{shown:?}"
    );
    assert_eq!(
        &shown[3..6],
        ["  │ [B] bee 1", "  │ [B] bee 2", "  │ [C] sea 1"]
    );
}

// hooks

#[test]
fn a_running_hook_shows_on_the_working_line_and_the_call_comes_back_after_it() {
    let (sink, out, _) = live_sink();
    sink.emit(started("c1", "execute_command", r#"{"command":"make"}"#));
    sink.emit(AgentEvent::HookStarted {
        hook_event: "PreToolUse".into(),
        command: "./check.sh".into(),
    });
    sink.tick();
    let shown = screen(&output(&out));
    assert!(
        shown[1].contains("running hook PreToolUse: ./check.sh"),
        "{shown:?}"
    );
    sink.emit(AgentEvent::HookFinished {
        hook_event: "PostToolUse".into(),
        command: "./fmt.sh".into(),
        outcome: crate::protocol::HookOutcome::Blocked,
        reason: "fix the format".into(),
        duration_ms: 3,
    });
    let shown = screen(&output(&out));
    assert!(
        shown
            .iter()
            .any(|l| l == "! a PostToolUse hook blocked: fix the format"),
        "{shown:?}"
    );
    sink.tick();
    let shown = screen(&output(&out));
    assert!(
        shown.last().is_some_and(|l| l.contains("running make")),
        "{shown:?}"
    );
}

fn read_finished(id: &str, chars: usize) -> AgentEvent {
    AgentEvent::ToolCallFinished {
        id: id.into(),
        name: "read_file".into(),
        status: ToolStatus::Ok,
        detail: String::new(),
        duration_ms: 1,
        output_chars: chars,
        diff: None,
    }
}

#[test]
fn parallel_results_print_in_call_order_and_name_their_file() {
    let text = run(vec![
        started("a", "read_file", r#"{"path":"a.txt"}"#),
        started("b", "read_file", r#"{"path":"b.txt"}"#),
        // The second call finishes first.
        read_finished("b", 22),
        read_finished("a", 11),
        AgentEvent::TurnFinished {
            text: String::new(),
        },
    ]);
    assert_eq!(
        text,
        "● read_file a.txt\r\n● read_file b.txt\r\n  ⎿ read_file a.txt ok · 1 ms · 11 chars\r\n  ⎿ read_file b.txt ok · \
         1 ms · 22 chars\r\n"
    );
}

#[test]
fn a_result_held_for_an_earlier_call_prints_when_the_turn_stops() {
    let text = run(vec![
        started("a", "read_file", r#"{"path":"a.txt"}"#),
        started("b", "read_file", r#"{"path":"b.txt"}"#),
        read_finished("b", 22),
        AgentEvent::TurnCancelled,
    ]);
    assert!(
        text.contains("⎿ read_file b.txt ok · 1 ms · 22 chars\r\n⏹ cancelled by user"),
        "{text}"
    );
}
