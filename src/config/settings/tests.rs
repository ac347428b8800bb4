#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;

use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor, value::Error};

use super::*;
use crate::config::file::{ConfigFile, LspServerSection};
use crate::config::{Config, Overrides};

/// A deserializer that answers "nothing" to every field and records the field names it was asked for, so the
/// file keys `ConfigFile` accepts can be listed without a hand-kept copy.
struct Fields<'a> {
    prefix: String,
    out: &'a mut BTreeSet<String>,
}

impl<'de> Deserializer<'de> for Fields<'_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, _v: V) -> Result<V::Value, Error> {
        Err(de::Error::custom(format!(
            "{} is not optional",
            self.prefix
        )))
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.out.insert(self.prefix);
        v.visit_none()
    }

    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.out.insert(format!("{}.<name>", self.prefix));
        v.visit_map(de::value::MapDeserializer::new(std::iter::empty::<(
            String,
            String,
        )>()))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Error> {
        // Fields that are not optional (a server's `command`) are recorded before the visit fails on them.
        for f in fields {
            self.out.insert(join(&self.prefix, f));
        }
        v.visit_map(FieldMap {
            prefix: self.prefix,
            fields: fields.iter(),
            current: String::new(),
            out: self.out,
        })
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 u8 u16 u32 u64 f32 f64 char str string bytes byte_buf unit unit_struct
        newtype_struct seq tuple tuple_struct enum identifier ignored_any
    }
}

struct FieldMap<'a> {
    prefix: String,
    fields: std::slice::Iter<'static, &'static str>,
    current: String,
    out: &'a mut BTreeSet<String>,
}

impl<'de> MapAccess<'de> for FieldMap<'_> {
    type Error = Error;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        let Some(field) = self.fields.next() else {
            return Ok(None);
        };
        self.current = join(&self.prefix, field);
        seed.deserialize(de::value::StrDeserializer::<Error>::new(field))
            .map(Some)
    }

    fn next_value_seed<V: de::DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        seed.deserialize(Fields {
            prefix: self.current.clone(),
            out: self.out,
        })
    }
}

fn join(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_string()
    } else {
        format!("{prefix}.{name}")
    }
}

/// Every leaf key `config.toml` accepts, as the parser's types declare them.
fn parser_keys() -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    ConfigFile::deserialize(Fields {
        prefix: String::new(),
        out: &mut seen,
    })
    .unwrap();
    let _ = LspServerSection::deserialize(Fields {
        prefix: "lsp.servers.<name>".to_string(),
        out: &mut seen,
    });
    // Sections are prefixes of other keys; only leaves are settings.
    let leaves: BTreeSet<String> = seen
        .iter()
        .filter(|k| !seen.iter().any(|o| o.starts_with(&format!("{k}."))))
        .cloned()
        .collect();
    leaves
}

fn file_rows() -> BTreeSet<String> {
    SETTINGS
        .iter()
        .filter(|s| s.in_file)
        .map(|s| s.key.to_string())
        .collect()
}

#[test]
fn the_table_and_the_parser_accept_the_same_file_keys() {
    assert_eq!(file_rows(), parser_keys());
}

#[test]
fn keys_and_environment_names_are_unique() {
    let mut keys = BTreeSet::new();
    let mut envs = BTreeSet::new();
    for s in SETTINGS {
        assert!(keys.insert(s.key), "{} twice", s.key);
        for e in s.env {
            assert!(envs.insert(*e), "{e} in two rows");
        }
        assert!(!s.doc.is_empty(), "{} has no doc", s.key);
    }
}

/// `(row key, value text)` for every key the example file documents, commented out or not.
fn example_keys() -> Vec<(String, String)> {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/.paicli.example.toml"))
            .unwrap();
    let header = regex::Regex::new(r"^(?:# )?\[([a-z_.]+)\]\s*$").unwrap();
    // A quoted key names a `<name>` entry (a project root under `[approvals.projects]`).
    let key = regex::Regex::new(r#"^(?:# )?([a-z_]+|"[^".]+") = (.+)$"#).unwrap();
    let mut section = String::new();
    let mut out = Vec::new();
    for line in text.lines() {
        if let Some(c) = header.captures(line) {
            section = c[1].to_string();
        } else if let Some(c) = key.captures(line) {
            out.push((format!("{section}.{}", &c[1]), c[2].to_string()));
        }
    }
    out
}

#[test]
fn the_example_file_documents_every_file_key_and_no_other() {
    let mut documented = BTreeSet::new();
    for (key, value) in example_keys() {
        let row =
            for_file_key(&key).unwrap_or_else(|| panic!("example documents unknown key {key}"));
        documented.insert(row.key.to_string());
        // Uncommented under its section, the documented line must parse.
        let (section, name) = key.rsplit_once('.').unwrap();
        let text = format!("[{section}]\n{name} = {value}\n");
        let text = if section.starts_with("lsp.servers.") && name != "command" {
            format!("{text}command = \"x\"\n")
        } else {
            text
        };
        ConfigFile::parse(&text).unwrap_or_else(|e| panic!("{key}: {e}"));
    }
    let missing: Vec<_> = file_rows().difference(&documented).cloned().collect();
    assert!(
        missing.is_empty(),
        "not in .paicli.example.toml: {missing:?}"
    );
}

#[test]
fn every_row_shows_a_value_and_the_defaults_are_true() {
    let project = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let env = vec![("PAICLI_HOME".to_string(), home.path().display().to_string())];
    let config = Config::load_with_env(project.path(), env, &Overrides::default()).unwrap();
    for s in SETTINGS.iter().filter(|s| !s.key.contains("<name>")) {
        let value = crate::config::values::value_of(&config, s.key)
            .unwrap_or_else(|| panic!("/config cannot show {}", s.key));
        if !s.default.is_empty() && !s.default.contains('~') && !s.default.contains('$') {
            assert_eq!(value, s.default, "{}: default in the table differs", s.key);
        }
    }
}

#[test]
fn every_variable_the_loader_reads_is_a_row() {
    // `env.get("X")`, `env.parsed::<T>("X")`, `env.flag("X")` and web.rs's `("X", &mut self.field)` pairs.
    let read = regex::Regex::new(
        r#"env\.(?:get|flag|parsed::<\w+>)\("([A-Z][A-Z0-9_]+)"\)|\(\s*"([A-Z][A-Z0-9_]+)",\s*&mut"#,
    )
    .unwrap();
    let mut found = 0;
    for source in [
        include_str!("../../config.rs"),
        include_str!("../web.rs"),
        include_str!("../provider.rs"),
    ] {
        for c in read.captures_iter(source) {
            let name = c.get(1).or_else(|| c.get(2)).unwrap().as_str();
            assert!(
                for_env(name).is_some(),
                "{name} is read but has no settings row"
            );
            found += 1;
        }
    }
    assert!(
        found > 30,
        "the pattern no longer finds the reads ({found})"
    );
}

#[test]
fn env_patterns_match_provider_variables_only() {
    assert_eq!(
        for_env("DEEPSEEK_BASE_URL").map(|s| s.key),
        Some("llm.base_url")
    );
    assert_eq!(for_env("KIMI_MODEL").map(|s| s.key), Some("llm.model"));
    assert_eq!(
        for_env("MOONSHOT_API_KEY").map(|s| s.key),
        Some("llm.api_key")
    );
    assert!(for_env("NOSUCH_BASE_URL").is_none());
    assert_eq!(
        for_file_key("lsp.servers.pyright.args").map(|s| s.key),
        Some("lsp.servers.<name>.args")
    );
    assert!(for_file_key("lsp.servers.args").is_none());
}
