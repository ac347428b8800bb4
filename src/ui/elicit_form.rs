//! The REPL's answer to an MCP server's elicitation: a short form, one line per field of the schema with its
//! default filled in. Enter keeps what the line shows, an empty optional field is left out, ESC declines and
//! Ctrl-C cancels (the task too). Keys come from the keyboard owner through [`Keyboard::listen`], like the
//! approval prompt's; [`fill_form`] is a pure function over a key source and a writer so tests can drive it.

use std::io::{self, Write};

use async_trait::async_trait;
use crossterm::event::{KeyCode, KeyModifiers};
use serde_json::Map;

use crate::mcp::elicit::{self, Field, ValueError};
use crate::mcp::{ElicitAnswer, ElicitRequest, Elicitor};
use crate::text::{self, Lang, Msg, tr, trf};
use crate::ui::approval_prompt::{Edited, KeySource, edit_line};
use crate::ui::keyboard::{Input, Keyboard};
use crate::ui::render::{Style, Surface};
use crate::ui::repl::{HiddenLive, LiveSlot};

/// Remembers whether the last key was Ctrl-C, which the line editor treats like ESC.
struct Watched<'a, K> {
    keys: &'a mut K,
    ctrl_c: bool,
}

impl<K: KeySource> KeySource for Watched<'_, K> {
    fn next_input(&mut self) -> Option<Input> {
        let input = self.keys.next_input();
        self.ctrl_c = matches!(&input, Some(Input::Key(k))
            if k.code == KeyCode::Char('c') && k.modifiers.contains(KeyModifiers::CONTROL));
        input
    }
}

/// Shows `request` on `out` and reads the values from `keys`.
pub fn fill_form(
    request: &ElicitRequest,
    keys: &mut impl KeySource,
    out: &mut impl Write,
    lang: Lang,
    style: Style,
    width: usize,
) -> io::Result<ElicitAnswer> {
    // The server names itself and writes the message: both are shown with their control characters visible.
    let server = text::visible(&request.server);
    let asks = trf(
        lang,
        Msg::ElicitAsks,
        &[
            ("server", &server),
            ("message", &text::visible_lines(&request.message)),
        ],
    );
    writeln!(out, "{}", style.yellow(&format!("? {asks}")))?;
    writeln!(out, "  {}", style.dim(tr(lang, Msg::ElicitKeys)))?;
    let mut keys = Watched {
        keys,
        ctrl_c: false,
    };
    let mut values = Map::new();
    for field in elicit::fields(&request.schema) {
        let initial = field
            .default
            .as_ref()
            .map(elicit::shown_default)
            .unwrap_or_default();
        let prompt = field_prompt(&field, lang);
        let mut line = initial;
        loop {
            match edit_line(&mut keys, out, &prompt, &line, width)? {
                None => return Ok(ElicitAnswer::Decline),
                Some(Edited::Back) if keys.ctrl_c => return Ok(ElicitAnswer::Cancel),
                Some(Edited::Back) => return Ok(ElicitAnswer::Decline),
                Some(Edited::Done(text)) if text.trim().is_empty() && !field.required => break,
                Some(Edited::Done(text)) => match elicit::parse_value(&field, &text) {
                    Ok(value) => {
                        values.insert(field.name.clone(), value);
                        break;
                    }
                    Err(why) => {
                        let why = value_error(lang, &why);
                        writeln!(out, "  {}", style.yellow(&format!("! {why}")))?;
                        line = text;
                    }
                },
            }
        }
    }
    writeln!(
        out,
        "  {}",
        style.dim(&trf(lang, Msg::ElicitSent, &[("server", &server)]))
    )?;
    Ok(ElicitAnswer::Accept(values))
}

fn field_prompt(field: &Field, lang: Lang) -> String {
    // Titles, descriptions and choices come from the server's schema.
    let label = field.title.as_deref().unwrap_or(&field.name);
    let mut prompt = format!("  {}", text::visible(label));
    if let Some(about) = field.description.as_deref().filter(|d| *d != label) {
        prompt.push_str(&format!(" — {}", text::visible(about)));
    }
    if !field.choices.is_empty() {
        prompt.push_str(&format!(" [{}]", text::visible(&field.choices.join("/"))));
    }
    if field.required {
        prompt.push_str(&format!(" ({})", tr(lang, Msg::ElicitRequired)));
    }
    prompt.push_str(": ");
    prompt
}

fn value_error(lang: Lang, error: &ValueError) -> String {
    match error {
        ValueError::Choice(choices) => trf(
            lang,
            Msg::ElicitWantChoice,
            &[("choices", &choices.join(", "))],
        ),
        ValueError::YesNo => tr(lang, Msg::ElicitWantYesNo).to_string(),
        ValueError::Integer => tr(lang, Msg::ElicitWantInteger).to_string(),
        ValueError::Number => tr(lang, Msg::ElicitWantNumber).to_string(),
        ValueError::Missing => tr(lang, Msg::ElicitWantValue).to_string(),
    }
}

