//! The value types a setting is made of: how each reads from a file and from text, shows, and is written as TOML.

use serde::de::DeserializeOwned;

/// A single value a setting holds or a [`Kind`](super::Kind) is built from.
pub trait Scalar: Clone + Send + Sync + 'static {
    /// A file value.
    fn from_toml(value: &toml::Value) -> Result<Self, String>;
    /// An environment variable's or a flag's text (already trimmed).
    fn from_text(text: &str) -> Result<Self, String>;
    /// As `/config` shows it.
    fn show(&self) -> String;
    /// As TOML writes it.
    fn to_toml(&self) -> String;
    /// The words a closed set accepts (empty for open ones).
    fn choices() -> Vec<&'static str> {
        Vec::new()
    }
}

/// Reads a file value through its serde type; the message says what was expected.
pub(super) fn deserialize<T: DeserializeOwned>(value: &toml::Value) -> Result<T, String> {
    T::deserialize(value.clone()).map_err(|e| e.message().to_string())
}

macro_rules! number {
    ($($ty:ty),*) => {$(
        impl Scalar for $ty {
            fn from_toml(value: &toml::Value) -> Result<Self, String> {
                deserialize(value)
            }
            fn from_text(text: &str) -> Result<Self, String> {
                text.parse().map_err(|e: std::num::ParseIntError| e.to_string())
            }
            fn show(&self) -> String {
                self.to_string()
            }
            fn to_toml(&self) -> String {
                self.to_string()
            }
        }
    )*};
}

number!(u32, u64, usize);

impl Scalar for bool {
    fn from_toml(value: &toml::Value) -> Result<Self, String> {
        deserialize(value)
    }

    /// true/1/yes/on or false/0/no/off.
    fn from_text(text: &str) -> Result<Self, String> {
        match text.to_ascii_lowercase().as_str() {
            "true" | "1" | "yes" | "on" => Ok(true),
            "false" | "0" | "no" | "off" => Ok(false),
            _ => Err("expected true/false, 1/0, yes/no or on/off".to_string()),
        }
    }

    fn show(&self) -> String {
        self.to_string()
    }

    fn to_toml(&self) -> String {
        self.to_string()
    }
}

impl Scalar for String {
    fn from_toml(value: &toml::Value) -> Result<Self, String> {
        deserialize(value)
    }

    fn from_text(text: &str) -> Result<Self, String> {
        Ok(text.to_string())
    }

    fn show(&self) -> String {
        self.clone()
    }

    fn to_toml(&self) -> String {
        toml::Value::String(self.clone()).to_string()
    }
}

/// A closed set of words (`auto | required | off`): read from files by its serde names, from text by `FromStr`.
pub trait Choice:
    Copy + DeserializeOwned + std::str::FromStr<Err = String> + Send + Sync + 'static
{
    /// Every value, in the order help lists them.
    fn all() -> &'static [Self];
    /// The word files, flags and `/config` use.
    fn word(self) -> &'static str;
}

impl<T: Choice> Scalar for T {
    fn from_toml(value: &toml::Value) -> Result<Self, String> {
        deserialize(value)
    }

    fn from_text(text: &str) -> Result<Self, String> {
        text.parse()
    }

    fn show(&self) -> String {
        self.word().to_string()
    }

    fn to_toml(&self) -> String {
        toml::Value::String(self.word().to_string()).to_string()
    }

    fn choices() -> Vec<&'static str> {
        T::all().iter().map(|v| v.word()).collect()
    }
}

impl Choice for crate::config::ApprovalMode {
    fn all() -> &'static [Self] {
        &Self::ALL
    }

    fn word(self) -> &'static str {
        self.name()
    }
}

impl Choice for crate::config::ChannelEdits {
    fn all() -> &'static [Self] {
        &Self::ALL
    }

    fn word(self) -> &'static str {
        crate::config::ChannelEdits::word(self)
    }
}

impl Choice for crate::config::SandboxMode {
    fn all() -> &'static [Self] {
        &Self::ALL
    }

    fn word(self) -> &'static str {
        self.label()
    }
}

impl Choice for crate::config::UiLanguage {
    fn all() -> &'static [Self] {
        &Self::ALL
    }

    fn word(self) -> &'static str {
        self.name()
    }
}

impl Choice for crate::config::SearchProviderKind {
    fn all() -> &'static [Self] {
        &Self::ALL
    }

    fn word(self) -> &'static str {
        self.name()
    }
}
