//! The review of a proposed plan (issue 23): the plan as a tree by dependencies, then single keys read from the
//! keyboard owner while the plan runs. Enter runs it, Ctrl+O shows or hides the descriptions, `i` reads added
//! instructions and re-plans, ESC or Ctrl-C cancel. The review itself is a pure function over a key source and a
//! writer, so every key can be tested without a terminal.

mod tree;

use std::io::{self, Write};
use std::sync::Arc;

use async_trait::async_trait;
use crossterm::event::{KeyCode, KeyModifiers};

use crate::protocol::plan::{Plan, PlanDecision, PlanReviewer};
use crate::text::{Msg, task_count, tr};
use crate::ui::approval_prompt::{CrLf, Edited, KeySource, LineKeys, Look, edit_line};
use crate::ui::keyboard::{Input, Keyboard, is_cancel_key};
use crate::ui::render::{Surface, pack, wrap_hanging};
use crate::ui::repl::{HiddenLive, LiveSlot};

pub use tree::plan_tree;

/// Reviews plans at the terminal: the plan on stderr, the keys from the session's keyboard owner.
pub struct TerminalPlanReviewer {
    pub keyboard: Keyboard,
    /// The running turn's working line, hidden while the plan is shown.
    pub live: LiveSlot,
    pub lang: crate::text::Lang,
    pub no_color: bool,
}

impl TerminalPlanReviewer {
    fn review_blocking(&self, plan: &Plan, revision: u32) -> io::Result<PlanDecision> {
        // Read at each draw: the terminal may be resized while the plan is shown.
        let look = || {
            let surface = Surface::detect(self.no_color);
            Look {
                lang: self.lang,
                style: surface.style,
                width: surface.width,
                height: crossterm::terminal::size().map_or(24, |(_, h)| usize::from(h)),
            }
        };
        match self.keyboard.listen() {
            // Raw mode is on while the keyboard owner reads: lines end in \r\n, and the tree can be redrawn.
            Some(mut listener) => {
                let out = &mut CrLf(io::stderr().lock());
                review_plan(plan, revision, &mut listener, out, &look, true)
            }
            None => {
                let keys = &mut LineKeys::new(io::stdin().lock());
                review_plan(plan, revision, keys, &mut io::stderr().lock(), &look, false)
            }
        }
    }
}

#[async_trait]
impl PlanReviewer for TerminalPlanReviewer {
    async fn review(&self, plan: &Plan, revision: u32) -> PlanDecision {
        let _hidden = HiddenLive::hide(&self.live);
        let reviewer = TerminalPlanReviewer {
            keyboard: self.keyboard.clone(),
            live: Arc::clone(&self.live),
            lang: self.lang,
            no_color: self.no_color,
        };
        let plan_copy = plan.clone();
        tokio::task::spawn_blocking(move || reviewer.review_blocking(&plan_copy, revision))
            .await
            .ok()
            .and_then(Result::ok)
            // A review that could not be shown runs nothing.
            .unwrap_or(PlanDecision::Cancel)
    }
}

/// Shows `plan` (headed with its `revision` when it is a re-plan) on `out` and reads the decision from `keys`;
/// `look` is asked at each draw (the terminal's size may change). With `in_place`, Ctrl+O redraws the tree where it is (a terminal); otherwise the tree is printed
/// again below.
pub fn review_plan(
    plan: &Plan,
    revision: u32,
    keys: &mut impl KeySource,
    out: &mut impl Write,
    look: &impl Fn() -> Look,
    in_place: bool,
) -> io::Result<PlanDecision> {
    let mut expanded = false;
    let mut rows = draw(plan, revision, expanded, out, &look())?;
    loop {
        let look = &look();
        let style = look.style;
        let Some(input) = keys.next_input() else {
            writeln!(out)?;
            return Ok(PlanDecision::Cancel);
        };
        let Input::Key(key) = input else { continue };
        if is_cancel_key(&key) {
            let text = style.yellow(tr(look.lang, Msg::PlanReviewCancelled));
            writeln!(out, "\n  {text}")?;
            return Ok(PlanDecision::Cancel);
        }
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let alt = key.modifiers.contains(KeyModifiers::ALT);
        match key.code {
            KeyCode::Enter => {
                let text = style.green(&format!("▶ {}", tr(look.lang, Msg::PlanRunning)));
                writeln!(out, "\n  {text}")?;
                return Ok(PlanDecision::Run);
            }
            KeyCode::Char('o') if ctrl => {
                expanded = !expanded;
                // Back to the tree's first row and erase, when all of it is still on screen.
                if in_place && rows > 0 && rows < look.height {
                    write!(out, "\r\x1b[{}A\x1b[J", rows - 1)?;
                } else {
                    writeln!(out)?;
                }
                rows = draw(plan, revision, expanded, out, look)?;
            }
            KeyCode::Char('i' | 'I') if !ctrl && !alt => {
                writeln!(out)?;
                let prompt = tr(look.lang, Msg::PlanInstructPrompt);
                match edit_line(keys, out, prompt, "", look.width)? {
                    None => return Ok(PlanDecision::Cancel),
                    Some(Edited::Done(text)) if !text.trim().is_empty() => {
                        let line = style.cyan(tr(look.lang, Msg::PlanReplanning));
                        writeln!(out, "  {line}")?;
                        return Ok(PlanDecision::Replan {
                            instructions: text.trim().to_string(),
                        });
                    }
                    // ESC or nothing typed: the keys again, below.
                    Some(_) => {
                        write_keys(out, look)?;
                        rows = 0;
                    }
                }
            }
            _ => {}
        }
    }
}

/// Draws the heading, the tree and the key line (left open for the answer); returns the rows drawn.
fn draw(
    plan: &Plan,
    revision: u32,
    expanded: bool,
    out: &mut impl Write,
    look: &Look,
) -> io::Result<usize> {
    let style = look.style;
    let heading = match revision {
        0 => tr(look.lang, Msg::PlanReviewHeading).to_string(),
        n => tr(look.lang, Msg::PlanReviewHeadingRevised).replace("{revision}", &n.to_string()),
    };
    let heading = heading
        .replace("{n}", &task_count(look.lang, plan.tasks.len()))
        .replace("{goal}", &crate::text::visible(plan.goal.trim()));
    let mut lines: Vec<String> = wrap_hanging(&heading, look.width.saturating_sub(1), 2)
        .iter()
        .map(|l| style.bold(l))
        .collect();
    lines.extend(plan_tree(plan, expanded, look.width, style, look.lang));
    for line in &lines {
        writeln!(out, "{line}")?;
    }
    Ok(lines.len() + write_keys(out, look)?)
}

/// The key line, packed to the width; returns its rows.
fn write_keys(out: &mut impl Write, look: &Look) -> io::Result<usize> {
    let keys: Vec<String> = [
        Msg::PlanKeyRun,
        Msg::PlanKeyDetails,
        Msg::PlanKeyInstruct,
        Msg::PlanKeyCancel,
    ]
    .iter()
    .map(|m| tr(look.lang, *m).to_string())
    .collect();
    let lines = pack(&keys, " · ", look.width.saturating_sub(3));
    let n = lines.len();
    let text: Vec<String> = lines
        .iter()
        .map(|l| look.style.dim(&format!("  {l}")))
        .collect();
    write!(out, "{} ", text.join("\n"))?;
    out.flush()?;
    Ok(n)
}

#[cfg(test)]
mod tests;
