//! DeepSeek's DSML fallback (spec §4): sometimes DeepSeek writes its tool calls as DSML markup in the answer text
//! instead of `tool_calls`. When the text holds exactly one complete, valid block that calls only tools offered in
//! this request, it becomes real tool calls (`dsml_call_N`); anything else that looks like DSML is left as text and
//! reported, so the user learns a call was not executed instead of seeing nothing happen.
//!
//! The markup (`｜` is U+FF5C; an ASCII `|` is accepted too, V3.2 says `function_calls`):
//!
//! ```text
//! <｜DSML｜tool_calls>
//! <｜DSML｜invoke name="read_file">
//! <｜DSML｜parameter name="path" string="true">src/main.rs</｜DSML｜parameter>
//! <｜DSML｜parameter name="limit" string="false">50</｜DSML｜parameter>
//! </｜DSML｜invoke>
//! </｜DSML｜tool_calls>
//! ```
//!
//! `string="true"` (or no `string` attribute) keeps the value as text; `string="false"` parses it as JSON.

use serde_json::{Map, Value};

use super::ToolCall;

/// Longest text the parser looks at.
const MAX_TEXT_CHARS: usize = 256_000;
/// Most calls one block may hold.
const MAX_CALLS: usize = 32;
/// Most parameters one call may hold.
const MAX_PARAMS: usize = 64;

/// What the answer text turned out to hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DsmlScan {
    /// No DSML at all.
    None,
    /// One valid block: the calls, and the text around the block.
    Calls { calls: Vec<ToolCall>, text: String },
    /// DSML that could not be executed (incomplete, several blocks, unknown tool, bad value, over a limit).
    Leftover { why: String },
}

/// Looks for a DSML tool-call block in `text`; `offered` are the tool names of this request.
pub fn scan(text: &str, offered: &[&str]) -> DsmlScan {
    let Some(start) = find_tag(text, 0, false, &["tool_calls", "function_calls"]) else {
        return if find_marker(text, 0).is_some() {
            DsmlScan::Leftover {
                why: "DSML markup without a tool_calls block".into(),
            }
        } else {
            DsmlScan::None
        };
    };
    match parse_block(text, start, offered) {
        Ok((calls, end)) => {
            if find_marker(text, end).is_some() {
                return DsmlScan::Leftover {
                    why: "more DSML after the first block".into(),
                };
            }
            let mut around = String::from(text[..start.at].trim_end());
            let rest = text[end..].trim();
            if !rest.is_empty() {
                if !around.is_empty() {
                    around.push('\n');
                }
                around.push_str(rest);
            }
            DsmlScan::Calls {
                calls,
                text: around,
            }
        }
        Err(why) => DsmlScan::Leftover { why },
    }
}

/// A tag found in the text: where it starts and where it ends (after `>`), with its attributes.
#[derive(Clone, Copy, Debug)]
struct Tag<'a> {
    at: usize,
    end: usize,
    attrs: &'a str,
}

fn parse_block(
    text: &str,
    open: Tag<'_>,
    offered: &[&str],
) -> Result<(Vec<ToolCall>, usize), String> {
    if text.chars().count() > MAX_TEXT_CHARS {
        return Err(format!("DSML text longer than {MAX_TEXT_CHARS} characters"));
    }
    let mut calls = Vec::new();
    let mut pos = open.end;
    loop {
        let next = skip_space(text, pos);
        if let Some(close) = tag_at(text, next, true, &["tool_calls", "function_calls"]) {
            if calls.is_empty() {
                return Err("an empty DSML tool_calls block".into());
            }
            return Ok((calls, close.end));
        }
        let invoke =
            tag_at(text, next, false, &["invoke"]).ok_or("incomplete DSML tool_calls block")?;
        if calls.len() == MAX_CALLS {
            return Err(format!("more than {MAX_CALLS} DSML calls"));
        }
        let name = attr(invoke.attrs, "name").ok_or("a DSML invoke without a name")?;
        if !offered.contains(&name) {
            return Err(format!("DSML calls `{name}`, which is not offered"));
        }
        let (arguments, after) = parse_params(text, invoke.end)?;
        calls.push(ToolCall {
            id: format!("dsml_call_{}", calls.len()),
            name: name.to_string(),
            arguments: Value::Object(arguments).to_string(),
        });
        pos = after;
    }
}

