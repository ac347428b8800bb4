//! One chat's session: a worker that owns the app's `Session` and runs the chat's messages one after another
//! (a FIFO queue), with the state the layer reads and changes while a task runs (`/status`, `/stop`, `/pause`).

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::{mpsc, watch};
use tokio_util::sync::CancellationToken;

use super::approver::ChatApprover;
use super::sink::{ChatSink, Ending};
use super::{LayerContext, send_or_log};
use crate::app::{HostOptions, Input, Ran, Session};
use crate::channels::limits::LimitReached;
use crate::channels::transport::ChatRef;
use crate::config::ApprovalMode;
use crate::text::{Msg, tr, trf};

/// What the worker does next, in the order the person sent it.
pub enum Job {
    /// A task; skipped when `/stop` came after it was queued (its generation is older).
    Input {
        text: String,
        chat: ChatRef,
        generation: u64,
    },
    Clear(ChatRef),
    Compact(ChatRef),
    Mode(ApprovalMode, ChatRef),
}

/// What the layer sees of a chat while its worker runs.
pub struct ChatState {
    pub approver: Arc<ChatApprover>,
    /// The running task's token (`/stop` cancels it).
    running: Mutex<Option<CancellationToken>>,
    /// Tasks waiting in the queue.
    queued: AtomicUsize,
    /// Raised by `/stop`: queued tasks of older generations are dropped.
    generation: AtomicU64,
    paused: watch::Sender<bool>,
    mode: Mutex<ApprovalMode>,
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl ChatState {
    pub fn is_running(&self) -> bool {
        lock(&self.running).is_some()
    }

    pub fn queued(&self) -> usize {
        self.queued.load(Ordering::SeqCst)
    }

    pub fn is_paused(&self) -> bool {
        *self.paused.borrow()
    }

    pub fn set_paused(&self, paused: bool) {
        self.paused.send_replace(paused);
    }

    pub fn mode(&self) -> ApprovalMode {
        *lock(&self.mode)
    }

    /// Cancels the running task, refuses its open question and drops the queued tasks; false when nothing was
    /// running or queued.
    pub fn stop(&self) -> bool {
        self.generation.fetch_add(1, Ordering::SeqCst);
        let dropped = self.queued.swap(0, Ordering::SeqCst);
        self.approver.withdraw();
        let running = lock(&self.running).as_ref().map(CancellationToken::cancel);
        running.is_some() || dropped > 0
    }

    fn take_queued(&self) {
        let _ = self
            .queued
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                Some(n.saturating_sub(1))
            });
    }
}

/// A chat: its state and its queue.
pub struct Chat {
    pub state: Arc<ChatState>,
    jobs: mpsc::UnboundedSender<Job>,
    worker: tokio::task::JoinHandle<()>,
}

impl Chat {
    /// Starts the worker of a chat whose first message came from `chat`. The session itself starts with the first
    /// job, so a chat that only asks `/status` starts nothing.
    pub fn start(context: Arc<LayerContext>, chat: ChatRef) -> Chat {
        let approver = Arc::new(ChatApprover::new(
            Arc::clone(&context.transport),
            Arc::clone(&context.policy),
            context.log.clone(),
            context.redactor.clone(),
            context.lang,
            chat,
        ));
        let state = Arc::new(ChatState {
            approver,
            running: Mutex::new(None),
            queued: AtomicUsize::new(0),
            generation: AtomicU64::new(0),
            paused: watch::Sender::new(false),
            mode: Mutex::new(ApprovalMode::Ask),
        });
        let (jobs, rx) = mpsc::unbounded_channel();
        let worker = tokio::spawn(run_worker(context, Arc::clone(&state), rx));
        Chat {
            state,
            jobs,
            worker,
        }
    }

    /// Queues a task.
    pub fn push_input(&self, text: String, chat: ChatRef) {
        self.state.queued.fetch_add(1, Ordering::SeqCst);
        let generation = self.state.generation.load(Ordering::SeqCst);
        let _ = self.jobs.send(Job::Input {
            text,
            chat,
            generation,
        });
    }

    /// Queues a job that changes the session between tasks.
    pub fn push(&self, job: Job) {
        let _ = self.jobs.send(job);
    }

    /// Ends the queue and waits for the worker to shut its session down (the layer cancelled the running task).
    pub async fn finish(self) {
        drop(self.jobs);
        let _ = self.worker.await;
    }
}

