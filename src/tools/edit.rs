//! `edit_file`: replace a snippet of an existing file, found by the three-stage matcher.

pub mod matcher;

use std::io::Read;
use std::path::{Path, PathBuf};

use async_trait::async_trait;
use serde_json::{Map, Value};

use super::fs::text::{has_nul, human_size};
use super::fs::{
    FILE_TOO_LARGE, Param, change_output, display, editor_text, object_schema, resolve_arg,
    run_blocking, write_text,
};
use super::{
    Args, ProposedEdit, Tool, ToolContext, ToolOutcome, ToolTraits, call_view, path_arg_target,
};
use matcher::{MatchError, Stage, apply_edit};

/// Lines scanned for a "closest line" hint; bigger files skip the hint rather than stall.
const CLOSEST_SCAN_LINES: usize = 20_000;

const PARAMS: &[Param] = &[
    ("path", "string", ""),
    (
        "old_text",
        "string",
        "Exact text, without read_file's line-number prefixes.",
    ),
    ("new_text", "string", ""),
    ("replace_all", "boolean", ""),
];

/// Replaces text in an existing file.
pub struct EditFile;

#[async_trait]
impl Tool for EditFile {
    fn name(&self) -> &str {
        "edit_file"
    }

    fn description(&self) -> &str {
        "Replace old_text with new_text in an existing file. old_text must match exactly once (include \
         surrounding lines to make it unique) unless replace_all is true."
    }

    fn parameters(&self) -> Value {
        object_schema(PARAMS, &["path", "old_text", "new_text"])
    }

    fn traits(&self) -> ToolTraits {
        ToolTraits::FILE_EDIT
    }

    fn write_targets(&self, args: &Map<String, Value>, ctx: &ToolContext) -> Vec<PathBuf> {
        path_arg_target(args, ctx)
    }

    fn summary(&self, args: &Map<String, Value>) -> Option<String> {
        call_view::str_arg(args, "path")
    }

    fn locations(&self, args: &Map<String, Value>) -> Vec<String> {
        call_view::path_location(args)
    }

    fn proposed_edit(&self, args: &Map<String, Value>) -> Option<ProposedEdit> {
        Some(ProposedEdit {
            path: call_view::str_arg(args, "path")?,
            old_text: Some(call_view::str_arg(args, "old_text")?),
            new_text: call_view::str_arg(args, "new_text")?,
        })
    }

    async fn execute(&self, args: &Map<String, Value>, ctx: &ToolContext) -> ToolOutcome {
        run_blocking(args, ctx, edit_file).await
    }
}

fn edit_file(args: Args<'_>, ctx: &ToolContext) -> Result<ToolOutcome, ToolOutcome> {
    let path = resolve_arg(args, "path", ctx)?;
    let rel = display(ctx, &path);
    let old = args.required_str("old_text")?;
    let new = args.required_str("new_text")?;
    let replace_all = args.bool("replace_all").unwrap_or(false);
    if old.is_empty() {
        return Err(ToolOutcome::failed(
            "old_text must not be empty; use write_file to create or overwrite a whole file",
        ));
    }
    let content = read_editable(ctx, &rel, &path, ctx.limits.max_write_bytes)?;
    let edit = apply_edit(&content, old, new, replace_all)
        .map_err(|err| ToolOutcome::failed(explain(&rel, &content, old, &err)))?;
    if edit.content == content {
        return Err(ToolOutcome::failed(format!(
            "the edit changes nothing in {rel}: new_text is the same as the matched text"
        )));
    }
    check_size(edit.content.len(), ctx.limits.max_write_bytes)?;
    write_text(ctx, &path, &edit.content)
        .map_err(|err| ToolOutcome::failed(format!("cannot write {rel}: {err}")))?;
    let plural = if edit.replacements == 1 { "" } else { "s" };
    let summary = format!(
        "Edited {rel}: {} replacement{plural}{}",
        edit.replacements,
        stage_note(edit.stage)
    );
    Ok(ToolOutcome::Ok(change_output(
        &rel,
        &content,
        &edit.content,
        summary,
    )))
}

