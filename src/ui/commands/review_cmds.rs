//! `/review [<base> | --staged | <commit>]`: the reviewer agent's findings on the changes, its calls shown tagged
//! with its name while it reads; ESC stops it.

use super::{Flow, say_error, say_wrapped};
use crate::app::review::{REVIEWER, ReviewTarget, prepare_review, review_of};
use crate::ui::oneshot::review::findings_text;
use crate::ui::render::TerminalSink;
use crate::ui::repl::Session;

pub(super) fn review(session: &mut Session, args: &str) -> Flow {
    let target = ReviewTarget::parse(args);
    let (mut runner, prompt) = match prepare_review(session.agent_mut(), &target) {
        Ok(prepared) => prepared,
        Err(e) => {
            say_error(session, &e.to_string());
            return Flow::Continue;
        }
    };
    let sink = TerminalSink::stdout(session.surface(), session.lang);
    let (outcome, spent) = session.block_on_cancellable(|cancel| async move {
        runner.run(REVIEWER, &prompt, &sink, cancel).await
    });
    session.agent_mut().record_side_usage(spent);
    match review_of(outcome) {
        Ok(review) => {
            let text = findings_text(&review, session.lang);
            say_wrapped(session, text.trim_end());
        }
        Err(e) => say_error(session, &e.to_string()),
    }
    Flow::Continue
}
