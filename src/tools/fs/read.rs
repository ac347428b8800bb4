//! `read_file`: numbered lines of a text file, a window at a time; binary files are described, not dumped.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};

use async_trait::async_trait;
use serde_json::{Map, Value};

use super::text::{SNIFF_BYTES, classify, decode_lossy, human_size};
use super::{Param, display, editor_text, object_schema, resolve_read_arg, run_blocking};
use crate::llm::image_part::{image_attachment, image_format};
use crate::tools::{
    Args, SpillRule, SpillStore, Tool, ToolContext, ToolOutcome, ToolOutput, ToolTraits,
};

/// Lines returned when only `offset` is given.
const DEFAULT_LIMIT: usize = 200;
/// The most lines one call returns, also when no range is given.
const MAX_LIMIT: usize = 2000;
/// Longer lines are cut (minified files would otherwise flood the context).
const MAX_LINE_CHARS: usize = 2000;

const PARAMS: &[Param] = &[
    ("path", "string", ""),
    ("offset", "integer", "First line, 1-based."),
    ("limit", "integer", "Lines to read (default 200, max 2000)."),
];

/// Reads a text file with `%5d | ` line numbers.
pub struct ReadFile;

#[async_trait]
impl Tool for ReadFile {
    fn name(&self) -> &str {
        "read_file"
    }

    fn description(&self) -> &str {
        "Read a text file as numbered lines `    N | text`, up to 2000; a hint names the next offset. Binary \
         files are described; PNG, JPEG, GIF and WebP images are attached."
    }

    fn parameters(&self) -> Value {
        object_schema(PARAMS, &["path"])
    }

    fn traits(&self) -> ToolTraits {
        ToolTraits::READ_ONLY
    }

    fn summary(&self, args: &Map<String, Value>) -> Option<String> {
        crate::tools::call_view::str_arg(args, "path")
    }

    fn locations(&self, args: &Map<String, Value>) -> Vec<String> {
        crate::tools::call_view::path_location(args)
    }

    fn spill_rule(&self, args: &Map<String, Value>, spill: &SpillStore) -> SpillRule {
        // Range reads are never spilled: they already are the way to read a spill file.
        if args.contains_key("offset") || args.contains_key("limit") {
            return SpillRule::Keep;
        }
        match args.get("path").and_then(Value::as_str) {
            Some(path) if spill.is_inside_spill_dir(std::path::Path::new(path)) => {
                SpillRule::PointAt(path.to_string())
            }
            _ => SpillRule::Spill,
        }
    }

    async fn execute(&self, args: &Map<String, Value>, ctx: &ToolContext) -> ToolOutcome {
        run_blocking(args, ctx, read_file).await
    }
}

/// The line window asked for: 1-based `offset` and at most `limit` lines.
#[derive(Debug, PartialEq, Eq)]
struct Window {
    offset: usize,
    limit: usize,
}

fn read_file(args: Args<'_>, ctx: &ToolContext) -> Result<ToolOutcome, ToolOutcome> {
    let path = resolve_read_arg(args, "path", ctx)?;
    let rel = display(ctx, &path);
    let window = parse_window(args)?;
    let mut file = ctx
        .guard
        .open_read(&path)
        .map_err(|err| open_error(&rel, &err))?;
    let meta = file.metadata().map_err(|err| open_error(&rel, &err))?;
    if meta.is_dir() {
        return Err(ToolOutcome::failed(format!(
            "{rel} is a directory; use list_dir to see its entries"
        )));
    }
    if !meta.is_file() {
        // A FIFO or device would block or stream forever.
        return Err(ToolOutcome::failed(format!(
            "{rel} is not a regular file; read_file only reads files"
        )));
    }
    let head = read_head(&mut file).map_err(|err| open_error(&rel, &err))?;
    if image_format(&head).is_some()
        && meta.len() <= MAX_IMAGE_FILE_BYTES
        && let Some(outcome) = read_image(&rel, &mut file)
    {
        return Ok(outcome);
    }
    if let Some(kind) = classify(&path, &head) {
        return Ok(ToolOutcome::ok(describe_binary(&rel, kind, meta.len())));
    }
    if let Some(buffer) = editor_text(ctx, &path) {
        let buffer = buffer?;
        return render_window(&rel, buffer.as_bytes(), &window).map(ToolOutcome::ok);
    }
    file.seek(SeekFrom::Start(0))
        .map_err(|err| open_error(&rel, &err))?;
    let text = render_window(&rel, BufReader::new(file), &window)?;
    Ok(ToolOutcome::ok(text))
}

/// Offset/limit from the arguments; no range at all means "the whole file, up to the cap".
fn parse_window(args: Args<'_>) -> Result<Window, ToolOutcome> {
    let offset = args.int("offset");
    let limit = args.int("limit");
    if offset.is_some_and(|o| o < 1) {
        return Err(ToolOutcome::failed(
            "offset must be 1 or more (line numbers start at 1)",
        ));
    }
    if limit.is_some_and(|l| l < 1) {
        return Err(ToolOutcome::failed("limit must be 1 or more"));
    }
    let to_usize = |n: i64| usize::try_from(n).unwrap_or(usize::MAX);
    let default_limit = if offset.is_none() && limit.is_none() {
        MAX_LIMIT
    } else {
        DEFAULT_LIMIT
    };
    Ok(Window {
        offset: offset.map_or(1, to_usize),
        limit: limit.map_or(default_limit, to_usize).min(MAX_LIMIT),
    })
}

