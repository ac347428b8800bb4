//! The approval gate, plugged in as a [`TurnHook`]: each turn gets a fresh gate (its own consecutive-denial
//! counter and classifier cache) sharing the session's mode and saved rules. The same gate writes the audit log
//! from `after`, because it knows who approved each call.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use async_trait::async_trait;
use serde_json::{Value, json};

use super::rules::session_rule;
use super::sensitive::{self, Route, Sensitive};
use super::{
    ApprovalAnswer, ApprovalClassifier, ApprovalMode, ApprovalRequest, Approver, ClassifierVerdict,
    Risk, RuleSet, allowing_flag,
};
use crate::guard::command_guard::{COMMAND_GUARD, CommandGuard};
use crate::guard::control_files::ControlFiles;
use crate::policy::audit::{ApprovedBy, AuditLog, AuditOutcome, CallRecord};
use crate::protocol::{
    CallGate, Confinement, GateCall, GateVerdict, HookAnswer, HookPermission, HookPermissions,
    SANDBOX_REQUIRED, ToolOutcome,
};
use crate::protocol::{MemoryTaint, OpenPage, TurnHook, TurnScope};

/// Consecutive auto-mode denials in one turn after which a person is asked instead.
pub const ESCALATE_AFTER_DENIALS: u32 = 3;

/// What the approval hook works with.
pub struct ApprovalHookOptions {
    pub mode: ApprovalMode,
    /// `[approvals] allow`: runs without asking, in every mode except `plan`.
    pub allow: RuleSet,
    /// `[approvals] deny`: never runs, in every mode.
    pub deny: RuleSet,
    pub approver: Arc<dyn Approver>,
    /// The auto-mode classifier; without one, auto mode treats every command as needing a person.
    pub classifier: Option<ApprovalClassifier>,
    pub audit: Option<Arc<AuditLog>>,
    /// Checked before a command is classified or shown to a person (the tool checks again).
    pub command_guard: Option<CommandGuard>,
    /// paicli's own settings, server and trust files: writes to them need the person in every mode but `full`.
    pub control_files: Option<ControlFiles>,
    /// Where `p` (allow always in this project) saves its rule; `None` offers no `p`.
    pub project_rules: Option<ProjectRuleStore>,
    /// Commands run in the OS sandbox this session: the prompt offers `u`, plan mode runs commands read-only
    /// instead of refusing them, and the audit log records `sandboxed`.
    pub sandboxed_commands: bool,
}

/// The user's config home and the project root that `p` saves rules for (`[approvals.projects]`).
#[derive(Clone, Debug)]
pub struct ProjectRuleStore {
    pub home: PathBuf,
    pub root: PathBuf,
}

struct Shared {
    options: ApprovalHookOptions,
    mode: Mutex<ApprovalMode>,
    /// The mode approving a plan made in `plan` mode returns to: the last one before plan mode was entered
    /// (`auto` when the session started in plan mode).
    before_plan: Mutex<ApprovalMode>,
    session: Mutex<RuleSet>,
    /// The browser page calls that act on a page land on (set once the session has a browser).
    pages: Mutex<Option<Arc<dyn OpenPage>>>,
    /// What the session read that it did not write (set once the session keeps a taint).
    memory: Mutex<Option<Arc<MemoryTaint>>>,
    /// What `PreToolUse` hooks said about each call (set once the session has hooks).
    hooks: Mutex<Option<Arc<dyn HookPermissions>>>,
}

