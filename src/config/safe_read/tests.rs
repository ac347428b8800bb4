#![allow(clippy::unwrap_used)]
use std::os::unix::fs::symlink;

use super::*;

fn project() -> (tempfile::TempDir, tempfile::TempDir) {
    let project = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("id_rsa"), "SECRET KEY").unwrap();
    (project, outside)
}

#[test]
fn a_regular_file_beneath_the_base_is_read_whole_under_the_cap() {
    let (project, _) = project();
    std::fs::create_dir(project.path().join("docs")).unwrap();
    std::fs::write(project.path().join("docs/a.md"), "hello").unwrap();
    let read = read_beneath(project.path(), Path::new("docs/a.md"), 100).unwrap();
    assert_eq!(
        read,
        Capped {
            text: "hello".into(),
            cut: false
        }
    );
    // An absolute path beneath the base reads the same file.
    let absolute = project.path().join("docs/a.md");
    assert_eq!(
        read_beneath(project.path(), &absolute, 100).unwrap().text,
        "hello"
    );
}

#[test]
fn a_link_out_of_the_base_is_refused_and_a_link_inside_it_is_followed() {
    let (project, outside) = project();
    let root = project.path();
    std::fs::write(root.join("AGENTS.md"), "rules").unwrap();
    symlink(root.join("AGENTS.md"), root.join("CLAUDE.md")).unwrap();
    symlink(outside.path().join("id_rsa"), root.join("PAI.md")).unwrap();
    symlink(outside.path(), root.join("dir")).unwrap();
    assert_eq!(
        read_beneath(root, Path::new("CLAUDE.md"), 100)
            .unwrap()
            .text,
        "rules"
    );
    for out in ["PAI.md", "dir/id_rsa", "../id_rsa"] {
        let err = read_beneath(root, Path::new(out), 100).unwrap_err();
        assert!(
            matches!(err, ReadRefused::LinkOut { .. } | ReadRefused::Missing),
            "{out}: {err:?}"
        );
    }
    assert!(matches!(
        read_beneath(root, Path::new("PAI.md"), 100),
        Err(ReadRefused::LinkOut { .. })
    ));
}

#[test]
fn devices_fifos_and_folders_are_refused_without_blocking() {
    let (project, _) = project();
    let root = project.path();
    symlink("/dev/zero", root.join("zero.md")).unwrap();
    let fifo = root.join("fifo.md");
    rustix::fs::mknodat(
        rustix::fs::CWD,
        &fifo,
        rustix::fs::FileType::Fifo,
        Mode::from_raw_mode(0o600),
        0,
    )
    .unwrap();
    std::fs::create_dir(root.join("folder.md")).unwrap();
    assert!(matches!(
        read_beneath(root, Path::new("zero.md"), 100),
        Err(ReadRefused::LinkOut { .. })
    ));
    assert_eq!(
        read_beneath(root, Path::new("fifo.md"), 100),
        Err(ReadRefused::NotRegular)
    );
    assert_eq!(
        read_beneath(root, Path::new("folder.md"), 100),
        Err(ReadRefused::NotRegular)
    );
    assert_eq!(
        read_beneath(root, Path::new(""), 100),
        Err(ReadRefused::NotRegular)
    );
    assert_eq!(
        read_beneath(root, Path::new("absent.md"), 100),
        Err(ReadRefused::Missing)
    );
}

#[test]
fn a_long_file_is_cut_at_the_cap_on_a_whole_character() {
    let (project, _) = project();
    let root = project.path();
    // 'é' is two bytes: a cap of 3 falls inside the second one.
    std::fs::write(root.join("long.md"), "éé and more").unwrap();
    let read = read_beneath(root, Path::new("long.md"), 3).unwrap();
    assert_eq!(
        read,
        Capped {
            text: "é".into(),
            cut: true
        }
    );
    assert_eq!(
        read_whole_beneath(root, Path::new("long.md"), 3),
        Err(ReadRefused::TooLarge { cap: 3 })
    );
    std::fs::write(root.join("bin.md"), b"\xff\xfe").unwrap();
    assert_eq!(
        read_beneath(root, Path::new("bin.md"), 100),
        Err(ReadRefused::NotUtf8)
    );
}

#[test]
fn notices_name_refused_and_cut_files_but_not_missing_ones() {
    let (project, outside) = project();
    let root = project.path();
    symlink(outside.path().join("id_rsa"), root.join("CLAUDE.md")).unwrap();
    std::fs::write(root.join("AGENTS.md"), "0123456789").unwrap();
    let mut notices = Vec::new();
    assert_eq!(
        read_noticed(root, Path::new("CLAUDE.md"), 5, &mut notices),
        None
    );
    assert_eq!(
        read_noticed(root, Path::new("AGENTS.md"), 5, &mut notices).as_deref(),
        Some("01234")
    );
    assert_eq!(
        read_noticed(root, Path::new("PAI.md"), 5, &mut notices),
        None
    );
    assert_eq!(
        read_whole_noticed(root, Path::new("AGENTS.md"), 5, &mut notices),
        None
    );
    let issues: Vec<(String, FileIssue)> = notices
        .into_iter()
        .map(|n| {
            (
                n.path.file_name().unwrap().to_string_lossy().into_owned(),
                n.issue,
            )
        })
        .collect();
    assert_eq!(
        issues,
        [
            (
                "CLAUDE.md".to_string(),
                FileIssue::Refused(ReadRefused::LinkOut {
                    base: root.to_path_buf()
                })
            ),
            ("AGENTS.md".to_string(), FileIssue::Cut { cap: 5 }),
            (
                "AGENTS.md".to_string(),
                FileIssue::Refused(ReadRefused::TooLarge { cap: 5 })
            ),
        ]
    );
}

#[test]
fn reads_a_regular_file_up_to_the_cap_and_refuses_links_folders_and_devices() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("f");
    std::fs::write(&file, "hello world").unwrap();
    assert_eq!(read_regular_capped(&file, 5).as_deref(), Some("hello"));
    let link = dir.path().join("link");
    symlink(&file, &link).unwrap();
    assert_eq!(read_regular_capped(&link, 100), None);
    assert_eq!(read_regular_capped(dir.path(), 100), None);
    assert_eq!(read_regular_capped(Path::new("/dev/zero"), 100), None);
}