/// Asks the person at the terminal while a task runs; with no task reading keys (nobody can answer), declines.
pub struct TerminalElicitor {
    pub keyboard: Keyboard,
    pub lang: Lang,
    pub no_color: bool,
    /// The running turn's working line, hidden while the form shows.
    pub live: LiveSlot,
}

#[async_trait]
impl Elicitor for TerminalElicitor {
    async fn elicit(&self, request: &ElicitRequest) -> ElicitAnswer {
        let _hidden = HiddenLive::hide(&self.live);
        let (keyboard, lang, no_color) = (self.keyboard.clone(), self.lang, self.no_color);
        let request = request.clone();
        // The working line comes back when `_hidden` drops, after the answer.
        tokio::task::spawn_blocking(move || {
            let Some(mut listener) = keyboard.listen() else {
                return ElicitAnswer::Decline;
            };
            let surface = Surface::detect(no_color);
            let mut out = CrLf(io::stderr().lock());
            let answer = fill_form(
                &request,
                &mut listener,
                &mut out,
                lang,
                surface.style,
                surface.width,
            )
            .unwrap_or(ElicitAnswer::Decline);
            let word = match &answer {
                ElicitAnswer::Accept(_) => None,
                ElicitAnswer::Decline => Some(Msg::ElicitDeclined),
                ElicitAnswer::Cancel => Some(Msg::ElicitCancelled),
            };
            if let Some(word) = word {
                let _ = writeln!(out, "  {}", surface.style.dim(tr(lang, word)));
            }
            if answer == ElicitAnswer::Cancel {
                keyboard.cancel_task();
            }
            answer
        })
        .await
        .unwrap_or(ElicitAnswer::Decline)
    }
}

/// Writes `\n` as `\r\n` (raw mode does not return the carriage).
struct CrLf<W>(W);

impl<W: Write> Write for CrLf<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let text = String::from_utf8_lossy(buf).replace('\n', "\r\n");
        self.0.write_all(text.as_bytes())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::ui::approval_prompt::typed;
    use serde_json::json;

    fn request() -> ElicitRequest {
        ElicitRequest {
            server: "srv".into(),
            message: "Who are you?".into(),
            schema: json!({"type": "object", "properties": {
                "name": {"type": "string", "default": "John Doe"},
                "age": {"type": "integer", "description": "years"},
                "email": {"type": "string"}
            }, "required": ["age"]}),
        }
    }

    fn run(keys: &str) -> (ElicitAnswer, String) {
        let mut out = Vec::new();
        let answer = fill_form(
            &request(),
            &mut typed(keys),
            &mut out,
            Lang::En,
            Style::new(false),
            80,
        )
        .unwrap();
        (answer, String::from_utf8_lossy(&out).into_owned())
    }

    #[test]
    fn enter_keeps_defaults_and_optional_blanks_are_left_out() {
        // Fields come in schema order: name (default kept), age ("x" is refused, then 41), email (left empty).
        let (answer, shown) = run("\nx\n\x7f41\n\n");
        assert_eq!(
            answer,
            ElicitAnswer::Accept(
                json!({"name": "John Doe", "age": 41})
                    .as_object()
                    .unwrap()
                    .clone()
            )
        );
        assert!(
            shown.contains("? MCP server `srv` asks: Who are you?"),
            "{shown}"
        );
        assert!(shown.contains("! a whole number"), "{shown}");
    }

    #[test]
    fn a_required_field_cannot_be_left_empty() {
        let (answer, shown) = run("\n\n7\n\n");
        assert!(matches!(answer, ElicitAnswer::Accept(v) if v["age"] == json!(7)));
        assert!(shown.contains("! a value is required"), "{shown}");
    }

    #[test]
    fn esc_declines_and_ctrl_c_cancels() {
        assert_eq!(run("\x1b").0, ElicitAnswer::Decline);
        assert_eq!(run("41\n\x03").0, ElicitAnswer::Cancel);
        assert_eq!(run("").0, ElicitAnswer::Decline);
    }

    #[test]
    fn the_servers_words_reach_the_screen_with_their_escapes_shown() {
        let hostile = ElicitRequest {
            server: "srv\x1b]0;owned\x07".into(),
            message: "Who\x1b[2J are you?\x1b]52;c;eA==\x07".into(),
            schema: json!({"type": "object", "properties": {
                "name": {"type": "string", "title": "Na\x1b[8mme", "description": "hid\u{202E}den"}
            }}),
        };
        let mut out = Vec::new();
        fill_form(
            &hostile,
            &mut typed("x\n"),
            &mut out,
            Lang::En,
            Style::new(false),
            80,
        )
        .unwrap();
        let shown = String::from_utf8_lossy(&out);
        // The form itself only echoes typed keys with plain escapes of its own line editor; none of the server's.
        for raw in ["\x1b]", "\x1b[2J", "\x1b[8m", "\u{202E}"] {
            assert!(
                !shown.contains(raw),
                "{raw:?} reached the screen: {shown:?}"
            );
        }
        assert!(shown.contains("<U+001B>]52;c;eA==<U+0007>"), "{shown:?}");
        assert!(shown.contains("Na<U+001B>[8mme"), "{shown:?}");
        assert!(shown.contains("hid<U+202E>den"), "{shown:?}");
    }
}
