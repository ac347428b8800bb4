#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;

use super::*;
use crate::config::{Config, ConfigFile, Overrides};

const EXAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/.paicli.example.toml");

#[test]
fn keys_and_environment_names_are_unique_and_every_setting_is_documented() {
    let mut keys = BTreeSet::new();
    let mut envs = BTreeSet::new();
    for row in all() {
        let info = row.info();
        assert!(keys.insert(info.key), "{} twice", info.key);
        for alias in info.aliases {
            assert!(keys.insert(alias), "{alias} twice");
        }
        for e in info.env {
            assert!(envs.insert(*e), "{e} in two declarations");
        }
        assert!(!info.doc.trim().is_empty(), "{} has no doc", info.key);
    }
}

#[test]
fn every_file_key_sits_in_a_listed_table_and_shows_a_value_line() {
    for row in all().iter().filter(|r| r.info().in_file) {
        let info = row.info();
        assert!(
            TABLES.iter().any(|t| t.name == info.table()),
            "{}: table {} is not in TABLES",
            info.key,
            info.table()
        );
        assert!(
            info.example.is_some() || row.default_toml().is_some(),
            "{}: the example file needs a default or an example value",
            info.key
        );
    }
}

/// The example file is written from the declarations; `PAICLI_WRITE_EXAMPLE=1` rewrites it.
#[test]
fn the_example_file_is_generated_from_the_declarations() {
    let generated = example_file();
    if std::env::var_os("PAICLI_WRITE_EXAMPLE").is_some() {
        std::fs::write(EXAMPLE, &generated).unwrap();
    }
    let on_disk = std::fs::read_to_string(EXAMPLE).unwrap();
    assert!(
        on_disk == generated,
        ".paicli.example.toml differs from the declarations; run PAICLI_WRITE_EXAMPLE=1 cargo test --lib example_file"
    );
}

fn load(home_config: Option<&str>) -> Config {
    let project = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    if let Some(text) = home_config {
        std::fs::write(home.path().join("config.toml"), text).unwrap();
    }
    let env = vec![("PAICLI_HOME".to_string(), home.path().display().to_string())];
    Config::load_with_env(project.path(), env, &Overrides::default()).unwrap()
}

#[test]
fn the_example_files_values_are_the_defaults_and_its_examples_parse() {
    let plain = load(None);
    let example = load(Some(&example_file()));
    for row in all() {
        let key = row.info().key;
        if key == "home" || key == "audit.dir" {
            continue; // a temporary folder per load
        }
        assert_eq!(row.show(&example), row.show(&plain), "{key}");
    }
    for row in all().iter().filter(|r| r.info().in_file) {
        let Some(example) = row.info().example else {
            continue;
        };
        if row.info().key.contains("<name>") {
            ConfigFile::parse(example).unwrap_or_else(|e| panic!("{}: {e}", row.info().key));
        } else {
            let value: toml::Value =
                format!("v = {example}").parse::<toml::Table>().unwrap()["v"].clone();
            row.check(&value)
                .unwrap_or_else(|e| panic!("{}: {e}", row.info().key));
        }
    }
}

#[test]
fn every_variable_the_loader_reads_is_declared() {
    let read = regex::Regex::new(r#"env\.(?:get|from_project)\("([A-Z][A-Z0-9_]+)"\)"#).unwrap();
    let mut found = 0;
    for source in [include_str!("../load.rs"), include_str!("../provider.rs")] {
        for c in read.captures_iter(source) {
            assert!(
                for_env(&c[1]).is_some(),
                "{} is read but not declared",
                &c[1]
            );
            found += 1;
        }
    }
    assert!(
        found >= 3,
        "the pattern no longer finds the reads ({found})"
    );
}

#[test]
fn env_patterns_match_provider_variables_only() {
    assert_eq!(
        for_env("DEEPSEEK_BASE_URL").map(|s| s.info().key),
        Some("llm.base_url")
    );
    assert_eq!(
        for_env("KIMI_MODEL").map(|s| s.info().key),
        Some("llm.model")
    );
    assert_eq!(
        for_env("MOONSHOT_API_KEY").map(|s| s.info().key),
        Some("llm.api_key")
    );
    assert!(for_env("NOSUCH_BASE_URL").is_none());
    assert_eq!(
        for_file_key("lsp.servers.pyright").map(|s| s.info().key),
        Some("lsp.servers.<name>")
    );
    assert!(for_file_key("lsp.servers").is_none());
    assert!(is_table(&["lsp", "servers"]));
}

#[test]
fn an_old_spelling_is_read_but_not_beside_the_new_one() {
    let file = ConfigFile::parse("[mcp]\nstartup_wait_seconds = 3\n").unwrap();
    assert_eq!(file.entries()[0].row.info().key, "mcp.startup_wait_secs");
    let c = load(Some(
        "[mcp]\nstartup_wait_seconds = 3\ncall_timeout_secs = 4\n",
    ));
    assert_eq!(c.mcp.startup_wait, std::time::Duration::from_secs(3));
    assert_eq!(c.mcp.call_timeout, std::time::Duration::from_secs(4));
    let err = ConfigFile::parse("[mcp]\nstartup_wait_seconds = 3\nstartup_wait_secs = 4\n")
        .err()
        .unwrap();
    assert!(
        err.contains("same setting") && err.contains("line "),
        "{err}"
    );
}

#[test]
fn an_unknown_key_names_its_line_and_the_keys_its_table_has() {
    let err = ConfigFile::parse("[tools]\nmax_parallel = 2\n\n[tools.offload]\nenable = true\n")
        .err()
        .unwrap();
    assert!(err.starts_with("line 5, column 1:"), "{err}");
    assert!(
        err.contains("tools.offload.enable") && err.contains("enabled, threshold_chars"),
        "{err}"
    );
    let err = ConfigFile::parse("[tool]\nmax_parallel = 2\n")
        .err()
        .unwrap();
    assert!(
        err.starts_with("line 1, column 2:") && err.contains("llm, agent, tools"),
        "{err}"
    );
    let err = ConfigFile::parse("approvals = 3\n").err().unwrap();
    assert!(err.contains("must be a table"), "{err}");
}

#[test]
fn flag_help_is_the_declarations_first_sentence_and_default() {
    assert_eq!(
        flag_help("--sandbox"),
        "auto: confine commands where the kernel supports it (else one notice); required: refuse commands \
         without it; off: run them unconfined (the command guard still checks them) [default: auto]"
    );
    assert_eq!(
        for_flag("--approval").unwrap().choices(),
        ["auto", "plan", "ask", "full"]
    );
    assert_eq!(flag_help("--model"), "Model name");
    assert_eq!(flag_help("--nosuch"), "");
}

#[test]
fn a_summary_is_the_first_sentence_of_the_collapsed_doc() {
    for row in all() {
        let info = row.info();
        let text = info.doc_text();
        let first = text
            .find(". ")
            .map_or(text.clone(), |end| text[..=end].to_string());
        assert_eq!(info.summary(), first, "{}", info.key);
    }
    // Reaching the end without a `. ` keeps the whole text, a closing period included.
    assert!(
        all()
            .iter()
            .any(|row| !row.info().doc_text().contains(". "))
    );
}
