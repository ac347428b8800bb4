//! Which language the UI speaks: `ui.language`, or the locale when it is `auto`.

use crate::config::{EnvVars, UiLanguage};

/// The language of the interactive UI.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Lang {
    #[default]
    En,
    Zh,
}

impl Lang {
    /// Resolves a `ui.language` setting; `auto` (or unset) looks at `LC_ALL`, `LC_MESSAGES` and `LANG`.
    pub fn resolve(setting: UiLanguage, env: &EnvVars) -> Lang {
        match setting {
            UiLanguage::En => Lang::En,
            UiLanguage::Zh => Lang::Zh,
            UiLanguage::Auto => Self::from_locale(env),
        }
    }

    /// The first set locale variable decides, as POSIX does.
    fn from_locale(env: &EnvVars) -> Lang {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"]
            .iter()
            .find_map(|k| env.get(k))
            .unwrap_or("");
        if locale.to_ascii_lowercase().starts_with("zh") {
            Lang::Zh
        } else {
            Lang::En
        }
    }
}
