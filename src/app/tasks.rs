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
    /// Another paicli asked the process running it to cancel it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cancel_requested: bool,
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

/// How often a process looks at the queue file for tasks and cancels from other processes, and (when another
/// process runs the queue) whether it may take over.
const WATCH_INTERVAL: std::time::Duration = std::time::Duration::from_millis(250);

/// The queue of one project. Several paicli processes may open it; the one holding the runner lock runs the
/// tasks, the others queue, list and cancel through the queue file (and take over when the runner ends).
#[derive(Clone)]
pub struct TaskQueue {
    inner: Arc<Inner>,
}

struct Inner {
    config: Config,
    store: TaskStore,
    /// The tasks this process runs.
    running: Mutex<HashMap<u64, CancellationToken>>,
    parallel: usize,
    /// Set by [`TaskQueue::start`]; tasks are only queued before.
    runtime: Mutex<Option<tokio::runtime::Handle>>,
    /// The runner lock, while this process runs the queue.
    runner: Mutex<Option<std::fs::File>>,
    /// Stops the watch loop.
    stop: CancellationToken,
    /// Set by [`TaskQueue::shutdown`]: tasks it interrupts go back to the queue instead of ending cancelled.
    stopping: std::sync::atomic::AtomicBool,
}

impl TaskQueue {
    /// Opens the project's queue. When no paicli runs it, tasks left running by one that was killed are queued
    /// again. Nothing runs until [`TaskQueue::start`].
    pub fn open(config: &Config, parallel: usize) -> TaskQueue {
        let store = TaskStore::for_project(&config.home, &config.project_root);
        let inner = Inner {
            config: config.clone(),
            store,
            running: Mutex::new(HashMap::new()),
            parallel: parallel.max(1),
            runtime: Mutex::new(None),
            runner: Mutex::new(None),
            stop: CancellationToken::new(),
            stopping: std::sync::atomic::AtomicBool::new(false),
        };
        if let Some(lock) = inner.store.try_runner_lock() {
            inner.requeue_orphans();
            drop(lock);
        }
        TaskQueue {
            inner: Arc::new(inner),
        }
    }

    /// Runs queued tasks on the current Tokio runtime when no other process runs them, and keeps watching the
    /// queue file (to take over once that process ends).
    pub fn start(&self) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        *lock(&self.inner.runtime) = Some(runtime.clone());
        Inner::tick(&self.inner);
        let inner = Arc::clone(&self.inner);
        runtime.spawn(async move {
            loop {
                tokio::select! {
                    () = inner.stop.cancelled() => return,
                    () = tokio::time::sleep(WATCH_INTERVAL) => Inner::tick(&inner),
                }
            }
        });
    }

    /// Whether this process runs the queue (another paicli in the project may).
    pub fn runs_here(&self) -> bool {
        lock(&self.inner.runner).is_some()
    }

    /// Queues `text` to run in approval mode `approval` and returns its id.
    pub fn add(&self, text: &str, approval: ApprovalMode) -> Result<u64, TaskError> {
        let id = self.inner.update(|tasks| {
            let id = tasks.iter().map(|t| t.id).max().unwrap_or(0) + 1;
            tasks.push(TaskRecord {
                id,
                text: text.to_string(),
                state: TaskState::Queued,
                approval,
                session_id: None,
                result: None,
                cancel_requested: false,
            });
            id
        })?;
        Inner::pump(&self.inner);
        Ok(id)
    }

    /// Every task, oldest first, as the queue file has them now.
    pub fn list(&self) -> Vec<TaskRecord> {
        self.inner.store.load()
    }

    /// The task `id`.
    pub fn get(&self, id: u64) -> Option<TaskRecord> {
        self.list().into_iter().find(|t| t.id == id)
    }

    /// The task's events so far, one JSON object a line (empty before it starts).
    pub fn log(&self, id: u64) -> Result<Vec<String>, TaskError> {
        self.get(id).ok_or(TaskError::Unknown(id))?;
        Ok(self.inner.store.read_log(id))
    }

    /// Cancels a queued or running task; a running one ends at its next await point, its calls with results.
    /// A task another process runs is asked to stop through the queue file.
    pub fn cancel(&self, id: u64) -> Result<(), TaskError> {
        if let Some(token) = lock(&self.inner.running).get(&id) {
            token.cancel();
            return Ok(());
        }
        self.inner.update(|tasks| {
            let task = tasks
                .iter_mut()
                .find(|t| t.id == id)
                .ok_or(TaskError::Unknown(id))?;
            match task.state {
                TaskState::Queued => task.state = TaskState::Cancelled,
                TaskState::Running => task.cancel_requested = true,
                _ => return Err(TaskError::AlreadyDone(id)),
            }
            Ok(())
        })?
    }

    /// Stops every running task, waits until each has ended (their sessions are written), queues it again and
    /// lets go of the runner lock, so the next paicli in this project runs them.
    pub async fn shutdown(&self) {
        self.inner
            .stopping
            .store(true, std::sync::atomic::Ordering::SeqCst);
        self.inner.stop.cancel();
        *lock(&self.inner.runtime) = None;
        let tokens: Vec<CancellationToken> = lock(&self.inner.running).values().cloned().collect();
        for token in &tokens {
            token.cancel();
        }
        while !lock(&self.inner.running).is_empty() {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        lock(&self.inner.runner).take();
    }
}

