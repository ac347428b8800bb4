//! The kinds of setting values: each turns file values and text (environment, flags) into the field's type, says
//! how `/config` shows it and how the example file writes its default.

use std::marker::PhantomData;
use std::path::PathBuf;
use std::time::Duration;

use super::scalar::{Scalar, deserialize};
use crate::config::mask_secret;

/// How one setting's values are read, shown and defaulted; `Value` is the field's type.
pub trait Kind: Sync + Send + 'static {
    type Value: 'static;
    fn default_value(&self) -> Self::Value;
    /// A file value; the error says what was expected.
    fn read_toml(&self, value: &toml::Value) -> Result<Self::Value, String>;
    /// An environment variable's or a flag's text.
    fn read_text(&self, text: &str) -> Result<Self::Value, String>;
    /// As `/config` shows it.
    fn show(&self, value: &Self::Value) -> String;
    /// The default as TOML; `None` when unset by default.
    fn default_toml(&self) -> Option<String>;
    /// Lays a new value over the field: replaces it, except where every layer's values add up.
    fn lay(&self, slot: &mut Self::Value, new: Self::Value) {
        *slot = new;
    }
    /// The words a closed set accepts.
    fn choices(&self) -> Vec<&'static str> {
        Vec::new()
    }
}

/// A number, switch or closed set with a default.
pub struct Plain<T>(pub T);

impl<T: Scalar> Kind for Plain<T> {
    type Value = T;
    fn default_value(&self) -> T {
        self.0.clone()
    }
    fn read_toml(&self, value: &toml::Value) -> Result<T, String> {
        T::from_toml(value)
    }
    fn read_text(&self, text: &str) -> Result<T, String> {
        T::from_text(text)
    }
    fn show(&self, value: &T) -> String {
        value.show()
    }
    fn default_toml(&self) -> Option<String> {
        Some(self.0.to_toml())
    }
    fn choices(&self) -> Vec<&'static str> {
        T::choices()
    }
}

/// A number kept within `min..=max` (values outside are pulled in, not refused).
pub struct Clamped<T> {
    pub default: T,
    pub min: T,
    pub max: T,
}

impl<T> Clamped<T> {
    pub const fn new(default: T, min: T, max: T) -> Self {
        Clamped { default, min, max }
    }
}

impl<T: Scalar + Ord + Copy> Kind for Clamped<T> {
    type Value = T;
    fn default_value(&self) -> T {
        self.default
    }
    fn read_toml(&self, value: &toml::Value) -> Result<T, String> {
        T::from_toml(value).map(|v| v.clamp(self.min, self.max))
    }
    fn read_text(&self, text: &str) -> Result<T, String> {
        T::from_text(text).map(|v| v.clamp(self.min, self.max))
    }
    fn show(&self, value: &T) -> String {
        value.show()
    }
    fn default_toml(&self) -> Option<String> {
        Some(self.default.to_toml())
    }
}

/// Text with a default.
pub struct Text(pub &'static str);

impl Kind for Text {
    type Value = String;
    fn default_value(&self) -> String {
        self.0.to_string()
    }
    fn read_toml(&self, value: &toml::Value) -> Result<String, String> {
        String::from_toml(value)
    }
    fn read_text(&self, text: &str) -> Result<String, String> {
        Ok(text.to_string())
    }
    fn show(&self, value: &String) -> String {
        value.clone()
    }
    fn default_toml(&self) -> Option<String> {
        Some(self.0.to_string().to_toml())
    }
}

/// Unset unless given (`None`); `/config` shows nothing then.
pub struct Maybe<T>(PhantomData<fn() -> T>);

impl<T> Maybe<T> {
    pub const UNSET: Maybe<T> = Maybe(PhantomData);
}

impl<T: Scalar> Kind for Maybe<T> {
    type Value = Option<T>;
    fn default_value(&self) -> Option<T> {
        None
    }
    fn read_toml(&self, value: &toml::Value) -> Result<Option<T>, String> {
        T::from_toml(value).map(Some)
    }
    fn read_text(&self, text: &str) -> Result<Option<T>, String> {
        T::from_text(text).map(Some)
    }
    fn show(&self, value: &Option<T>) -> String {
        value.as_ref().map(Scalar::show).unwrap_or_default()
    }
    fn default_toml(&self) -> Option<String> {
        None
    }
    fn choices(&self) -> Vec<&'static str> {
        T::choices()
    }
}