/// Approval for every turn of a session.
#[derive(Clone)]
pub struct ApprovalHook {
    shared: Arc<Shared>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl ApprovalHook {
    /// A hook starting in `options.mode` with no session rules.
    pub fn new(options: ApprovalHookOptions) -> Self {
        let mode = options.mode;
        ApprovalHook {
            shared: Arc::new(Shared {
                options,
                mode: Mutex::new(mode),
                before_plan: Mutex::new(match mode {
                    ApprovalMode::Plan => ApprovalMode::Auto,
                    other => other,
                }),
                session: Mutex::new(RuleSet::default()),
                pages: Mutex::new(None),
                memory: Mutex::new(None),
                hooks: Mutex::new(None),
            }),
        }
    }

    /// The current mode.
    pub fn mode(&self) -> ApprovalMode {
        *lock(&self.shared.mode)
    }

    /// Switches the mode (`/mode`, Shift+Tab); calls already decided are not revisited.
    pub fn set_mode(&self, mode: ApprovalMode) {
        let mut current = lock(&self.shared.mode);
        if mode == ApprovalMode::Plan && *current != ApprovalMode::Plan {
            *lock(&self.shared.before_plan) = *current;
        }
        *current = mode;
    }

    /// Leaves `plan` mode for the mode the session had before it (a plan was approved); returns that mode, or
    /// `None` when the session is not in plan mode.
    pub fn leave_plan_mode(&self) -> Option<ApprovalMode> {
        let mut current = lock(&self.shared.mode);
        if *current != ApprovalMode::Plan {
            return None;
        }
        *current = *lock(&self.shared.before_plan);
        Some(*current)
    }

    /// Judges calls that act on a browser page by the page `pages` reports: on a login, payment or account page
    /// they need the person in every mode but `full`.
    pub fn watch_pages(&self, pages: Arc<dyn OpenPage>) {
        *lock(&self.shared.pages) = Some(pages);
    }

    /// Judges `global` memory saves by `taint`: after content the session did not write, they need the person
    /// in every mode but `full`.
    pub fn watch_memory(&self, taint: Arc<MemoryTaint>) {
        *lock(&self.shared.memory) = Some(taint);
    }

    /// Takes the `PreToolUse` hooks' `ask` and (user-level) `allow` into account for every call.
    pub fn watch_hooks(&self, hooks: Arc<dyn HookPermissions>) {
        *lock(&self.shared.hooks) = Some(hooks);
    }

    /// The rules saved this session with `a`.
    pub fn session_rules(&self) -> RuleSet {
        lock(&self.shared.session).clone()
    }
}

impl TurnHook for ApprovalHook {
    fn begin_turn(&self, submitted: &str) -> TurnScope {
        let gate = TurnGate {
            shared: Arc::clone(&self.shared),
            request: submitted.to_string(),
            state: Mutex::default(),
        };
        TurnScope {
            gates: vec![Arc::new(gate)],
            ..TurnScope::default()
        }
    }
}

#[derive(Default)]
struct TurnState {
    consecutive_denials: u32,
    /// `tool` + arguments the classifier allowed this turn.
    classifier_allowed: HashSet<String>,
    /// Who decided each call, by call id, for the audit log.
    decided_by: HashMap<String, ApprovedBy>,
    /// Calls a person rejected or skipped this turn, with the answer: the same call is not asked about again.
    refused_by_person: HashMap<String, GateVerdict>,
    /// Why each sensitive call needed the person, by call id, for the audit log.
    sensitive: HashMap<String, Sensitive>,
    /// Calls the person let run outside the sandbox (`u`), by call id, for the audit log.
    unsandboxed: HashSet<String>,
}

/// The command line of a call whose tool runs commands.
fn command_of<'a>(call: &GateCall<'a>) -> Option<&'a str> {
    call.traits
        .runs_commands
        .then(|| call.args.get("command").and_then(Value::as_str))
        .flatten()
}

/// Identifies a call by tool and arguments.
fn call_key(call: &GateCall<'_>) -> String {
    format!("{}\u{0}{}", call.name, Value::Object(call.args.clone()))
}

/// The gate of one turn.
struct TurnGate {
    shared: Arc<Shared>,
    request: String,
    state: Mutex<TurnState>,
}

impl TurnGate {
    fn decide(&self, call: &GateCall<'_>, by: ApprovedBy, verdict: GateVerdict) -> GateVerdict {
        let mut state = lock(&self.state);
        state.decided_by.insert(call.id.to_string(), by);
        if !matches!(verdict, GateVerdict::Deny { .. }) {
            state.consecutive_denials = 0;
        }
        verdict
    }

    /// An auto-mode denial; the third in a row asks a person instead.
    async fn auto_deny(&self, call: &GateCall<'_>, by: ApprovedBy, reason: String) -> GateVerdict {
        let escalate = {
            let mut state = lock(&self.state);
            state.consecutive_denials += 1;
            state.consecutive_denials >= ESCALATE_AFTER_DENIALS
        };
        if escalate && self.shared.options.approver.is_interactive() {
            lock(&self.state).consecutive_denials = 0;
            let note =
                format!("auto mode denied this ({reason}); this is the third denial in a row");
            return self.ask_person(call, Some(note), true).await;
        }
        let flag = allowing_flag(call.traits.risk);
        self.decide(
            call,
            by,
            GateVerdict::deny(
                "AUTO_DENIED",
                format!(
                    "auto approval mode did not run `{}`: {reason}. Do not retry the same call unchanged; use a \
                     safer alternative or tell the user what you need. (The user can allow it with `{flag}` or an \
                     [approvals] allow rule.)",
                    call.name
                ),
            ),
        )
    }