async fn run_worker(
    context: Arc<LayerContext>,
    state: Arc<ChatState>,
    mut jobs: mpsc::UnboundedReceiver<Job>,
) {
    let mut session: Option<Session> = None;
    loop {
        let job = tokio::select! {
            job = jobs.recv() => job,
            () = context.cancel.cancelled() => None,
        };
        let Some(job) = job else { break };
        let chat = match &job {
            Job::Input { chat, .. }
            | Job::Clear(chat)
            | Job::Compact(chat)
            | Job::Mode(_, chat) => chat.clone(),
        };
        if let Job::Input { generation, .. } = &job {
            if *generation < state.generation.load(Ordering::SeqCst) {
                continue;
            }
            // `/pause` holds the queue until `/resume` (or the channel stops).
            let mut paused = state.paused.subscribe();
            tokio::select! {
                _ = paused.wait_for(|p| !p) => {}
                () = context.cancel.cancelled() => break,
            }
            if *generation < state.generation.load(Ordering::SeqCst) {
                continue;
            }
            state.take_queued();
        }
        if session.is_none() {
            match start_session(&context, &state).await {
                Ok(started) => session = Some(started),
                Err(error) => {
                    let text = trf(
                        context.lang,
                        Msg::ChannelSessionFailed,
                        &[("error", &error)],
                    );
                    context.log.record(&text);
                    send_or_log(&context, &chat, &text).await;
                    continue;
                }
            }
        }
        let Some(session) = session.as_mut() else {
            continue;
        };
        match job {
            Job::Input { text, chat, .. } => run_task(&context, &state, session, text, chat).await,
            Job::Clear(chat) => {
                session.clear_history().await;
                send_or_log(&context, &chat, tr(context.lang, Msg::ChannelCleared)).await;
            }
            Job::Compact(chat) => {
                let sink = ChatSink::default();
                // `/stop` cancels a compaction as it does a task.
                let cancel = context.cancel.child_token();
                *lock(&state.running) = Some(cancel.clone());
                let compacted = session
                    .agent_mut()
                    .compact_now(None, &sink, cancel.clone())
                    .await;
                *lock(&state.running) = None;
                let reply = match compacted {
                    _ if cancel.is_cancelled() => tr(context.lang, Msg::ChannelStopped).to_string(),
                    Ok(()) => tr(context.lang, Msg::ChannelCompacted).to_string(),
                    Err(e) => trf(context.lang, Msg::ChannelCompactFailed, &[("error", &e)]),
                };
                send_or_log(&context, &chat, &reply).await;
            }
            Job::Mode(mode, chat) => {
                session.set_approval_mode(mode);
                *lock(&state.mode) = mode;
                let name = mode.name();
                let reply = trf(context.lang, Msg::ChannelModeSwitched, &[("mode", &name)]);
                send_or_log(&context, &chat, &reply).await;
            }
        }
    }
    if let Some(session) = session {
        session.shutdown().await;
    }
}

async fn start_session(
    context: &LayerContext,
    state: &ChatState,
) -> Result<Session, crate::app::HostError> {
    let approver = Arc::clone(&state.approver);
    let session = Session::start(
        context.session_config.clone(),
        approver,
        HostOptions::default(),
    )?;
    state.approver.set_tools(session.tools().await);
    *lock(&state.mode) = session.approval_mode();
    Ok(session)
}

/// Runs one task and sends its answer.
async fn run_task(
    context: &LayerContext,
    state: &ChatState,
    session: &Session,
    text: String,
    chat: ChatRef,
) {
    let lang = context.lang;
    if let Err(reached) = context.limits.check() {
        let reply = match reached {
            LimitReached::Turns(limit) => trf(lang, Msg::ChannelLimitTurns, &[("limit", &limit)]),
            LimitReached::Tokens(limit) => trf(lang, Msg::ChannelLimitTokens, &[("limit", &limit)]),
        };
        send_or_log(context, &chat, &reply).await;
        return;
    }
    let cancel = context.cancel.child_token();
    *lock(&state.running) = Some(cancel.clone());
    if let Err(e) = context.transport.typing(&chat, true).await {
        tracing::debug!("typing status not shown: {e}");
    }
    let sink = ChatSink::default();
    let ran = session
        .run_input(Input::typed(text), &sink, cancel, state.approver.as_ref())
        .await;
    *lock(&state.running) = None;
    if let Err(e) = context.transport.typing(&chat, false).await {
        tracing::debug!("typing status not cleared: {e}");
    }
    if let Err(e) = context.limits.record(sink.tokens()) {
        context
            .log
            .record(&trf(lang, Msg::ChannelUsageNotSaved, &[("error", &e)]));
    }
    let reply = match (ran, sink.ending()) {
        (Ran::Blocked { reason }, _) => trf(lang, Msg::ChannelHookBlocked, &[("reason", &reason)]),
        (_, Some(Ending::Finished(text))) if !text.trim().is_empty() => text,
        (_, Some(Ending::Finished(_)) | None) => tr(lang, Msg::ChannelEmptyAnswer).to_string(),
        (_, Some(Ending::Partial { reason, text })) => {
            let note = trf(lang, Msg::ChannelPartial, &[("reason", &reason)]);
            format!("{text}\n\n({note})")
        }
        (_, Some(Ending::Cancelled)) => tr(lang, Msg::ChannelStopped).to_string(),
        (_, Some(Ending::Failed(error))) => trf(lang, Msg::ChannelTaskFailed, &[("error", &error)]),
    };
    // To the chat's latest message: answers given meanwhile carry the freshest reply token.
    send_or_log(context, &state.approver.chat(), &reply).await;
}
