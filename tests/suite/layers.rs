//! The module map in `docs/architecture.md` holds: every `crate::…` path under `src/` points down the layers.
//!
//! Test code inside `src/` (files named `tests.rs`, folders named `tests/`, and a trailing `#[cfg(test)] mod`)
//! may reach any layer to build its fixtures, so it is not scanned.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Each top-level module below the front-ends and the modules it may use. Keep in step with `docs/architecture.md`.
#[rustfmt::skip]
const ALLOWED: &[(&str, &[&str])] = &[
    ("protocol", &[]),
    ("languages", &[]),
    ("config", &["protocol"]),
    ("llm", &["protocol", "config"]),
    ("guard", &["protocol", "config"]),
    ("mcp", &["protocol", "config", "llm"]),
    ("lsp", &["protocol", "config", "languages"]),
    ("session", &["protocol", "config", "llm"]),
    ("memory", &["protocol", "config", "llm"]),
    ("snapshot", &["protocol", "config", "guard"]),
    ("skills", &["protocol", "config"]),
    // Agent definitions the model delegates to; their Markdown frontmatter is read as skills read theirs.
    ("agents", &["protocol", "config", "skills"]),
    ("sandbox", &["protocol", "config", "guard"]),
    ("index", &["protocol", "config", "llm", "guard", "languages"]),
    ("tools", &["protocol", "config", "llm", "guard", "mcp", "lsp", "session", "memory", "snapshot",
        "skills", "sandbox", "index", "languages"]),
    ("policy", &["protocol", "config", "llm", "guard"]),
    // Hooks: the person's commands on session events; tool events see names from `tools::claude_names`.
    ("hooks", &["protocol", "config", "tools"]),
    ("agent", &["protocol", "config", "llm", "guard", "mcp", "lsp", "session", "memory", "snapshot",
        "skills", "sandbox", "index", "languages", "tools", "policy", "hooks", "agents"]),
    // Plan and team mode: sub-agents forked from the lead agent, between `app` and `agent`.
    ("plan", &["protocol", "config", "llm", "guard", "mcp", "lsp", "session", "memory", "snapshot",
        "skills", "sandbox", "index", "languages", "tools", "policy", "hooks", "agent", "agents"]),
    // The texts people read, in every language, and the wording of the typed values below it: the session
    // host and every front-end word an event the same way.
    ("text", &["protocol", "config", "session", "sandbox"]),
    ("app", &["protocol", "config", "llm", "guard", "mcp", "lsp", "session", "memory", "snapshot",
        "skills", "sandbox", "index", "languages", "tools", "policy", "hooks", "agent", "plan", "text",
        "agents"]),
];

/// The front-ends: each shows events and asks a person. A front-end may use every module of `ALLOWED` and no
/// other front-end; what two of them share moves down (to `app`, or to `text` for wording).
const FRONT_ENDS: &[&str] = &["ui", "serve", "acp", "channels", "headless"];

/// What `module` may use: its row of `ALLOWED`, or every module below the front-ends for a front-end.
fn may_use(module: &str) -> Option<Vec<&'static str>> {
    if FRONT_ENDS.contains(&module) {
        return Some(ALLOWED.iter().map(|(m, _)| *m).collect());
    }
    ALLOWED
        .iter()
        .find(|(m, _)| *m == module)
        .map(|(_, uses)| uses.to_vec())
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "tests") {
                rust_files(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs")
            && path.file_name().is_some_and(|n| n != "tests.rs")
        {
            out.push(path);
        }
    }
}

/// The code of `text` before a trailing `#[cfg(test)]` module.
fn non_test_code(text: &str) -> &str {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if line.trim() == "#[cfg(test)]" {
            let rest = &text[offset + line.len()..];
            if rest.trim_start().starts_with("mod ") {
                return &text[..offset];
            }
        }
        offset += line.len();
    }
    text
}

/// Every top-level module named by a `crate::…` path in `code`, including the members of `use crate::{a, b::c}`.
fn modules_used(code: &str) -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    for (at, _) in code.match_indices("crate::") {
        // `paicli_crate::` or `$crate::` are not ours.
        if code[..at]
            .chars()
            .last()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
        {
            continue;
        }
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 1;
            let mut start = 0;
            let mut end = group.len();
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            end = i;
                            break;
                        }
                    }
                    ',' if depth == 1 => {
                        used.insert(ident(group[start..i].trim()));
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            used.insert(ident(group[start..end].trim()));
        } else {
            used.insert(ident(rest));
        }
    }
    used.remove("");
    used
}

#[test]
fn imports_point_down_the_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut wrong = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&src).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let module = first.trim_end_matches(".rs");
        if matches!(module, "lib" | "main") {
            continue;
        }
        let Some(may_use) = may_use(module) else {
            wrong.push(format!(
                "src/{module}: a top-level module missing from the map"
            ));
            continue;
        };
        let text = std::fs::read_to_string(file).unwrap();
        for used in modules_used(non_test_code(&text)) {
            if used != module && !may_use.contains(&used.as_str()) {
                wrong.push(format!("{}: {module} → {used}", rel.display()));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the documented direction (docs/architecture.md):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_scanner_sees_grouped_and_nested_paths() {
    let code = "use crate::{agent::X, tools::{a, b}};\nlet y = crate::llm::f();\n// $crate::no\n";
    let got: Vec<String> = modules_used(code).into_iter().collect();
    assert_eq!(got, ["agent", "llm", "tools"]);
    let with_tests =
        "use crate::protocol::A;\n#[cfg(test)]\nmod tests {\n    use crate::ui::B;\n}\n";
    assert_eq!(
        modules_used(non_test_code(with_tests))
            .into_iter()
            .collect::<Vec<_>>(),
        ["protocol"]
    );
}

#[test]
fn no_front_end_is_a_layer_below_the_front_ends() {
    for (module, uses) in ALLOWED {
        assert!(
            !FRONT_ENDS.contains(module),
            "{module} is a front-end; list it in FRONT_ENDS only"
        );
        let front: Vec<_> = uses.iter().filter(|u| FRONT_ENDS.contains(u)).collect();
        assert!(
            front.is_empty(),
            "{module} may not use the front-ends {front:?}"
        );
    }
    let acp = may_use("acp").unwrap();
    assert!(acp.contains(&"text") && acp.contains(&"app"));
    assert!(!acp.contains(&"ui") && !acp.contains(&"serve"));
}

#[test]
fn the_architecture_doc_has_a_row_per_module() {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/architecture.md"))
            .unwrap();
    let first_cells: Vec<&str> = doc
        .lines()
        .filter_map(|l| l.strip_prefix("| "))
        .filter_map(|l| l.split(" |").next())
        .collect();
    let modules = ALLOWED
        .iter()
        .map(|(m, _)| *m)
        .chain(FRONT_ENDS.iter().copied());
    for module in modules {
        let cell = format!("`{module}`");
        assert!(
            first_cells.iter().any(|c| c.split(", ").any(|m| m == cell)),
            "docs/architecture.md has no row for {cell}"
        );
    }
}