    /// Asks a person; `remember` says whether their `a` may save a session rule (never for sensitive calls).
    async fn ask_person(
        &self,
        call: &GateCall<'_>,
        note: Option<String>,
        remember: bool,
    ) -> GateVerdict {
        let options = &self.shared.options;
        let hooks = lock(&self.shared.hooks).clone();
        if let Some(answer) = self.hook_answer(hooks.as_deref(), call, remember).await {
            return answer;
        }
        if !options.approver.is_interactive() {
            let flag = allowing_flag(call.traits.risk);
            return self.decide(
                call,
                ApprovedBy::Policy,
                GateVerdict::deny(
                    "APPROVAL_REQUIRED",
                    format!(
                        "`{}` needs a person's approval and this run is non-interactive, so it was not run. Do \
                         not retry it unchanged. The user can allow it by rerunning with `{flag}` or adding an \
                         [approvals] allow rule to config.toml.",
                        call.name
                    ),
                ),
            );
        }
        let rule = session_rule(call.name, command_of(call));
        let project_text = rule
            .config_text()
            .filter(|_| remember && options.project_rules.is_some());
        let request = ApprovalRequest {
            call_id: call.id.to_string(),
            tool: call.name.to_string(),
            risk: if remember {
                call.traits.risk
            } else {
                Risk::High
            },
            args: call.args.clone(),
            session_rule: remember.then(|| rule.label()),
            project_rule: project_text.as_ref().map(|_| rule.label()),
            // Plan mode runs commands read-only whatever the answer, so `u` is not offered there.
            unsandboxed: call.traits.runs_commands
                && options.sandboxed_commands
                && *lock(&self.shared.mode) != ApprovalMode::Plan,
            note,
        };
        let key = call_key(call);
        let earlier = lock(&self.state).refused_by_person.get(&key).cloned();
        if let Some(GateVerdict::Deny { code, reason }) = earlier {
            let reason =
                format!("{reason} (The user already refused this exact call in this task.)");
            return self.decide(call, ApprovedBy::Hitl, GateVerdict::deny(code, reason));
        }
        if let Some(hooks) = &hooks {
            hooks.asking_person(call.name).await;
        }
        let verdict = match options.approver.ask(&request).await {
            ApprovalAnswer::Approve => GateVerdict::Allow,
            ApprovalAnswer::ApproveForSession => {
                if remember {
                    lock(&self.shared.session).add(rule);
                }
                GateVerdict::Allow
            }
            ApprovalAnswer::ApproveForProject => {
                if let (Some(text), Some(store)) = (&project_text, &options.project_rules) {
                    match crate::config::saved_rules::save_project_rule(&store.home, &store.root, text)
                    {
                        Ok(path) => tracing::info!("saved approval rule {text:?} in {}", path.display()),
                        Err(e) => {
                            tracing::warn!("approval rule {text:?} not saved: {e}");
                            options.approver.rule_not_saved(&e.to_string());
                        }
                    }
                    lock(&self.shared.session).add(rule);
                }
                GateVerdict::Allow
            }
            ApprovalAnswer::Modify(args) => GateVerdict::AllowWith(args),
            ApprovalAnswer::ApproveUnsandboxed if request.unsandboxed => {
                lock(&self.state).unsandboxed.insert(call.id.to_string());
                GateVerdict::AllowConfined(Confinement::Unsandboxed)
            }
            // Not offered for this call: a plain yes.
            ApprovalAnswer::ApproveUnsandboxed => GateVerdict::Allow,
            ApprovalAnswer::Skip => GateVerdict::deny(
                "USER_SKIPPED",
                "the user skipped this call; carry on with the task without it and do not retry it unchanged",
            ),
            ApprovalAnswer::Reject { reason } => GateVerdict::deny(
                "USER_REJECTED",
                match reason.filter(|r| !r.trim().is_empty()) {
                    Some(r) => format!("the user rejected this call: {}. Do not retry it unchanged.", r.trim()),
                    None => "the user rejected this call. Do not retry it unchanged; ask what they want instead."
                        .to_string(),
                },
            ),
        };
        if matches!(verdict, GateVerdict::Deny { .. }) {
            lock(&self.state)
                .refused_by_person
                .insert(key, verdict.clone());
        }
        self.decide(call, ApprovedBy::Hitl, verdict)
    }

