//! What to do after a model failure, worded for the front-end that shows it (the REPL, `-p`, the headless result).

use crate::llm::LlmError;
use crate::text::{Lang, Msg, tr, trf};

/// Where the hint will be read: the REPL offers slash commands, `-p` offers flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Frontend {
    Repl,
    OneShot,
}

/// The next step for `error`, when there is something specific to do (a message to show with [`tr`](crate::text::tr)).
pub fn next_step(error: &LlmError, frontend: Frontend) -> Option<Msg> {
    let repl = frontend == Frontend::Repl;
    match error {
        LlmError::Auth { .. } => Some(Msg::HintAuth),
        LlmError::Connect(_) => Some(Msg::HintConnect),
        LlmError::RateLimited { .. } => Some(Msg::HintRateLimited),
        LlmError::ContextLengthExceeded { .. } if repl => Some(Msg::HintContextRepl),
        LlmError::ContextLengthExceeded { .. } => Some(Msg::HintContextOneShot),
        LlmError::Rejected { status: 404, .. } if repl => Some(Msg::HintModelRepl),
        LlmError::Rejected { status: 404, .. } => Some(Msg::HintModelOneShot),
        _ if repl => Some(Msg::HintRetry),
        _ => None,
    }
}

/// The hint for `error` worded in `lang`. An authentication failure names the key setting that was sent
/// (`key_source`), since the provider's usual variable may not be the one in use.
pub fn hint_text(
    lang: Lang,
    error: &LlmError,
    frontend: Frontend,
    key_source: Option<&str>,
) -> Option<String> {
    match (error, key_source) {
        (LlmError::Auth { .. }, Some(key)) => Some(trf(lang, Msg::HintAuthKey, &[("key", &key)])),
        _ => next_step(error, frontend).map(|m| tr(lang, m).to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_auth_hint_names_the_key_that_was_used() {
        let auth = LlmError::Auth {
            status: 401,
            message: "bad key".into(),
        };
        let hint = hint_text(Lang::En, &auth, Frontend::OneShot, Some("PAICLI_API_KEY"));
        assert_eq!(
            hint.as_deref(),
            Some("check PAICLI_API_KEY: the provider refused the key paicli sent from it")
        );
        let zh = hint_text(Lang::Zh, &auth, Frontend::OneShot, Some("PAICLI_API_KEY"));
        assert_eq!(
            zh.as_deref(),
            Some("检查 PAICLI_API_KEY：提供商拒绝了 paicli 从这里取用的密钥")
        );
        let unknown = hint_text(Lang::En, &auth, Frontend::OneShot, None).unwrap_or_default();
        assert!(
            unknown.starts_with("check the API key variable"),
            "{unknown}"
        );
    }

    #[test]
    fn hints_name_the_front_ends_own_controls() {
        let not_found = LlmError::Rejected {
            status: 404,
            message: "no such model".into(),
        };
        let text = |h: Option<Msg>| h.map(|m| tr(Lang::En, m)).unwrap_or_default();
        assert!(text(next_step(&not_found, Frontend::Repl)).contains("/model list"));
        assert!(text(next_step(&not_found, Frontend::OneShot)).contains("--model"));
        let zh = next_step(&not_found, Frontend::OneShot).map(|m| tr(Lang::Zh, m));
        assert_eq!(zh, Some("检查模型名称（--model）和接口地址"));
        let other = LlmError::EmptyResponse;
        assert_eq!(next_step(&other, Frontend::OneShot), None);
        assert!(next_step(&other, Frontend::Repl).is_some());
    }
}
