//! Turns MCP content items into what the model sees: text joined by blank lines, images kept as image parts,
//! everything else described in one line; `isError` becomes a failed outcome carrying the server's text.

use serde_json::Value;

use super::session::CallReply;
use crate::protocol::ContentPart;
use crate::protocol::{ToolOutcome, ToolOutput};

/// The outcome of a `tools/call` reply.
pub fn call_outcome(reply: &CallReply) -> ToolOutcome {
    let (text, images) = render_items(&reply.content);
    if reply.is_error {
        let detail = if text.is_empty() {
            "(no details)"
        } else {
            &text
        };
        return ToolOutcome::failed(format!("MCP tool returned error: {detail}"));
    }
    ToolOutcome::Ok(ToolOutput {
        text,
        images,
        ..ToolOutput::default()
    })
}

/// Text for the items (joined by blank lines) and the images among them.
pub fn render_items(items: &[Value]) -> (String, Vec<ContentPart>) {
    let mut texts = Vec::new();
    let mut images = Vec::new();
    for item in items {
        let kind = item.get("type").and_then(Value::as_str).unwrap_or("");
        let mime = str_field(item, "mimeType").unwrap_or("application/octet-stream");
        match kind {
            "text" => texts.push(str_field(item, "text").unwrap_or("").to_string()),
            "image" => match str_field(item, "data") {
                Some(data) => {
                    images.push(ContentPart::ImageUrl {
                        url: format!("data:{mime};base64,{data}"),
                    });
                    texts.push(format!("[image: {mime}, attached]"));
                }
                None => texts.push(format!("[image: {mime}, no data]")),
            },
            "audio" => texts.push(format!(
                "[audio: {mime}, {} base64 chars, not shown]",
                str_field(item, "data").map_or(0, str::len)
            )),
            "resource" => texts.push(render_embedded(
                item.get("resource").unwrap_or(&Value::Null),
            )),
            "resource_link" => texts.push(format!(
                "[resource link: {} {}]",
                str_field(item, "name").unwrap_or(""),
                str_field(item, "uri").unwrap_or("")
            )),
            other => texts.push(format!("[unsupported MCP content type `{other}`]")),
        }
    }
    (texts.join("\n\n"), images)
}

/// `<resource …>` blocks for `resources/read` contents, cut to `limit` characters in total.
pub fn render_resource_contents(server: &str, contents: &[Value], limit: usize) -> String {
    let mut out = String::new();
    for item in contents {
        let uri = str_field(item, "uri").unwrap_or("");
        let mime = str_field(item, "mimeType").unwrap_or("");
        let body = match (str_field(item, "text"), str_field(item, "blob")) {
            (Some(text), _) => text.to_string(),
            (None, Some(blob)) => {
                format!("[binary content, {} base64 chars, not shown]", blob.len())
            }
            (None, None) => String::new(),
        };
        out.push_str(&format!(
            "<resource server=\"{}\" uri=\"{}\" mimeType=\"{}\">\n{body}\n</resource>\n",
            attr(server),
            attr(uri),
            attr(mime)
        ));
    }
    cut(out, limit)
}

fn render_embedded(resource: &Value) -> String {
    let uri = str_field(resource, "uri").unwrap_or("");
    let mime = str_field(resource, "mimeType").unwrap_or("");
    match str_field(resource, "text") {
        Some(text) => format!(
            "<resource uri=\"{}\" mimeType=\"{}\">\n{text}\n</resource>",
            attr(uri),
            attr(mime)
        ),
        None => format!("[embedded resource {uri} ({mime}), binary, not shown]"),
    }
}

/// Cuts `text` to `limit` characters, saying how much was dropped.
pub fn cut(text: String, limit: usize) -> String {
    match text.char_indices().nth(limit) {
        Some((at, _)) => {
            let dropped = text[at..].chars().count();
            format!("{}\n[... {dropped} more characters cut]", &text[..at])
        }
        None => text,
    }
}

fn str_field<'a>(item: &'a Value, key: &str) -> Option<&'a str> {
    item.get(key).and_then(Value::as_str)
}

/// Escapes a value for a double-quoted attribute so a crafted URI cannot close the tag.
pub fn attr(value: &str) -> String {
    value
        .replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;
    use serde_json::json;

    #[test]
    fn joins_text_keeps_images_and_describes_the_rest() {
        let reply = CallReply {
            content: vec![
                json!({"type": "text", "text": "one"}),
                json!({"type": "image", "data": "AAA", "mimeType": "image/png"}),
                json!({"type": "text", "text": "two"}),
                json!({"type": "audio", "data": "BBBB", "mimeType": "audio/wav"}),
                json!({"type": "resource_link", "uri": "test://x", "name": "x"}),
                json!({"type": "resource", "resource": {"uri": "test://y", "mimeType": "text/plain", "text": "hi"}}),
                json!({"type": "hologram"}),
            ],
            is_error: false,
        };
        let ToolOutcome::Ok(out) = call_outcome(&reply) else {
            panic!("expected ok");
        };
        assert_eq!(
            out.text,
            "one\n\n[image: image/png, attached]\n\ntwo\n\n[audio: audio/wav, 4 base64 chars, not shown]\n\n\
             [resource link: x test://x]\n\n<resource uri=\"test://y\" mimeType=\"text/plain\">\nhi\n</resource>\n\n\
             [unsupported MCP content type `hologram`]"
        );
        assert_eq!(
            out.images,
            vec![ContentPart::ImageUrl {
                url: "data:image/png;base64,AAA".into()
            }]
        );
    }

    #[test]
    fn is_error_becomes_a_failure_with_the_servers_text() {
        let reply = CallReply {
            content: vec![json!({"type": "text", "text": "bad input"})],
            is_error: true,
        };
        assert_eq!(
            call_outcome(&reply),
            ToolOutcome::failed("MCP tool returned error: bad input")
        );
    }

    #[test]
    fn resource_blocks_are_cut_to_the_limit() {
        let contents =
            vec![json!({"uri": "a://\"b", "mimeType": "text/plain", "text": "x".repeat(50)})];
        let full = render_resource_contents("s", &contents, 1000);
        assert!(
            full.starts_with(
                "<resource server=\"s\" uri=\"a://&quot;b\" mimeType=\"text/plain\">\n"
            )
        );
        let short = render_resource_contents("s", &contents, 20);
        assert!(short.ends_with("more characters cut]"));
    }
}
