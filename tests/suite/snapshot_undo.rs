//! Snapshots and `revert_turn` on real files through the whole session (app wiring, approval, the pre-turn gate
//! and the post-turn snapshot) against the scripted server: writes, edits, deletes, `chmod +x`, new files and
//! symlinks across two turns; a revert restores the state before the second turn exactly, a second revert
//! undoes the first, links pointing outside stay links, the project's `.git` and ignored files are untouched.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use paicli::agent::{Agent, EventLog};
use paicli::app::Services;
use paicli::config::{ApprovalMode, Config, Overrides};
use serde_json::json;
use tokio_util::sync::CancellationToken;

use crate::support::{Reply, ScriptedServer};

/// What a path holds, as a restore must bring it back.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Entry {
    File { content: Vec<u8>, executable: bool },
    Link(PathBuf),
}

/// Every file and link under `root` except `.git`, by relative path.
fn manifest(root: &Path) -> BTreeMap<String, Entry> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Entry>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let rel = path.strip_prefix(root).unwrap().display().to_string();
            if rel == ".git" {
                continue;
            }
            let meta = std::fs::symlink_metadata(&path).unwrap();
            if meta.file_type().is_symlink() {
                out.insert(rel, Entry::Link(std::fs::read_link(&path).unwrap()));
            } else if meta.is_dir() {
                walk(root, &path, out);
            } else {
                out.insert(
                    rel,
                    Entry::File {
                        content: std::fs::read(&path).unwrap(),
                        executable: meta.permissions().mode() & 0o111 != 0,
                    },
                );
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(root, root, &mut out);
    out
}

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        // `git status` would otherwise refresh the index and change its bytes itself.
        .env("GIT_OPTIONAL_LOCKS", "0")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@t")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@t")
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {out:?}");
    String::from_utf8_lossy(&out.stdout).to_string()
}

/// The project's own repository as a revert must leave it: HEAD, refs, index bytes, status.
fn repo_state(root: &Path) -> (Vec<u8>, String, Vec<u8>, String) {
    (
        std::fs::read(root.join(".git/HEAD")).unwrap(),
        git(root, &["for-each-ref"]),
        std::fs::read(root.join(".git/index")).unwrap(),
        git(root, &["status", "--porcelain", "--ignored"]),
    )
}

struct Fixture {
    _project: tempfile::TempDir,
    _home: tempfile::TempDir,
    root: PathBuf,
    home: PathBuf,
}

impl Fixture {
    fn new() -> Self {
        let project = tempfile::tempdir().unwrap();
        let home = tempfile::tempdir().unwrap();
        Fixture {
            root: project.path().canonicalize().unwrap(),
            home: home.path().join(".paicli"),
            _project: project,
            _home: home,
        }
    }

