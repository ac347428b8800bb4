//! Reads the client's NDJSON on stdin for as long as it is open, also while a turn runs: `user` messages are
//! queued as turns, control requests answered, `control_response`s handed to the request they answer. When
//! stdin closes, open requests end as refused and the queue closes, so the turns already queued still run.

use std::sync::Arc;

use serde_json::Value;
use tokio::io::{AsyncBufRead, AsyncBufReadExt};
use tokio::sync::mpsc::UnboundedSender;

use super::control::{self, Setup};
use super::state::Headless;
use super::user_input::input_of;
use crate::app::session::{Input, Session};
use crate::text::{Msg, tr, trf};

/// Reads `input` to its end.
pub async fn read(
    input: impl AsyncBufRead + Unpin,
    session: Arc<Session>,
    headless: Arc<Headless>,
    setup: Arc<Setup>,
    turns: UnboundedSender<Input>,
) {
    let mut lines = input.lines();
    // A read error ends the input as its end does.
    while let Ok(Some(line)) = lines.next_line().await {
        if line.trim().is_empty() {
            continue;
        }
        let message: Value = match serde_json::from_str(&line) {
            Ok(message) => message,
            Err(e) => {
                let note = trf(headless.lang, Msg::HeadlessLineNotJson, &[("error", &e)]);
                eprintln!("paicli: {note}");
                continue;
            }
        };
        match message["type"].as_str().unwrap_or_default() {
            "user" => match input_of(&message["message"]["content"]) {
                Some(input) => {
                    let _ = turns.send(input);
                }
                None => eprintln!(
                    "paicli: {}",
                    tr(headless.lang, Msg::HeadlessEmptyUserMessage)
                ),
            },
            "control_request" => {
                let id = message["request_id"].as_str().unwrap_or_default();
                control::handle(id, &message["request"], &session, &headless, &setup);
            }
            "control_response" => {
                headless.channel.resolve(&message["response"]);
            }
            "control_cancel_request" => {
                if let Some(id) = message["request_id"].as_str() {
                    headless.channel.cancel(id);
                }
            }
            // keep_alive and messages of newer clients: nothing to do.
            _ => {}
        }
    }
    headless.channel.close();
}
