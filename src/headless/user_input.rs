//! A client's `user` message as one input to the session: its content is a string or content blocks (text, and
//! images as base64 or URL sources).

use serde_json::Value;

use crate::app::session::Input;
use crate::protocol::ContentPart;

/// The input a `user` message's `message.content` asks for; `None` when it holds neither text nor images.
pub fn input_of(content: &Value) -> Option<Input> {
    let (text, images) = match content {
        Value::String(text) => (text.clone(), Vec::new()),
        Value::Array(blocks) => {
            let texts: Vec<&str> = blocks
                .iter()
                .filter(|b| b["type"] == "text")
                .filter_map(|b| b["text"].as_str())
                .collect();
            let images = blocks.iter().filter_map(image_of).collect();
            (texts.join("\n\n"), images)
        }
        _ => return None,
    };
    if text.trim().is_empty() && images.is_empty() {
        return None;
    }
    Some(Input::typed(text).with_images(images))
}

/// An `image` block as a data URL (base64 source) or its URL (url source).
fn image_of(block: &Value) -> Option<ContentPart> {
    if block["type"] != "image" {
        return None;
    }
    let source = &block["source"];
    let url = match source["type"].as_str()? {
        "base64" => format!(
            "data:{};base64,{}",
            source["media_type"].as_str()?,
            source["data"].as_str()?
        ),
        "url" => source["url"].as_str()?.to_string(),
        _ => return None,
    };
    Some(ContentPart::ImageUrl { url })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    #[test]
    fn strings_and_blocks_become_inputs_with_images() {
        assert_eq!(input_of(&json!("list files")).unwrap().text, "list files");
        let input = input_of(&json!([
            {"type": "text", "text": "what is this?"},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AAAA"}},
            {"type": "text", "text": "be brief"},
        ]))
        .unwrap();
        assert_eq!(input.text, "what is this?\n\nbe brief");
        assert_eq!(
            input.images,
            [ContentPart::ImageUrl {
                url: "data:image/png;base64,AAAA".into()
            }]
        );
        assert_eq!(input_of(&json!("  ")), None);
        assert_eq!(input_of(&json!(42)), None);
    }
}
