//! Starts the ledger of a session: a new one, or a resumed (`--continue`, `--resume`) or forked one loaded into
//! the agent. Old ledgers are removed on a background thread, off the path to the first request.

use std::path::PathBuf;
use std::sync::Arc;

use crate::agent::Agent;
use crate::agent::context::prompt;
use crate::config::Config;
use crate::guard::redact::Redactor;
use crate::session::ledger::{self, FindError, Header, Ledger, LoadError, Redact, SessionStore};

/// Which session to continue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResumeFrom {
    /// The newest session of this project (`--continue`).
    Latest,
    /// The session whose id is or starts with this (`--resume <id>`).
    Id(String),
}

/// How a session starts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StartOptions {
    /// `None` starts a new session.
    pub resume: Option<ResumeFrom>,
    /// Continue the resumed history under a new id, leaving the original ledger untouched.
    pub fork: bool,
    /// The id of the new session or fork (checked by the caller: a UUID not in use); `None` picks one.
    pub id: Option<String>,
}

/// A started session.
#[derive(Debug)]
pub struct Started {
    /// The id `--resume` accepts.
    pub id: String,
    /// Set when an earlier session was loaded.
    pub resumed: Option<Resumed>,
    pub notices: Vec<StartNotice>,
}

/// What was loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resumed {
    /// The loaded session's id (differs from [`Started::id`] for a fork).
    pub from: String,
    pub turns: usize,
}

/// Something the user should hear about at start (declared beside the ledger, so `text` can word it).
pub use crate::session::ledger::StartNotice;

