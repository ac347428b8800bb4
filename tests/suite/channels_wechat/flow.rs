//! WeChat end to end through the channel layer: the iLink stand-in, the transport, the layer, the session and the
//! scripted model. Approvals are typed replies (WeChat has no buttons), every reply carries the context token of
//! the latest message, and the server's refusals (`-2`, `-14`) are never silent.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use serde_json::json;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use paicli::channels::wechat::{MAX_CHARS, SENDS_PER_MESSAGE, WechatTransport};
use paicli::channels::{ChannelError, serve_chats};
use paicli::config::{Config, Overrides};
use paicli::text::Lang;

use super::ilink::{IlinkStandIn, Poll, saved_account, text_message, updates};
use crate::support::{Reply, ScriptedServer};

/// The bound user (who scanned the QR code).
const OWNER: &str = "o9cq80-yXQ@im.wechat";
const STRANGER: &str = "stranger-Zk2@im.wechat";

/// A project, a home with a saved WeChat login, the scripted model and the iLink stand-in.
struct Harness {
    project: tempfile::TempDir,
    home: tempfile::TempDir,
    model: ScriptedServer,
    ilink: IlinkStandIn,
    /// Messages released so far (message ids, sequence numbers and cursors follow from it).
    sent_in: std::sync::Mutex<u64>,
}

struct Running {
    cancel: CancellationToken,
    task: JoinHandle<Result<(), ChannelError>>,
}

impl Running {
    async fn stop(self) -> Result<(), ChannelError> {
        self.cancel.cancel();
        self.task.await.unwrap()
    }

    async fn ended(self) -> Result<(), ChannelError> {
        tokio::time::timeout(std::time::Duration::from_secs(60), self.task)
            .await
            .expect("the channel did not end")
            .unwrap()
    }
}

impl Harness {
    async fn new(model: ScriptedServer) -> Harness {
        let project = tempfile::tempdir().unwrap();
        std::fs::write(project.path().join("README.md"), "# demo\n").unwrap();
        let home = tempfile::tempdir().unwrap();
        saved_account(&home.path().join(".paicli"), OWNER);
        Harness {
            project,
            home,
            model,
            ilink: IlinkStandIn::start().await,
            sent_in: std::sync::Mutex::new(0),
        }
    }

    fn paicli_home(&self) -> std::path::PathBuf {
        self.home.path().join(".paicli")
    }

    fn config(&self) -> Config {
        let env = vec![
            (
                "PAICLI_HOME".to_string(),
                self.paicli_home().display().to_string(),
            ),
            ("PAICLI_WECHAT_BASE_URL".to_string(), self.ilink.url.clone()),
            ("LANG".to_string(), "en_US.UTF-8".to_string()),
        ];
        let overrides = Overrides {
            base_url: Some(self.model.url()),
            model: Some("scripted-model".to_string()),
            ..Overrides::default()
        };
        Config::load_with_env(self.project.path(), env, &overrides).unwrap()
    }

    /// Serves the chats with a fresh transport, as a new process would (from the saved cursor); the bound user is
    /// the allow list.
    fn start(&self) -> Running {
        let config = self.config();
        let transport = WechatTransport::open(&config.home, &self.ilink.url, Lang::En).unwrap();
        let allow = vec![transport.account().user_id().to_string()];
        let cancel = CancellationToken::new();
        let stop = cancel.clone();
        let task =
            tokio::spawn(
                async move { serve_chats(&config, Arc::new(transport), allow, stop).await },
            );
        Running { cancel, task }
    }

    /// The next message id, sequence number and cursor.
    fn next(&self) -> u64 {
        let mut n = self.sent_in.lock().unwrap();
        *n += 1;
        *n
    }

    /// `user` writes `text`; the message's context token is `ctx-<n>` (returned), its id above 2^53.
    fn say(&self, user: &str, text: &str) -> String {
        let n = self.next();
        let token = format!("ctx-{n}");
        let id = (9_007_199_254_740_993u64 + n).to_string();
        self.ilink.release(&updates(
            &[text_message(&id, n, user, &token, text)],
            &format!("cursor-{n}"),
        ));
        token
    }

    /// Waits for `count` replies (`sendmessage`); returns (text, context token) of each.
    async fn replies(&self, count: usize) -> Vec<(String, String)> {
        self.ilink
            .wait_for("sendmessage", count)
            .await
            .iter()
            .map(|s| {
                let msg = &s.body["msg"];
                (
                    msg["item_list"][0]["text_item"]["text"]
                        .as_str()
                        .unwrap()
                        .to_string(),
                    msg["context_token"]
                        .as_str()
                        .unwrap_or_default()
                        .to_string(),
                )
            })
            .collect()
    }

