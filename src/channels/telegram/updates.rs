//! Telegram's `Update` objects, the few fields the channel reads, and what each means to the layer. Ids are read as
//! 64-bit integers (Telegram's have up to 52 significant bits) and passed on as text.

use serde::Deserialize;

use crate::channels::transport::{ChatRef, Incoming, IncomingKind};

#[derive(Clone, Debug, Deserialize)]
pub struct Update {
    pub update_id: i64,
    #[serde(default)]
    pub message: Option<Message>,
    #[serde(default)]
    pub callback_query: Option<CallbackQuery>,
}

#[derive(Clone, Debug, Deserialize)]
pub struct Message {
    pub message_id: i64,
    #[serde(default)]
    pub from: Option<User>,
    pub chat: Chat,
    #[serde(default)]
    pub text: Option<String>,
}

#[derive(Clone, Debug, Deserialize)]
pub struct User {
    pub id: i64,
    #[serde(default)]
    pub is_bot: bool,
    #[serde(default)]
    pub first_name: String,
    #[serde(default)]
    pub username: Option<String>,
}

#[derive(Clone, Debug, Deserialize)]
pub struct Chat {
    pub id: i64,
}

#[derive(Clone, Debug, Deserialize)]
pub struct CallbackQuery {
    pub id: String,
    pub from: User,
    #[serde(default)]
    pub message: Option<Message>,
    #[serde(default)]
    pub data: Option<String>,
}

/// The `callback_data` of an approval button: `y:<question id>` or `n:<question id>`.
pub fn button_data(approve: bool, question_id: &str) -> String {
    format!("{}:{question_id}", if approve { "y" } else { "n" })
}

fn read_button(data: &str) -> Option<(bool, String)> {
    let (answer, id) = data.split_once(':')?;
    match answer {
        "y" => Some((true, id.to_string())),
        "n" => Some((false, id.to_string())),
        _ => None,
    }
}

/// What the layer gets from `update`; `None` for updates it does not use (edits, other bots, channel posts).
pub fn incoming(update: &Update) -> Option<Incoming> {
    if let Some(message) = &update.message {
        let from = message.from.as_ref().filter(|u| !u.is_bot)?;
        let kind = match &message.text {
            Some(text) => IncomingKind::Text(text.clone()),
            None => IncomingKind::Unsupported,
        };
        return Some(Incoming {
            chat: ChatRef {
                chat_id: message.chat.id.to_string(),
                reply_token: None,
            },
            sender: from.id.to_string(),
            message_id: message.message_id.to_string(),
            kind,
        });
    }
    let query = update.callback_query.as_ref()?;
    let (approve, question_id) = read_button(query.data.as_deref()?)?;
    let chat_id = query.message.as_ref().map_or(query.from.id, |m| m.chat.id);
    Some(Incoming {
        chat: ChatRef {
            chat_id: chat_id.to_string(),
            reply_token: None,
        },
        sender: query.from.id.to_string(),
        message_id: format!("callback:{}", query.id),
        kind: IncomingKind::Answer {
            question_id,
            approve,
        },
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn ids_beyond_32_bits_and_buttons_read_exactly() {
        let update: Update = serde_json::from_str(
            r#"{"update_id": 900000001, "message": {"message_id": 5, "from": {"id": 7012345678, "is_bot": false,
                "first_name": "A"}, "chat": {"id": -1001234567890, "type": "supergroup"}, "text": "hi"}}"#,
        )
        .unwrap();
        let got = incoming(&update).unwrap();
        assert_eq!(got.sender, "7012345678");
        assert_eq!(got.chat.chat_id, "-1001234567890");
        let press: Update = serde_json::from_str(
            r#"{"update_id": 2, "callback_query": {"id": "77", "from": {"id": 4503599627370495, "is_bot": false,
                "first_name": "B"}, "data": "n:q3", "message": {"message_id": 9, "chat": {"id": 42}}}}"#,
        )
        .unwrap();
        let got = incoming(&press).unwrap();
        assert_eq!(got.sender, "4503599627370495");
        assert_eq!(
            got.kind,
            IncomingKind::Answer {
                question_id: "q3".into(),
                approve: false
            }
        );
        assert_eq!(button_data(true, "q3"), "y:q3");
    }
}