    fn write(&self, rel: &str, text: &str) {
        let path = self.root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn session(&self, server: &ScriptedServer) -> (Agent, Services) {
        self.session_in(server, ApprovalMode::Full)
    }

    fn session_in(&self, server: &ScriptedServer, mode: ApprovalMode) -> (Agent, Services) {
        let env = vec![("PAICLI_HOME".to_string(), self.home.display().to_string())];
        let overrides = Overrides {
            base_url: Some(server.url()),
            model: Some("scripted-model".to_string()),
            approval: Some(mode),
            ..Overrides::default()
        };
        let config = Config::load_with_env(&self.root, env, &overrides).unwrap();
        let hook = paicli::app::build_approval_hook(
            &config,
            std::sync::Arc::new(paicli::protocol::NonInteractiveApprover),
        )
        .unwrap();
        paicli::app::build_session(&config, hook).unwrap()
    }
}

async fn turn(
    agent: &mut Agent,
    services: &Services,
    text: &str,
) -> Vec<paicli::agent::AgentEvent> {
    let log = EventLog::default();
    agent.run_turn(text, &log, CancellationToken::new()).await;
    // The post-turn snapshot runs in the background; the next step must see it.
    services.snapshots.store().unwrap().wait_pending();
    log.events()
}

fn last_tool_result(server: &ScriptedServer) -> String {
    let requests = server.chat_requests();
    let body = &requests.last().unwrap().body;
    body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .find(|m| m["role"] == "tool")
        .map(|m| m["content"].as_str().unwrap_or_default().to_string())
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn revert_turn_restores_the_state_before_the_last_turn_and_a_second_revert_undoes_it() {
    let fx = Fixture::new();
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("secret.txt");
    std::fs::write(&secret, "outside\n").unwrap();
    fx.write("a.txt", "one\n");
    fx.write("del.txt", "delete me\n");
    fx.write("run.sh", "echo hi\n");
    fx.write(".gitignore", "out/\n");
    fx.write("out/gen.o", "generated\n");
    git(&fx.root, &["init", "-q"]);
    git(&fx.root, &["add", "-A"]);
    git(&fx.root, &["commit", "-qm", "start"]);
    git(&fx.root, &["stash", "list"]);
    let repo_before = repo_state(&fx.root);

    let server = ScriptedServer::with_replies([
        Reply::tool_calls([
            (
                "c1",
                "write_file",
                json!({"path": "new1.txt", "content": "turn one\n"}),
            ),
            (
                "c2",
                "edit_file",
                json!({"path": "a.txt", "old_text": "one", "new_text": "uno"}),
            ),
            (
                "c2b",
                "execute_command",
                json!({"command": format!("ln -s {} ext", secret.display())}),
            ),
        ]),
        Reply::text("turn one done"),
        Reply::tool_calls([
            (
                "c3",
                "edit_file",
                json!({"path": "a.txt", "old_text": "uno", "new_text": "eins"}),
            ),
            (
                "c4",
                "execute_command",
                json!({"command":
                "rm del.txt && chmod +x run.sh && ln -s a.txt link && echo two > new2.txt && \
                 echo rebuilt > out/gen.o"}),
            ),
        ]),
        Reply::text("turn two done"),
        Reply::tool_calls([("c5", "revert_turn", json!({"offset": 1}))]),
        Reply::text("reverted"),
        Reply::tool_calls([("c6", "revert_turn", json!({}))]),
        Reply::text("reverted the revert"),
        // Four changes back (turns 1 and 2, two restores): the files as they were at the start.
        Reply::tool_calls([("c7", "revert_turn", json!({"offset": 4}))]),
        Reply::text("back to the start"),
        Reply::tool_calls([("c8", "revert_turn", json!({"offset": 1}))]),
        Reply::text("forward again"),
    ]);
    let start = manifest(&fx.root);
    let (mut agent, services) = fx.session(&server);

    turn(&mut agent, &services, "first change").await;
    let before_second = manifest(&fx.root);
    turn(&mut agent, &services, "second change").await;
    let after_second = manifest(&fx.root);
    let repo_after_second = repo_state(&fx.root);
    assert_ne!(
        before_second,
        after_second,
        "{:#?}",
        server.chat_requests().last().unwrap().body["messages"]
    );
    assert!(
        std::fs::metadata(fx.root.join("run.sh"))
            .unwrap()
            .permissions()
            .mode()
            & 0o100
            != 0,
        "{:#?}",
        server.chat_requests().last().unwrap().body["messages"]
    );

    turn(&mut agent, &services, "undo that").await;
    let result = last_tool_result(&server);
    assert!(
        result.contains("D new2.txt") && result.contains("A del.txt"),
        "{result}"
    );
    let mut expected = before_second.clone();
    // Ignored build output is not the snapshot's to restore.
    expected.insert("out/gen.o".into(), after_second["out/gen.o"].clone());
    assert_eq!(manifest(&fx.root), expected);

    turn(&mut agent, &services, "undo the undo").await;
    assert_eq!(manifest(&fx.root), after_second);

    turn(&mut agent, &services, "back to the start").await;
    let mut expected = start.clone();
    expected.insert("out/gen.o".into(), after_second["out/gen.o"].clone());
    assert_eq!(manifest(&fx.root), expected);
    turn(&mut agent, &services, "forward again").await;
    assert_eq!(manifest(&fx.root), after_second);
    assert_eq!(
        std::fs::read_link(fx.root.join("ext")).unwrap(),
        secret,
        "the link pointing outside comes back as a link"
    );
    assert_eq!(std::fs::read_to_string(&secret).unwrap(), "outside\n");
    let repo_now = repo_state(&fx.root);
    assert_eq!(
        repo_now, repo_after_second,
        "the project's .git is untouched"
    );
    assert_eq!(
        (&repo_now.0, &repo_now.1, &repo_now.2),
        (&repo_before.0, &repo_before.1, &repo_before.2)
    );
    services.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_folder_without_git_is_restored_and_its_ignored_output_left_alone() {
    let fx = Fixture::new();
    fx.write("main.c", "int main(){}\n");
    fx.write(".gitignore", "bin/\n");
    fx.write("bin/app", "old build\n");
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "c1",
            "execute_command",
            json!({"command": "echo 'int main(){return 1;}' > main.c && echo new build > bin/app"}),
        )]),
        Reply::text("built"),
        Reply::tool_calls([("c2", "revert_turn", json!({"offset": 1}))]),
        Reply::text("reverted"),
    ]);
    let (mut agent, services) = fx.session(&server);
    turn(&mut agent, &services, "change main").await;
    turn(&mut agent, &services, "revert").await;
    assert_eq!(
        std::fs::read_to_string(fx.root.join("main.c")).unwrap(),
        "int main(){}\n"
    );
    assert_eq!(
        std::fs::read_to_string(fx.root.join("bin/app")).unwrap(),
        "new build\n"
    );
    assert!(
        !fx.root.join(".git").exists(),
        "no repository was made in the project"
    );
    let store = services.snapshots.store().unwrap();
    assert!(store.dir().starts_with(&fx.home));
    services.shutdown().await;
}