    fn log(&self) -> String {
        std::fs::read_to_string(self.paicli_home().join("channels/wechat/channel.log"))
            .unwrap_or_default()
    }

    fn model_saw(&self) -> Vec<String> {
        self.model
            .chat_requests()
            .iter()
            .map(|r| r.body["messages"].to_string())
            .collect()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_asks_by_text_and_runs_only_what_was_approved_under_the_latest_token() {
    let model = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "call_1",
            "write_file",
            json!({"path": "notes.md", "content": "hello\n"}),
        )]),
        Reply::tool_calls([(
            "call_2",
            "execute_command",
            json!({"command": "touch made-by-command"}),
        )]),
        Reply::text("All done."),
    ]);
    let h = Harness::new(model).await;
    let running = h.start();
    let first_token = h.say(OWNER, "write the notes");

    // The edit is asked in the chat as text, under the token of the message that started the task.
    let sent = h.replies(1).await;
    let (question, token) = &sent[0];
    assert!(
        question.contains("write_file") && question.contains("notes.md"),
        "{question}"
    );
    assert!(
        question.ends_with("Reply y to approve / n to deny"),
        "{question}"
    );
    assert_eq!(token, &first_token);
    let yes_token = h.say(OWNER, "y");

    // The command is asked next, under the token of the `y` (the freshest message and its quota).
    let sent = h.replies(2).await;
    assert!(sent[1].0.contains("touch made-by-command"), "{}", sent[1].0);
    assert_eq!(sent[1].1, yes_token);
    let no_token = h.say(OWNER, "n");

    let sent = h.replies(3).await;
    assert_eq!(sent[2], ("All done.".to_string(), no_token));
    assert_eq!(sent.len(), 3, "{sent:?}");
    assert_eq!(
        std::fs::read_to_string(h.project.path().join("notes.md")).unwrap(),
        "hello\n"
    );
    assert!(!h.project.path().join("made-by-command").exists());
    let saw = h.model_saw();
    assert!(saw[2].contains("USER_REJECTED"), "{}", saw[2]);
    assert!(!saw[1].contains("USER_REJECTED"), "{}", saw[1]);
    // The answers were not taken as tasks.
    assert_eq!(saw.len(), 3);
    // Every reply went to the bound user.
    for s in h.ilink.seen_at("sendmessage") {
        assert_eq!(s.body["msg"]["to_user_id"], OWNER);
    }
    // "typing…" was shown with the ticket from getconfig.
    let typing = h.ilink.wait_for("sendtyping", 1).await;
    assert_eq!(typing[0].body["ilink_user_id"], OWNER);
    assert_eq!(typing[0].body["status"], 1);
    running.stop().await.unwrap();
    // Stopping tells the server, once.
    assert_eq!(h.ilink.wait_for("notifystop", 1).await.len(), 1);
    assert_eq!(h.ilink.seen_at("notifystart").len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sender_who_is_not_the_bound_user_is_dropped_and_logged() {
    let model = ScriptedServer::with_replies([Reply::text("hello owner")]);
    let h = Harness::new(model).await;
    let running = h.start();
    h.say(STRANGER, "run rm -rf / for me");
    h.say(OWNER, "hi");
    let sent = h.replies(1).await;
    assert_eq!(sent[0].0, "hello owner");
    assert!(
        h.ilink
            .seen_at("sendmessage")
            .iter()
            .all(|s| s.body["msg"]["to_user_id"] == OWNER)
    );
    assert_eq!(h.model.chat_requests().len(), 1);
    assert!(!h.model_saw()[0].contains("rm -rf"));
    let log = h.log();
    assert!(
        log.contains(&format!(
            "dropped a message from sender {STRANGER}: not on the allow list"
        )),
        "{log}"
    );
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_20000_character_answer_arrives_whole_within_the_quota() {
    let lines: Vec<String> = (0..330)
        .map(|i| format!("line {i:04}: the agent changed several files and ran the tests"))
        .collect();
    let answer = lines.join("\n");
    assert!(answer.chars().count() >= 20_000);
    let h = Harness::new(ScriptedServer::with_replies([Reply::text(answer)])).await;
    let running = h.start();
    let token = h.say(OWNER, "write a lot");
    // Whole lines of 60 characters, pieces of at most 3,800: six sends under the one token.
    let sent = h.replies(6).await;
    running.stop().await.unwrap();
    let sent_now = h.ilink.seen_at("sendmessage");
    assert_eq!(sent_now.len(), 6);
    assert!(sent.len() <= SENDS_PER_MESSAGE);
    for (text, used) in &sent {
        assert!(text.chars().count() <= MAX_CHARS);
        assert_eq!(used, &token);
    }
    let received: Vec<&str> = sent.iter().flat_map(|(t, _)| t.lines()).collect();
    assert_eq!(
        received,
        lines.iter().map(String::as_str).collect::<Vec<_>>()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_resumes_from_the_saved_cursor_without_replaying() {
    let model =
        ScriptedServer::with_replies([Reply::text("first answer"), Reply::text("second answer")]);
    let h = Harness::new(model).await;
    let running = h.start();
    h.say(OWNER, "first task");
    assert_eq!(h.replies(1).await[0].0, "first answer");
    running.stop().await.unwrap();
    let state =
        std::fs::read_to_string(h.paicli_home().join("channels/wechat/poll_state.json")).unwrap();
    assert!(state.contains(r#""get_updates_buf":"cursor-1""#), "{state}");

    // The server hands the old message again with a new one: only the new one runs.
    let polls_before = h.ilink.seen_at("getupdates").len();
    h.ilink.add_poll(Poll::Answer(updates(
        &[
            text_message("9007199254740994", 1, OWNER, "ctx-1", "first task"),
            text_message("9007199254740995", 2, OWNER, "ctx-2", "second task"),
        ],
        "cursor-2",
    )));
    let running = h.start();
    let sent = h.replies(2).await;
    assert_eq!(sent[1], ("second answer".to_string(), "ctx-2".to_string()));
    let first_poll = h.ilink.seen_at("getupdates")[polls_before].body.clone();
    assert_eq!(first_poll["get_updates_buf"], "cursor-1");
    let saw = h.model_saw();
    assert_eq!(saw.len(), 2);
    assert!(saw[1].contains("second task") && !saw[1].contains("first task"));
    // The next poll asks from the new cursor.
    let polls = h.ilink.wait_for("getupdates", polls_before + 2).await;
    assert_eq!(polls[polls_before + 1].body["get_updates_buf"], "cursor-2");
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stop_cancels_the_running_task_and_the_next_one_runs() {
    let model = ScriptedServer::with_replies([
        Reply::text("this will never finish").hang_after(2),
        Reply::text("fresh start"),
    ]);
    let h = Harness::new(model).await;
    let running = h.start();
    h.say(OWNER, "a long task");
    h.model.wait_request(0).await;
    let stop_token = h.say(OWNER, "/stop");
    assert_eq!(h.replies(1).await[0], ("Stopped.".to_string(), stop_token));
    h.say(OWNER, "again");
    assert_eq!(h.replies(2).await[1].0, "fresh start");
    assert_eq!(h.model.chat_requests().len(), 2);
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn minus_14_while_running_pauses_the_channel_with_the_notice() {
    let h = Harness::new(ScriptedServer::with_replies([Reply::text("one")])).await;
    let running = h.start();
    h.say(OWNER, "hello");
    h.replies(1).await;
    h.ilink
        .release(r#"{"ret":-14,"errcode":-14,"errmsg":"session timeout"}"#);
    match running.ended().await {
        Err(ChannelError::Paused { detail, .. }) => {
            assert!(detail.contains("session timeout"), "{detail}")
        }
        other => panic!("expected -14 to pause the channel, got {other:?}"),
    }
    let log = h.log();
    assert!(
        log.contains("the account is paused") && log.contains("paicli channel wechat setup"),
        "{log}"
    );
    assert_eq!(log.matches("the account is paused").count(), 1, "{log}");
    // Saved, for `status` and the next start.
    let status = paicli::channels::wechat::status(&h.paicli_home()).unwrap();
    assert!(status.paused.is_some());
    // The REPL's `/channel` reads the same from the saved files.
    let login = paicli::app::channel_status::wechat_login(&h.paicli_home()).unwrap();
    assert_eq!(
        (login.user_id, login.paused, login.has_cursor),
        (status.user_id, status.paused, status.has_cursor)
    );
    assert!(status.has_cursor);
    // A paused account is not told "stop" (it would only be refused again).
    assert!(h.ilink.seen_at("notifystop").is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn minus_2_on_a_reply_is_logged_and_the_channel_goes_on() {
    let model = ScriptedServer::with_replies([Reply::text("lost answer"), Reply::text("next")]);
    let h = Harness::new(model).await;
    h.ilink
        .add_send_answers([json!({"ret": -2, "errmsg": "context token expired"})]);
    let running = h.start();
    h.say(OWNER, "first");
    h.replies(1).await;
    // The refusal is in the log, with the server's words; the channel still serves the next message.
    let token = h.say(OWNER, "second");
    let sent = h.replies(2).await;
    assert_eq!(sent[1], ("next".to_string(), token));
    let log = h.log();
    assert!(
        log.contains("sending a reply failed: wechat: no more replies can be sent to this message")
            && log.contains("-2: context token expired"),
        "{log}"
    );
    running.stop().await.unwrap();
}
