#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::os::unix::fs::symlink;
use std::time::SystemTime;

use super::*;
use pretty_assertions::assert_eq;
use tempfile::TempDir;

fn lines(n: usize, width: usize) -> String {
    (0..n).map(|i| format!("{i:0width$}\n")).collect::<String>()
}

fn store(dir: &TempDir, threshold: usize) -> SpillStore {
    SpillStore::new(dir.path(), true, threshold)
}

/// Every spill file written so far, sorted.
fn spilled_files(dir: &TempDir) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for session in fs::read_dir(dir.path().join(SPILL_DIR)).unwrap().flatten() {
        if session.file_type().unwrap().is_dir() {
            for f in fs::read_dir(session.path()).unwrap().flatten() {
                files.push(f.path());
            }
        }
    }
    files.sort();
    files
}

#[test]
fn threshold_is_at_least_2000() {
    let dir = TempDir::new().unwrap();
    assert_eq!(store(&dir, 10).threshold_chars(), MIN_THRESHOLD_CHARS);
    assert_eq!(store(&dir, 50_000).threshold_chars(), 50_000);
}

#[test]
fn text_up_to_the_threshold_is_unchanged_and_nothing_is_written() {
    let dir = TempDir::new().unwrap();
    let s = store(&dir, 2000);
    let text = "é".repeat(2000);
    assert_eq!(s.offload("read_file", &text), text);
    assert!(!dir.path().join(".paicli").exists());
}

#[test]
fn disabled_store_keeps_text_whole() {
    let dir = TempDir::new().unwrap();
    let s = SpillStore::new(dir.path(), false, 2000);
    let text = "x".repeat(10_000);
    assert_eq!(s.offload("grep_code", &text), text);
    assert!(!dir.path().join(".paicli").exists());
}

#[test]
fn large_text_is_saved_whole_with_a_preview() {
    let dir = TempDir::new().unwrap();
    let s = store(&dir, 2000);
    let text = lines(1000, 9); // 10 chars per line, 10_000 chars
    let preview = s.offload("grep/code", &text);

    let files = spilled_files(&dir);
    assert_eq!(files.len(), 1);
    assert_eq!(fs::read_to_string(&files[0]).unwrap(), text);
    let file_name = files[0].file_name().unwrap().to_string_lossy().to_string();
    assert_eq!(file_name, "001-grep_code.txt");
    let session = files[0]
        .parent()
        .unwrap()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .to_string();
    let session_re = regex::Regex::new(r"^session-\d{8}-\d{6}-[0-9a-f]{6}$").unwrap();
    assert!(session_re.is_match(&session), "{session}");
    assert_eq!(
        fs::read_to_string(dir.path().join(SPILL_DIR).join(".gitignore")).unwrap(),
        "*\n"
    );

    let rel = format!("{SPILL_DIR}/{session}/{file_name}");
    let head = &text[..1999]; // 199 whole lines, cut at the newline
    let tail = &text[text.len() - 800..];
    let expected = format!(
        "[output too large, offloaded to a file]\ntool: grep/code\nsize: 10000 chars, 1000 lines\n\
         file: {rel}\nread more with: read_file {{\"path\": \"{rel}\", \"offset\": 1, \"limit\": 200}}\n\n\
         --- head (1999 chars) ---\n{head}\n--- 7200 chars omitted ---\n--- tail (800 chars) ---\n{tail}\n\
         --- end of preview ---"
    );
    assert_eq!(preview, expected);
}

#[test]
fn files_are_numbered_within_one_session_folder() {
    let dir = TempDir::new().unwrap();
    let s = store(&dir, 2000);
    let text = "y".repeat(3000);
    s.offload("a", &text);
    s.offload("b", &text);
    let files = spilled_files(&dir);
    let names: Vec<_> = files
        .iter()
        .map(|f| f.file_name().unwrap().to_string_lossy().to_string())
        .collect();
    assert_eq!(names, ["001-a.txt", "002-b.txt"]);
    assert_eq!(files[0].parent(), files[1].parent());
}

#[test]
fn long_tool_names_are_limited_to_60_safe_chars() {
    let name = format!("mcp__{}:x", "n".repeat(100));
    let safe = file_safe_name(&name);
    assert_eq!(safe.chars().count(), 60);
    assert!(
        safe.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c))
    );
    assert_eq!(file_safe_name("a b/c:d"), "a_b_c_d");
}

#[test]
fn multibyte_text_is_counted_in_chars_and_never_split() {
    let dir = TempDir::new().unwrap();
    let s = store(&dir, 2000);
    let text = "日本語".repeat(1000);
    let preview = s.offload("t", &text);
    assert!(preview.contains("size: 3000 chars, 1 lines"));
    assert!(preview.contains("--- head (2000 chars) ---"));
    assert!(preview.contains("--- tail (800 chars) ---"));
}

#[test]
fn write_failure_falls_back_to_truncation() {
    let dir = TempDir::new().unwrap();
    // A file where the .paicli folder should be makes every write fail.
    fs::write(dir.path().join(".paicli"), "not a dir").unwrap();
    let s = store(&dir, 2000);
    let text = "z".repeat(5000);
    let out = s.offload("t", &text);
    assert!(out.starts_with("[output truncated: the full output could not be saved to a file ("));
    assert!(out.contains("size: 5000 chars, 1 lines"));
    assert!(out.contains(&format!(
        "--- head (2000 chars) ---\n{}\n",
        "z".repeat(2000)
    )));
    assert!(out.chars().count() < 3500);
}