/// A limit where 0 means none (`None`), the default.
pub struct Unlimited<T>(PhantomData<fn() -> T>);

impl<T> Unlimited<T> {
    pub const NONE: Unlimited<T> = Unlimited(PhantomData);
}

impl<T: Scalar + PartialEq + Default> Kind for Unlimited<T> {
    type Value = Option<T>;
    fn default_value(&self) -> Option<T> {
        None
    }
    fn read_toml(&self, value: &toml::Value) -> Result<Option<T>, String> {
        T::from_toml(value).map(nonzero)
    }
    fn read_text(&self, text: &str) -> Result<Option<T>, String> {
        T::from_text(text).map(nonzero)
    }
    fn show(&self, value: &Option<T>) -> String {
        value.clone().unwrap_or_default().show()
    }
    fn default_toml(&self) -> Option<String> {
        Some(T::default().to_toml())
    }
}

fn nonzero<T: PartialEq + Default>(v: T) -> Option<T> {
    if v == T::default() { None } else { Some(v) }
}

/// A duration written in whole seconds (`*_secs`).
pub struct Secs(pub u64);

impl Kind for Secs {
    type Value = Duration;
    fn default_value(&self) -> Duration {
        Duration::from_secs(self.0)
    }
    fn read_toml(&self, value: &toml::Value) -> Result<Duration, String> {
        u64::from_toml(value).map(Duration::from_secs)
    }
    fn read_text(&self, text: &str) -> Result<Duration, String> {
        u64::from_text(text).map(Duration::from_secs)
    }
    fn show(&self, value: &Duration) -> String {
        value.as_secs().to_string()
    }
    fn default_toml(&self) -> Option<String> {
        Some(self.0.to_string())
    }
}

/// A duration written in milliseconds (`*_ms`).
pub struct Millis(pub u64);

impl Kind for Millis {
    type Value = Duration;
    fn default_value(&self) -> Duration {
        Duration::from_millis(self.0)
    }
    fn read_toml(&self, value: &toml::Value) -> Result<Duration, String> {
        u64::from_toml(value).map(Duration::from_millis)
    }
    fn read_text(&self, text: &str) -> Result<Duration, String> {
        u64::from_text(text).map(Duration::from_millis)
    }
    fn show(&self, value: &Duration) -> String {
        value.as_millis().to_string()
    }
    fn default_toml(&self) -> Option<String> {
        Some(self.0.to_string())
    }
}

/// A list of words, empty by default; a higher layer's list replaces a lower one's.
pub struct List;

impl Kind for List {
    type Value = Vec<String>;
    fn default_value(&self) -> Vec<String> {
        Vec::new()
    }
    fn read_toml(&self, value: &toml::Value) -> Result<Vec<String>, String> {
        deserialize(value)
    }
    fn read_text(&self, _text: &str) -> Result<Vec<String>, String> {
        Err("a list is set in config.toml only".to_string())
    }
    fn show(&self, value: &Vec<String>) -> String {
        value.join(", ")
    }
    fn default_toml(&self) -> Option<String> {
        Some("[]".to_string())
    }
}

/// Ids of people on a chat service (Telegram's numeric user ids): numbers or strings in a file, comma-separated in
/// the environment; kept as text so no id passes through a float.
pub struct Ids;

impl Kind for Ids {
    type Value = Vec<String>;
    fn default_value(&self) -> Vec<String> {
        Vec::new()
    }
    fn read_toml(&self, value: &toml::Value) -> Result<Vec<String>, String> {
        let toml::Value::Array(items) = value else {
            return Err("expected a list of ids".to_string());
        };
        items
            .iter()
            .map(|item| match item {
                toml::Value::Integer(n) => Ok(n.to_string()),
                toml::Value::String(s) if !s.trim().is_empty() => Ok(s.trim().to_string()),
                other => Err(format!(
                    "expected an id (a number or a string), not {other}"
                )),
            })
            .collect()
    }
    fn read_text(&self, text: &str) -> Result<Vec<String>, String> {
        Ok(text
            .split(',')
            .map(str::trim)
            .filter(|id| !id.is_empty())
            .map(str::to_string)
            .collect())
    }
    fn show(&self, value: &Vec<String>) -> String {
        value.join(", ")
    }
    fn default_toml(&self) -> Option<String> {
        Some("[]".to_string())
    }
}

/// A list of words every layer adds to.
pub struct AddUp;

