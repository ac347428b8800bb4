//! How `grep_code` hits read: blocks per hit group, a partial marker when cut, and suggested reads.
//!
//! ```text
//! 3 matches in 2 files
//!
//! src/lib.rs:12
//!      11 | fn main() {
//! >    12 |     println!("hello");
//!      13 | }
//!
//! src/main.rs:4
//! >     4 | hello();
//! >     5 | hello();
//!
//! partial: true (head_limit=20 per file reached; narrow the pattern, path or glob)
//! suggested_reads:
//! - read_file {"path":"src/lib.rs","offset":1,"limit":80}
//! - read_file {"path":"src/main.rs","offset":1,"limit":80}
//! ```
//!
//! Each block starts with `file:line` of its first hit; `>` marks hit lines, the others are context. Hits whose
//! context touches are merged into one block. `partial: true` appears only when output was cut. Suggested reads
//! name up to three files, each at its first hit line minus 20 (at least 1) with limit 80.

/// Characters kept for the summary, partial marker and suggested reads.
const FOOTER_RESERVE: usize = 600;
/// Longer lines are cut in hit blocks.
const MAX_LINE_CHARS: usize = 300;
/// Files named in `suggested_reads`.
const SUGGESTED_FILES: usize = 3;
/// Lines before the first hit a suggested read starts at.
const SUGGESTED_LEAD: usize = 20;
/// Lines a suggested read covers.
const SUGGESTED_LIMIT: usize = 80;

/// One file's hits.
#[derive(Debug)]
pub struct FileMatches {
    /// Path relative to the project root.
    pub rel: String,
    /// The file's lines (newlines stripped), for context.
    pub lines: Vec<String>,
    /// 0-based indices of hit lines, ascending.
    pub hits: Vec<usize>,
}

/// Renders hits within `max_chars`; `cut` holds reasons the search already stopped early.
pub fn render(
    files: &[FileMatches],
    context: usize,
    max_chars: usize,
    mut cut: Vec<String>,
) -> String {
    let budget = max_chars.saturating_sub(FOOTER_RESERVE);
    let mut body = String::new();
    let mut body_chars = 0;
    let mut shown_hits = 0;
    let mut shown_files: Vec<(&str, usize)> = Vec::new();
    'files: for file in files {
        for group in group_hits(&file.hits, context, file.lines.len()) {
            let block = render_block(file, &group);
            let block_chars = block.chars().count();
            if body_chars + block_chars > budget {
                cut.push("max_chars reached".to_string());
                break 'files;
            }
            body.push_str(&block);
            body_chars += block_chars;
            shown_hits += group.hits.len();
            if shown_files.last().is_none_or(|(rel, _)| *rel != file.rel) {
                shown_files.push((&file.rel, group.hits[0] + 1));
            }
        }
    }
    let mut out = format!(
        "{shown_hits} {} in {} {}\n\n",
        plural(shown_hits, "match", "matches"),
        shown_files.len(),
        plural(shown_files.len(), "file", "files")
    );
    out.push_str(&body);
    if !cut.is_empty() {
        out.push_str(&format!(
            "partial: true ({}; narrow the pattern, path or glob)\n",
            cut.join(", ")
        ));
    }
    out.push_str("suggested_reads:\n");
    for (rel, line) in shown_files.iter().take(SUGGESTED_FILES) {
        let offset = line.saturating_sub(SUGGESTED_LEAD).max(1);
        let path = serde_json::Value::from(*rel);
        out.push_str(&format!(
            "- read_file {{\"path\":{path},\"offset\":{offset},\"limit\":{SUGGESTED_LIMIT}}}\n"
        ));
    }
    out
}

/// Hits shown together: the hit lines and the line span with context.
#[derive(Debug, PartialEq, Eq)]
struct Group {
    hits: Vec<usize>,
    first: usize,
    last: usize,
}

/// Merges hits whose context windows overlap or touch.
fn group_hits(hits: &[usize], context: usize, line_count: usize) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    for &hit in hits {
        let first = hit.saturating_sub(context);
        let last = (hit + context).min(line_count.saturating_sub(1));
        match groups.last_mut() {
            Some(group) if first <= group.last + 1 => {
                group.hits.push(hit);
                group.last = group.last.max(last);
            }
            _ => groups.push(Group {
                hits: vec![hit],
                first,
                last,
            }),
        }
    }
    groups
}

fn render_block(file: &FileMatches, group: &Group) -> String {
    let mut block = format!("{}:{}\n", file.rel, group.hits[0] + 1);
    for index in group.first..=group.last {
        let marker = if group.hits.contains(&index) {
            '>'
        } else {
            ' '
        };
        let text = file.lines.get(index).map_or("", String::as_str);
        block.push_str(&format!("{marker} {:>5} | {}\n", index + 1, cut_line(text)));
    }
    block.push('\n');
    block
}

fn cut_line(line: &str) -> String {
    match line.char_indices().nth(MAX_LINE_CHARS) {
        None => line.to_string(),
        Some((at, _)) => format!("{}… [line cut]", &line[..at]),
    }
}

fn plural(n: usize, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 { one } else { many }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(rel: &str, lines: usize, hits: &[usize]) -> FileMatches {
        FileMatches {
            rel: rel.to_string(),
            lines: (1..=lines).map(|i| format!("line {i}")).collect(),
            hits: hits.to_vec(),
        }
    }

    #[test]
    fn blocks_mark_hits_and_merge_touching_context() {
        let out = render(&[file("src/a.rs", 40, &[29, 31])], 1, 24000, Vec::new());
        assert_eq!(
            out,
            "2 matches in 1 file\n\n\
             src/a.rs:30\n     29 | line 29\n>    30 | line 30\n     31 | line 31\n>    32 | line 32\n     33 | line 33\n\n\
             suggested_reads:\n- read_file {\"path\":\"src/a.rs\",\"offset\":10,\"limit\":80}\n"
        );
    }

    #[test]
    fn suggested_reads_name_at_most_three_files_from_line_one() {
        let files: Vec<FileMatches> = (0..5).map(|i| file(&format!("f{i}.rs"), 3, &[0])).collect();
        let out = render(&files, 0, 24000, Vec::new());
        let reads: Vec<&str> = out
            .lines()
            .filter(|l| l.starts_with("- read_file"))
            .collect();
        assert_eq!(reads.len(), 3);
        assert_eq!(
            reads[0],
            "- read_file {\"path\":\"f0.rs\",\"offset\":1,\"limit\":80}"
        );
        assert!(!out.contains("partial"));
    }

    #[test]
    fn budget_cuts_and_marks_partial() {
        let files: Vec<FileMatches> = (0..100)
            .map(|i| file(&format!("f{i}.rs"), 50, &[10, 30]))
            .collect();
        let out = render(&files, 5, 1000, Vec::new());
        assert!(out.chars().count() <= 1000, "{}", out.chars().count());
        assert!(out.contains("partial: true (max_chars reached"));
    }

    #[test]
    fn earlier_cut_reasons_are_reported() {
        let out = render(
            &[file("a", 1, &[0])],
            0,
            24000,
            vec!["max_results reached".into()],
        );
        assert!(out.contains("partial: true (max_results reached; narrow"));
    }
}
