//! Hooks with Claude Code's contract (see `docs/hooks.md`): the person's own commands run on session events
//! (before and after tool calls, on a prompt, when the agent stops, at session start and end, before compaction)
//! with the event as JSON on stdin, and their exit code and JSON reply steer the session.
//!
//! `config` reads where hooks come from, `matcher` which calls they are for, `runner` runs one command,
//! `reply` reads what it said, `gate` puts `PreToolUse`/`PostToolUse` in the one gate chain, `trust` keeps
//! project hooks off until the person trusts them.

pub mod config;
pub mod event;
pub mod gate;
pub mod lifecycle;
pub mod matcher;
pub mod permissions;
pub mod reply;
pub mod runner;
pub mod trust;

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

use serde_json::{Map, Value, json};

use crate::protocol::{AgentEvent, HookOutcome, HookPermission};
use crate::tools::claude_names;

pub use config::{HookCommand, HookPaths, HookSource, LoadProblem, Origin};
pub use event::HookEvent;
pub use reply::{Decision, Permission};

/// What every hook input names about the session.
#[derive(Clone, Debug, Default)]
pub struct SessionFacts {
    pub session_id: String,
    /// The session ledger.
    pub transcript_path: PathBuf,
    /// Claude Code's name for the approval mode (`default`, `plan`, `bypassPermissions`, …).
    pub permission_mode: String,
}

/// The tool call a tool event is about, in paicli's names.
#[derive(Clone, Copy, Debug)]
pub struct ToolSubject<'a> {
    pub id: &'a str,
    pub name: &'a str,
    pub args: &'a Map<String, Value>,
}

/// What one event fired.
#[derive(Clone, Debug, Default)]
pub struct Fired {
    pub decision: Decision,
    /// The files of the hooks that ran, for audit and the person.
    pub sources: Vec<String>,
}

struct Inner {
    /// The hooks that may run: user hooks, and project hooks once trusted.
    active: Vec<HookCommand>,
    /// Every hook found, for `/hooks`.
    all: Vec<HookCommand>,
    project_trusted: bool,
    problems: Vec<LoadProblem>,
    project_root: PathBuf,
    facts: Mutex<SessionFacts>,
    /// `PreToolUse` permissions for the approval gate, by call id.
    permissions: Mutex<HashMap<String, (HookPermission, String)>>,
    /// Messages for the person from hooks that ran inside a turn (gates cannot send events).
    pending: Mutex<Vec<String>>,
    /// Where hook activity goes while an input runs (see [`Hooks::watch`]).
    watcher: Mutex<Option<tokio::sync::mpsc::UnboundedSender<AgentEvent>>>,
}