/// Reads an existing, regular, UTF-8 text file no bigger than the write cap.
fn read_editable(
    ctx: &ToolContext,
    rel: &str,
    path: &Path,
    cap: usize,
) -> Result<String, ToolOutcome> {
    let cannot_read =
        |err: std::io::Error| ToolOutcome::failed(format!("cannot read {rel}: {err}"));
    let mut file = ctx.guard.open_read(path).map_err(|err| {
        if err.kind() == std::io::ErrorKind::NotFound {
            ToolOutcome::failed(format!(
                "file not found: {rel}; edit_file only changes existing files (use write_file to create one)"
            ))
        } else {
            cannot_read(err)
        }
    })?;
    let meta = file.metadata().map_err(cannot_read)?;
    if !meta.is_file() {
        return Err(ToolOutcome::failed(format!(
            "{rel} is not a regular file; edit_file only edits files"
        )));
    }
    check_size(usize::try_from(meta.len()).unwrap_or(usize::MAX), cap)?;
    if let Some(buffer) = editor_text(ctx, path) {
        let buffer = buffer?;
        check_size(buffer.len(), cap)?;
        return Ok(buffer);
    }
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).map_err(cannot_read)?;
    if has_nul(&bytes) {
        return Err(ToolOutcome::failed(format!(
            "{rel} looks binary; edit_file only edits text files"
        )));
    }
    String::from_utf8(bytes).map_err(|_| {
        ToolOutcome::failed(format!(
            "{rel} is not valid UTF-8; editing it would corrupt bytes, so rewrite it with write_file instead"
        ))
    })
}

fn check_size(len: usize, cap: usize) -> Result<(), ToolOutcome> {
    if len <= cap {
        return Ok(());
    }
    Err(ToolOutcome::denied(
        FILE_TOO_LARGE,
        format!(
            "the file would be {}, over the {} limit for tool edits",
            human_size(len as u64),
            human_size(cap as u64)
        ),
    ))
}

fn stage_note(stage: Stage) -> &'static str {
    match stage {
        Stage::Exact => "",
        Stage::Crlf => " (CRLF line endings kept)",
        Stage::Normalized => " (matched after normalizing whitespace and Unicode punctuation)",
        Stage::PrefixStripped => " (matched after stripping line-number prefixes from old_text)",
    }
}

/// A match failure worded as the next step for the model.
fn explain(rel: &str, content: &str, old: &str, err: &MatchError) -> String {
    match err {
        MatchError::Ambiguous { count, lines } => {
            let lines: Vec<String> = lines.iter().map(ToString::to_string).collect();
            format!(
                "old_text matches {count} places in {rel} (starting at lines {}); include more surrounding \
                 lines to make it unique, or set replace_all to true to change every occurrence",
                lines.join(", ")
            )
        }
        MatchError::NotFound => {
            let mut msg = format!(
                "old_text not found in {rel}; re-read the file with read_file and copy the text exactly"
            );
            if let Some((line, text)) = closest_line(content, old) {
                msg.push_str(&format!("\nclosest line {line}: {text}"));
            }
            msg
        }
    }
}

/// The file line most similar to the first non-empty line of `old`, when one is reasonably close.
fn closest_line(content: &str, old: &str) -> Option<(usize, String)> {
    let wanted = old.lines().map(str::trim).find(|l| !l.is_empty())?;
    let numbered: Vec<(usize, &str)> = content
        .lines()
        .take(CLOSEST_SCAN_LINES)
        .map(str::trim)
        .enumerate()
        .filter(|(_, l)| !l.is_empty())
        .collect();
    let candidates: Vec<&str> = numbered.iter().map(|(_, l)| *l).collect();
    let best = *similar::get_close_matches(wanted, &candidates, 1, 0.6).first()?;
    // Identity, not equality: the same text may sit on several lines; report the one that was picked.
    let (index, _) = numbered.iter().find(|(_, l)| std::ptr::eq(*l, best))?;
    Some((index + 1, best.to_string()))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    #[test]
    fn not_found_names_the_closest_line() {
        let content = "class Hello {\n  print(\"Hello World\");\n}\n";
        let msg = explain(
            "Hello.java",
            content,
            "print(\"Hello Wrld\");",
            &MatchError::NotFound,
        );
        assert_eq!(
            msg,
            "old_text not found in Hello.java; re-read the file with read_file and copy the text exactly\n\
             closest line 2: print(\"Hello World\");"
        );
    }

    #[test]
    fn ambiguous_names_count_and_lines() {
        let err = MatchError::Ambiguous {
            count: 4,
            lines: vec![2, 3, 5],
        };
        let msg = explain("a.txt", "", "x", &err);
        assert!(msg.starts_with("old_text matches 4 places in a.txt (starting at lines 2, 3, 5)"));
        assert!(msg.contains("replace_all"));
    }
}