impl Inner {
    /// Changes the queue file (see [`TaskStore::update`]).
    fn update<R>(&self, change: impl FnOnce(&mut Vec<TaskRecord>) -> R) -> Result<R, TaskError> {
        self.store.update(change).map_err(|source| TaskError::Io {
            path: self.store.queue_path(),
            source,
        })
    }

    /// Like [`Inner::update`] where a failure can only be logged.
    fn update_or_warn(&self, change: impl FnOnce(&mut Vec<TaskRecord>)) {
        if let Err(e) = self.update(change) {
            tracing::warn!("{e}");
        }
    }

    /// One look at the queue: take the runner lock if it is free, pass on cancels other processes asked for,
    /// start what may start.
    fn tick(inner: &Arc<Inner>) {
        if inner.stop.is_cancelled() {
            return;
        }
        {
            let mut runner = lock(&inner.runner);
            if runner.is_none() {
                let Some(file) = inner.store.try_runner_lock() else {
                    return;
                };
                *runner = Some(file);
                drop(runner);
                inner.requeue_orphans();
            }
        }
        let asked: Vec<u64> = inner
            .store
            .load()
            .iter()
            .filter(|t| t.cancel_requested && t.state == TaskState::Running)
            .map(|t| t.id)
            .collect();
        for id in asked {
            if let Some(token) = lock(&inner.running).get(&id) {
                token.cancel();
            }
        }
        Inner::pump(inner);
    }

    /// Tasks marked running that no live process runs (the holder of the runner lock calls this, before it
    /// starts any): queued again, to run from the start.
    fn requeue_orphans(&self) {
        self.update_or_warn(|tasks| {
            for task in tasks.iter_mut().filter(|t| t.state == TaskState::Running) {
                task.state = TaskState::Queued;
                task.session_id = None;
                task.cancel_requested = false;
            }
        });
    }

    /// Starts queued tasks while fewer than `parallel` run, if this process runs the queue.
    fn pump(inner: &Arc<Inner>) {
        let Some(runtime) = lock(&inner.runtime).clone() else {
            return;
        };
        if lock(&inner.runner).is_none() {
            return;
        }
        loop {
            // Held while a task is chosen, so two pumps at once cannot start more than `parallel`.
            let mut running = lock(&inner.running);
            if running.len() >= inner.parallel {
                return;
            }
            let next = inner.update(|tasks| {
                let task = tasks.iter_mut().find(|t| t.state == TaskState::Queued)?;
                task.state = TaskState::Running;
                Some(task.clone())
            });
            let task = match next {
                Ok(Some(task)) => task,
                Ok(None) => return,
                Err(e) => {
                    tracing::warn!("{e}");
                    return;
                }
            };
            let token = CancellationToken::new();
            running.insert(task.id, token.clone());
            drop(running);
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
        self.update_or_warn(|tasks| {
            if let Some(task) = tasks.iter_mut().find(|t| t.id == id) {
                task.session_id = Some(session.to_string());
            }
        });
    }

    fn requeue(&self, id: u64) {
        self.update_or_warn(|tasks| {
            if let Some(task) = tasks.iter_mut().find(|t| t.id == id) {
                task.state = TaskState::Queued;
                task.session_id = None;
                task.cancel_requested = false;
            }
        });
    }

    fn finish(&self, id: u64, state: TaskState, result: Option<String>) {
        self.update_or_warn(|tasks| {
            if let Some(task) = tasks.iter_mut().find(|t| t.id == id) {
                task.state = state;
                task.result = result;
                task.cancel_requested = false;
            }
        });
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