    /// A call that needs the person whatever the rules say (see [`sensitive`]).
    async fn check_sensitive(
        &self,
        call: &GateCall<'_>,
        mode: ApprovalMode,
        why: Sensitive,
    ) -> GateVerdict {
        lock(&self.state)
            .sensitive
            .insert(call.id.to_string(), why.clone());
        let interactive = self.shared.options.approver.is_interactive();
        let verdict = match sensitive::route(mode, interactive, call.name, &why) {
            Route::Run => self.decide(call, ApprovedBy::Policy, GateVerdict::Allow),
            Route::Ask { note } => self.ask_person(call, Some(note), false).await,
            Route::Deny { code, reason } => {
                self.decide(call, ApprovedBy::Policy, GateVerdict::deny(code, reason))
            }
        };
        // A command approved as a control-file write runs without the sandbox's control carve-outs.
        match verdict {
            GateVerdict::Allow
                if call.traits.runs_commands && matches!(why, Sensitive::ControlFile { .. }) =>
            {
                GateVerdict::AllowConfined(Confinement::ControlWritable)
            }
            other => other,
        }
    }

    async fn classify(&self, call: &GateCall<'_>) -> GateVerdict {
        let key = call_key(call);
        if lock(&self.state).classifier_allowed.contains(&key) {
            return self.decide(call, ApprovedBy::AutoClassifier, GateVerdict::Allow);
        }
        let verdict = match &self.shared.options.classifier {
            Some(c) => {
                c.classify(&self.request, call.name, call.args, call.cancel)
                    .await
            }
            None => ClassifierVerdict::Ask("no safety classifier is configured".to_string()),
        };
        match verdict {
            ClassifierVerdict::Allow => {
                lock(&self.state).classifier_allowed.insert(key);
                self.decide(call, ApprovedBy::AutoClassifier, GateVerdict::Allow)
            }
            // A person is right there: the classifier's doubt (or failure) is theirs to settle.
            ClassifierVerdict::Ask(reason) if self.shared.options.approver.is_interactive() => {
                let note = format!("auto mode asks you: {reason}");
                self.ask_person(call, Some(note), true).await
            }
            ClassifierVerdict::Ask(reason) => {
                self.auto_deny(call, ApprovedBy::AutoClassifier, reason)
                    .await
            }
        }
    }
}

#[async_trait]
impl CallGate for TurnGate {
    async fn check(&self, call: GateCall<'_>) -> GateVerdict {
        // Taken for every call, so a hook's word is used once and not kept.
        let said = lock(&self.shared.hooks)
            .clone()
            .and_then(|h| h.take(call.id));
        // A parallel-safe tool that still names a file it writes is judged like any other.
        if call.traits.parallel_safe && call.write_targets.is_empty() {
            // A PreToolUse hook's `ask` reaches the person even for a read-only call.
            if let Some((HookPermission::Ask, reason)) = said {
                return self.ask_for_hook(&call, reason).await;
            }
            return self.decide(&call, ApprovedBy::None, GateVerdict::Allow);
        }
        let options = &self.shared.options;
        if let Some(rule) = options.deny.denying(call.name, command_of(&call)) {
            let reason = format!(
                "the user's [approvals] deny rule ({}) forbids this call; do not retry it",
                rule.describe()
            );
            return self.decide(
                &call,
                ApprovedBy::Config,
                GateVerdict::deny("APPROVAL_RULE", reason),
            );
        }
        let mode = *lock(&self.shared.mode);
        if mode == ApprovalMode::Plan && call.traits.runs_commands && options.sandboxed_commands {
            return self.check_read_only(call, said).await;
        }
        self.check_in(call, mode, said).await
    }

    async fn after(&self, call: GateCall<'_>, outcome: &ToolOutcome, duration: Duration) {
        self.record(call, outcome, duration);
    }
}

/// What a `PreToolUse` hook said about a call, with its reason.
type HookSaid = (HookPermission, String);

