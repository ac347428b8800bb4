//! `.paicli.example.toml`, written from the declarations: every file key with its documentation, environment
//! names, flag, what a project's own files may do with it, and its default (or a commented-out example).

use super::{Info, Project, Row, TABLES, all};

const HEADER: &str = "\
# paicli configuration. Copy the parts you need to ~/.paicli/config.toml (user) or <project>/.paicli/config.toml
# (project; wins over the user file). Every key is optional; the values shown are the defaults.
# Precedence: defaults < user file < project file < .env files < environment variables < command-line flags.
# Unknown keys are errors, so a typo is reported with its file, line and key instead of being ignored.
# A project's own files (.paicli/config.toml, .env) may only tighten: keys marked \"user files only\" are ignored
# there with a notice, and \"trusted projects only\" ones count once you run `paicli --trust-project` (or /trust).
#
# This file is generated from the settings' declarations (src/config/): edit those, then run
# `PAICLI_WRITE_EXAMPLE=1 cargo test --lib example_file`.
";

const FOOTER: &str = "\
# Long-term memory (save_memory, recalled before each user message) lives in $PAICLI_HOME/memory/:
# global.json and projects/<hash of the project path>.json.
";

/// Comment lines are wrapped at this width.
const WIDTH: usize = 116;

/// The whole example file.
pub fn example_file() -> String {
    let mut out = String::from(HEADER);
    for table in TABLES {
        let rows: Vec<&dyn Row> = all()
            .iter()
            .copied()
            .filter(|r| r.info().in_file && r.info().table() == table.name)
            .collect();
        out.push_str(&format!("\n[{}]\n", table.name));
        for line in table.notes.lines() {
            out.push_str(&format!("# {line}\n"));
        }
        if !table.notes.is_empty() {
            out.push('\n');
        }
        for row in rows {
            setting(&mut out, row);
        }
    }
    out.push_str("\n# Read from the environment (or a .env file) only:\n");
    for row in all().iter().filter(|r| !r.info().in_file) {
        let info = row.info();
        let mut text = info.doc_text();
        push_sentence(&mut text, env_rule(info.project));
        let names = info.env.join(" or ");
        wrapped(&mut out, &format!("  {names}: {text}"), "      ");
    }
    out.push('\n');
    out.push_str(FOOTER);
    out
}

/// One setting: its documentation, where else it may be set, and its value line.
fn setting(out: &mut String, row: &dyn Row) {
    let info = row.info();
    for line in info.doc.lines() {
        let line = line.strip_prefix(' ').unwrap_or(line).trim_end();
        out.push_str(&format!("# {line}\n").replace("# \n", "#\n"));
    }
    let also = sources(info);
    if !also.is_empty() {
        wrapped(out, &also, "");
    }
    let name = info.key.rsplit('.').next().unwrap_or(info.key);
    match (info.example, row.default_toml()) {
        (Some(example), _) if info.key.contains("<name>") => {
            for line in example.lines() {
                out.push_str(&format!("# {line}\n"));
            }
        }
        (Some(example), _) => out.push_str(&format!("# {name} = {example}\n")),
        (None, Some(default)) => out.push_str(&format!("{name} = {default}\n")),
        (None, None) => out.push_str(&format!("# {name} =\n")),
    }
}

/// `Env: …. Flag: …. User files only.` for a setting.
fn sources(info: &Info) -> String {
    let mut text = String::new();
    if !info.env.is_empty() {
        push_sentence(&mut text, &format!("Env: {}.", info.env.join(", ")));
    }
    if let Some(flag) = info.flag {
        push_sentence(&mut text, &format!("Flag: {flag}."));
    }
    if !info.aliases.is_empty() {
        let old: Vec<&str> = info
            .aliases
            .iter()
            .map(|a| a.rsplit('.').next().unwrap_or(a))
            .collect();
        push_sentence(&mut text, &format!("Also read as {}.", old.join(", ")));
    }
    push_sentence(&mut text, rule(info.project));
    text
}

/// What the example says about a project's own files setting it.
fn rule(project: Project) -> &'static str {
    match project {
        Project::May => "",
        Project::Never => "User files only.",
        Project::Trusted => "Trusted projects only.",
        Project::WithOwnKeyOrTrusted => {
            "From a project file only together with a key from the same file (and only that key is sent to it), \
             or in a trusted project."
        }
        Project::TightenOnly(_) => "A project's own files may only tighten it.",
    }
}

/// What the example says about a project's `.env` setting a variable.
fn env_rule(project: Project) -> &'static str {
    match project {
        Project::May => "",
        Project::Never => "Not from a project's .env.",
        Project::Trusted => "From a project's .env only when trusted.",
        Project::WithOwnKeyOrTrusted => {
            "From a project's .env only with a key from it, or when trusted."
        }
        Project::TightenOnly(_) => "A project's .env may only tighten it.",
    }
}

fn push_sentence(text: &mut String, sentence: &str) {
    if sentence.is_empty() {
        return;
    }
    if !text.is_empty() {
        text.push(' ');
    }
    text.push_str(sentence);
}

/// `text` as comment lines of at most [`WIDTH`] columns; continuation lines start with `indent`.
fn wrapped(out: &mut String, text: &str, indent: &str) {
    let mut line = String::from("#");
    for word in text.split(' ') {
        if line.len() + 1 + word.len() > WIDTH && line.trim_start_matches('#').trim() != "" {
            out.push_str(&line);
            out.push('\n');
            line = format!("#{indent}");
        }
        line.push(' ');
        line.push_str(word);
    }
    out.push_str(&line);
    out.push('\n');
}
