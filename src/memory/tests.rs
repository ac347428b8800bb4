#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use super::*;

fn store() -> (tempfile::TempDir, MemoryStore) {
    let home = tempfile::tempdir().unwrap();
    let store = MemoryStore::new(&home.path().join("home"), Path::new("/srv/example-project"));
    (home, store)
}

fn saved(outcome: SaveOutcome) -> MemoryEntry {
    match outcome {
        SaveOutcome::Saved(e) => e,
        other => panic!("expected a save, got {other:?}"),
    }
}

#[test]
fn save_list_and_scopes() {
    let (_home, store) = store();
    let a = saved(
        store
            .save(
                "Tests run with cargo nextest",
                Scope::Project,
                &SaveOptions::default(),
            )
            .unwrap(),
    );
    let b = saved(
        store
            .save("Answer in English", Scope::Global, &SaveOptions::default())
            .unwrap(),
    );
    assert_eq!(store.list(None).unwrap(), vec![a.clone(), b.clone()]);
    assert_eq!(store.list(Some(Scope::Global)).unwrap(), vec![b]);
    // Another project does not see this project's facts.
    let other = MemoryStore::new(
        store.global.parent().unwrap().parent().unwrap(),
        Path::new("/x"),
    );
    assert_eq!(other.list(Some(Scope::Project)).unwrap(), Vec::new());
    assert!(
        store
            .project
            .starts_with(store.global.parent().unwrap().join("projects"))
    );
    assert_eq!(a.scope, Scope::Project);
}

#[test]
fn duplicates_are_merged_after_normalization() {
    let (_home, store) = store();
    let a = saved(
        store
            .save(
                "Use tabs for indentation.",
                Scope::Project,
                &SaveOptions::default(),
            )
            .unwrap(),
    );
    match store
        .save(
            "  use TABS for   indentation ",
            Scope::Project,
            &SaveOptions::default(),
        )
        .unwrap()
    {
        SaveOutcome::Duplicate(e) => assert_eq!(e.id, a.id),
        other => panic!("{other:?}"),
    }
    assert_eq!(store.list(None).unwrap().len(), 1);
}

