//! `/model`: show the current model, list the provider's models, switch for this session, `--save` as default.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use super::{Flow, say_error, say_wrapped};
use crate::config::{WindowSource, resolve_provider};
use crate::llm::client::{ClientOptions, OpenAiClient};
use crate::llm::models::list_models;
use crate::llm::providers;
use crate::text::{Msg, trf};
use crate::ui::repl::Session;

/// How long `/model list` waits for the provider.
const LIST_TIMEOUT: Duration = Duration::from_secs(20);

pub(super) fn model(session: &mut Session, args: &str) -> Flow {
    let save = args.split_whitespace().any(|a| a == "--save");
    let words: Vec<&str> = args.split_whitespace().filter(|a| *a != "--save").collect();
    match words.as_slice() {
        [] if save => save_default(session),
        [] => show(session),
        ["list"] => list(session),
        [model] => switch(session, None, model, save),
        [provider, model] => switch(session, Some(provider), model, save),
        _ => say_error(session, session.tr(Msg::ModelUsage)),
    }
    Flow::Continue
}

fn show(session: &mut Session) {
    let window = session.agent_mut().context_window();
    let p = &session.provider;
    say_wrapped(
        session,
        &trf(
            session.lang,
            Msg::ModelShow,
            &[
                ("provider", &p.id),
                ("model", &p.model),
                ("window", &window_text(session, window)),
                ("url", &p.base_url),
            ],
        ),
    );
}

/// The session's window with where it came from: `[llm] context_window`, the server's report, or the table.
pub(super) fn window_text(session: &Session, window: u64) -> String {
    let count = window.to_string();
    match session.config.window_source(&session.provider) {
        WindowSource::Configured => trf(session.lang, Msg::WindowFromConfig, &[("window", &count)]),
        WindowSource::Server(what) => trf(
            session.lang,
            Msg::WindowFromServer,
            &[("window", &count), ("what", &what)],
        ),
        WindowSource::Table => trf(session.lang, Msg::WindowFromTable, &[("window", &count)]),
    }
}

fn list(session: &Session) {
    let provider = session.provider.clone();
    match session
        .runtime
        .block_on(list_models(&provider, LIST_TIMEOUT))
    {
        Ok(ids) if ids.is_empty() => say_wrapped(session, session.tr(Msg::ModelNoneListed)),
        Ok(ids) => {
            let lines: Vec<String> = ids
                .iter()
                .map(|id| {
                    let mark = if *id == provider.model { "*" } else { " " };
                    format!("{mark} {id}")
                })
                .collect();
            say_wrapped(session, &lines.join("\n"));
        }
        Err(e) => say_error(
            session,
            &trf(session.lang, Msg::ModelListFailed, &[("error", &e)]),
        ),
    }
}