/// Streams the file once: keeps the lines in the window, counts the rest.
fn render_window(
    rel: &str,
    mut reader: impl BufRead,
    window: &Window,
) -> Result<String, ToolOutcome> {
    let end = window.offset.saturating_add(window.limit);
    let mut body = String::new();
    let mut lossy = false;
    let mut total = 0usize;
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let read = reader
            .read_until(b'\n', &mut buf)
            .map_err(|err| ToolOutcome::failed(format!("cannot read {rel}: {err}")))?;
        if read == 0 {
            break;
        }
        total += 1;
        if total >= window.offset && total < end {
            let (line, replaced) = decode_lossy(trim_newline(&buf));
            lossy |= replaced;
            body.push_str(&format!("{total:>5} | {}\n", cut_line(&line)));
        }
    }
    if total == 0 {
        return Ok(format!("File: {rel} (empty file)"));
    }
    if window.offset > total {
        return Err(ToolOutcome::failed(format!(
            "offset {} is past the end of {rel} ({total} lines)",
            window.offset
        )));
    }
    let last = total.min(end - 1);
    let mut out = format!("File: {rel} (lines {}-{last} of {total})\n", window.offset);
    if lossy {
        out.push_str("note: the file is not valid UTF-8; invalid bytes are shown as \u{FFFD}\n");
    }
    out.push_str(&body);
    if last < total {
        out.push_str(&format!(
            "... {} more lines; continue with read_file offset={} ",
            total - last,
            last + 1
        ));
        out.push_str("(or grep_code to find a spot)\n");
    }
    Ok(out)
}

fn trim_newline(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// Cuts a line at [`MAX_LINE_CHARS`] with a marker saying how long it was.
fn cut_line(line: &str) -> String {
    match line.char_indices().nth(MAX_LINE_CHARS) {
        None => line.to_string(),
        Some((at, _)) => format!(
            "{}… [line cut, {} chars in total]",
            &line[..at],
            line.chars().count()
        ),
    }
}

fn read_head(file: &mut File) -> std::io::Result<Vec<u8>> {
    let mut head = Vec::with_capacity(SNIFF_BYTES);
    file.take(SNIFF_BYTES as u64).read_to_end(&mut head)?;
    Ok(head)
}

/// Largest image file read_file decodes; larger ones are described like other binaries.
const MAX_IMAGE_FILE_BYTES: u64 = 32 * 1024 * 1024;

/// An image file as an image part after the result (the agent turns it into a note for a text-only model);
/// `None` when it does not decode, so it is described like any binary file.
fn read_image(rel: &str, file: &mut File) -> Option<ToolOutcome> {
    file.seek(SeekFrom::Start(0)).ok()?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).ok()?;
    let image = image_attachment(&bytes).ok()?;
    let scaled = if image.resized { ", scaled down" } else { "" };
    Some(ToolOutcome::Ok(ToolOutput {
        images: vec![image.part],
        ..ToolOutput::text(format!(
            "File: {rel}\nImage ({}x{} px{scaled}); it follows this result as an image.",
            image.width, image.height
        ))
    }))
}

fn describe_binary(rel: &str, kind: &str, size: u64) -> String {
    format!(
        "File: {rel}\nBinary file ({kind}, {}); its content is not shown.",
        human_size(size)
    )
}

/// A read failure worded so the model knows its next step.
fn open_error(rel: &str, err: &std::io::Error) -> ToolOutcome {
    if err.kind() == std::io::ErrorKind::NotFound {
        ToolOutcome::failed(format!(
            "file not found: {rel}; use glob_files or list_dir to find the right path"
        ))
    } else {
        ToolOutcome::failed(format!("cannot read {rel}: {err}"))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;
    use serde_json::json;

    fn window(args: Value) -> Result<Window, ToolOutcome> {
        let map = args.as_object().cloned().unwrap();
        parse_window(Args(&map))
    }

    fn render(text: &str, offset: usize, limit: usize) -> String {
        render_window("a.txt", text.as_bytes(), &Window { offset, limit }).unwrap()
    }

    #[test]
    fn no_range_means_whole_file_up_to_the_cap() {
        assert_eq!(
            window(json!({})).unwrap(),
            Window {
                offset: 1,
                limit: 2000
            }
        );
        assert_eq!(
            window(json!({"offset": 5})).unwrap(),
            Window {
                offset: 5,
                limit: 200
            }
        );
        assert_eq!(window(json!({"limit": 9000})).unwrap().limit, 2000);
        assert!(window(json!({"offset": 0})).is_err());
        assert!(window(json!({"limit": -1})).is_err());
    }

    #[test]
    fn lines_are_numbered_with_header() {
        assert_eq!(
            render("a\r\nb\n", 1, 2000),
            "File: a.txt (lines 1-2 of 2)\n    1 | a\n    2 | b\n"
        );
    }

    #[test]
    fn window_in_the_middle_names_the_next_offset() {
        let text: String = (1..=10).map(|i| format!("line {i}\n")).collect();
        let out = render(&text, 3, 2);
        assert!(out.starts_with("File: a.txt (lines 3-4 of 10)\n    3 | line 3\n    4 | line 4\n"));
        assert!(out.contains("6 more lines; continue with read_file offset=5"));
    }

    #[test]
    fn offset_past_end_fails() {
        let err = render_window(
            "a.txt",
            "x\n".as_bytes(),
            &Window {
                offset: 5,
                limit: 1,
            },
        );
        assert_eq!(
            err.unwrap_err().model_text(),
            "[error] offset 5 is past the end of a.txt (1 lines)"
        );
    }

    #[test]
    fn long_lines_are_cut_with_marker() {
        let out = cut_line(&"x".repeat(2500));
        assert!(out.ends_with("… [line cut, 2500 chars in total]"));
        assert_eq!(out.chars().filter(|c| *c == 'x').count(), 2000);
    }
}
