//! The channel layer: polls one transport, drops senders not on the allow list (and logs them), maps each sender
//! to a chat with its own session on the one session host, answers the chat commands, routes answers to the open
//! question, and queues everything else as tasks.

mod approver;
mod chat;
mod commands;
mod sink;

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use tokio_util::sync::CancellationToken;

use self::chat::{Chat, Job};
use self::commands::{ChatCommand, help_text, parse_answer, parse_command};
use super::limits::DailyLimits;
use super::log::ChannelLog;
use super::policy::{ChannelPolicy, session_config};
use super::transport::{ChannelError, ChatRef, Incoming, IncomingKind, Transport};
use crate::app::channel_status::channel_dir;
use crate::app::sessions::configured_secrets;
use crate::config::{ApprovalMode, Config};
use crate::guard::redact::Redactor;
use crate::text::{Lang, Msg, tr, trf};

/// Message ids remembered to drop a message the service delivers twice.
const REMEMBERED_IDS: usize = 2_048;
/// The longest wait between polls after failures.
const MAX_BACKOFF: Duration = Duration::from_secs(30);

/// What every chat of the channel shares.
pub struct LayerContext {
    pub transport: Arc<dyn Transport>,
    pub policy: Arc<ChannelPolicy>,
    pub limits: DailyLimits,
    pub log: ChannelLog,
    pub lang: Lang,
    /// The configuration each chat's session starts with (see `policy::session_config`).
    pub session_config: Config,
    /// Cancelled when the channel stops: running tasks end, queued ones are dropped.
    pub cancel: CancellationToken,
    /// Masks secrets in everything sent to the chat service, a third party.
    pub redactor: Redactor,
}

/// Sends `text` to `chat`; a failure is logged (the task's outcome is not lost: it is in the session's ledger).
pub async fn send_or_log(context: &LayerContext, chat: &ChatRef, text: &str) {
    let text = context.redactor.redact(text);
    if let Err(e) = context.transport.send(chat, &text).await {
        context
            .log
            .record(&trf(context.lang, Msg::ChannelSendFailed, &[("error", &e)]));
    }
}

/// Errors after which polling again cannot help: the person must set the channel up again.
fn ends_the_channel(error: &ChannelError) -> bool {
    match error {
        ChannelError::Paused { .. }
        | ChannelError::NotSetUp { .. }
        | ChannelError::NoToken { .. } => true,
        // Telegram: 401 (bad token), 404 (no such bot), 409 (another poller took over).
        ChannelError::Api { code, .. } => matches!(code, 401 | 403 | 404 | 409),
        _ => false,
    }
}

/// Serves the chats reaching `transport` until `cancel` fires (Ctrl-C, SIGTERM) or the service says the channel
/// cannot go on. `allow_from` are the senders heard; `config` is the user's, for the folder the channel started in.
pub async fn serve_chats(
    config: &Config,
    transport: Arc<dyn Transport>,
    allow_from: Vec<String>,
    cancel: CancellationToken,
) -> Result<(), ChannelError> {
    let channel = transport.kind().id();
    let lang = Lang::resolve(config.ui_language, &config.env);
    let log = ChannelLog::new(&config.home, channel);
    if allow_from.is_empty() {
        log.record(tr(lang, Msg::ChannelNobodyAllowed));
    }
    let dir = channel_dir(&config.home, channel);
    let context = Arc::new(LayerContext {
        transport: Arc::clone(&transport),
        policy: Arc::new(ChannelPolicy::new(config, allow_from)),
        limits: DailyLimits::load(
            dir.join("usage.json"),
            config.channels.daily_turns,
            config.channels.daily_tokens,
        ),
        log,
        lang,
        session_config: session_config(config),
        cancel: cancel.clone(),
        redactor: Redactor::new(
            configured_secrets(config)
                .into_iter()
                .chain(config.channels.telegram.bot_token.clone()),
        ),
    });
    let mut layer = Layer {
        context: Arc::clone(&context),
        chats: HashMap::new(),
        seen: HashSet::new(),
        seen_order: VecDeque::new(),
    };
    let result = layer.poll_until_stopped().await;
    cancel.cancel();
    for (_, chat) in layer.chats.drain() {
        chat.state.approver.withdraw();
        chat.finish().await;
    }
    if let Err(e) = transport.stopped().await {
        tracing::warn!("{channel}: telling the service the channel stops failed: {e}");
    }
    result
}

struct Layer {
    context: Arc<LayerContext>,
    /// By sender: a chat maps to one session per person.
    chats: HashMap<String, Chat>,
    seen: HashSet<(String, String)>,
    seen_order: VecDeque<(String, String)>,
}

impl Layer {
    async fn poll_until_stopped(&mut self) -> Result<(), ChannelError> {
        let cancel = self.context.cancel.clone();
        let mut failures: u32 = 0;
        while !cancel.is_cancelled() {
            match self.context.transport.poll(&cancel).await {
                Ok(batch) => {
                    failures = 0;
                    for incoming in batch {
                        self.take(incoming).await;
                    }
                }
                Err(e) if ends_the_channel(&e) => {
                    self.context.log.record(&trf(
                        self.context.lang,
                        Msg::ChannelPollFailed,
                        &[(
                            "error",
                            &super::service::channel_error(self.context.lang, &e),
                        )],
                    ));
                    return Err(e);
                }
                Err(e) => {
                    self.context.log.record(&trf(
                        self.context.lang,
                        Msg::ChannelPollFailed,
                        &[("error", &e)],
                    ));
                    failures = failures.saturating_add(1);
                    let wait = Duration::from_secs(1 << failures.min(5)).min(MAX_BACKOFF);
                    tokio::select! {
                        () = tokio::time::sleep(wait) => {}
                        () = cancel.cancelled() => {}
                    }
                }
            }
        }
        Ok(())
    }

