#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;
use std::os::unix::fs::symlink;
use tempfile::TempDir;

/// A project dir and an outside dir side by side.
fn setup() -> (TempDir, PathGuard, PathBuf) {
    let tmp = TempDir::new().unwrap();
    let project = tmp.path().join("project");
    let outside = tmp.path().join("outside");
    std::fs::create_dir_all(project.join("src")).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(project.join("src/main.rs"), "fn main() {}\n").unwrap();
    std::fs::write(outside.join("secret.txt"), "secret").unwrap();
    let guard = PathGuard::new(&project).unwrap();
    let outside = outside.canonicalize().unwrap();
    (tmp, guard, outside)
}

fn assert_out_of_bounds(guard: &PathGuard, input: &str) {
    let err = guard.resolve(input).unwrap_err();
    assert!(
        matches!(err, PathGuardError::OutOfBounds { .. }),
        "{input}: {err:?}"
    );
    assert_eq!(err.code(), PATH_OUT_OF_BOUNDS);
    assert!(err.to_string().contains("outside the project root"));
}

#[test]
fn relative_path_resolves_under_root() {
    let (_tmp, guard, _) = setup();
    let path = guard.resolve("src/main.rs").unwrap();
    assert_eq!(path, guard.root().join("src/main.rs"));
    assert_eq!(guard.display(&path), "src/main.rs");
    assert_eq!(guard.display(guard.root()), ".");
}

#[test]
fn absolute_path_inside_is_accepted() {
    let (_tmp, guard, _) = setup();
    let abs = guard.root().join("src/main.rs");
    assert_eq!(guard.resolve(abs.to_str().unwrap()).unwrap(), abs);
}

#[test]
fn nested_new_file_is_accepted() {
    let (_tmp, guard, _) = setup();
    let path = guard.resolve("src/new/deeper/file.rs").unwrap();
    assert_eq!(path, guard.root().join("src/new/deeper/file.rs"));
}

#[test]
fn dot_segments_inside_are_folded() {
    let (_tmp, guard, _) = setup();
    let path = guard.resolve("./src/../src/./main.rs").unwrap();
    assert_eq!(path, guard.root().join("src/main.rs"));
}

#[test]
fn parent_escape_is_refused() {
    let (_tmp, guard, _) = setup();
    assert_out_of_bounds(&guard, "../outside/secret.txt");
    assert_out_of_bounds(&guard, "src/../../outside/new.txt");
    assert_out_of_bounds(&guard, "..");
}

#[test]
fn absolute_path_outside_is_refused() {
    let (_tmp, guard, outside) = setup();
    assert_out_of_bounds(&guard, outside.join("secret.txt").to_str().unwrap());
    assert_out_of_bounds(&guard, "/etc/passwd");
}

#[test]
fn symlinked_file_pointing_out_is_refused() {
    let (_tmp, guard, outside) = setup();
    symlink(outside.join("secret.txt"), guard.root().join("link.txt")).unwrap();
    assert_out_of_bounds(&guard, "link.txt");
}

#[test]
fn symlinked_dir_pointing_out_is_refused() {
    let (_tmp, guard, outside) = setup();
    symlink(&outside, guard.root().join("out")).unwrap();
    assert_out_of_bounds(&guard, "out/secret.txt");
    assert_out_of_bounds(&guard, "out");
}

#[test]
fn new_file_under_symlinked_dir_pointing_out_is_refused() {
    let (_tmp, guard, outside) = setup();
    symlink(&outside, guard.root().join("out")).unwrap();
    assert_out_of_bounds(&guard, "out/not/yet/there.txt");
}

#[test]
fn dangling_symlink_pointing_out_is_refused() {
    let (_tmp, guard, outside) = setup();
    symlink(outside.join("missing.txt"), guard.root().join("dangling")).unwrap();
    assert_out_of_bounds(&guard, "dangling");
}

