//! `/trust`: trust this project's own config files with what a cloned repository may not set on its own.

use super::Flow;
use crate::config::ProjectTrust;
use crate::ui::i18n::{Msg, project_trusted};
use crate::ui::repl::Session;

pub(super) fn trust(session: &mut Session, _args: &str) -> Flow {
    let root = session.config.project_root.clone();
    match ProjectTrust::load(&session.config.home).trust(&root) {
        Ok(()) => {
            session.say(&project_trusted(session.lang, &root));
            if !session.config.refused.is_empty() {
                let style = session.surface().style;
                session.say(&style.dim(session.tr(Msg::TrustNextSession)));
            }
        }
        Err(e) => session.say_error(&e.to_string()),
    }
    Flow::Continue
}
