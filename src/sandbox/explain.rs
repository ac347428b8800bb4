//! Tells the model, in words it acts on, that the sandbox (not the file system) stopped a failed command.

/// What programs print when the kernel refuses a write (or, with the network off, a connection): Landlock
/// answers EACCES. EPERM ("Operation not permitted") is left out: it mostly means something else (kill, chown).
const MARKERS: [&str; 3] = ["Permission denied", "Read-only file system", "EACCES"];

/// The note to append to a failed sandboxed command's output, when the output shows a permission error.
pub fn explain_denial(output: &str, network_off: bool) -> Option<String> {
    let line = output
        .lines()
        .find(|line| MARKERS.iter().any(|m| line.contains(m)))?;
    let target = match path_in(line) {
        Some(path) => format!("a write to {path}"),
        None => "a write outside the writable folders".to_string(),
    };
    let mut note = format!(
        "[sandbox] The command runs in paicli's sandbox, which blocked {target}: commands may write only inside \
         the project, the temp dir and the usual tool caches. Do not retry it unchanged; use a path inside the \
         project, or ask the user (they can run it once outside the sandbox, or add the folder to \
         [sandbox] writable_roots)."
    );
    if network_off {
        note.push_str(
            " The sandbox also refuses network connections in this session ([sandbox] network = false).",
        );
    }
    Some(note)
}

/// The first absolute path on `line`, without the quotes or trailing colon around it.
fn path_in(line: &str) -> Option<&str> {
    let start = line.find('/')?;
    let rest = &line[start..];
    let end = rest
        .find(|c: char| matches!(c, '\'' | '"' | ':' | '`' | ',' | ')') || c.is_whitespace())
        .unwrap_or(rest.len());
    let path = &rest[..end];
    (path.len() > 1).then_some(path)
}
