//! Ctrl+V at the prompt: an image on the clipboard (read with `wl-paste` or `xclip`) is saved under
//! `.paicli/tool-outputs/` and an `@image:` mention of it is typed into the line; without a clipboard tool or
//! an image, a note says how to attach a file instead.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use rustyline::{
    Cmd, ConditionalEventHandler, Event, EventContext, EventHandler, KeyEvent, RepeatCount,
};

use super::editor::LineEditor;
use crate::llm::image_part::image_format;
use crate::ui::i18n::{Lang, Msg, tr};
use crate::ui::render::Style;

/// Where pasted images go, relative to the project root (git-ignored with the spilled tool outputs).
const PASTE_DIR: &str = ".paicli/tool-outputs";

/// The clipboard readers tried in order: Wayland, then X11.
const READERS: &[(&str, &[&str])] = &[
    ("wl-paste", &["--no-newline", "--type", "image/png"]),
    (
        "xclip",
        &["-selection", "clipboard", "-t", "image/png", "-o"],
    ),
];

struct PasteKeyHandler {
    root: PathBuf,
    lang: Lang,
    style: Style,
}

impl ConditionalEventHandler for PasteKeyHandler {
    fn handle(
        &self,
        _evt: &Event,
        _n: RepeatCount,
        _positive: bool,
        _ctx: &EventContext,
    ) -> Option<Cmd> {
        match clipboard_image().and_then(|bytes| self.save(&bytes)) {
            Some(rel) => Some(Cmd::Insert(1, format!("@image:{rel} "))),
            None => {
                let mut out = std::io::stdout().lock();
                let note = self.style.dim(tr(self.lang, Msg::NoClipboardImage));
                let _ = write!(out, "\r\x1b[2K{note}\r\n");
                let _ = out.flush();
                Some(Cmd::Repaint)
            }
        }
    }
}

impl PasteKeyHandler {
    /// Saves the image; returns its path relative to the root.
    fn save(&self, bytes: &[u8]) -> Option<String> {
        let dir = self.root.join(PASTE_DIR);
        std::fs::create_dir_all(&dir).ok()?;
        let name = format!(
            "clipboard-{}.png",
            chrono::Local::now().format("%Y%m%d-%H%M%S-%3f")
        );
        std::fs::write(dir.join(&name), bytes).ok()?;
        Some(format!("{PASTE_DIR}/{name}"))
    }
}

/// The clipboard's image from the first reader that is installed and has one.
fn clipboard_image() -> Option<Vec<u8>> {
    READERS.iter().find_map(|(program, args)| {
        let output = Command::new(program)
            .args(*args)
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .output()
            .ok()?;
        (output.status.success() && image_format(&output.stdout).is_some()).then_some(output.stdout)
    })
}

/// Binds Ctrl+V to paste a clipboard image as an `@image:` mention.
pub fn bind_paste_key(editor: &mut LineEditor, root: PathBuf, lang: Lang, style: Style) {
    editor.bind_sequence(
        KeyEvent::ctrl('v'),
        EventHandler::Conditional(Box::new(PasteKeyHandler { root, lang, style })),
    );
}
