//! `write_file`: create or overwrite a file atomically, keeping its permissions.

use std::io::Read;
use std::path::{Path, PathBuf};

use async_trait::async_trait;
use serde_json::{Map, Value};

use super::text::{decode_lossy, human_size};
use super::{
    FILE_TOO_LARGE, Param, change_output, display, editor_text, object_schema, resolve_arg,
    run_blocking, write_text,
};
use crate::tools::{
    Args, ProposedEdit, Tool, ToolContext, ToolOutcome, ToolTraits, call_view, path_arg_target,
};

const PARAMS: &[Param] = &[("path", "string", ""), ("content", "string", "")];

/// Creates or overwrites a whole file.
pub struct WriteFile;

#[async_trait]
impl Tool for WriteFile {
    fn name(&self) -> &str {
        "write_file"
    }

    fn description(&self) -> &str {
        "Create a file or replace its whole content (parent directories are created)."
    }

    fn parameters(&self) -> Value {
        object_schema(PARAMS, &["path", "content"])
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
            old_text: None,
            new_text: call_view::str_arg(args, "content")?,
        })
    }

    async fn execute(&self, args: &Map<String, Value>, ctx: &ToolContext) -> ToolOutcome {
        run_blocking(args, ctx, write_file).await
    }
}

fn write_file(args: Args<'_>, ctx: &ToolContext) -> Result<ToolOutcome, ToolOutcome> {
    let path = resolve_arg(args, "path", ctx)?;
    let content = args.required_str("content")?;
    let rel = display(ctx, &path);
    let cap = ctx.limits.max_write_bytes;
    if content.len() > cap {
        return Err(ToolOutcome::denied(
            FILE_TOO_LARGE,
            format!(
                "content is {} but files written by tools are capped at {}; split it into smaller files",
                human_size(content.len() as u64),
                human_size(cap as u64)
            ),
        ));
    }
    let old = read_existing(ctx, &path, &rel)?;
    write_text(ctx, &path, content)
        .map_err(|err| ToolOutcome::failed(format!("cannot write {rel}: {err}")))?;
    let verb = if old.is_some() {
        "Overwrote"
    } else {
        "Created"
    };
    let lines = count_lines(content);
    let summary = format!(
        "{verb} {rel} ({} bytes, {lines} {})",
        content.len(),
        if lines == 1 { "line" } else { "lines" }
    );
    let old_text = old.as_deref().map(decode_lossy).map(|(t, _)| t);
    Ok(ToolOutcome::Ok(change_output(
        &rel,
        old_text.as_deref().unwrap_or(""),
        content,
        summary,
    )))
}

/// The current content of the file about to be replaced, `None` when there is none yet.
fn read_existing(
    ctx: &ToolContext,
    path: &Path,
    rel: &str,
) -> Result<Option<Vec<u8>>, ToolOutcome> {
    let cannot_read =
        |err: std::io::Error| ToolOutcome::failed(format!("cannot read the existing {rel}: {err}"));
    let mut file = match ctx.guard.open_read(path) {
        Ok(file) => file,
        // A missing parent (or one that is a file) means there is nothing to replace; the write says why.
        Err(err)
            if matches!(
                err.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
            ) =>
        {
            return Ok(None);
        }
        Err(err) => return Err(cannot_read(err)),
    };
    let meta = file.metadata().map_err(cannot_read)?;
    if meta.is_dir() {
        return Err(ToolOutcome::failed(format!(
            "{rel} is a directory; give a file path"
        )));
    }
    if !meta.is_file() {
        return Err(ToolOutcome::failed(format!(
            "{rel} is not a regular file; write_file only writes files"
        )));
    }
    if let Some(buffer) = editor_text(ctx, path) {
        return buffer.map(|text| Some(text.into_bytes()));
    }
    let mut old = Vec::new();
    file.read_to_end(&mut old).map_err(cannot_read)?;
    Ok(Some(old))
}

/// Lines as an editor counts them: a final line without a newline still counts.
pub(crate) fn count_lines(text: &str) -> usize {
    let newlines = text.matches('\n').count();
    if text.is_empty() || text.ends_with('\n') {
        newlines
    } else {
        newlines + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_lines_like_an_editor() {
        assert_eq!(count_lines(""), 0);
        assert_eq!(count_lines("a"), 1);
        assert_eq!(count_lines("a\n"), 1);
        assert_eq!(count_lines("a\nb"), 2);
    }
}