impl Kind for AddUp {
    type Value = Vec<String>;
    fn default_value(&self) -> Vec<String> {
        Vec::new()
    }
    fn read_toml(&self, value: &toml::Value) -> Result<Vec<String>, String> {
        List.read_toml(value)
    }
    fn read_text(&self, text: &str) -> Result<Vec<String>, String> {
        List.read_text(text)
    }
    fn show(&self, value: &Vec<String>) -> String {
        List.show(value)
    }
    fn default_toml(&self) -> Option<String> {
        List.default_toml()
    }
    fn lay(&self, slot: &mut Vec<String>, new: Vec<String>) {
        slot.extend(new);
    }
}

/// Folders, empty by default; `~/` is the home directory.
pub struct Paths;

impl Kind for Paths {
    type Value = Vec<PathBuf>;
    fn default_value(&self) -> Vec<PathBuf> {
        Vec::new()
    }
    fn read_toml(&self, value: &toml::Value) -> Result<Vec<PathBuf>, String> {
        let list: Vec<String> = deserialize(value)?;
        Ok(list.iter().map(|p| expand_home(p)).collect())
    }
    fn read_text(&self, _text: &str) -> Result<Vec<PathBuf>, String> {
        Err("folders are set in config.toml only".to_string())
    }
    fn show(&self, value: &Vec<PathBuf>) -> String {
        let paths: Vec<String> = value.iter().map(|p| p.display().to_string()).collect();
        paths.join(", ")
    }
    fn default_toml(&self) -> Option<String> {
        List.default_toml()
    }
}

/// `~/x` → `$HOME/x`; anything else as written.
fn expand_home(root: &str) -> PathBuf {
    match (root.strip_prefix("~/"), dirs::home_dir()) {
        (Some(rest), Some(home)) => home.join(rest),
        _ => PathBuf::from(root),
    }
}

/// A folder; its default depends on other settings, so the loader sets it.
pub struct Dir;

impl Kind for Dir {
    type Value = PathBuf;
    fn default_value(&self) -> PathBuf {
        PathBuf::new()
    }
    fn read_toml(&self, value: &toml::Value) -> Result<PathBuf, String> {
        String::from_toml(value).map(PathBuf::from)
    }
    fn read_text(&self, text: &str) -> Result<PathBuf, String> {
        Ok(PathBuf::from(text))
    }
    fn show(&self, value: &PathBuf) -> String {
        value.display().to_string()
    }
    fn default_toml(&self) -> Option<String> {
        None
    }
}

/// On when the variable is set at all (`NO_COLOR`).
pub struct Present;

impl Kind for Present {
    type Value = bool;
    fn default_value(&self) -> bool {
        false
    }
    fn read_toml(&self, value: &toml::Value) -> Result<bool, String> {
        bool::from_toml(value)
    }
    fn read_text(&self, _text: &str) -> Result<bool, String> {
        Ok(true)
    }
    fn show(&self, value: &bool) -> String {
        if *value { "set" } else { "" }.to_string()
    }
    fn default_toml(&self) -> Option<String> {
        None
    }
}

/// A key or token: unset by default, shown by its edges only.
pub struct Secret;

impl Kind for Secret {
    type Value = Option<String>;
    fn default_value(&self) -> Option<String> {
        None
    }
    fn read_toml(&self, value: &toml::Value) -> Result<Option<String>, String> {
        String::from_toml(value).map(Some)
    }
    fn read_text(&self, text: &str) -> Result<Option<String>, String> {
        Ok(Some(text.to_string()))
    }
    fn show(&self, value: &Option<String>) -> String {
        value.as_deref().map(mask_secret).unwrap_or_default()
    }
    fn default_toml(&self) -> Option<String> {
        None
    }
}

/// Text unset by default, where an empty value also means unset.
pub struct NonEmpty;

impl Kind for NonEmpty {
    type Value = Option<String>;
    fn default_value(&self) -> Option<String> {
        None
    }
    fn read_toml(&self, value: &toml::Value) -> Result<Option<String>, String> {
        String::from_toml(value).map(|v| Some(v).filter(|v| !v.trim().is_empty()))
    }
    fn read_text(&self, text: &str) -> Result<Option<String>, String> {
        Ok(Some(text.to_string()).filter(|v| !v.trim().is_empty()))
    }
    fn show(&self, value: &Option<String>) -> String {
        value.clone().unwrap_or_default()
    }
    fn default_toml(&self) -> Option<String> {
        None
    }
}
