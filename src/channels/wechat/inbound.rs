//! What `getupdates` delivers, turned into what the layer reads: people's messages (the bot's own echoes are
//! dropped) in the order they were sent, with every id kept exactly as the server wrote it.

use serde_json::Value;

use crate::channels::transport::{ChatRef, Incoming, IncomingKind};

/// `message_type` of a message a person sent (`2` is the bot's own).
const FROM_USER: u64 = 1;
/// `MessageItem.type` of text, and of a voice note (whose `voice_item.text` may hold a transcript).
const TEXT_ITEM: u64 = 1;
const VOICE_ITEM: u64 = 3;

/// The people's messages of one `msgs` list, oldest first.
pub fn incoming_messages(msgs: &[Value]) -> Vec<Incoming> {
    let mut keyed: Vec<((u64, u64), Incoming)> = msgs
        .iter()
        .filter(|m| {
            m.get("message_type")
                .and_then(Value::as_u64)
                .unwrap_or(FROM_USER)
                == FROM_USER
        })
        .filter_map(|m| {
            let sender = string_field(m, "from_user_id").filter(|s| !s.is_empty())?;
            let order = (number_field(m, "seq"), number_field(m, "create_time_ms"));
            let message_id = id_field(m, "message_id")
                .or_else(|| id_field(m, "client_id"))
                .unwrap_or_else(|| format!("{sender}@{}", order.1));
            let incoming = Incoming {
                chat: ChatRef {
                    chat_id: sender.clone(),
                    reply_token: string_field(m, "context_token").filter(|t| !t.is_empty()),
                },
                sender,
                message_id,
                kind: kind_of(m),
            };
            Some((order, incoming))
        })
        .collect();
    // A stable sort: messages without sequence numbers keep the server's order.
    keyed.sort_by_key(|(order, _)| *order);
    keyed.into_iter().map(|(_, incoming)| incoming).collect()
}

fn kind_of(message: &Value) -> IncomingKind {
    let items = message
        .get("item_list")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let texts: Vec<&str> = items
        .iter()
        .filter_map(|item| match item.get("type").and_then(Value::as_u64) {
            Some(TEXT_ITEM) => item.pointer("/text_item/text"),
            Some(VOICE_ITEM) => item.pointer("/voice_item/text"),
            _ => None,
        })
        .filter_map(Value::as_str)
        .filter(|t| !t.trim().is_empty())
        .collect();
    if texts.is_empty() {
        IncomingKind::Unsupported
    } else {
        IncomingKind::Text(texts.join("\n"))
    }
}

fn string_field(message: &Value, key: &str) -> Option<String> {
    message.get(key).and_then(Value::as_str).map(str::to_string)
}

fn number_field(message: &Value, key: &str) -> u64 {
    message.get(key).and_then(Value::as_u64).unwrap_or(0)
}

/// An id as the server wrote it: a string as is, an integer in decimal. serde_json keeps integers up to
/// 2^64 exact (no f64 on the way), so a `uint64` id above 2^53 comes back digit for digit.
pub fn id_field(message: &Value, key: &str) -> Option<String> {
    match message.get(key)? {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Number(n) if n.is_u64() || n.is_i64() => Some(n.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use pretty_assertions::assert_eq;

    fn parse(raw: &str) -> Vec<Incoming> {
        let body: Value = serde_json::from_str(raw).unwrap();
        incoming_messages(body["msgs"].as_array().unwrap())
    }

    #[test]
    fn ids_above_two_to_the_53_stay_exact() {
        let got = parse(
            r#"{"msgs":[
              {"message_id":9007199254740993,"from_user_id":"u@im.wechat","message_type":1,"seq":1,
               "item_list":[{"type":1,"text_item":{"text":"a"}}]},
              {"message_id":18446744073709551615,"from_user_id":"u@im.wechat","message_type":1,"seq":2,
               "item_list":[{"type":1,"text_item":{"text":"b"}}]},
              {"message_id":"7436284610293847561","from_user_id":"u@im.wechat","message_type":1,"seq":3,
               "item_list":[{"type":1,"text_item":{"text":"c"}}]}]}"#,
        );
        let ids: Vec<&str> = got.iter().map(|m| m.message_id.as_str()).collect();
        assert_eq!(
            ids,
            vec![
                "9007199254740993",
                "18446744073709551615",
                "7436284610293847561"
            ]
        );
    }

    #[test]
    fn bot_echoes_are_dropped_and_order_follows_seq() {
        let got = parse(
            r#"{"msgs":[
              {"message_id":3,"from_user_id":"u","message_type":1,"seq":12,"context_token":"t3",
               "item_list":[{"type":1,"text_item":{"text":"second"}}]},
              {"message_id":4,"from_user_id":"bot","message_type":2,"seq":13,
               "item_list":[{"type":1,"text_item":{"text":"echo"}}]},
              {"message_id":2,"from_user_id":"u","message_type":1,"seq":11,"context_token":"t2",
               "item_list":[{"type":3,"voice_item":{"text":"first, spoken"}}]},
              {"message_id":5,"from_user_id":"u","message_type":1,"seq":14,
               "item_list":[{"type":2,"image_item":{}}]}]}"#,
        );
        let kinds: Vec<&IncomingKind> = got.iter().map(|m| &m.kind).collect();
        assert_eq!(
            kinds,
            vec![
                &IncomingKind::Text("first, spoken".into()),
                &IncomingKind::Text("second".into()),
                &IncomingKind::Unsupported,
            ]
        );
        assert_eq!(got[0].chat.reply_token.as_deref(), Some("t2"));
        assert_eq!(got[2].chat.reply_token, None);
    }
}