#[test]
fn head_variant_keeps_its_head_inline_and_spills_the_rest() {
    let dir = TempDir::new().unwrap();
    let s = store(&dir, 32_000);
    let short = "s".repeat(8000);
    assert_eq!(s.offload_with_head("execute_command", &short, 8000), short);

    let text = "q".repeat(9000);
    let out = s.offload_with_head("execute_command", &text, 8000);
    assert!(out.starts_with("[output too large, offloaded to a file]"));
    assert!(out.contains("--- head (8000 chars) ---"));
    assert!(out.contains("--- tail (800 chars) ---"));
    assert_eq!(fs::read_to_string(&spilled_files(&dir)[0]).unwrap(), text);
}

#[test]
fn head_variant_truncates_with_a_note_when_disabled() {
    let dir = TempDir::new().unwrap();
    let s = SpillStore::new(dir.path(), false, 32_000);
    let text = "q".repeat(9000);
    let out = s.offload_with_head("execute_command", &text, 8000);
    assert!(out.starts_with("[output truncated: saving large outputs to files is disabled]"));
    assert!(out.contains("--- head (8000 chars) ---"));
    assert!(!dir.path().join(".paicli").exists());
}

#[test]
fn recognises_paths_inside_the_spill_dir() {
    let dir = TempDir::new().unwrap();
    let s = store(&dir, 2000);
    assert!(s.is_inside_spill_dir(Path::new(".paicli/tool-outputs/session-x/001-a.txt")));
    assert!(s.is_inside_spill_dir(&dir.path().join(".paicli/tool-outputs/s/f.txt")));
    assert!(s.is_inside_spill_dir(Path::new("src/../.paicli/./tool-outputs/f")));
    assert!(!s.is_inside_spill_dir(Path::new(".paicli/tool-outputs/../config.toml")));
    assert!(!s.is_inside_spill_dir(Path::new("src/main.rs")));
    assert!(!s.is_inside_spill_dir(Path::new("/etc/passwd")));
}

#[test]
fn remove_stale_deletes_only_old_session_folders() {
    let dir = TempDir::new().unwrap();
    let guard = PathGuard::new(dir.path()).unwrap();
    assert_eq!(remove_stale(&guard, STALE_AFTER).unwrap(), 0);

    let base = dir.path().join(SPILL_DIR);
    let old = base.join("session-20200101-000000-abcdef");
    let fresh = base.join("session-20990101-000000-abcdef");
    let other = base.join("keep-me");
    for d in [&old, &fresh, &other] {
        fs::create_dir_all(d).unwrap();
        fs::write(d.join("001-x.txt"), "x").unwrap();
    }
    let long_ago = SystemTime::now() - Duration::from_secs(8 * 24 * 60 * 60);
    for d in [&old, &other] {
        fs::File::open(d).unwrap().set_modified(long_ago).unwrap();
    }

    // A link inside an old folder is removed as a link; what it points at stays.
    let outside = TempDir::new().unwrap();
    fs::write(outside.path().join("keep.txt"), "keep").unwrap();
    symlink(outside.path(), old.join("link")).unwrap();
    fs::File::open(&old)
        .unwrap()
        .set_modified(long_ago)
        .unwrap();

    assert_eq!(remove_stale(&guard, STALE_AFTER).unwrap(), 1);
    assert!(outside.path().join("keep.txt").exists());
    assert!(!old.exists());
    assert!(fresh.exists());
    assert!(other.exists());
}

#[test]
fn previews_an_existing_spill_file_without_copying_it() {
    let dir = TempDir::new().unwrap();
    let s = store(&dir, 2000);
    let path = ".paicli/tool-outputs/session-x/001-a.txt";
    assert_eq!(s.preview_existing("read_file", "small", path), "small");
    let out = s.preview_existing("read_file", &"p".repeat(3000), path);
    assert!(out.contains(&format!("file: {path}\n")));
    assert!(!dir.path().join(".paicli").exists());
}

/// A project whose `.paicli` (or `.paicli/tool-outputs`) links to `outside`, which holds an old session folder.
fn linked_spill_folder(link_paicli: bool) -> (TempDir, TempDir, PathBuf) {
    let dir = TempDir::new().unwrap();
    let outside = TempDir::new().unwrap();
    let old = outside.path().join("tool-outputs/session-old");
    fs::create_dir_all(&old).unwrap();
    fs::write(old.join("001-x.txt"), "x").unwrap();
    let long_ago = SystemTime::now() - Duration::from_secs(10 * 24 * 60 * 60);
    fs::File::open(&old)
        .unwrap()
        .set_modified(long_ago)
        .unwrap();
    if link_paicli {
        symlink(outside.path(), dir.path().join(".paicli")).unwrap();
    } else {
        fs::create_dir(dir.path().join(".paicli")).unwrap();
        symlink(
            outside.path().join("tool-outputs"),
            dir.path().join(SPILL_DIR),
        )
        .unwrap();
    }
    (dir, outside, old)
}

#[test]
fn a_linked_spill_folder_is_neither_written_nor_pruned_and_the_output_is_cut_inline() {
    for link_paicli in [true, false] {
        let (dir, outside, old) = linked_spill_folder(link_paicli);
        let guard = PathGuard::new(dir.path()).unwrap();
        let err = remove_stale(&guard, STALE_AFTER).unwrap_err();
        assert!(matches!(err, SpillFolderError::Linked(_)), "{err}");
        assert!(old.exists());

        let s = store(&dir, 2000);
        let out = s.offload("read_file", &"z".repeat(100_000));
        assert!(
            out.starts_with("[output truncated: the full output could not be saved to a file ("),
            "{out}"
        );
        assert!(
            out.contains("is a symbolic link, which paicli does not follow"),
            "{out}"
        );
        assert!(out.chars().count() < 4000);
        let mut written: Vec<_> = fs::read_dir(outside.path().join("tool-outputs"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        written.sort();
        assert_eq!(written, ["session-old"], "link_paicli={link_paicli}");
    }
}
