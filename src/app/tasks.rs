//! Background tasks (`/task`): headless runs of this project queued under `$PAICLI_HOME/tasks/<project-id>/`, at
//! most a few at a time. A task runs in the session's approval mode but can never ask: a call that needs a person
//! is denied with a message, as in `paicli -p`. Each task is a session of its own (resumable with `--resume`);
//! its events are kept as JSON lines for `/task log`. The queue survives a restart: a task that was running when
//! paicli stopped (or was killed) is queued again and runs from the start in a new session.

mod run;
mod store;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};
use tokio_util::sync::CancellationToken;

use crate::config::{ApprovalMode, Config};
use store::TaskStore;

/// Tasks that run at once unless told otherwise.
pub const DEFAULT_PARALLEL: usize = 2;

/// Where a task is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskState {
    Queued,
    Running,
    Finished,
    Partial,
    Failed,
    Cancelled,
}

impl TaskState {
    /// Whether the task is over.
    pub fn is_done(self) -> bool {
        !matches!(self, TaskState::Queued | TaskState::Running)
    }
}

/// One task as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskRecord {
    /// `1`, `2`, … within the project.
    pub id: u64,
    pub text: String,
    pub state: TaskState,
    /// The approval mode of the session that queued it (a task never asks, whatever the mode).
    pub approval: ApprovalMode,
    /// The session it runs in, once started.
    #[serde(default)]
    pub session_id: Option<String>,
    /// The answer, partial report or error, once done.
    #[serde(default)]
    pub result: Option<String>,
}

/// Why a queue operation failed.
#[derive(Debug, thiserror::Error)]
pub enum TaskError {
    #[error("no task {0}")]
    Unknown(u64),
    #[error("task {0} has already ended")]
    AlreadyDone(u64),
    #[error("cannot write the task queue {path}: {source}")]
    Io {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
}

/// The queue of one project.
#[derive(Clone)]
pub struct TaskQueue {
    inner: Arc<Inner>,
}

struct Inner {
    config: Config,
    store: TaskStore,
    tasks: Mutex<Vec<TaskRecord>>,
    running: Mutex<HashMap<u64, CancellationToken>>,
    parallel: usize,
    /// Set by [`TaskQueue::start`]; tasks are only queued before.
    runtime: Mutex<Option<tokio::runtime::Handle>>,
    /// Set by [`TaskQueue::shutdown`]: tasks it interrupts go back to the queue instead of ending cancelled.
    stopping: std::sync::atomic::AtomicBool,
}

impl TaskQueue {
    /// Opens the project's queue (tasks left running by an earlier paicli are queued again). Nothing runs until
    /// [`TaskQueue::start`].
    pub fn open(config: &Config, parallel: usize) -> TaskQueue {
        let store = TaskStore::for_project(&config.home, &config.project_root);
        let mut tasks = store.load();
        for task in &mut tasks {
            if task.state == TaskState::Running {
                task.state = TaskState::Queued;
            }
        }
        TaskQueue {
            inner: Arc::new(Inner {
                config: config.clone(),
                store,
                tasks: Mutex::new(tasks),
                running: Mutex::new(HashMap::new()),
                parallel: parallel.max(1),
                runtime: Mutex::new(None),
                stopping: std::sync::atomic::AtomicBool::new(false),
            }),
        }
    }

    /// Starts running queued tasks on the current Tokio runtime.
    pub fn start(&self) {
        *lock(&self.inner.runtime) = tokio::runtime::Handle::try_current().ok();
        Inner::pump(&self.inner);
    }

    /// Queues `text` to run in approval mode `approval` and returns its id.
    pub fn add(&self, text: &str, approval: ApprovalMode) -> Result<u64, TaskError> {
        let id = {
            let mut tasks = lock(&self.inner.tasks);
            let id = tasks.iter().map(|t| t.id).max().unwrap_or(0) + 1;
            tasks.push(TaskRecord {
                id,
                text: text.to_string(),
                state: TaskState::Queued,
                approval,
                session_id: None,
                result: None,
            });
            id
        };
        self.inner.save()?;
        Inner::pump(&self.inner);
        Ok(id)
    }

