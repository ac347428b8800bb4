//! Telegram end to end through the library: the transport against the Bot API stand-in, the layer, the session
//! and the scripted model.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::json;

use paicli::channels::ChannelError;

use super::bot_api::{OWNER, STRANGER, message};
use super::harness::{Harness, button, questions};
use crate::support::{Reply, ScriptedServer};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_asks_in_the_chat_and_runs_only_what_was_approved() {
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
    let h = Harness::new(model, "").await;
    let running = h.start();
    h.bot.text_from(OWNER, "write the notes");

    // The edit is asked first, with buttons; a typed `y` answers it.
    h.bot.wait_sent(OWNER, 1).await;
    let first = h.bot.sent_to(OWNER)[0].clone();
    assert!(
        first.contains("write_file") && first.contains("notes.md"),
        "{first}"
    );
    assert!(
        first.contains("Reply y to approve / n to refuse."),
        "{first}"
    );
    h.bot.text_from(OWNER, "y");

    // Then the command, refused with the button.
    h.bot.wait_sent(OWNER, 2).await;
    let second = h.bot.sent_to(OWNER)[1].clone();
    assert!(second.contains("touch made-by-command"), "{second}");
    let refuse = button(&h.bot, OWNER, 1);
    assert!(refuse.starts_with("n:"), "{refuse}");
    let press = h.bot.press(OWNER, &refuse);

    let sent = h.bot.wait_sent(OWNER, 3).await;
    assert_eq!(sent[2], "All done.");
    assert_eq!(questions(&h.bot, OWNER), 2);
    assert_eq!(
        std::fs::read_to_string(h.project.path().join("notes.md")).unwrap(),
        "hello\n"
    );
    assert!(!h.project.path().join("made-by-command").exists());
    // The press was acknowledged, and the model was told the person said no.
    let acked = h.bot.calls("answerCallbackQuery");
    assert_eq!(acked.len(), 1);
    assert_eq!(
        acked[0].body["callback_query_id"],
        json!(format!("cbq-{press}"))
    );
    let saw = h.model_saw();
    assert!(saw[2].contains("USER_REJECTED"), "{}", saw[2]);
    assert!(!saw[1].contains("USER_REJECTED"), "{}", saw[1]);
    // Typing status was shown while the task ran.
    h.bot
        .wait_until("typing status", |calls| {
            calls
                .iter()
                .any(|c| c.method == "sendChatAction" && c.body["action"] == json!("typing"))
        })
        .await;
    // Long polls: one held request per batch of updates, not a busy loop (three updates came in).
    let polls = h.bot.calls("getUpdates");
    assert!(polls.len() <= 5, "{} polls", polls.len());
    assert!(polls.iter().all(|p| p.body["timeout"] == json!(30)));
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sender_not_on_the_allow_list_is_dropped_and_logged() {
    let model = ScriptedServer::with_replies([Reply::text("hello owner")]);
    let h = Harness::new(model, "").await;
    let running = h.start();
    h.bot.text_from(STRANGER, "run rm -rf / for me");
    h.bot.text_from(OWNER, "hi");
    assert_eq!(h.bot.wait_sent(OWNER, 1).await, ["hello owner"]);
    assert!(h.bot.sent_to(STRANGER).is_empty());
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
async fn a_long_answer_arrives_in_parts_of_at_most_4096() {
    let paragraph = format!("{}\n", "lorem ipsum dolor sit amet ".repeat(20));
    let long = paragraph.repeat(40);
    assert!(long.chars().count() > 20_000);
    let h = Harness::new(
        ScriptedServer::with_replies([Reply::text(long.clone())]),
        "",
    )
    .await;
    let running = h.start();
    h.bot.text_from(OWNER, "write a lot");
    let total = long.split_whitespace().count();
    h.bot
        .wait_until("every word of the answer", |calls| {
            let sent: usize = calls
                .iter()
                .filter(|c| c.method == "sendMessage")
                .map(|c| {
                    c.body["text"]
                        .as_str()
                        .unwrap_or_default()
                        .split_whitespace()
                        .count()
                })
                .sum();
            sent >= total
        })
        .await;
    let sent = h.bot.sent_to(OWNER);
    assert!(sent.len() >= long.chars().count().div_ceil(4096));
    for part in &sent {
        assert!(part.encode_utf16().count() <= 4096, "{}", part.len());
    }
    let words = |s: &str| s.split_whitespace().map(str::to_string).collect::<Vec<_>>();
    assert_eq!(words(&sent.join("\n")), words(&long));
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn duplicate_and_out_of_order_updates_run_once_in_order() {
    let model = ScriptedServer::with_replies([Reply::text("one"), Reply::text("two")]);
    let h = Harness::new(model, "").await;
    h.bot.raw_batch(vec![
        message(900_000_012, 2, OWNER, "second task"),
        message(900_000_011, 1, OWNER, "first task"),
        message(900_000_012, 2, OWNER, "second task"),
    ]);
    let running = h.start();
    assert_eq!(h.bot.wait_sent(OWNER, 2).await, ["one", "two"]);
    let saw = h.model_saw();
    assert_eq!(saw.len(), 2);
    assert!(saw[0].contains("first task") && !saw[0].contains("second task"));
    assert!(saw[1].contains("second task"));
    // The next poll confirms both, and the offset is saved.
    let next = h.bot.wait_poll(2).await;
    assert_eq!(next["offset"], json!(900_000_013));
    assert_eq!(next["timeout"], json!(30), "a long poll");
    let saved =
        std::fs::read_to_string(h.paicli_home().join("channels/telegram/offset.json")).unwrap();
    assert_eq!(saved, r#"{"offset":900000013}"#);
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_resumes_from_the_saved_offset_without_replaying() {
    let model =
        ScriptedServer::with_replies([Reply::text("first answer"), Reply::text("second answer")]);
    let h = Harness::new(model, "").await;
    let running = h.start();
    h.bot.text_from(OWNER, "first task");
    h.bot.wait_sent(OWNER, 1).await;
    running.stop().await.unwrap();

    // The stand-in never forgets an update: only the saved offset keeps the first task from running again.
    let polls_before = h.bot.calls("getUpdates").len();
    h.bot.text_from(OWNER, "second task");
    let running = h.start();
    let sent = h.bot.wait_sent(OWNER, 2).await;
    assert_eq!(sent, ["first answer", "second answer"]);
    let first_poll = h.bot.calls("getUpdates")[polls_before].body.clone();
    assert_eq!(first_poll["offset"], json!(900_000_002));
    let saw = h.model_saw();
    assert_eq!(saw.len(), 2);
    assert!(saw[1].contains("second task"));
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stop_cancels_the_running_task_and_the_next_one_runs() {
    // The first answer streams a few chunks, then hangs until the request is cancelled.
    let model = ScriptedServer::with_replies([
        Reply::text("this will never finish").hang_after(2),
        Reply::text("fresh start"),
    ]);
    let h = Harness::new(model, "").await;
    let running = h.start();
    h.bot.text_from(OWNER, "a long task");
    h.model.wait_request(0).await;
    h.bot.text_from(OWNER, "/stop");
    assert_eq!(h.bot.wait_sent(OWNER, 1).await, ["Stopped."]);
    h.bot.text_from(OWNER, "again");
    assert_eq!(h.bot.wait_sent(OWNER, 2).await[1], "fresh start");
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unanswered_question_is_refused_after_the_timeout() {
    let model = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "call_1",
            "execute_command",
            json!({"command": "touch late"}),
        )]),
        Reply::text("I could not run it."),
    ]);
    let h = Harness::new(model, "[channels]\napproval_timeout_secs = 1\n").await;
    let running = h.start();
    h.bot.text_from(OWNER, "make a file");
    let sent = h.bot.wait_sent(OWNER, 3).await;
    assert!(sent[0].contains("touch late"));
    assert_eq!(sent[1], "No answer within 1 s: the call was refused.");
    assert_eq!(sent[2], "I could not run it.");
    assert!(!h.project.path().join("late").exists());
    assert!(h.model_saw()[1].contains("nobody approved this call in the chat in time"));
    // A late answer finds no open question.
    let refuse = button(&h.bot, OWNER, 0);
    h.bot.press(OWNER, &refuse);
    assert_eq!(
        h.bot.wait_sent(OWNER, 4).await[3],
        "That question is no longer open."
    );
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_daily_turn_limit_holds_across_a_restart() {
    let model = ScriptedServer::with_replies([Reply::text("the one answer today")]);
    let h = Harness::new(model, "[channels]\ndaily_turns = 1\n").await;
    let running = h.start();
    h.bot.text_from(OWNER, "task one");
    h.bot.wait_sent(OWNER, 1).await;
    h.bot.text_from(OWNER, "task two");
    let sent = h.bot.wait_sent(OWNER, 2).await;
    assert_eq!(
        sent[1],
        "Today's limit of 1 tasks is reached; the task was not run."
    );
    h.bot.text_from(OWNER, "/status");
    let status = h.bot.wait_sent(OWNER, 3).await;
    assert!(status[2].contains("Today: 1 of 1 tasks, "), "{}", status[2]);
    running.stop().await.unwrap();

    let running = h.start();
    h.bot.text_from(OWNER, "task three");
    let sent = h.bot.wait_sent(OWNER, 4).await;
    assert_eq!(
        sent[3],
        "Today's limit of 1 tasks is reached; the task was not run."
    );
    assert_eq!(h.model.chat_requests().len(), 1);
    running.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ok_false_answers_are_typed_errors() {
    let model =
        ScriptedServer::with_replies([Reply::text("after the hiccup"), Reply::text("second")]);
    let h = Harness::new(model, "").await;
    // Rate limited once (retried after `retry_after`), then a bad token ends the channel.
    h.bot.fail_next(
        "getUpdates",
        429,
        json!({"ok": false, "error_code": 429, "description": "Too Many Requests: retry after 0",
               "parameters": {"retry_after": 0}}),
    );
    let running = h.start();
    h.bot.text_from(OWNER, "hello");
    assert_eq!(h.bot.wait_sent(OWNER, 1).await, ["after the hiccup"]);
    h.bot.fail_next(
        "getUpdates",
        401,
        json!({"ok": false, "error_code": 401, "description": "Unauthorized"}),
    );
    h.bot.text_from(OWNER, "wake the poll");
    match running.ended().await {
        Err(ChannelError::Api {
            code,
            message,
            method,
            ..
        }) => {
            assert_eq!(
                (code, message.as_str(), method.as_str()),
                (401, "Unauthorized", "getUpdates")
            );
        }
        other => panic!("expected the 401 to end the channel, got {other:?}"),
    }
    let log = h.log();
    assert!(
        log.contains("getUpdates answered error 401: Unauthorized"),
        "{log}"
    );
    // The token is in the URL path only; it never reaches the log.
    assert!(!log.contains(super::bot_api::TOKEN));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stop_while_a_question_waits_refuses_it_and_ends_the_task() {
    let model = ScriptedServer::with_replies([Reply::tool_calls([(
        "call_1",
        "execute_command",
        json!({"command": "touch never"}),
    )])]);
    let h = Harness::new(model, "").await;
    let running = h.start();
    h.bot.text_from(OWNER, "make it");
    assert!(h.bot.wait_sent(OWNER, 1).await[0].contains("touch never"));
    h.bot.text_from(OWNER, "/status");
    assert!(h.bot.wait_sent(OWNER, 2).await[1].starts_with("State: waiting for your answer\n"));
    h.bot.text_from(OWNER, "/stop");
    assert_eq!(h.bot.wait_sent(OWNER, 3).await[2], "Stopped.");
    let approve = button(&h.bot, OWNER, 0);
    h.bot.press(OWNER, &approve);
    assert_eq!(
        h.bot.wait_sent(OWNER, 4).await[3],
        "That question is no longer open."
    );
    assert!(!h.project.path().join("never").exists());
    assert_eq!(h.model.chat_requests().len(), 1);
    running.stop().await.unwrap();
}
