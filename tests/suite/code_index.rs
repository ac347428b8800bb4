//! The code index end to end: the `search_code` tool, embeddings through a local stand-in `/embeddings` server
//! and the fallback when it fails, two `paicli index` processes on one project, and a retrieval-quality check on
//! a crate nobody here wrote.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod embed_server;
mod quality;

use std::path::Path;
use std::sync::Arc;

use assert_cmd::Command;
use serde_json::{Map, Value, json};
use tokio_util::sync::CancellationToken;

use embed_server::EmbedServer;
use paicli::config::IndexSettings;
use paicli::guard::path_guard::PathGuard;
use paicli::index::{CodeIndex, ProgressFn, Ranking, SearchRequest};
use paicli::tools::search::SearchCode;
use paicli::tools::{SpillStore, Tool, ToolContext, ToolLimits, ToolOutcome};

fn quiet() -> ProgressFn {
    Arc::new(|_| {})
}

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn settings(url: Option<&str>) -> IndexSettings {
    IndexSettings {
        embeddings_url: url.map(str::to_string),
        embeddings_model: "stand-in-bow".into(),
        ..IndexSettings::default()
    }
}

fn small_project(root: &Path) {
    write(
        root,
        "src/upload.rs",
        "//! Uploads.\n\n/// Sends a file again after the server dropped the connection.\npub fn retry_upload(path: &str) -> bool {\n    !path.is_empty()\n}\n",
    );
    write(
        root,
        "src/parse.rs",
        "/// Reads the settings file.\npub fn parse_config(text: &str) -> usize {\n    text.len()\n}\n",
    );
    write(
        root,
        "README.md",
        "# Demo\n\nA project that uploads files.\n",
    );
}

fn request(query: &str) -> SearchRequest {
    SearchRequest {
        query: query.into(),
        top_k: 5,
        ..SearchRequest::default()
    }
}

#[tokio::test]
async fn embeddings_join_the_ranking_and_a_failing_server_falls_back_to_keywords_with_one_notice() {
    let home = tempfile::tempdir().unwrap();
    let project = tempfile::tempdir().unwrap();
    let root = project.path().canonicalize().unwrap();
    small_project(&root);
    let server = EmbedServer::start();
    let index = CodeIndex::new(home.path(), &root, &settings(Some(&server.url)));
    let cancel = CancellationToken::new();

    let report = index.build("", false, quiet(), &cancel).await.unwrap();
    assert_eq!(report.embed_error, None);
    assert_eq!(report.embedded as u64, report.counts.chunks);
    assert_eq!(report.counts.embedded, report.counts.chunks);

    let hybrid = index
        .search(&request("retry an upload"), quiet(), &cancel)
        .await
        .unwrap();
    assert_eq!(hybrid.ranking, Ranking::Hybrid);
    assert_eq!(hybrid.hits[0].chunk.symbol, "crate::upload::retry_upload");
    assert_eq!(hybrid.embed_error, None);

    server.fail();
    let before = server.requests();
    let fallback = index
        .search(&request("retry an upload"), quiet(), &cancel)
        .await
        .unwrap();
    assert_eq!(fallback.ranking, Ranking::Keywords);
    assert_eq!(fallback.hits[0].chunk.symbol, "crate::upload::retry_upload");
    let error = fallback.embed_error.expect("the failure is reported");
    assert!(error.contains("500"), "{error}");
    // Said once: the next search neither asks the failed server again nor repeats the notice.
    let again = index
        .search(&request("parse the config"), quiet(), &cancel)
        .await
        .unwrap();
    assert_eq!(again.embed_error, None);
    assert_eq!(again.ranking, Ranking::Keywords);
    assert_eq!(server.requests(), before + 1);
}

#[tokio::test]
async fn an_unreachable_embedding_server_still_lets_the_index_build_and_answer() {
    let home = tempfile::tempdir().unwrap();
    let project = tempfile::tempdir().unwrap();
    let root = project.path().canonicalize().unwrap();
    small_project(&root);
    // A port nothing listens on: bind one, then close it.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let index = CodeIndex::new(
        home.path(),
        &root,
        &settings(Some(&format!("http://127.0.0.1:{port}/v1"))),
    );
    let report = index
        .build("", false, quiet(), &CancellationToken::new())
        .await
        .unwrap();
    assert!(report.embed_error.is_some());
    assert_eq!(report.counts.embedded, 0);
    assert_eq!(report.counts.files, 3);
}

fn tool_context(root: &Path) -> ToolContext {
    let guard = PathGuard::new(root).unwrap();
    ToolContext::new(
        guard,
        SpillStore::new(root, false, 32_000),
        ToolLimits::default(),
    )
}

fn args(value: Value) -> Map<String, Value> {
    value.as_object().cloned().unwrap()
}

