//! The channel layer over a transport written in the test: chat commands, the queue, one session per sender.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use tokio::sync::{mpsc, watch};
use tokio_util::sync::CancellationToken;

use paicli::channels::{
    ChannelError, ChannelKind, ChatRef, Incoming, IncomingKind, Question, Transport, serve_chats,
};
use paicli::config::{Config, Overrides};

use crate::support::{Reply, ScriptedServer};

const ALICE: &str = "alice";
const BOB: &str = "bob";

/// Hands the layer what the test sends and keeps what the layer sends back.
struct TestTransport {
    incoming: tokio::sync::Mutex<mpsc::UnboundedReceiver<Incoming>>,
    sent: Mutex<Vec<(String, String)>>,
    changed: watch::Sender<usize>,
}

#[async_trait]
impl Transport for TestTransport {
    fn kind(&self) -> ChannelKind {
        ChannelKind::Telegram
    }

    async fn poll(&self, cancel: &CancellationToken) -> Result<Vec<Incoming>, ChannelError> {
        let mut incoming = self.incoming.lock().await;
        tokio::select! {
            Some(first) = incoming.recv() => Ok(vec![first]),
            () = cancel.cancelled() => Ok(Vec::new()),
        }
    }

    async fn send(&self, chat: &ChatRef, text: &str) -> Result<(), ChannelError> {
        self.sent
            .lock()
            .unwrap()
            .push((chat.chat_id.clone(), text.to_string()));
        self.changed.send_modify(|n| *n += 1);
        Ok(())
    }

    async fn ask(&self, chat: &ChatRef, question: &Question) -> Result<(), ChannelError> {
        self.send(chat, &question.text).await
    }

    async fn typing(&self, _chat: &ChatRef, _on: bool) -> Result<(), ChannelError> {
        Ok(())
    }
}

struct Layer {
    _project: tempfile::TempDir,
    _home: tempfile::TempDir,
    model: ScriptedServer,
    transport: Arc<TestTransport>,
    to_layer: mpsc::UnboundedSender<Incoming>,
    cancel: CancellationToken,
    task: tokio::task::JoinHandle<Result<(), ChannelError>>,
    next_id: Mutex<u64>,
}

impl Layer {
    fn start(model: ScriptedServer) -> Layer {
        let project = tempfile::tempdir().unwrap();
        let home = tempfile::tempdir().unwrap();
        let env = vec![
            ("PAICLI_HOME".to_string(), home.path().display().to_string()),
            ("LANG".to_string(), "en_US.UTF-8".to_string()),
        ];
        let overrides = Overrides {
            base_url: Some(model.url()),
            model: Some("scripted-model".to_string()),
            ..Overrides::default()
        };
        let config = Config::load_with_env(project.path(), env, &overrides).unwrap();
        let (to_layer, rx) = mpsc::unbounded_channel();
        let transport = Arc::new(TestTransport {
            incoming: tokio::sync::Mutex::new(rx),
            sent: Mutex::new(Vec::new()),
            changed: watch::Sender::new(0),
        });
        let cancel = CancellationToken::new();
        let stop = cancel.clone();
        let serving = Arc::clone(&transport) as Arc<dyn Transport>;
        let task = tokio::spawn(async move {
            serve_chats(&config, serving, vec![ALICE.into(), BOB.into()], stop).await
        });
        Layer {
            _project: project,
            _home: home,
            model,
            transport,
            to_layer,
            cancel,
            task,
            next_id: Mutex::new(0),
        }
    }

    fn say(&self, sender: &str, text: &str) {
        let mut id = self.next_id.lock().unwrap();
        *id += 1;
        self.to_layer
            .send(Incoming {
                chat: ChatRef {
                    chat_id: format!("chat-{sender}"),
                    reply_token: None,
                },
                sender: sender.to_string(),
                message_id: id.to_string(),
                kind: IncomingKind::Text(text.to_string()),
            })
            .unwrap();
    }

    /// Waits for the `n`-th reply (1-based) to `sender` and returns it.
    async fn reply(&self, sender: &str, n: usize) -> String {
        let chat = format!("chat-{sender}");
        let texts = || -> Vec<String> {
            let sent = self.transport.sent.lock().unwrap();
            sent.iter()
                .filter(|(c, _)| *c == chat)
                .map(|(_, t)| t.clone())
                .collect()
        };
        let wait = async {
            loop {
                let mut changed = self.transport.changed.subscribe();
                if let Some(text) = texts().get(n - 1) {
                    return text.clone();
                }
                changed.changed().await.unwrap();
            }
        };
        match tokio::time::timeout(Duration::from_secs(60), wait).await {
            Ok(text) => text,
            Err(_) => panic!("no reply #{n} to {sender}; sent: {:?}", texts()),
        }
    }