#[test]
fn without_git_on_path_snapshots_are_off_with_one_notice_and_revert_turn_is_not_offered() {
    use assert_cmd::cargo::CommandCargoExt;
    let fx = Fixture::new();
    let server = ScriptedServer::with_replies([Reply::text("hello")]);
    let empty_path = tempfile::tempdir().unwrap();
    let out = Command::cargo_bin("paicli")
        .unwrap()
        .env_clear()
        .env("PATH", empty_path.path())
        .env("HOME", &fx.home)
        .env("PAICLI_HOME", &fx.home)
        .args(["-C", &fx.root.display().to_string()])
        .args([
            "--base-url",
            &server.url(),
            "--model",
            "scripted-model",
            "-p",
            "hi",
        ])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(
        stderr.matches("`git` program was not found").count(),
        1,
        "{stderr}"
    );
    let tools = &server.chat_requests()[0].body["tools"];
    let names: Vec<&str> = tools
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect();
    assert!(!names.contains(&"revert_turn"), "{names:?}");
    assert!(names.contains(&"write_file"), "{names:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn auto_mode_refuses_revert_turn_and_tells_the_model_to_ask_the_user() {
    let fx = Fixture::new();
    fx.write("a.txt", "one\n");
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "c1",
            "write_file",
            json!({"path": "a.txt", "content": "two\n"}),
        )]),
        Reply::text("written"),
        Reply::tool_calls([("c2", "revert_turn", json!({"offset": 1}))]),
        Reply::text("I need you to approve that"),
    ]);
    let (mut agent, services) = fx.session_in(&server, ApprovalMode::Auto);
    turn(&mut agent, &services, "write it").await;
    turn(&mut agent, &services, "undo it").await;
    let result = last_tool_result(&server);
    assert!(
        result.contains("[denied: AUTO_DENIED]") && result.contains("tell the user what you need"),
        "{result}"
    );
    assert_eq!(
        std::fs::read_to_string(fx.root.join("a.txt")).unwrap(),
        "two\n"
    );
    services.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_revert_that_would_rewrite_a_control_file_needs_the_person_even_with_an_allow_rule() {
    let fx = Fixture::new();
    std::fs::create_dir_all(&fx.home).unwrap();
    std::fs::write(
        fx.home.join("config.toml"),
        "[approvals]\nallow = [\"tool:revert_turn\"]\n",
    )
    .unwrap();
    fx.write("AGENTS.md", "Be kind.\n");
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "c1",
            "write_file",
            json!({"path": "a.txt", "content": "two\n"}),
        )]),
        Reply::text("written"),
        Reply::tool_calls([("c2", "revert_turn", json!({"offset": 1}))]),
        Reply::text("needs you"),
        Reply::tool_calls([("c3", "revert_turn", json!({"offset": 1}))]),
        Reply::text("reverted"),
    ]);
    let (mut agent, services) = fx.session_in(&server, ApprovalMode::Auto);
    turn(&mut agent, &services, "write it").await;
    // The user edits the instructions between turns; reverting the turn would put the old text back.
    fx.write("AGENTS.md", "Be kind. Run the tests.\n");
    turn(&mut agent, &services, "undo it").await;
    let result = last_tool_result(&server);
    assert!(
        result.contains("[denied: APPROVAL_REQUIRED]") && result.contains("AGENTS.md"),
        "{result}"
    );
    assert!(result.contains("--approval full"), "{result}");
    assert!(fx.root.join("a.txt").exists());
    // A revert that touches only ordinary files runs under the allow rule.
    fx.write("AGENTS.md", "Be kind.\n");
    turn(&mut agent, &services, "undo it now").await;
    let result = last_tool_result(&server);
    assert!(result.contains("restored the files"), "{result}");
    assert!(!fx.root.join("a.txt").exists());
    services.shutdown().await;
}
