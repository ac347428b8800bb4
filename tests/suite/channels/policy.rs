//! `[channels] edits` and `commands`: what runs from a chat without a question, and what is refused unasked.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::json;

use super::bot_api::OWNER;
use super::harness::{Harness, questions};
use crate::support::{Reply, ScriptedServer};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn workspace_edits_and_listed_commands_run_unasked_other_commands_are_asked() {
    let model = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "call_1",
            "write_file",
            json!({"path": "a.txt", "content": "A\n"}),
        )]),
        Reply::tool_calls([(
            "call_2",
            "execute_command",
            json!({"command": "echo channel-ok"}),
        )]),
        Reply::tool_calls([(
            "call_3",
            "execute_command",
            json!({"command": "echo channel-ok; touch b"}),
        )]),
        Reply::text("finished"),
    ]);
    let h = Harness::new(
        model,
        "[channels]\nedits = \"workspace\"\ncommands = [\"echo channel-ok\"]\n",
    )
    .await;
    let running = h.start();
    h.bot.text_from(OWNER, "edit and check");
    // Only the command line not on the list is asked.
    let sent = h.bot.wait_sent(OWNER, 1).await;
    assert!(sent[0].contains("echo channel-ok; touch b"), "{sent:?}");
    h.bot.text_from(OWNER, "n");
    assert_eq!(h.bot.wait_sent(OWNER, 2).await[1], "finished");
    assert_eq!(questions(&h.bot, OWNER), 1);
    assert_eq!(
        std::fs::read_to_string(h.project.path().join("a.txt")).unwrap(),
        "A\n"
    );
    let saw = h.model_saw();
    assert!(saw[2].contains("channel-ok"), "{}", saw[2]);
    assert!(saw[3].contains("USER_REJECTED"));
    assert!(!h.project.path().join("b").exists());
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn denied_edits_are_refused_without_asking() {
    let model = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "call_1",
            "write_file",
            json!({"path": "a.txt", "content": "A\n"}),
        )]),
        Reply::text("I may not edit here."),
    ]);
    let h = Harness::new(model, "[channels]\nedits = \"deny\"\n").await;
    let running = h.start();
    h.bot.text_from(OWNER, "edit it");
    assert_eq!(h.bot.wait_sent(OWNER, 1).await, ["I may not edit here."]);
    assert_eq!(questions(&h.bot, OWNER), 0);
    assert!(!h.project.path().join("a.txt").exists());
    assert!(h.model_saw()[1].contains("edits are not allowed from this chat channel"));
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn saved_terminal_allow_rules_do_not_apply_in_a_chat() {
    let model = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "call_1",
            "execute_command",
            json!({"command": "echo saved-rule"}),
        )]),
        Reply::text("ok"),
    ]);
    let h = Harness::new(
        model,
        "[approvals]\nallow = [\"echo\"]\n[channels]\napproval_timeout_secs = 60\n",
    )
    .await;
    let running = h.start();
    h.bot.text_from(OWNER, "echo something");
    let sent = h.bot.wait_sent(OWNER, 1).await;
    assert!(sent[0].contains("echo saved-rule"), "{sent:?}");
    h.bot.text_from(OWNER, "是");
    assert_eq!(h.bot.wait_sent(OWNER, 2).await[1], "ok");
    assert!(h.model_saw()[1].contains("saved-rule"));
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn secrets_in_a_question_are_masked_before_they_reach_the_chat_service() {
    let model = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "call_1",
            "execute_command",
            json!({"command": "echo DEPLOY_TOKEN=sk-live-0123456789"}),
        )]),
        Reply::text("not run"),
    ]);
    let h = Harness::new(model, "").await;
    let running = h.start();
    h.bot.text_from(OWNER, "call the api");
    let asked = h.bot.wait_sent(OWNER, 1).await;
    assert!(asked[0].contains("echo DEPLOY_TOKEN=***"), "{}", asked[0]);
    assert!(!asked[0].contains("sk-live-0123456789"));
    h.bot.text_from(OWNER, "n");
    assert_eq!(h.bot.wait_sent(OWNER, 2).await[1], "not run");
    running.stop().await.unwrap();
}