    async fn stop(self) {
        self.cancel.cancel();
        self.task.await.unwrap().unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pause_holds_tasks_until_resume() {
    let layer = Layer::start(ScriptedServer::with_replies([Reply::text("answer A")]));
    layer.say(ALICE, "/pause");
    assert_eq!(
        layer.reply(ALICE, 1).await,
        "Paused: new tasks wait until /resume."
    );
    layer.say(ALICE, "task A");
    assert_eq!(
        layer.reply(ALICE, 2).await,
        "Paused: this message waits until /resume."
    );
    layer.say(ALICE, "/status");
    let status = layer.reply(ALICE, 3).await;
    assert!(
        status.starts_with("State: paused\nQueued: 1\nMode: ask\n"),
        "{status}"
    );
    assert!(status.ends_with("Today: 0 tasks, 0 tokens"), "{status}");
    assert_eq!(layer.model.chat_requests().len(), 0);
    layer.say(ALICE, "/resume");
    assert_eq!(layer.reply(ALICE, 4).await, "Resumed.");
    assert_eq!(layer.reply(ALICE, 5).await, "answer A");
    layer.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chat_may_choose_ask_or_plan_and_nothing_looser() {
    let layer = Layer::start(ScriptedServer::start());
    layer.say(ALICE, "/mode");
    assert_eq!(layer.reply(ALICE, 1).await, "Approval mode: ask");
    layer.say(ALICE, "/mode full");
    assert_eq!(
        layer.reply(ALICE, 2).await,
        "A chat can choose ask or plan, not full."
    );
    layer.say(ALICE, "/mode plan");
    assert_eq!(layer.reply(ALICE, 3).await, "Approval mode is now plan.");
    layer.say(ALICE, "/mode");
    assert_eq!(layer.reply(ALICE, 4).await, "Approval mode: plan");
    layer.say(ALICE, "/frobnicate");
    assert_eq!(
        layer.reply(ALICE, 5).await,
        "Unknown command /frobnicate; /help lists the commands."
    );
    layer.say(ALICE, "/help");
    let help = layer.reply(ALICE, 6).await;
    for command in [
        "/status", "/stop", "/clear", "/compact", "/mode", "/pause", "/resume",
    ] {
        assert!(help.contains(command), "{help}");
    }
    layer.say(ALICE, "/stop");
    assert_eq!(layer.reply(ALICE, 7).await, "Nothing is running.");
    layer.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_sender_has_a_session_and_messages_run_in_order() {
    // Bob's task has its own route; Alice's two take the replies in order.
    let model = ScriptedServer::with_replies([Reply::text("A1"), Reply::text("A2")]);
    model.route_task("bob only", [Reply::text("B1")]);
    let layer = Layer::start(model);
    layer.say(ALICE, "alice first");
    layer.say(ALICE, "alice second");
    layer.say(BOB, "bob only");
    assert_eq!(layer.reply(ALICE, 1).await, "A1");
    assert_eq!(layer.reply(ALICE, 2).await, "A2");
    assert_eq!(layer.reply(BOB, 1).await, "B1");
    let requests = layer.model.chat_requests();
    let second = requests
        .iter()
        .find(|r| r.body["messages"].to_string().contains("alice second"))
        .unwrap();
    // Alice's second task continues her conversation; Bob's session never saw it.
    assert!(second.body["messages"].to_string().contains("A1"));
    let bob = requests
        .iter()
        .find(|r| r.body["messages"].to_string().contains("bob only"))
        .unwrap();
    assert!(!bob.body["messages"].to_string().contains("alice"));
    layer.say(ALICE, "/clear");
    assert_eq!(layer.reply(ALICE, 3).await, "The conversation was cleared.");
    layer.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn compact_summarizes_between_tasks() {
    // Long enough that a short summary makes the history smaller.
    let long = "many words here ".repeat(300);
    let model = ScriptedServer::with_replies([
        Reply::text(format!("A1 {long}")),
        Reply::text(format!("A2 {long}")),
        Reply::text("Summary: the person said hello twice."),
    ]);
    let layer = Layer::start(model);
    layer.say(ALICE, &format!("hello once {long}"));
    layer.say(ALICE, &format!("hello twice {long}"));
    layer.say(ALICE, "/compact");
    assert!(layer.reply(ALICE, 1).await.starts_with("A1 "));
    assert!(layer.reply(ALICE, 2).await.starts_with("A2 "));
    assert_eq!(
        layer.reply(ALICE, 3).await,
        "The conversation was compacted."
    );
    layer.stop().await;
}