    /// Every task, oldest first.
    pub fn list(&self) -> Vec<TaskRecord> {
        lock(&self.inner.tasks).clone()
    }

    /// The task `id`.
    pub fn get(&self, id: u64) -> Option<TaskRecord> {
        lock(&self.inner.tasks).iter().find(|t| t.id == id).cloned()
    }

    /// The task's events so far, one JSON object a line (empty before it starts).
    pub fn log(&self, id: u64) -> Result<Vec<String>, TaskError> {
        self.get(id).ok_or(TaskError::Unknown(id))?;
        Ok(self.inner.store.read_log(id))
    }

    /// Cancels a queued or running task; a running one ends at its next await point, its calls with results.
    pub fn cancel(&self, id: u64) -> Result<(), TaskError> {
        let task = self.get(id).ok_or(TaskError::Unknown(id))?;
        if task.state.is_done() {
            return Err(TaskError::AlreadyDone(id));
        }
        if let Some(token) = lock(&self.inner.running).get(&id) {
            token.cancel();
            return Ok(());
        }
        self.inner.finish(id, TaskState::Cancelled, None);
        Ok(())
    }

    /// Stops every running task, waits until each has ended (their sessions are written) and queues it again,
    /// so the next paicli in this project runs it.
    pub async fn shutdown(&self) {
        self.inner
            .stopping
            .store(true, std::sync::atomic::Ordering::SeqCst);
        *lock(&self.inner.runtime) = None;
        let tokens: Vec<CancellationToken> = lock(&self.inner.running).values().cloned().collect();
        for token in &tokens {
            token.cancel();
        }
        while !lock(&self.inner.running).is_empty() {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    }
}

impl Inner {
    fn save(&self) -> Result<(), TaskError> {
        let tasks = lock(&self.tasks).clone();
        self.store.save(&tasks).map_err(|source| TaskError::Io {
            path: self.store.queue_path(),
            source,
        })
    }

    /// Starts queued tasks while fewer than `parallel` run.
    fn pump(inner: &Arc<Inner>) {
        let Some(runtime) = lock(&inner.runtime).clone() else {
            return;
        };
        loop {
            let next = {
                let mut running = lock(&inner.running);
                if running.len() >= inner.parallel {
                    return;
                }
                let mut tasks = lock(&inner.tasks);
                let Some(task) = tasks.iter_mut().find(|t| t.state == TaskState::Queued) else {
                    return;
                };
                task.state = TaskState::Running;
                let token = CancellationToken::new();
                running.insert(task.id, token.clone());
                (task.clone(), token)
            };
            if let Err(e) = inner.save() {
                tracing::warn!("{e}");
            }
            let (task, token) = next;
            let inner = Arc::clone(inner);
            runtime.spawn(async move {
                let (state, result) = run::run_task(&inner, &task, token).await;
                if state == TaskState::Cancelled
                    && inner.stopping.load(std::sync::atomic::Ordering::SeqCst)
                {
                    inner.requeue(task.id);
                } else {
                    inner.finish(task.id, state, result);
                }
                lock(&inner.running).remove(&task.id);
                Inner::pump(&inner);
            });
        }
    }

    fn set_session(&self, id: u64, session: &str) {
        if let Some(task) = lock(&self.tasks).iter_mut().find(|t| t.id == id) {
            task.session_id = Some(session.to_string());
        }
        if let Err(e) = self.save() {
            tracing::warn!("{e}");
        }
    }

    fn requeue(&self, id: u64) {
        if let Some(task) = lock(&self.tasks).iter_mut().find(|t| t.id == id) {
            task.state = TaskState::Queued;
            task.session_id = None;
        }
        if let Err(e) = self.save() {
            tracing::warn!("{e}");
        }
    }

    fn finish(&self, id: u64, state: TaskState, result: Option<String>) {
        if let Some(task) = lock(&self.tasks).iter_mut().find(|t| t.id == id) {
            task.state = state;
            task.result = result;
        }
        if let Err(e) = self.save() {
            tracing::warn!("{e}");
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