/// Why the requested session could not be started.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("there is no earlier session of {root} to continue")]
    NothingToContinue { root: PathBuf },
    #[error(transparent)]
    Find(#[from] FindError),
    #[error(transparent)]
    Load(#[from] LoadError),
    #[error(transparent)]
    Ledger(#[from] ledger::LedgerError),
    /// `/resume` named the session that is running now.
    #[error("session {id} is the one running now")]
    AlreadyRunning { id: String },
}

/// The secrets the audit log and the ledger mask: the provider's key and secret-looking variables.
pub fn configured_secrets(config: &Config) -> Vec<String> {
    let mut secrets: Vec<String> = config
        .provider()
        .ok()
        .and_then(|p| p.api_key)
        .into_iter()
        .collect();
    let names: Vec<&str> = config.env.iter().map(|(k, _)| k).collect();
    let secret_names = crate::tools::shell::scrub_env(names, &[]);
    secrets.extend(
        config
            .env
            .iter()
            .filter(|(k, _)| secret_names.contains(k))
            .map(|(_, v)| v.to_string()),
    );
    secrets
}

fn redactor(config: &Config) -> Redact {
    let redactor = Redactor::new(configured_secrets(config));
    Arc::new(move |text: &str| redactor.redact(text))
}

/// Starts the session `options` asks for on `agent` (freshly built for `config`) and removes old ledgers in the
/// background. A new session whose ledger cannot be written still starts, with a notice.
pub fn start_session(
    config: &Config,
    agent: &mut Agent,
    options: &StartOptions,
) -> Result<Started, StartError> {
    let store = SessionStore::new(&config.home);
    let started = match &options.resume {
        None => Ok(start_new(config, agent, &store, options.id.clone())),
        Some(from) => resume(config, agent, &store, from, options),
    }?;
    let keep = agent.ledger().map(Ledger::path);
    let keep_days = config.session_keep_days;
    // Best effort: a clean-up that cannot start waits for the next session.
    let _ = std::thread::Builder::new()
        .name("paicli-ledger-cleanup".into())
        .spawn(move || {
            let removed = store.remove_older_than(keep_days, keep.as_deref());
            tracing::debug!("removed {removed} old session ledger(s)");
        });
    Ok(started)
}

/// Moves `agent` to a new session (`/fork`): a new id and ledger holding the history so far; the ledger it was
/// recorded in stays as it is.
pub fn fork_running(
    config: &Config,
    agent: &mut Agent,
    from_id: &str,
) -> Result<String, StartError> {
    let store = SessionStore::new(&config.home);
    let id = ledger::new_session_id();
    let path = store.path_for(&id, chrono::Local::now());
    let mut header = header(config, agent, &id);
    header.forked_from = Some(from_id.to_string());
    let new = match agent.ledger() {
        Some(old) => Ledger::fork(&old.path(), &path, header, redactor(config))?,
        // Nothing was recorded: start the fork's ledger from the history itself.
        None => Ledger::create(&path, header, redactor(config))?,
    };
    agent.attach_ledger(new);
    Ok(id)
}

fn header(config: &Config, agent: &Agent, id: &str) -> Header {
    let provider = config.provider().map(|p| p.id).unwrap_or_default();
    Header {
        format: ledger::FORMAT_VERSION,
        id: id.to_string(),
        project_root: config.project_root.clone(),
        provider,
        model: agent.model().to_string(),
        version: env!("CARGO_PKG_VERSION").to_string(),
        git_branch: ledger::git_branch(&config.project_root),
        started: chrono::Local::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, false),
        system_prompt: agent.system_message().map(|m| m.text()).unwrap_or_default(),
        tools: agent.tool_specs().to_vec(),
        forked_from: None,
    }
}

fn start_new(
    config: &Config,
    agent: &mut Agent,
    store: &SessionStore,
    id: Option<String>,
) -> Started {
    let id = id.unwrap_or_else(ledger::new_session_id);
    let path = store.path_for(&id, chrono::Local::now());
    let mut notices = Vec::new();
    match Ledger::create(&path, header(config, agent, &id), redactor(config)) {
        Ok(ledger) => agent.attach_ledger(ledger),
        Err(e) => notices.push(StartNotice::LedgerUnavailable(e.to_string())),
    }
    Started {
        id,
        resumed: None,
        notices,
    }
}

fn resume(
    config: &Config,
    agent: &mut Agent,
    store: &SessionStore,
    from: &ResumeFrom,
    options: &StartOptions,
) -> Result<Started, StartError> {
    let root = &config.project_root;
    let stored = match from {
        ResumeFrom::Latest => store
            .latest_for_project(root)
            .ok_or_else(|| StartError::NothingToContinue { root: root.clone() })?,
        ResumeFrom::Id(prefix) => store.find(prefix, root)?,
    };
    let loaded = ledger::load(&stored.path)?;
    let fresh_prompt = agent.system_message().map(|m| m.text()).unwrap_or_default();
    let fresh_tools = agent.tool_specs().to_vec();
    let mut notices: Vec<StartNotice> = loaded
        .notices
        .iter()
        .cloned()
        .map(StartNotice::Load)
        .collect();
    let resumed = Resumed {
        from: loaded.header.id.clone(),
        turns: loaded.conversation.turn_starts().len(),
    };
    let stored_prompt = loaded.conversation.system().text();
    let stored_tools = loaded.tools.clone();
    let stored_model = loaded.model.clone();
    let (id, ledger) = if options.fork {
        let id = options.id.clone().unwrap_or_else(ledger::new_session_id);
        let path = store.path_for(&id, chrono::Local::now());
        let header = Header {
            id: id.clone(),
            started: chrono::Local::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, false),
            version: env!("CARGO_PKG_VERSION").to_string(),
            forked_from: Some(loaded.header.id.clone()),
            ..loaded.header.clone()
        };
        (
            id,
            Ledger::fork(&stored.path, &path, header, redactor(config))?,
        )
    } else {
        if agent.ledger().is_some_and(|l| l.path() == stored.path) {
            return Err(StartError::AlreadyRunning {
                id: loaded.header.id,
            });
        }
        (
            loaded.header.id.clone(),
            Ledger::append_to(&stored.path, redactor(config))?,
        )
    };
    agent.resume_conversation(loaded.conversation);
    // `/cost` goes on from what the session (and its sub-agents) spent.
    agent.restore_usage(ledger::recorded_usage(&stored.path));
    agent.attach_ledger(ledger);
    // The stored prompt is sent again unless the instructions in it changed, so the provider's cache keeps
    // hitting; a prompt that differs only in its date line is still valid. A stored prompt that differs only by
    // masked secrets stands for the fresh one, which is what the session sent.
    if !prompt::same_apart_from_date(&stored_prompt, &fresh_prompt) {
        let masked = redactor(config)(&fresh_prompt);
        if !prompt::same_apart_from_date(&stored_prompt, &masked) {
            notices.push(StartNotice::InstructionsChanged);
        }
        agent.set_system_prompt(fresh_prompt);
    }
    if let Some(l) = agent.ledger() {
        if stored_tools != fresh_tools {
            l.write(&ledger::Record::Tools { tools: fresh_tools });
        }
        if stored_model != agent.model() {
            l.write(&ledger::Record::Model {
                model: agent.model().to_string(),
            });
        }
    }
    Ok(Started {
        id,
        resumed: Some(resumed),
        notices,
    })
}