impl TurnGate {
    /// What `PermissionRequest` hooks answer in the person's place. Their deny always counts; their allow
    /// (only the person's own hooks can give one) not for a sensitive call (`remember` false), which needs
    /// the person whatever the rules say.
    async fn hook_answer(
        &self,
        hooks: Option<&dyn HookPermissions>,
        call: &GateCall<'_>,
        remember: bool,
    ) -> Option<GateVerdict> {
        match hooks?.permission_request(call).await? {
            HookAnswer::Allow if remember => {
                Some(self.decide(call, ApprovedBy::Hook, GateVerdict::Allow))
            }
            HookAnswer::Allow => None,
            HookAnswer::Deny { reason } => Some(self.decide(
                call,
                ApprovedBy::Hook,
                GateVerdict::deny(
                    crate::protocol::HOOK_DENIED,
                    format!("a PermissionRequest hook denied this call: {reason}"),
                ),
            )),
        }
    }

    /// A `PreToolUse` hook wants the person asked (in `-p`, with nobody to ask, the call is refused).
    async fn ask_for_hook(&self, call: &GateCall<'_>, reason: String) -> GateVerdict {
        let note = format!("a PreToolUse hook asks you: {reason}");
        self.ask_person(call, Some(note), true).await
    }

    /// Plan mode with the sandbox on: a command is judged as in `auto` and runs with nothing writable. Edited
    /// arguments are not run (the edit would drop the read-only confinement).
    async fn check_read_only(&self, call: GateCall<'_>, said: Option<HookSaid>) -> GateVerdict {
        match self.check_in(call, ApprovalMode::Auto, said).await {
            GateVerdict::Allow | GateVerdict::AllowConfined(_) => {
                GateVerdict::AllowConfined(Confinement::ReadOnly)
            }
            GateVerdict::AllowWith(_) => GateVerdict::deny(
                "PLAN_MODE",
                "plan mode runs commands read-only and did not run the edited command; present your plan and \
                 the user will switch modes to carry it out",
            ),
            denied => denied,
        }
    }

    /// The decision for a call after its deny rules, in `mode`.
    async fn check_in(
        &self,
        call: GateCall<'_>,
        mode: ApprovalMode,
        said: Option<HookSaid>,
    ) -> GateVerdict {
        let options = &self.shared.options;
        if mode == ApprovalMode::Plan {
            let reason = format!(
                "plan mode is read-only: `{}` was not run. Only read-only tools run in plan mode; finish \
                 investigating and present your plan, and the user will switch modes to carry it out.",
                call.name
            );
            return self.decide(
                &call,
                ApprovedBy::Policy,
                GateVerdict::deny("PLAN_MODE", reason),
            );
        }
        let command = command_of(&call);
        let assessment = match (&options.command_guard, command) {
            (Some(guard), Some(line)) => match guard.check(line) {
                Ok(assessment) => Some(assessment),
                Err(denial) => {
                    return self.decide(
                        &call,
                        ApprovedBy::Policy,
                        GateVerdict::deny(COMMAND_GUARD, denial.reason()),
                    );
                }
            },
            _ => None,
        };
        let sensitive = sensitive::sensitivity(
            assessment.as_ref(),
            call.write_targets,
            options.control_files.as_ref(),
        )
        .or_else(|| self.page_sensitivity(&call))
        .or_else(|| self.memory_sensitivity(&call));
        if let Some(sensitive) = sensitive {
            return self.check_sensitive(&call, mode, sensitive).await;
        }
        match said {
            Some((HookPermission::Ask, reason)) => return self.ask_for_hook(&call, reason).await,
            Some((HookPermission::Allow, _)) => {
                return self.decide(&call, ApprovedBy::Hook, GateVerdict::Allow);
            }
            None => {}
        }
        if options.allow.allowing(call.name, command).is_some() {
            return self.decide(&call, ApprovedBy::Config, GateVerdict::Allow);
        }
        if lock(&self.shared.session)
            .allowing(call.name, command)
            .is_some()
        {
            return self.decide(&call, ApprovedBy::Hitl, GateVerdict::Allow);
        }
        let risk = call.traits.risk;
        if risk == Risk::None {
            return self.decide(&call, ApprovedBy::None, GateVerdict::Allow);
        }
        match mode {
            ApprovalMode::Full => self.decide(&call, ApprovedBy::Policy, GateVerdict::Allow),
            ApprovalMode::Ask | ApprovalMode::Plan => self.ask_person(&call, None, true).await,
            ApprovalMode::Auto if risk == Risk::Medium => {
                self.decide(&call, ApprovedBy::Policy, GateVerdict::Allow)
            }
            ApprovalMode::Auto if command.is_some() => self.classify(&call).await,
            ApprovalMode::Auto => {
                let reason = format!(
                    "auto mode never runs `{}` without a person's approval",
                    call.name
                );
                self.auto_deny(&call, ApprovedBy::Policy, reason).await
            }
        }
    }

