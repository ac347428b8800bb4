#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use super::*;

/// A project dir (the guard's root) and an outside dir beside it.
fn setup() -> (tempfile::TempDir, PathGuard, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    fs::create_dir_all(tmp.path().join("project")).unwrap();
    fs::create_dir_all(tmp.path().join("outside")).unwrap();
    let guard = PathGuard::new(&tmp.path().join("project")).unwrap();
    let outside = tmp.path().join("outside").canonicalize().unwrap();
    (tmp, guard, outside)
}

fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn writes_new_file_with_parents_and_leaves_no_temp() {
    let (_tmp, guard, _) = setup();
    let path = guard.resolve("a/b/c.txt").unwrap();
    write_atomic(&guard, &path, b"hello").unwrap();
    assert_eq!(fs::read_to_string(&path).unwrap(), "hello");
    assert_eq!(entries(&guard.root().join("a/b")), vec!["c.txt"]);
}

#[test]
fn overwrite_keeps_permissions() {
    let (_tmp, guard, _) = setup();
    let path = guard.root().join("run.sh");
    fs::write(&path, "old").unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o751)).unwrap();
    write_atomic(&guard, &path, b"new").unwrap();
    let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o751);
    assert_eq!(fs::read_to_string(&path).unwrap(), "new");
    assert_eq!(entries(guard.root()), vec!["run.sh"]);
}

#[test]
fn a_directory_swapped_for_a_symlink_after_the_check_is_not_followed() {
    let (_tmp, guard, outside) = setup();
    fs::create_dir(guard.root().join("d")).unwrap();
    let path = guard.resolve("d/new.txt").unwrap();
    fs::rename(guard.root().join("d"), guard.root().join("d.old")).unwrap();
    symlink(&outside, guard.root().join("d")).unwrap();
    let err = write_atomic(&guard, &path, b"x").unwrap_err();
    assert!(
        err.to_string()
            .contains("changed while it was being opened"),
        "{err}"
    );
    assert!(entries(&outside).is_empty());
}

#[test]
fn a_file_swapped_for_a_symlink_after_the_check_is_not_written_through() {
    let (_tmp, guard, outside) = setup();
    fs::write(outside.join("target.txt"), "outside").unwrap();
    fs::write(guard.root().join("f.txt"), "inside").unwrap();
    let path = guard.resolve("f.txt").unwrap();
    fs::remove_file(&path).unwrap();
    symlink(outside.join("target.txt"), &path).unwrap();
    assert!(write_atomic(&guard, &path, b"x").is_err());
    assert_eq!(
        fs::read_to_string(outside.join("target.txt")).unwrap(),
        "outside"
    );
    assert_eq!(entries(guard.root()), vec!["f.txt"]);
}

#[test]
fn temp_names_have_one_recognisable_shape() {
    let name = temp_name(OsStr::new("main.rs"), 0xdead_beef);
    assert_eq!(name, ".main.rs.paicli-deadbeef.tmp");
    assert!(is_temp_name(&name));
    for other in [
        "main.rs",
        ".main.rs.paicli-deadbee.tmp",
        ".main.rs.paicli-deadbeefx.tmp",
        "main.rs.paicli-deadbeef.tmp",
        ".paicli-deadbeef.tmp",
        ".main.rs.paicli-deadbeef.tmp.bak",
    ] {
        assert!(!is_temp_name(OsStr::new(other)), "{other}");
    }
}

/// Makes a file look `age` old.
fn age(path: &Path, age: Duration) {
    let file = fs::File::options().write(true).open(path).unwrap();
    file.set_modified(SystemTime::now() - age).unwrap();
}

#[test]
fn sweep_removes_only_stale_temp_files_and_follows_no_symlink() {
    let (_tmp, guard, outside) = setup();
    let root = guard.root().to_path_buf();
    fs::create_dir_all(root.join("src/deep")).unwrap();
    let stale = [
        root.join(".a.txt.paicli-0000000a.tmp"),
        root.join("src/deep/.b.rs.paicli-0000000b.tmp"),
    ];
    for path in &stale {
        fs::write(path, "partial").unwrap();
        age(path, Duration::from_secs(600));
    }
    let fresh = root.join(".c.txt.paicli-0000000c.tmp");
    fs::write(&fresh, "being written").unwrap();
    let lookalike = root.join("src/.notes.paicli-backup.tmp");
    fs::write(&lookalike, "keep").unwrap();
    age(&lookalike, Duration::from_secs(600));
    // An old temp-shaped file outside, reachable through a symlinked dir and a symlink with the temp shape.
    let outside_temp = outside.join(".x.txt.paicli-0000000d.tmp");
    fs::write(&outside_temp, "outside").unwrap();
    age(&outside_temp, Duration::from_secs(600));
    symlink(&outside, root.join("out")).unwrap();
    symlink(&outside_temp, root.join(".y.txt.paicli-0000000e.tmp")).unwrap();

    let report = remove_stale_temps(&guard, STALE_AFTER);
    assert_eq!(report.removed, 2, "{report:?}");
    assert!(!report.truncated);
    assert!(stale.iter().all(|p| !p.exists()));
    assert!(fresh.exists());
    assert!(lookalike.exists());
    assert!(outside_temp.exists());
    assert!(root.join(".y.txt.paicli-0000000e.tmp").is_symlink());
}