    /// True the first time a message id is seen in its chat.
    fn first_sighting(&mut self, incoming: &Incoming) -> bool {
        let key = (incoming.chat.chat_id.clone(), incoming.message_id.clone());
        if !self.seen.insert(key.clone()) {
            return false;
        }
        self.seen_order.push_back(key);
        if self.seen_order.len() > REMEMBERED_IDS
            && let Some(old) = self.seen_order.pop_front()
        {
            self.seen.remove(&old);
        }
        true
    }

    async fn take(&mut self, incoming: Incoming) {
        let context = Arc::clone(&self.context);
        let lang = context.lang;
        if !context.policy.hears(&incoming.sender) {
            let sender = &incoming.sender;
            context
                .log
                .record(&trf(lang, Msg::ChannelDropped, &[("sender", sender)]));
            return;
        }
        if !self.first_sighting(&incoming) {
            return;
        }
        let chat = self
            .chats
            .entry(incoming.sender.clone())
            .or_insert_with(|| Chat::start(Arc::clone(&context), incoming.chat.clone()));
        let reply_to = incoming.chat;
        // The freshest reply target: WeChat's reply token (and its quota) belongs to the latest message.
        chat.state.approver.set_chat(reply_to.clone());
        match incoming.kind {
            IncomingKind::Unsupported => {
                send_or_log(&context, &reply_to, tr(lang, Msg::ChannelUnsupported)).await;
            }
            IncomingKind::Answer {
                question_id,
                approve,
            } => {
                if !chat.state.approver.answer(Some(&question_id), approve) {
                    send_or_log(&context, &reply_to, tr(lang, Msg::ChannelQuestionGone)).await;
                }
            }
            IncomingKind::Text(text) => {
                if chat.state.approver.is_asking()
                    && let Some(approve) = parse_answer(&text)
                    && chat.state.approver.answer(None, approve)
                {
                    return;
                }
                match parse_command(&text) {
                    Some(command) => run_command(&context, chat, command, reply_to).await,
                    None => {
                        if chat.state.is_paused() {
                            send_or_log(
                                &context,
                                &reply_to,
                                tr(lang, Msg::ChannelQueuedWhilePaused),
                            )
                            .await;
                        } else if chat.state.approver.is_asking() {
                            send_or_log(&context, &reply_to, tr(lang, Msg::ChannelQuestionWaits))
                                .await;
                        }
                        chat.push_input(text, reply_to);
                    }
                }
            }
        }
    }
}

/// The modes a chat may choose: both keep every call with side effects asked (or refused).
const CHAT_MODES: [ApprovalMode; 2] = [ApprovalMode::Ask, ApprovalMode::Plan];

async fn run_command(context: &LayerContext, chat: &Chat, command: ChatCommand, reply_to: ChatRef) {
    let lang = context.lang;
    let state = &chat.state;
    let reply = match command {
        ChatCommand::Help => help_text(lang),
        ChatCommand::Status => status_text(context, chat),
        ChatCommand::Stop => {
            if state.stop() {
                // The stopped task answers for itself ("stopped").
                if state.is_running() {
                    return;
                }
                tr(lang, Msg::ChannelStopped).to_string()
            } else {
                tr(lang, Msg::ChannelNothingToStop).to_string()
            }
        }
        ChatCommand::Clear => {
            chat.push(Job::Clear(reply_to));
            return;
        }
        ChatCommand::Compact => {
            chat.push(Job::Compact(reply_to));
            return;
        }
        ChatCommand::Mode(None) => {
            let mode = state.mode().name();
            trf(lang, Msg::ChannelModeNow, &[("mode", &mode)])
        }
        ChatCommand::Mode(Some(word)) => {
            match word
                .parse::<ApprovalMode>()
                .ok()
                .filter(|m| CHAT_MODES.contains(m))
            {
                Some(mode) => {
                    chat.push(Job::Mode(mode, reply_to));
                    return;
                }
                None => trf(lang, Msg::ChannelModeRefused, &[("mode", &word)]),
            }
        }
        ChatCommand::Pause => {
            state.set_paused(true);
            tr(lang, Msg::ChannelPaused).to_string()
        }
        ChatCommand::Resume => {
            state.set_paused(false);
            tr(lang, Msg::ChannelResumed).to_string()
        }
        ChatCommand::Unknown(name) => trf(lang, Msg::ChannelUnknownCommand, &[("name", &name)]),
    };
    send_or_log(context, &reply_to, &reply).await;
}

fn status_text(context: &LayerContext, chat: &Chat) -> String {
    let lang = context.lang;
    let state = &chat.state;
    let doing = if state.is_paused() {
        Msg::ChannelStatePaused
    } else if state.approver.is_asking() {
        Msg::ChannelStateAsking
    } else if state.is_running() {
        Msg::ChannelStateRunning
    } else {
        Msg::ChannelStateIdle
    };
    let (today, max_turns, max_tokens) = context.limits.today();
    let used = |used: u64, max: Option<u64>| match max {
        Some(limit) => trf(
            lang,
            Msg::ChannelUsedOf,
            &[("used", &used), ("limit", &limit)],
        ),
        None => used.to_string(),
    };
    let mode = state.mode().name();
    trf(
        lang,
        Msg::ChannelStatus,
        &[
            ("state", &tr(lang, doing)),
            ("queued", &state.queued()),
            ("mode", &mode),
            ("turns", &used(today.turns, max_turns)),
            ("tokens", &used(today.tokens, max_tokens)),
        ],
    )
}