fn parse_params(text: &str, mut pos: usize) -> Result<(Map<String, Value>, usize), String> {
    let mut args = Map::new();
    loop {
        let next = skip_space(text, pos);
        if let Some(close) = tag_at(text, next, true, &["invoke"]) {
            return Ok((args, close.end));
        }
        let open = tag_at(text, next, false, &["parameter"]).ok_or("incomplete DSML invoke")?;
        if args.len() == MAX_PARAMS {
            return Err(format!("more than {MAX_PARAMS} DSML parameters"));
        }
        let name = attr(open.attrs, "name").ok_or("a DSML parameter without a name")?;
        let close =
            find_tag(text, open.end, true, &["parameter"]).ok_or("an unclosed DSML parameter")?;
        let raw = &text[open.end..close.at];
        let value = match attr(open.attrs, "string") {
            Some("false") => serde_json::from_str(raw.trim())
                .map_err(|e| format!("DSML parameter `{name}` is not valid JSON: {e}"))?,
            Some("true") | None => Value::String(raw.to_string()),
            Some(other) => return Err(format!("DSML parameter `{name}` has string=\"{other}\"")),
        };
        if args.insert(name.to_string(), value).is_some() {
            return Err(format!("DSML parameter `{name}` given twice"));
        }
        pos = close.end;
    }
}

/// The value of `key="…"` in a tag's attribute text.
fn attr<'a>(attrs: &'a str, key: &str) -> Option<&'a str> {
    let mut rest = attrs;
    while let Some(i) = rest.find(key) {
        let before_ok = i == 0 || rest[..i].ends_with(char::is_whitespace);
        let after = rest[i + key.len()..].trim_start();
        if before_ok && let Some(value) = after.strip_prefix('=') {
            let value = value.trim_start().strip_prefix('"')?;
            return value.find('"').map(|end| &value[..end]);
        }
        rest = &rest[i + key.len()..];
    }
    None
}

fn skip_space(text: &str, pos: usize) -> usize {
    pos + (text[pos..].len() - text[pos..].trim_start().len())
}

/// Where the next `<` + bar + `DSML` marker starts at or after `from`.
fn find_marker(text: &str, from: usize) -> Option<usize> {
    let mut pos = from;
    while let Some(i) = text[pos..].find('<') {
        let at = pos + i;
        if marker_len(&text[at..]).is_some() {
            return Some(at);
        }
        pos = at + 1;
    }
    None
}

/// Length of `<｜DSML｜` (or `</｜DSML｜`, bars `｜`/`|`, spaces allowed) at the start of `s`.
fn marker_len(s: &str) -> Option<usize> {
    let mut rest = s.strip_prefix('<')?;
    rest = rest.strip_prefix('/').unwrap_or(rest).trim_start();
    rest = strip_bar(rest)?.trim_start();
    rest = rest.strip_prefix("DSML")?.trim_start();
    rest = strip_bar(rest)?.trim_start();
    Some(s.len() - rest.len())
}

fn strip_bar(s: &str) -> Option<&str> {
    s.strip_prefix('｜').or_else(|| s.strip_prefix('|'))
}