#[test]
fn symlink_inside_the_root_is_followed() {
    let (_tmp, guard, _) = setup();
    symlink(guard.root().join("src"), guard.root().join("alias")).unwrap();
    let path = guard.resolve("alias/main.rs").unwrap();
    assert_eq!(path, guard.root().join("src/main.rs"));
}

#[test]
fn blank_path_is_refused() {
    let (_tmp, guard, _) = setup();
    assert!(matches!(guard.resolve(""), Err(PathGuardError::Blank)));
    assert!(matches!(guard.resolve("  \t"), Err(PathGuardError::Blank)));
}

// ---------- access through the root handle ----------

use std::io::Read;
use std::os::fd::AsFd;

fn read_through(guard: &PathGuard, path: &Path) -> std::io::Result<String> {
    let mut text = String::new();
    guard.open_read(path)?.read_to_string(&mut text)?;
    Ok(text)
}

#[test]
fn open_read_reaches_a_file_behind_an_inside_symlink() {
    let (_tmp, guard, _) = setup();
    symlink(guard.root().join("src"), guard.root().join("alias")).unwrap();
    let path = guard.resolve("alias/main.rs").unwrap();
    assert_eq!(read_through(&guard, &path).unwrap(), "fn main() {}\n");
}

#[test]
fn a_directory_swapped_for_a_symlink_after_the_check_is_not_followed() {
    let (_tmp, guard, outside) = setup();
    std::fs::write(outside.join("main.rs"), "secret").unwrap();
    let path = guard.resolve("src/main.rs").unwrap();
    std::fs::rename(guard.root().join("src"), guard.root().join("src.old")).unwrap();
    symlink(&outside, guard.root().join("src")).unwrap();
    let err = read_through(&guard, &path).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("src/main.rs changed while it was being opened"),
        "{err}"
    );
    assert!(guard.open_dir(&guard.root().join("src")).is_err());
    assert!(guard.create_dir_all(&guard.root().join("src/new")).is_err());
    assert!(!outside.join("new").exists());
}

#[test]
fn a_file_swapped_for_a_symlink_after_the_check_is_not_followed() {
    let (_tmp, guard, outside) = setup();
    let path = guard.resolve("src/main.rs").unwrap();
    std::fs::remove_file(&path).unwrap();
    symlink(outside.join("secret.txt"), &path).unwrap();
    assert!(read_through(&guard, &path).is_err());
    assert_eq!(guard.metadata(&path).unwrap().kind, EntryKind::Symlink);
}

#[test]
fn the_portable_walk_refuses_symlinks_like_openat2() {
    let (_tmp, guard, outside) = setup();
    symlink(&outside, guard.root().join("out")).unwrap();
    symlink(
        guard.root().join("src/main.rs"),
        guard.root().join("inside-link"),
    )
    .unwrap();
    let flags = rustix::fs::OFlags::RDONLY;
    let open = |names: &[&str]| {
        let names: Vec<&std::ffi::OsStr> = names.iter().map(|n| n.as_ref()).collect();
        beneath::walk_beneath(
            guard.root_dir.as_fd(),
            &names,
            flags,
            rustix::fs::Mode::empty(),
        )
    };
    assert!(open(&["src", "main.rs"]).is_ok());
    for refused in [
        &["out", "secret.txt"][..],
        &["inside-link"][..],
        &["out"][..],
    ] {
        let err = open(refused).unwrap_err();
        assert!(beneath::is_symlink_refusal(&err), "{refused:?}: {err}");
    }
    let both = beneath::open_beneath(
        guard.root_dir.as_fd(),
        Path::new("out/secret.txt"),
        flags,
        rustix::fs::Mode::empty(),
    );
    assert!(beneath::is_symlink_refusal(&both.unwrap_err()));
}

#[test]
fn access_refuses_paths_that_are_not_plain_and_beneath_the_root() {
    let (_tmp, guard, outside) = setup();
    for path in [
        outside.join("secret.txt"),
        guard.root().join("src/../src/main.rs"),
        PathBuf::from("src/main.rs"),
    ] {
        let err = guard.open_read(&path).unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput, "{path:?}");
    }
    assert!(guard.open_parent(guard.root(), true).is_err());
}

