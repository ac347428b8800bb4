//! `/trust`: trust this project's own config files with what a cloned repository may not set on its own.

use super::{Flow, say_error, say_wrapped};
use crate::config::ProjectTrust;
use crate::text::{Msg, project_trusted, trf};
use crate::ui::repl::Session;

pub(super) fn trust(session: &mut Session, _args: &str) -> Flow {
    let root = session.config.project_root.clone();
    match ProjectTrust::load(&session.config.home).trust(&root) {
        Ok(()) => {
            say_wrapped(session, &project_trusted(session.lang, &root));
            if !session.config.refused.is_empty() {
                let style = session.surface().style;
                session.say(&style.dim(session.tr(Msg::TrustNextSession)));
            }
        }
        Err(e) => say_error(
            session,
            &trf(session.lang, Msg::TrustFailed, &[("error", &e)]),
        ),
    }
    Flow::Continue
}
