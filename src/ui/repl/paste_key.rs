//! Ctrl+V at the prompt: an image on the clipboard (read with `wl-paste` or `xclip`) is saved under
//! `.paicli/tool-outputs/` and an `@image:` mention of it is typed into the line; without a clipboard tool or
//! an image, a note says how to attach a file instead.
//!
//! The file is written like the tools write: through the path guard's directory handles and atomically, so a
//! `.paicli` (or `tool-outputs`) that is a symlink cannot send it outside the project.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use rustyline::{
    Cmd, ConditionalEventHandler, Event, EventContext, EventHandler, KeyEvent, RepeatCount,
};

use super::editor::LineEditor;
use crate::guard::path_guard::PathGuard;
use crate::llm::image_part::image_format;
use crate::text::{Lang, Msg, tr, trf};
use crate::tools::fs::write_atomic;
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
        let note = match clipboard_image().map(|bytes| save_pasted_image(&self.root, &bytes)) {
            Some(Ok(rel)) => return Some(Cmd::Insert(1, format!("@image:{rel} "))),
            Some(Err(e)) => trf(self.lang, Msg::PasteNotSaved, &[("error", &e)]),
            None => tr(self.lang, Msg::NoClipboardImage).to_string(),
        };
        let mut out = std::io::stdout().lock();
        let _ = write!(out, "\r\x1b[2K{}\r\n", self.style.dim(&note));
        let _ = out.flush();
        Some(Cmd::Repaint)
    }
}

/// Saves a pasted image under `<root>/.paicli/tool-outputs/` (with the folder's `.gitignore`) through the path
/// guard and atomically; returns its path relative to the root.
pub fn save_pasted_image(root: &Path, bytes: &[u8]) -> io::Result<String> {
    let guard = PathGuard::new(root)?;
    let dir = guard.root().join(PASTE_DIR);
    let gitignore = dir.join(".gitignore");
    if guard.metadata(&gitignore).is_err() {
        write_atomic(&guard, &gitignore, b"*\n")?;
    }
    let name = format!(
        "clipboard-{}.png",
        chrono::Local::now().format("%Y%m%d-%H%M%S-%3f")
    );
    write_atomic(&guard, &dir.join(&name), bytes)?;
    Ok(format!("{PASTE_DIR}/{name}"))
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

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn a_pasted_image_lands_in_the_project_ignored_by_git() {
        let project = tempfile::tempdir().unwrap();
        let rel = save_pasted_image(project.path(), b"\x89PNG\r\n\x1a\nrest").unwrap();
        assert!(rel.starts_with(".paicli/tool-outputs/clipboard-"), "{rel}");
        let saved = std::fs::read(project.path().join(&rel)).unwrap();
        assert_eq!(saved, b"\x89PNG\r\n\x1a\nrest");
        let ignore = project.path().join(".paicli/tool-outputs/.gitignore");
        assert_eq!(std::fs::read_to_string(ignore).unwrap(), "*\n");
    }

    #[test]
    fn a_symlinked_paicli_folder_cannot_redirect_the_image() {
        let project = tempfile::tempdir().unwrap();
        let elsewhere = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(elsewhere.path(), project.path().join(".paicli")).unwrap();
        assert!(save_pasted_image(project.path(), b"\x89PNG\r\n\x1a\n").is_err());
        assert_eq!(std::fs::read_dir(elsewhere.path()).unwrap().count(), 0);
        // Nor a symlinked tool-outputs folder inside a real .paicli.
        let project = tempfile::tempdir().unwrap();
        std::fs::create_dir(project.path().join(".paicli")).unwrap();
        std::os::unix::fs::symlink(
            elsewhere.path(),
            project.path().join(".paicli/tool-outputs"),
        )
        .unwrap();
        assert!(save_pasted_image(project.path(), b"\x89PNG\r\n\x1a\n").is_err());
        assert_eq!(std::fs::read_dir(elsewhere.path()).unwrap().count(), 0);
    }
}