#[test]
fn conflicts_need_replace_or_keep_both() {
    let (_home, store) = store();
    let old = saved(
        store
            .save(
                "The project uses Java 17",
                Scope::Project,
                &SaveOptions::default(),
            )
            .unwrap(),
    );
    match store
        .save(
            "The project uses Java 21",
            Scope::Project,
            &SaveOptions::default(),
        )
        .unwrap()
    {
        SaveOutcome::Conflict { fact, existing } => {
            assert_eq!(fact, "The project uses Java 21");
            assert_eq!(existing, vec![old.clone()]);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        store.list(None).unwrap().len(),
        1,
        "nothing saved on conflict"
    );

    let both = SaveOptions {
        keep_both: true,
        ..SaveOptions::default()
    };
    saved(
        store
            .save("The project uses Java 21", Scope::Project, &both)
            .unwrap(),
    );
    assert_eq!(store.list(None).unwrap().len(), 2);

    let replace = SaveOptions {
        replace_id: Some(old.id.clone()),
        ..SaveOptions::default()
    };
    match store
        .save("The project uses Java 25", Scope::Project, &replace)
        .unwrap()
    {
        SaveOutcome::Replaced { old: o, new } => {
            assert_eq!(o.fact, "The project uses Java 17");
            assert_eq!(
                (new.id, new.fact.as_str()),
                (old.id, "The project uses Java 25")
            );
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn delete_verify_replace_clear_and_errors() {
    let (_home, store) = store();
    let a = saved(
        store
            .save(
                "Deploys go through staging first",
                Scope::Project,
                &SaveOptions::default(),
            )
            .unwrap(),
    );
    let b = saved(
        store
            .save(
                "Prefer ripgrep over grep",
                Scope::Global,
                &SaveOptions::default(),
            )
            .unwrap(),
    );
    assert_eq!(store.verify(&b.id).unwrap().id, b.id);
    let (_, replaced) = store.replace(&b.id, "Prefer fd over find", None).unwrap();
    assert_eq!(replaced.fact, "Prefer fd over find");
    assert_eq!(store.delete(&a.id).unwrap().id, a.id);
    assert!(matches!(store.delete(&a.id), Err(MemoryError::NotFound(_))));
    assert!(matches!(
        store.save("   ", Scope::Project, &SaveOptions::default()),
        Err(MemoryError::EmptyFact)
    ));
    assert!(matches!(
        store.save(
            &"x".repeat(MAX_FACT_CHARS + 1),
            Scope::Project,
            &SaveOptions::default()
        ),
        Err(MemoryError::FactTooLong { .. })
    ));
    assert_eq!(store.clear(None).unwrap(), 1);
    assert!(store.list(None).unwrap().is_empty());
}

#[test]
fn a_corrupt_file_is_an_error_and_is_not_overwritten() {
    let (_home, store) = store();
    std::fs::create_dir_all(store.global.parent().unwrap()).unwrap();
    std::fs::write(&store.global, "{not json").unwrap();
    assert!(matches!(store.list(None), Err(MemoryError::Corrupt { .. })));
    assert!(
        store
            .save("x fact", Scope::Global, &SaveOptions::default())
            .is_err()
    );
    assert_eq!(std::fs::read_to_string(&store.global).unwrap(), "{not json");
}

#[test]
fn stale_after_thirty_days_unverified() {
    let entry = MemoryEntry {
        id: "m1".into(),
        fact: "f".into(),
        scope: Scope::Project,
        created_at: 0,
        verified_at: 1_000,
        source: None,
    };
    assert!(!entry.is_stale_at(1_000 + STALE_AFTER_SECS));
    assert!(entry.is_stale_at(1_001 + STALE_AFTER_SECS));
}

#[test]
fn retrieval_finds_relevant_facts_within_the_cap() {
    let (_home, store) = store();
    for fact in [
        "Run the tests with cargo nextest run",
        "The database is PostgreSQL 15",
        "数据库迁移用 sqlx migrate",
        "Commit messages are written in English",
    ] {
        saved(
            store
                .save(fact, Scope::Project, &SaveOptions::default())
                .unwrap(),
        );
    }
    let found = store.relevant("how do I run the tests?", 500).unwrap();
    assert_eq!(found[0].fact, "Run the tests with cargo nextest run");
    let found = store.relevant("数据库迁移怎么做", 500).unwrap();
    assert_eq!(found[0].fact, "数据库迁移用 sqlx migrate");
    assert!(
        store
            .relevant("how do I run the tests?", 5)
            .unwrap()
            .is_empty(),
        "token cap"
    );
    let text = recall_message(&store.relevant("database tests", 500).unwrap()).unwrap();
    assert!(text.starts_with("[long-term memory]"), "{text}");
}

/// Two stores opened independently on the same files (as two sessions would) from several threads: the lock and
/// reload-before-write keep every fact.
#[test]
fn concurrent_writers_from_threads_lose_nothing() {
    let (home, _) = store();
    let home = Arc::new(home.path().join("home"));
    let handles: Vec<_> = (0..4)
        .map(|t| {
            let home = Arc::clone(&home);
            std::thread::spawn(move || {
                let store = MemoryStore::new(&home, Path::new("/srv/example-project"));
                for i in 0..15 {
                    let fact = format!("writer {t} fact number {i} about component alpha{t}x{i}");
                    let keep = SaveOptions {
                        keep_both: true,
                        ..SaveOptions::default()
                    };
                    saved(store.save(&fact, Scope::Project, &keep).unwrap());
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
    let store = MemoryStore::new(&home, Path::new("/srv/example-project"));
    assert_eq!(store.list(None).unwrap().len(), 60);
}

#[test]
fn a_memory_file_from_before_sources_still_loads_and_new_facts_keep_theirs() {
    let (_home, store) = store();
    std::fs::create_dir_all(store.global.parent().unwrap()).unwrap();
    std::fs::write(
        &store.global,
        r#"{"version":1,"entries":[{"id":"m1","fact":"Uses tabs","scope":"global","created_at":1,"verified_at":1}]}"#,
    )
    .unwrap();
    let source = MemorySource::After {
        read: vec!["read_file README.md".to_string()],
        more: 2,
    };
    let options = SaveOptions {
        source: Some(source.clone()),
        ..SaveOptions::default()
    };
    saved(
        store
            .save("The build uses make", Scope::Global, &options)
            .unwrap(),
    );
    let entries = store.list(Some(Scope::Global)).unwrap();
    assert_eq!(entries.len(), 2);
    assert_eq!((entries[0].id.as_str(), &entries[0].source), ("m1", &None));
    assert_eq!(entries[1].source, Some(source));
    let (_, replaced) = store
        .replace("m1", "Uses spaces", Some(MemorySource::Person))
        .unwrap();
    assert_eq!(replaced.source, Some(MemorySource::Person));
}
