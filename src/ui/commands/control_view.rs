//! The control-path lines `/policy` shows: the declared table grouped by what the files do.

use crate::guard::control_files::ControlKind;
use crate::guard::control_files::table::{Base, ENTRIES};
use crate::text::Lang;

/// A heading, then one line per kind naming its paths as the table declares them.
pub(super) fn control_lines(lang: Lang) -> Vec<String> {
    let pick = |(en, zh): (&'static str, &'static str)| match lang {
        Lang::En => en,
        Lang::Zh => zh,
    };
    let mut lines = vec![format!(
        "  {}",
        pick((
            "control files (a write needs you in every mode but full; read-only to sandboxed commands):",
            "控制文件（除 full 外的所有模式下写入都需要你批准；沙箱中的命令只读）：",
        ))
    )];
    for kind in ControlKind::ALL {
        let names = ENTRIES
            .iter()
            .filter(|e| e.kind == kind)
            .map(|e| match e.base {
                Base::Project => e.path.to_string(),
                Base::Home => format!("~/.paicli/{}", e.path),
                Base::GitDir => format!(".git/{}", e.path),
            });
        lines.push(format!("    {}: {}", pick(kind.heading()), grouped(names)));
    }
    lines
}

/// The names with a shared first folder written once: `.vscode/{tasks.json, launch.json}`, in table order.
fn grouped(names: impl Iterator<Item = String>) -> String {
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for name in names {
        let (folder, rest) = match name.rsplit_once('/').filter(|(_, last)| !last.is_empty()) {
            Some((folder, last)) => (format!("{folder}/"), last.to_string()),
            None => match name.trim_end_matches('/').rsplit_once('/') {
                Some((folder, last)) => (format!("{folder}/"), format!("{last}/")),
                None => (String::new(), name.clone()),
            },
        };
        match groups
            .iter_mut()
            .find(|(f, _)| !f.is_empty() && *f == folder)
        {
            Some((_, members)) => members.push(rest),
            None => groups.push((folder, vec![rest])),
        }
    }
    groups
        .into_iter()
        .map(|(folder, members)| match members.as_slice() {
            [one] => format!("{folder}{one}"),
            _ => format!("{folder}{{{}}}", members.join(", ")),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_gets_one_line_in_both_languages() {
        let en = control_lines(Lang::En);
        assert_eq!(en.len(), 1 + ControlKind::ALL.len());
        assert!(
            en[1].starts_with("    paicli settings: ~/.paicli/{config.toml, mcp.json, "),
            "{}",
            en[1]
        );
        assert!(
            en[2].starts_with(
                "    runs code: .git/{config, config.worktree, hooks/, info/}, .gitmodules"
            ),
            "{}",
            en[2]
        );
        assert!(
            en[2].contains(".vscode/{tasks.json, launch.json, settings.json}"),
            "{}",
            en[2]
        );
        assert!(
            en[3].contains("AGENTS.md") && en[3].contains(".claude/{skills/, commands/, agents/}"),
            "{}",
            en[3]
        );
        let zh = control_lines(Lang::Zh);
        assert!(zh[0].contains("控制文件"), "{}", zh[0]);
        assert!(zh[2].starts_with("    会运行代码: "), "{}", zh[2]);
    }
}