/// A `<｜DSML｜NAME …>` (or closing) tag starting exactly at `pos`.
fn tag_at<'a>(text: &'a str, pos: usize, closing: bool, names: &[&str]) -> Option<Tag<'a>> {
    let s = &text[pos..];
    if s.starts_with("</") != closing {
        return None;
    }
    let rest = &s[marker_len(s)?..];
    let name = names.iter().find(|n| {
        rest.strip_prefix(**n)
            .is_some_and(|r| r.starts_with('>') || r.starts_with(char::is_whitespace))
    })?;
    let attrs_start = pos + (s.len() - rest.len()) + name.len();
    let close = text[attrs_start..].find('>')?;
    Some(Tag {
        at: pos,
        end: attrs_start + close + 1,
        attrs: &text[attrs_start..attrs_start + close],
    })
}

/// The first such tag at or after `from`.
fn find_tag<'a>(text: &'a str, from: usize, closing: bool, names: &[&str]) -> Option<Tag<'a>> {
    let mut pos = from;
    while let Some(at) = find_marker(text, pos) {
        if let Some(tag) = tag_at(text, at, closing, names) {
            return Some(tag);
        }
        pos = at + 1;
    }
    None
}

/// Holds back streamed answer text that may be the start of DSML, so markup never flashes on screen before it
/// turns into tool calls. Text before a possible marker passes through at once.
#[derive(Debug, Default)]
pub struct DsmlStreamGuard {
    held: String,
    /// A whole marker was seen: everything from it on is held until the reply ends.
    confirmed: bool,
}

impl DsmlStreamGuard {
    /// Takes a content delta; returns the part that is safe to show now.
    pub fn push(&mut self, delta: &str) -> String {
        self.held.push_str(delta);
        if self.confirmed {
            return String::new();
        }
        if let Some(at) = find_marker(&self.held, 0) {
            self.confirmed = true;
            let shown = self.held[..at].to_string();
            self.held.drain(..at);
            return shown;
        }
        // Keep back a tail that could still grow into a marker (`<`, `<｜`, `<｜DS`, ...).
        let keep_from = self
            .held
            .rfind('<')
            .filter(|&i| could_become_marker(&self.held[i..]))
            .unwrap_or(self.held.len());
        let shown = self.held[..keep_from].to_string();
        self.held.drain(..keep_from);
        shown
    }

    /// The reply ended: the text still held back (show it unless it became tool calls).
    pub fn finish(self) -> String {
        self.held
    }
}