#[tokio::test]
async fn search_code_builds_the_index_on_first_use_and_answers_with_locations_snippets_and_reads() {
    let home = tempfile::tempdir().unwrap();
    let project = tempfile::tempdir().unwrap();
    let root = project.path().canonicalize().unwrap();
    small_project(&root);
    let tool = SearchCode::new(Arc::new(CodeIndex::new(
        home.path(),
        &root,
        &settings(None),
    )));
    let ctx = tool_context(&root);
    assert!(tool.traits().parallel_safe && !tool.traits().audited);

    let outcome = tool
        .execute(
            &args(json!({"query": "where do we retry failed uploads", "top_k": 1})),
            &ctx,
        )
        .await;
    let ToolOutcome::Ok(output) = outcome else {
        panic!("{outcome:?}")
    };
    assert_eq!(
        output.text,
        "1 hit for \"where do we retry failed uploads\" (ranked by keywords):\n\
         1. src/upload.rs:3-6  crate::upload::retry_upload  (function, score {score})\n\
         \x20      3 | /// Sends a file again after the server dropped the connection.\n\
         \x20      4 | pub fn retry_upload(path: &str) -> bool {\n\
         \x20      5 |     !path.is_empty()\n\
         \x20      6 | }\n\
         \x20  read_file {\"path\":\"src/upload.rs\",\"offset\":3,\"limit\":4}\n"
            .replace("{score}", &score_of(&output.text)),
    );

    let narrowed = tool
        .execute(
            &args(json!({"query": "file", "language": "markdown"})),
            &ctx,
        )
        .await;
    let ToolOutcome::Ok(narrowed) = narrowed else {
        panic!("{narrowed:?}")
    };
    assert!(
        narrowed.text.contains("README.md:1-3  Demo"),
        "{}",
        narrowed.text
    );
    assert!(!narrowed.text.contains("src/"), "{}", narrowed.text);

    let outside = tool
        .execute(&args(json!({"query": "x", "path": "../.."})), &ctx)
        .await;
    assert!(
        matches!(
            outside,
            ToolOutcome::Denied { .. } | ToolOutcome::Failed { .. }
        ),
        "{outside:?}"
    );
    let nothing = tool
        .execute(&args(json!({"query": "zebra quantum"})), &ctx)
        .await;
    let ToolOutcome::Ok(nothing) = nothing else {
        panic!("{nothing:?}")
    };
    assert!(
        nothing.text.starts_with("No matches for \"zebra quantum\""),
        "{}",
        nothing.text
    );
}

/// The score printed on the first hit line (BM25 depends on the corpus statistics).
fn score_of(text: &str) -> String {
    let at = text.find("score ").unwrap() + "score ".len();
    text[at..].split(')').next().unwrap().to_string()
}

fn paicli(home: &Path, project: &Path) -> std::process::Command {
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("paicli"));
    cmd.arg("index")
        .arg(project)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("PAICLI_HOME", home.join(".paicli"))
        .env("LANG", "C");
    cmd
}

#[test]
fn two_processes_indexing_one_project_at_once_both_succeed_and_store_each_file_once() {
    let home = tempfile::tempdir().unwrap();
    let project = tempfile::tempdir().unwrap();
    for i in 0..150 {
        write(
            project.path(),
            &format!("src/m{i}.rs"),
            &format!(
                "/// Module {i}.\npub fn handler_{i}(x: u32) -> u32 {{\n    x + {i}\n}}\n\npub struct Thing{i};\n"
            ),
        );
    }
    let spawn = || {
        paicli(home.path(), project.path())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (first, second) = (spawn(), spawn());
    let (a, b) = (
        first.wait_with_output().unwrap(),
        second.wait_with_output().unwrap(),
    );
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    assert!(b.status.success(), "{}", String::from_utf8_lossy(&b.stderr));
    // Each reports the whole index (the second waited for the first's transactions): every file once, two
    // chunks each, and between them every file was chunked at least once.
    for out in [&a, &b] {
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.starts_with("150 files, 300 chunks indexed in "),
            "{text}"
        );
    }
    let chunked = |out: &std::process::Output| -> usize {
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let at = text.find(" s (").unwrap() + 4;
        text[at..].split(' ').next().unwrap().parse().unwrap()
    };
    assert!(chunked(&a) + chunked(&b) >= 150);
    let rerun = paicli(home.path(), project.path()).output().unwrap();
    let text = String::from_utf8_lossy(&rerun.stdout);
    assert!(text.contains("(0 re-indexed, 0 removed)"), "{text}");

    let db = paicli::index::database_path(
        &home.path().join(".paicli"),
        &project.path().canonicalize().unwrap(),
    );
    let conn = rusqlite::Connection::open(db).unwrap();
    let check: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(check, "ok");
    let fts: i64 = conn
        .query_row("SELECT count(*) FROM chunks_fts", [], |r| r.get(0))
        .unwrap();
    assert_eq!(fts, 300);
}

#[test]
fn paicli_index_prints_files_chunks_and_seconds_and_rebuild_starts_over() {
    let home = tempfile::tempdir().unwrap();
    let project = tempfile::tempdir().unwrap();
    small_project(project.path());
    let out = Command::from_std(paicli(home.path(), project.path()))
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("3 files, 3 chunks indexed in "), "{text}");
    assert!(
        text.trim_end().ends_with(" s (3 re-indexed, 0 removed)"),
        "{text}"
    );
    let mut rebuild = paicli(home.path(), project.path());
    rebuild.arg("--rebuild");
    let text = String::from_utf8_lossy(&rebuild.output().unwrap().stdout).to_string();
    assert!(text.contains("(3 re-indexed, 0 removed)"), "{text}");
}