/// The session's hooks.
#[derive(Clone)]
pub struct Hooks {
    inner: Arc<Inner>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Hooks {
    /// Loads the hooks of `paths`; project hooks are active only when `project_trusted`.
    pub fn load(paths: &HookPaths, project_trusted: bool) -> Hooks {
        let (all, problems) = config::load_hooks(paths);
        Hooks::from_commands(all, problems, paths.project_root.clone(), project_trusted)
    }

    /// A set of the given hooks (tests and benches build them directly).
    pub fn from_commands(
        all: Vec<HookCommand>,
        problems: Vec<LoadProblem>,
        project_root: PathBuf,
        project_trusted: bool,
    ) -> Hooks {
        let active = all
            .iter()
            .filter(|h| project_trusted || !h.source.origin.is_project())
            .cloned()
            .collect();
        Hooks {
            inner: Arc::new(Inner {
                active,
                all,
                project_trusted,
                problems,
                project_root,
                facts: Mutex::default(),
                permissions: Mutex::default(),
                pending: Mutex::default(),
                watcher: Mutex::default(),
            }),
        }
    }

    /// Every hook found, active or not.
    pub fn all(&self) -> &[HookCommand] {
        &self.inner.all
    }

    /// Whether the project's hooks run.
    pub fn project_trusted(&self) -> bool {
        self.inner.project_trusted
    }

    /// Hook files that could not be read.
    pub fn problems(&self) -> &[LoadProblem] {
        &self.inner.problems
    }

    /// The project hooks that wait for the person's trust.
    pub fn untrusted(&self) -> Vec<&HookCommand> {
        if self.inner.project_trusted {
            return Vec::new();
        }
        self.inner
            .all
            .iter()
            .filter(|h| h.source.origin.is_project())
            .collect()
    }

    /// Whether any active hook is for `event` (a cheap check before building an input).
    pub fn has(&self, event: HookEvent) -> bool {
        self.inner.active.iter().any(|h| h.event == event)
    }

    /// Sets what every input names about the session.
    pub fn set_facts(&self, facts: SessionFacts) {
        *lock(&self.inner.facts) = facts;
    }

    /// Sets the approval mode inputs name.
    pub fn set_permission_mode(&self, mode: &str) {
        lock(&self.inner.facts).permission_mode = mode.to_string();
    }

    /// Sends hook activity (started, finished) to `watcher` while it is set: the session host relays it to the
    /// input's event sink (the working line, `--include-hook-events`).
    pub fn watch(&self, watcher: Option<tokio::sync::mpsc::UnboundedSender<AgentEvent>>) {
        *lock(&self.inner.watcher) = watcher;
    }

    fn tell(&self, event: AgentEvent) {
        if let Some(watcher) = &*lock(&self.inner.watcher) {
            // A closed receiver only means nobody shows it any more.
            let _ = watcher.send(event);
        }
    }

    /// Messages for the person from hooks run since the last call.
    pub fn take_messages(&self) -> Vec<String> {
        std::mem::take(&mut *lock(&self.inner.pending))
    }

    /// Keeps `messages` for the person (from a place that cannot send events).
    pub fn keep_messages(&self, messages: &[String]) {
        lock(&self.inner.pending).extend(messages.iter().cloned());
    }

    pub(crate) fn note_permission(
        &self,
        call_id: &str,
        permission: HookPermission,
        reason: String,
    ) {
        lock(&self.inner.permissions).insert(call_id.to_string(), (permission, reason));
    }

    /// Runs the hooks of `event` whose matcher takes `subject` (a tool's paicli name, a start source, a
    /// trigger; `None` runs all), with `fields` added to the common input; a tool event's hooks see `tool` in
    /// their file's names. Matching hooks run in parallel; the same command runs once.
    pub async fn fire(
        &self,
        event: HookEvent,
        subject: Option<&str>,
        fields: Map<String, Value>,
        tool: Option<ToolSubject<'_>>,
    ) -> Fired {
        let mut seen = HashSet::new();
        let matching: Vec<&HookCommand> = self
            .inner
            .active
            .iter()
            .filter(|h| h.event == event)
            .filter(|h| {
                subject.is_none_or(|s| {
                    let speaks = h.source.origin.speaks_claude() && event.matches_tools();
                    h.matcher.matches(if speaks {
                        claude_names::to_claude_name(s)
                    } else {
                        s
                    })
                })
            })
            .filter(|h| seen.insert((h.command.clone(), h.source.origin.speaks_claude())))
            .collect();
        if matching.is_empty() {
            return Fired::default();
        }
        let facts = lock(&self.inner.facts).clone();
        let root = self.inner.project_root.clone();
        let runs = matching.iter().map(|hook| {
            let input = self.input_for(hook, event, &facts, &fields, tool);
            let root = root.clone();
            async move {
                self.tell(AgentEvent::HookStarted {
                    hook_event: event.name().to_string(),
                    command: hook.command.clone(),
                });
                let started = std::time::Instant::now();
                let env = [
                    ("CLAUDE_PROJECT_DIR", root.as_path()),
                    ("PAICLI_PROJECT_DIR", root.as_path()),
                ];
                let output =
                    runner::run_command(&hook.command, input.as_bytes(), &root, &env, hook.timeout)
                        .await;
                (hook, output, started.elapsed())
            }
        });
        let mut fired = Fired::default();
        for (hook, output, took) in futures_util::future::join_all(runs).await {
            let label = format!(
                "{} hook `{}` ({})",
                event.name(),
                hook.command,
                hook.source.path.display()
            );
            fired.sources.push(hook.source.path.display().to_string());
            let mut reply = match output {
                Ok(output) => reply::read_reply(event, &output),
                Err(e) => reply::Reply {
                    error: Some(format!("could not start: {e}")),
                    ..reply::Reply::default()
                },
            };
            if let (Some(input), Some(tool)) = (reply.updated_input.take(), tool) {
                reply.updated_input = Some(if hook.source.origin.speaks_claude() {
                    claude_names::from_claude_input(tool.name, &input)
                } else {
                    input
                });
            }
            // A project hook may tighten but never allow past an approval (the trust rule).
            if hook.source.origin.is_project()
                && matches!(reply.permission, Some((Permission::Allow, _)))
            {
                reply.permission = None;
            }
            tracing::debug!("{label}: {reply:?}");
            self.tell(finished_event(event, hook, &reply, took));
            fired.decision.add(&label, reply);
        }
        fired
    }

    fn input_for(
        &self,
        hook: &HookCommand,
        event: HookEvent,
        facts: &SessionFacts,
        fields: &Map<String, Value>,
        tool: Option<ToolSubject<'_>>,
    ) -> String {
        let mut input = json!({
            "session_id": facts.session_id,
            "transcript_path": facts.transcript_path,
            "cwd": self.inner.project_root,
            "hook_event_name": event.name(),
            "permission_mode": facts.permission_mode,
        });
        if let Some(map) = input.as_object_mut() {
            if let Some(tool) = tool {
                let claude = hook.source.origin.speaks_claude();
                let (name, args) = if claude {
                    (
                        claude_names::to_claude_name(tool.name).to_string(),
                        claude_names::to_claude_input(tool.name, tool.args),
                    )
                } else {
                    (tool.name.to_string(), tool.args.clone())
                };
                map.insert("tool_name".into(), Value::String(name));
                map.insert("tool_input".into(), Value::Object(args));
                map.insert("tool_use_id".into(), Value::String(tool.id.to_string()));
            }
            map.extend(fields.clone());
        }
        input.to_string()
    }
}

/// The `hook_response` event of `hook` after its `reply`.
fn finished_event(
    event: HookEvent,
    hook: &HookCommand,
    reply: &reply::Reply,
    took: std::time::Duration,
) -> AgentEvent {
    let denied = match &reply.permission {
        Some((Permission::Deny, reason)) => Some(reason.clone()),
        _ => None,
    };
    let (outcome, reason) = match (reply.block.clone().or(denied), &reply.error) {
        (Some(reason), _) => (HookOutcome::Blocked, reason),
        (None, Some(error)) => (HookOutcome::Error, error.clone()),
        (None, None) => (HookOutcome::Success, String::new()),
    };
    AgentEvent::HookFinished {
        hook_event: event.name().to_string(),
        command: hook.command.clone(),
        outcome,
        reason,
        duration_ms: u64::try_from(took.as_millis()).unwrap_or(u64::MAX),
    }
}

/// Claude Code's name for a paicli approval mode (`ask`, `auto`, `full`, `plan`).
pub fn permission_mode_name(mode: &str) -> &'static str {
    match mode {
        "full" => "bypassPermissions",
        "plan" => "plan",
        "auto" => "auto",
        _ => "default",
    }
}