/// Whether `s` (starting with `<`) is a proper prefix of some DSML marker.
fn could_become_marker(s: &str) -> bool {
    const FORMS: &[&str] = &["<｜DSML｜", "<|DSML|", "</｜DSML｜", "</|DSML|"];
    let compact: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    FORMS
        .iter()
        .any(|f| f.starts_with(&compact) && compact.len() < f.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    const BAR: &str = "｜";

    fn block(invokes: &str) -> String {
        format!("<{BAR}DSML{BAR}tool_calls>\n{invokes}</{BAR}DSML{BAR}tool_calls>")
    }

    fn invoke(name: &str, params: &str) -> String {
        format!("<{BAR}DSML{BAR}invoke name=\"{name}\">\n{params}</{BAR}DSML{BAR}invoke>\n")
    }

    fn param(name: &str, string: &str, value: &str) -> String {
        format!(
            "<{BAR}DSML{BAR}parameter name=\"{name}\" string=\"{string}\">{value}</{BAR}DSML{BAR}parameter>\n"
        )
    }

    fn calls(scan: DsmlScan) -> (Vec<(String, String, Value)>, String) {
        match scan {
            DsmlScan::Calls { calls, text } => (
                calls
                    .into_iter()
                    .map(|c| {
                        let args = serde_json::from_str(&c.arguments).unwrap_or(Value::Null);
                        (c.id, c.name, args)
                    })
                    .collect(),
                text,
            ),
            other => panic!("expected calls, got {other:?}"),
        }
    }

    #[test]
    fn plain_text_has_no_dsml() {
        assert_eq!(scan("a <b> tag and | bars", &["read_file"]), DsmlScan::None);
    }

    #[test]
    fn one_block_becomes_calls_with_typed_values_and_the_text_around_it() {
        let text = format!(
            "Let me look.\n{}\nthen I will edit.",
            block(
                &(invoke(
                    "read_file",
                    &(param("path", "true", "src/a b.rs") + &param("limit", "false", "50"))
                ) + &invoke("list_dir", &param("path", "true", ".")))
            )
        );
        let (calls, around) = calls(scan(&text, &["read_file", "list_dir"]));
        assert_eq!(
            calls,
            vec![
                (
                    "dsml_call_0".into(),
                    "read_file".into(),
                    serde_json::json!({"path": "src/a b.rs", "limit": 50})
                ),
                (
                    "dsml_call_1".into(),
                    "list_dir".into(),
                    serde_json::json!({"path": "."})
                ),
            ]
        );
        assert_eq!(around, "Let me look.\nthen I will edit.");
    }

    #[test]
    fn ascii_bars_and_function_calls_are_accepted() {
        let text = "<|DSML|function_calls><|DSML|invoke name=\"list_dir\"><|DSML|parameter name=\"path\">.</|DSML|parameter></|DSML|invoke></|DSML|function_calls>";
        let (calls, around) = calls(scan(text, &["list_dir"]));
        assert_eq!(calls[0].2, serde_json::json!({"path": "."}));
        assert_eq!(around, "");
    }

    #[test]
    fn tools_not_offered_bad_json_and_incomplete_blocks_are_leftovers() {
        let unknown = block(&invoke("rm_everything", ""));
        assert!(matches!(
            scan(&unknown, &["read_file"]),
            DsmlScan::Leftover { .. }
        ));
        let bad = block(&invoke("read_file", &param("limit", "false", "fifty")));
        assert!(matches!(
            scan(&bad, &["read_file"]),
            DsmlScan::Leftover { .. }
        ));
        let cut = format!("<{BAR}DSML{BAR}tool_calls>\n{}", invoke("read_file", ""));
        assert!(matches!(
            scan(&cut, &["read_file"]),
            DsmlScan::Leftover { .. }
        ));
        let twice = format!(
            "{}{}",
            block(&invoke("read_file", "")),
            block(&invoke("read_file", ""))
        );
        assert!(matches!(
            scan(&twice, &["read_file"]),
            DsmlScan::Leftover { .. }
        ));
        let dup = block(&invoke(
            "read_file",
            &(param("path", "true", "a") + &param("path", "true", "b")),
        ));
        assert!(matches!(
            scan(&dup, &["read_file"]),
            DsmlScan::Leftover { .. }
        ));
    }

    #[test]
    fn limits_are_enforced() {
        let many = block(&invoke("list_dir", "").repeat(MAX_CALLS + 1));
        assert!(matches!(
            scan(&many, &["list_dir"]),
            DsmlScan::Leftover { .. }
        ));
        let ok = block(&invoke("list_dir", "").repeat(MAX_CALLS));
        assert_eq!(calls(scan(&ok, &["list_dir"])).0.len(), MAX_CALLS);
    }

    #[test]
    fn the_stream_guard_holds_back_only_a_possible_marker() {
        let mut guard = DsmlStreamGuard::default();
        assert_eq!(guard.push("Hello <b"), "Hello <b");
        assert_eq!(guard.push("> and <"), "> and ");
        assert_eq!(guard.push(BAR), "");
        assert_eq!(guard.push("DS"), "");
        assert_eq!(guard.push("ML"), "");
        assert_eq!(guard.push(&format!("{BAR}tool_calls> more")), "");
        assert_eq!(guard.finish(), format!("<{BAR}DSML{BAR}tool_calls> more"));

        let mut plain = DsmlStreamGuard::default();
        assert_eq!(plain.push("a < b"), "a < b");
        assert_eq!(plain.push(" and <"), " and ");
        assert_eq!(plain.push("x"), "<x");
        assert_eq!(plain.finish(), "");
    }
}
