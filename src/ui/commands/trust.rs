//! `/trust`: trust this project's own config files with what a cloned repository may not set on its own.

use super::{Flow, say_error, say_wrapped};
use crate::config::ProjectTrust;
use crate::text::{Msg, project_trusted, trf};
use crate::ui::repl::Session;

pub(super) fn trust(session: &mut Session, _args: &str) -> Flow {
    let root = session.config.project_root.clone();
    let trusted = ProjectTrust::load(&session.config.home)
        .trust(&root)
        .and_then(|()| {
            crate::hooks::trust::trust_project_hooks(&crate::app::hook_paths(&session.config))
        });
    match trusted {
        Ok(()) => {
            say_wrapped(session, &project_trusted(session.lang, &root));
            let style = session.surface().style;
            if !session.config.refused.is_empty() {
                session.say(&style.dim(session.tr(Msg::TrustNextSession)));
            }
            // The session's hooks were loaded at its start.
            if !session.services.hooks.untrusted().is_empty() {
                session.say(&style.dim(session.tr(Msg::HooksTrustNextSession)));
            }
        }
        Err(e) => say_error(
            session,
            &trf(session.lang, Msg::TrustFailed, &[("error", &e)]),
        ),
    }
    Flow::Continue
}
