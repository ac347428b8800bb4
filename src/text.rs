//! Every text paicli shows to people, in English and Chinese, and the wording of the typed notices and values the
//! layers below send. It sits below `app`, so the session host and every front-end (the REPL, `serve`, `acp`)
//! word the same event the same way without importing one another.
//!
//! A message is one row in a file of `text/messages/`, grouped by feature:
//! `Name => en: "…", zh: "…",`. The row declares the constant `Msg::Name`; a row without both languages does
//! not compile. Texts with data use named `{placeholders}`, filled by [`trf`], so each language orders them its
//! own way. The language is `ui.language = auto|en|zh` (auto reads the locale variables).

mod agent_notices;
mod approval_mode;
mod fill;
mod lang;
mod messages;
mod notices;
mod skipped_mention;
#[cfg(test)]
mod tests;
mod visible;

pub use agent_notices::notice_text;
pub use approval_mode::{mode_help, mode_label};
pub use fill::{counted, fill, labelled, placeholders, task_count, trf};
pub use lang::Lang;
pub use notices::{
    file_notice, git_link_refusal, project_trusted, refused_setting, sandbox_shortfall,
    start_notice_text,
};
pub use skipped_mention::mention_skipped;
pub use visible::{is_hidden, strip_sgr, visible, visible_lines, visible_lines_but_sgr};

/// A text with a fixed wording per language: one row of the message table (`Msg::Name`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Msg {
    name: &'static str,
    en: &'static str,
    zh: &'static str,
}

impl Msg {
    /// Only the rows of `text/messages/` make messages, so every `Msg` has both languages.
    const fn row(name: &'static str, en: &'static str, zh: &'static str) -> Msg {
        Msg { name, en, zh }
    }

    /// The row's name, as written in the table.
    pub fn name(self) -> &'static str {
        self.name
    }

    /// The text in `lang`.
    pub fn text(self, lang: Lang) -> &'static str {
        match lang {
            Lang::En => self.en,
            Lang::Zh => self.zh,
        }
    }

    /// Every message of the table, file by file.
    pub fn all() -> impl Iterator<Item = Msg> {
        messages::ALL.iter().flat_map(|rows| rows.iter().copied())
    }
}

impl std::fmt::Debug for Msg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// The text of `msg` in `lang`.
pub fn tr(lang: Lang, msg: Msg) -> &'static str {
    msg.text(lang)
}
