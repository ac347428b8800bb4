//! Hooks with Claude Code's contract (see `docs/hooks.md`): the person's own commands run on session events
//! (before and after tool calls, on a prompt, when the agent stops, at session start and end, before compaction)
//! with the event as JSON on stdin, and their exit code and JSON reply steer the session.
//!
//! `config` reads where hooks come from, `matcher` which calls they are for, `runner` runs one command,
//! `reply` reads what it said, `gate` puts `PreToolUse`/`PostToolUse` in the one gate chain, `trust` keeps
//! project hooks off until the person trusts them.

pub mod callbacks;
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

pub use callbacks::HookCallbacks;
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
    /// The driving program's callbacks, run beside the commands (see [`Hooks::set_callbacks`]).
    callbacks: Mutex<Option<Arc<dyn HookCallbacks>>>,
}

/// One hook run, a command's or a callback's, before its reply is read.
struct Run {
    /// The command, or `callback <id>`: what hook events name.
    command: String,
    /// Where it was declared, for labels and audit.
    source: String,
    speaks_claude: bool,
    is_project: bool,
    output: Result<runner::Output, String>,
    took: std::time::Duration,
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
                callbacks: Mutex::default(),
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

    /// Whether any active hook (or callback) is for `event` (a cheap check before building an input).
    pub fn has(&self, event: HookEvent) -> bool {
        self.inner.active.iter().any(|h| h.event == event)
            || self.callbacks().is_some_and(|c| c.has(event))
    }

    /// Runs `callbacks` beside the commands on every event from now on: the driving program's hooks, trusted as
    /// the person's own are.
    pub fn set_callbacks(&self, callbacks: Arc<dyn HookCallbacks>) {
        *lock(&self.inner.callbacks) = Some(callbacks);
    }

    fn callbacks(&self) -> Option<Arc<dyn HookCallbacks>> {
        lock(&self.inner.callbacks).clone()
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
        let callbacks = self.callbacks();
        let callback_ids = callbacks.as_ref().map_or_else(Vec::new, |c| {
            let subject = subject.map(|s| {
                if event.matches_tools() {
                    claude_names::to_claude_name(s)
                } else {
                    s
                }
            });
            c.matching(event, subject)
        });
        if matching.is_empty() && callback_ids.is_empty() {
            return Fired::default();
        }
        let facts = lock(&self.inner.facts).clone();
        let root = self.inner.project_root.clone();
        let commands = matching.iter().map(|hook| {
            let speaks_claude = hook.source.origin.speaks_claude();
            let input = self.input_for(speaks_claude, event, &facts, &fields, tool);
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
                let output = runner::run_command(
                    &hook.command,
                    input.to_string().as_bytes(),
                    &root,
                    &env,
                    hook.timeout,
                )
                .await
                .map_err(|e| format!("could not start: {e}"));
                Run {
                    command: hook.command.clone(),
                    source: hook.source.path.display().to_string(),
                    speaks_claude,
                    is_project: hook.source.origin.is_project(),
                    output,
                    took: started.elapsed(),
                }
            }
        });
        let called = callback_ids.iter().filter_map(|id| {
            let callbacks = callbacks.clone()?;
            let input = self.input_for(true, event, &facts, &fields, tool);
            let command = format!("callback {id}");
            Some(async move {
                self.tell(AgentEvent::HookStarted {
                    hook_event: event.name().to_string(),
                    command: command.clone(),
                });
                let started = std::time::Instant::now();
                let output = callbacks.call(id, input).await;
                Run {
                    command,
                    source: "the caller's hooks".to_string(),
                    speaks_claude: true,
                    is_project: false,
                    output,
                    took: started.elapsed(),
                }
            })
        });
        let (commands, called) = futures_util::future::join(
            futures_util::future::join_all(commands),
            futures_util::future::join_all(called),
        )
        .await;
        let mut fired = Fired::default();
        for run in commands.into_iter().chain(called) {
            let label = format!("{} hook `{}` ({})", event.name(), run.command, run.source);
            fired.sources.push(run.source.clone());
            let mut reply = match &run.output {
                Ok(output) => reply::read_reply(event, output),
                Err(e) => reply::Reply {
                    error: Some(e.clone()),
                    ..reply::Reply::default()
                },
            };
            if let (Some(input), Some(tool)) = (reply.updated_input.take(), tool) {
                reply.updated_input = Some(if run.speaks_claude {
                    claude_names::from_claude_input(tool.name, &input)
                } else {
                    input
                });
            }
            // A project hook may tighten but never allow past an approval (the trust rule).
            if run.is_project && matches!(reply.permission, Some((Permission::Allow, _))) {
                reply.permission = None;
            }
            tracing::debug!("{label}: {reply:?}");
            self.tell(finished_event(event, &run.command, &reply, run.took));
            fired.decision.add(&label, reply);
        }
        fired
    }

    fn input_for(
        &self,
        speaks_claude: bool,
        event: HookEvent,
        facts: &SessionFacts,
        fields: &Map<String, Value>,
        tool: Option<ToolSubject<'_>>,
    ) -> Value {
        let mut input = json!({
            "session_id": facts.session_id,
            "transcript_path": facts.transcript_path,
            "cwd": self.inner.project_root,
            "hook_event_name": event.name(),
            "permission_mode": facts.permission_mode,
        });
        if let Some(map) = input.as_object_mut() {
            if let Some(tool) = tool {
                let (name, args) = if speaks_claude {
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
        input
    }
}

/// The `hook_response` event of the hook `command` after its `reply`.
fn finished_event(
    event: HookEvent,
    command: &str,
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
        command: command.to_string(),
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