#[test]
fn create_dir_all_makes_missing_parents_and_lists_them() {
    let (_tmp, guard, _) = setup();
    let dir = guard.create_dir_all(&guard.root().join("a/b/c")).unwrap();
    assert_eq!(dir.path(), guard.root().join("a/b/c"));
    assert!(guard.root().join("a/b/c").is_dir());
    let root = guard.open_dir(guard.root()).unwrap();
    let mut names: Vec<(String, EntryKind)> = root
        .entries()
        .unwrap()
        .into_iter()
        .map(|e| (e.name.to_string_lossy().into_owned(), e.kind))
        .collect();
    names.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        names,
        vec![("a".into(), EntryKind::Dir), ("src".into(), EntryKind::Dir)]
    );
    assert_eq!(guard.metadata(guard.root()).unwrap().kind, EntryKind::Dir);
}

#[test]
fn read_roots_are_readable_but_nothing_around_them_and_never_writable() {
    let (tmp, guard, outside) = setup();
    let skill = outside.join("skills/demo");
    std::fs::create_dir_all(skill.join("references")).unwrap();
    std::fs::write(skill.join("references/x.md"), "ref").unwrap();
    symlink(outside.join("secret.txt"), skill.join("leak.md")).unwrap();
    let x = skill.join("references/x.md").display().to_string();
    assert!(guard.resolve_read(&x).is_err(), "no read roots yet");

    guard.read_roots().set(std::slice::from_ref(&skill));
    // Clones share the list, as the tools' guard and the library's handle do.
    let clone = guard.clone();
    let path = clone.resolve_read(&x).unwrap();
    let mut text = String::new();
    std::io::Read::read_to_string(&mut clone.open_read(&path).unwrap(), &mut text).unwrap();
    assert_eq!(text, "ref");
    assert!(clone.open_dir(&skill).is_ok());
    for escape in [
        format!("{}/../../etc/passwd", skill.display()),
        format!("{}/../../secret.txt", skill.display()),
        skill.join("leak.md").display().to_string(),
        outside.join("skills").display().to_string(),
    ] {
        let err = guard.resolve_read(&escape).unwrap_err();
        assert_eq!(err.code(), PATH_OUT_OF_BOUNDS, "{escape}");
    }
    // Writing paths never see the read roots.
    assert_out_of_bounds(&guard, &x);
    assert!(guard.open_parent(&path, true).is_err());
    assert!(guard.create_dir_all(&skill.join("new")).is_err());
    assert!(!skill.join("new").exists());

    guard.read_roots().set(&[]);
    assert!(guard.resolve_read(&x).is_err());
    assert!(guard.open_read(&path).is_err());
    drop(tmp);
}

#[test]
fn added_roots_are_read_and_written_beneath_their_own_handle_and_nothing_around_them() {
    let (tmp, guard, outside) = setup();
    let added = outside.join("added");
    std::fs::create_dir_all(&added).unwrap();
    symlink(outside.join("secret.txt"), added.join("leak.txt")).unwrap();
    let guard = PathGuard::with_added(guard.root(), std::slice::from_ref(&added)).unwrap();
    assert_eq!(guard.added_roots(), std::slice::from_ref(&added));
    let target = guard
        .resolve(&added.join("sub/new.txt").display().to_string())
        .unwrap();
    let (dir, name) = guard.open_parent(&target, true).unwrap();
    assert_eq!(name, "new.txt");
    drop(dir);
    assert!(added.join("sub").is_dir());
    assert!(guard.metadata(&added.join("sub")).is_ok());
    for escape in [
        format!("{}/../secret.txt", added.display()),
        added.join("leak.txt").display().to_string(),
        outside.display().to_string(),
    ] {
        assert_out_of_bounds(&guard, &escape);
    }
    drop(tmp);
}