    /// Why a call acting on the open browser page needs the person, if it does.
    fn page_sensitivity(&self, call: &GateCall<'_>) -> Option<Sensitive> {
        if !call.traits.acts_on_page {
            return None;
        }
        let pages = lock(&self.shared.pages).clone()?;
        sensitive::page_sensitivity(&pages.open_page()?)
    }

    /// Why a memory save needs the person, if it does: it is `global` and the session read content it did not
    /// write (`save_memory` refuses to replace a global fact without `scope: global`, so the scope is enough).
    fn memory_sensitivity(&self, call: &GateCall<'_>) -> Option<Sensitive> {
        let global = call
            .args
            .get("scope")
            .and_then(Value::as_str)
            .is_some_and(|scope| scope.trim().eq_ignore_ascii_case("global"));
        if !call.traits.writes_memory || !global {
            return None;
        }
        let reads = lock(&self.shared.memory).as_ref()?.reads();
        (!reads.is_empty()).then(|| Sensitive::UntrustedMemory {
            read: reads.describe(),
        })
    }

    /// Writes the audit entry of a call that reached the gate.
    fn record(&self, call: GateCall<'_>, outcome: &ToolOutcome, duration: Duration) {
        let by = lock(&self.state).decided_by.remove(call.id);
        let sensitive = lock(&self.state).sensitive.remove(call.id);
        let unsandboxed = lock(&self.state).unsandboxed.remove(call.id);
        let Some(audit) = &self.shared.options.audit else {
            return;
        };
        if !call.traits.audited {
            return;
        }
        let (result, reason, code) = match outcome {
            ToolOutcome::Ok(_) => (AuditOutcome::Allow, String::new(), None),
            ToolOutcome::Denied { code, reason } => {
                (AuditOutcome::Deny, reason.clone(), Some(code.clone()))
            }
            ToolOutcome::Failed { reason } => (AuditOutcome::Error, reason.clone(), None),
            ToolOutcome::Cancelled { .. } => (
                AuditOutcome::Error,
                "cancelled by the user".to_string(),
                None,
            ),
        };
        // A guard inside the tool decides on its own, whoever let the call through.
        let by = match code.as_deref() {
            Some(COMMAND_GUARD | "PATH_OUT_OF_BOUNDS") => ApprovedBy::Policy,
            Some(crate::protocol::HOOK_DENIED) => ApprovedBy::Hook,
            _ => by.unwrap_or(ApprovedBy::None),
        };
        let mode = *lock(&self.shared.mode);
        // A sensitive call is high-risk whatever its tool declared.
        let risk = if sensitive.is_some() {
            Risk::High
        } else {
            call.traits.risk
        };
        let mut metadata = json!({
            "mode": format!("{mode:?}").to_ascii_lowercase(),
            "risk": risk.label(),
            "callId": call.id,
        });
        if let Some(m) = metadata.as_object_mut() {
            if let Some(code) = code {
                m.insert("code".to_string(), Value::String(code));
            }
            if let Some(sensitive) = sensitive {
                m.insert("needsPerson".to_string(), Value::String(sensitive.note()));
            }
            if call.traits.runs_commands {
                // A command refused for want of a sandbox did not run at all.
                let refused =
                    matches!(outcome, ToolOutcome::Denied { code, .. } if code == SANDBOX_REQUIRED);
                let sandboxed = self.shared.options.sandboxed_commands && !unsandboxed && !refused;
                m.insert("sandboxed".to_string(), Value::Bool(sandboxed));
            }
        }
        let millis = u64::try_from(duration.as_millis()).unwrap_or(u64::MAX);
        let args = Value::Object(call.args.clone());
        let entry = audit.entry(CallRecord {
            tool: call.name,
            args: &args,
            outcome: result,
            reason: &reason,
            approver: by,
            duration_ms: millis,
            metadata,
        });
        audit.record(&entry);
    }
}