fn switch(session: &mut Session, provider: Option<&str>, model: &str, save: bool) {
    let mut llm = session.config.llm.clone();
    // The provider switched to, whose own key variables are the only ones read for it.
    let mut other_provider = None;
    match provider {
        Some(name) => {
            let Some(info) = providers::lookup(name) else {
                let known: Vec<&str> = providers::PROVIDERS.iter().map(|p| p.id).collect();
                let message = trf(
                    session.lang,
                    Msg::ModelUnknownProvider,
                    &[("name", &format!("{name:?}")), ("known", &known.join(", "))],
                );
                say_error(session, &message);
                return;
            };
            if info.id != session.provider.id {
                // Endpoints and keys of the old provider do not carry over to another one.
                llm.base_url = None;
                llm.file_base_url = None;
                llm.api_key = None;
                llm.file_api_key = None;
                other_provider = Some(info);
            }
            llm.provider = Some(info.id.to_string());
        }
        None => llm.provider = Some(session.provider.id.clone()),
    }
    llm.model = Some(model.to_string());
    let failed = |session: &Session, e: &dyn std::fmt::Display| {
        let message = trf(
            session.lang,
            Msg::ModelSwitchFailed,
            &[("model", &model), ("error", e)],
        );
        say_error(session, &message);
    };
    let resolved = match resolve_provider(&llm, &session.config.env) {
        Ok(p) => p,
        // `PAICLI_API_KEY` stays with the provider paicli started with: name only the variables read now.
        Err(crate::config::ConfigError::MissingApiKey { .. }) if other_provider.is_some() => {
            if let Some(info) = other_provider {
                let message = trf(
                    session.lang,
                    Msg::ModelSwitchNeedsKey,
                    &[("provider", &info.id), ("vars", &info.key_envs.join(" / "))],
                );
                say_error(session, &message);
            }
            return;
        }
        Err(e) => return failed(session, &e),
    };
    let client = match OpenAiClient::new(
        resolved.clone(),
        ClientOptions::from_settings(&session.config.llm),
    ) {
        Ok(c) => c,
        Err(e) => return failed(session, &e),
    };
    // The window (and the compaction thresholds with it) is derived as at start-up: a configured
    // `llm.context_window` wins, else the new model's own.
    let window = session.config.context_window(&resolved);
    session.agent_mut().set_model(Arc::new(client), window);
    session.agent_mut().set_vision(resolved.vision);
    session.agent_mut().set_image_limits(resolved.image_limits);
    session.config.llm = llm;
    session.provider = resolved;
    say_wrapped(
        session,
        &format!(
            "{}: {}/{}",
            session.tr(Msg::ModelSwitched),
            session.provider.id,
            session.provider.model
        ),
    );
    if save {
        save_default(session);
    }
}

fn save_default(session: &Session) {
    let path = session.config.home.join("config.toml");
    match write_default_model(&path, &session.provider.id, &session.provider.model) {
        Ok(()) => say_wrapped(
            session,
            &format!("{} {}", session.tr(Msg::ModelSaved), path.display()),
        ),
        Err(e) => say_error(
            session,
            &trf(
                session.lang,
                Msg::ModelSaveFailed,
                &[("path", &path.display()), ("error", &e)],
            ),
        ),
    }
}

/// Sets `[llm] provider` and `model` in the TOML file at `path`, keeping its other keys and comments (through the
/// same checked, atomic edit as saved approval rules).
pub fn write_default_model(path: &Path, provider: &str, model: &str) -> Result<(), String> {
    use crate::config::saved_rules::{SaveRuleError, edit_config_file};
    edit_config_file(path, |doc| {
        let llm = doc
            .entry("llm")
            .or_insert_with(|| toml_edit::Item::Table(toml_edit::Table::new()))
            .as_table_like_mut()
            .ok_or_else(|| "its llm key is not a table".to_string())?;
        llm.insert("provider", toml_edit::value(provider));
        llm.insert("model", toml_edit::value(model));
        Ok(())
    })
    .map_err(|e| match e {
        SaveRuleError::Invalid { message, .. } => message,
        SaveRuleError::Io { source, .. } => source.to_string(),
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn saving_keeps_other_keys_and_comments() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(
            &path,
            "# mine\n[llm]\nmodel = \"old\"\nidle_timeout_secs = 9\n",
        )
        .unwrap();
        write_default_model(&path, "openai", "gpt-4o").unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("# mine\n"), "{text}");
        assert!(text.contains("model = \"gpt-4o\""), "{text}");
        assert!(text.contains("provider = \"openai\""), "{text}");
        assert!(text.contains("idle_timeout_secs = 9"), "{text}");
        crate::config::ConfigFile::parse(&text).unwrap();
    }

    #[test]
    fn saving_creates_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/config.toml");
        write_default_model(&path, "custom", "m").unwrap();
        let parsed =
            crate::config::ConfigFile::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(
            parsed.get("llm.model").and_then(toml::Value::as_str),
            Some("m")
        );
    }
}
