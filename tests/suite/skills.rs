//! Skills through the whole session (app wiring, system prompt, loop, path guard) against the scripted server:
//! layered discovery with overrides and a broken skill, the catalog byte-identical across requests, `load_skill`'s
//! body as a user message after its batch's tool results, a skill's files readable by the path it was given and
//! nothing outside; and `create_project` skeletons that really build.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod create_project;

use std::path::{Path, PathBuf};

use paicli::agent::{Agent, EventLog};
use paicli::app::Services;
use paicli::config::{ApprovalMode, Config, Overrides};
use paicli::skills::{Layer, SkillRoots, discover};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use crate::support::{Reply, ScriptedServer};

/// A project, `$PAICLI_HOME` and a user home (`~`), all temporary.
struct Fixture {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    home: PathBuf,
    user_home: PathBuf,
}

impl Fixture {
    fn new() -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let base = tmp.path().canonicalize().unwrap();
        let (root, user_home) = (base.join("project"), base.join("user"));
        std::fs::create_dir_all(&root).unwrap();
        std::fs::create_dir_all(&user_home).unwrap();
        Fixture {
            _tmp: tmp,
            home: user_home.join(".paicli"),
            root,
            user_home,
        }
    }

    /// Writes `<dir>/<name>/SKILL.md` with `frontmatter` and `body`; returns the skill's folder.
    fn skill(&self, dir: &Path, name: &str, frontmatter: &str, body: &str) -> PathBuf {
        let folder = dir.join(name);
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(
            folder.join("SKILL.md"),
            format!("---\n{frontmatter}\n---\n{body}"),
        )
        .unwrap();
        folder
    }

    fn roots(&self) -> SkillRoots {
        SkillRoots {
            user_home: Some(self.user_home.clone()),
            paicli_home: self.home.clone(),
            project_root: self.root.clone(),
        }
    }

    fn session(&self, server: &ScriptedServer, user_config: &str) -> (Agent, Services) {
        self.session_in(server, user_config, ApprovalMode::Full)
    }

    fn session_in(
        &self,
        server: &ScriptedServer,
        user_config: &str,
        mode: ApprovalMode,
    ) -> (Agent, Services) {
        std::fs::create_dir_all(&self.home).unwrap();
        std::fs::write(self.home.join("config.toml"), user_config).unwrap();
        let env = vec![
            ("PAICLI_HOME".to_string(), self.home.display().to_string()),
            ("HOME".to_string(), self.user_home.display().to_string()),
        ];
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

    /// A skill `deploy` with `references/x.md` in the layer folder `dir`; returns its folder.
    fn deploy_skill(&self, dir: &Path) -> PathBuf {
        let folder = self.skill(
            dir,
            "deploy",
            "name: deploy\ndescription: Deploys the service to staging.",
            "1. Read references/x.md.\n2. Run the deploy script.\n",
        );
        std::fs::create_dir_all(folder.join("references")).unwrap();
        std::fs::write(
            folder.join("references/x.md"),
            "the staging host is stage-7\n",
        )
        .unwrap();
        folder
    }
}

async fn turn(agent: &mut Agent, text: &str) {
    agent
        .run_turn(text, &EventLog::default(), CancellationToken::new())
        .await;
}

fn messages(server: &ScriptedServer, request: usize) -> Vec<Value> {
    server.chat_requests()[request].body["messages"]
        .as_array()
        .unwrap()
        .clone()
}

fn tool_result(messages: &[Value], id: &str) -> String {
    messages
        .iter()
        .find(|m| m["role"] == "tool" && m["tool_call_id"] == id)
        .map(|m| m["content"].as_str().unwrap().to_string())
        .unwrap_or_else(|| panic!("no result for {id}"))
}

#[test]
fn layers_override_in_order_and_a_broken_skill_is_skipped_with_its_reason() {
    let fx = Fixture::new();
    let user_claude = fx.user_home.join(".claude/skills");
    // Replaces the built-in of the same name.
    fx.skill(
        &user_claude,
        "web-access",
        "name: web-access\ndescription: My own web rules.",
        "mine",
    );
    fx.skill(
        &fx.home.join("skills"),
        "deploy",
        "name: deploy\ndescription: User deploy.\nlicense: MIT\nmetadata:\n  team: ops",
        "user body",
    );
    fx.skill(
        &fx.user_home.join(".agents/skills"),
        "deploy",
        "name: deploy\ndescription: Agents deploy.",
        "agents body",
    );
    fx.skill(
        &fx.root.join(".agents/skills"),
        "lint",
        "name: lint\ndescription: Project lint.",
        "lint body",
    );
    fx.skill(
        &fx.root.join(".paicli/skills"),
        "deploy",
        "name: deploy\ndescription: Project deploy.",
        "project body",
    );
    fx.skill(
        &fx.root.join(".claude/skills"),
        "broken",
        "name: Broken_Name\ndescription: x",
        "",
    );
    std::fs::create_dir_all(fx.root.join(".claude/skills/not-a-skill")).unwrap();

    let found = discover(&fx.roots(), &["lint".to_string()]);
    let summary: Vec<(&str, Layer, &str, bool)> = found
        .skills
        .iter()
        .map(|s| (s.name.as_str(), s.layer, s.description.as_str(), s.enabled))
        .collect();
    assert_eq!(
        summary,
        [
            (
                "code-review",
                Layer::BuiltIn,
                found.get("code-review").unwrap().description.as_str(),
                true
            ),
            (
                "commit-message",
                Layer::BuiltIn,
                found.get("commit-message").unwrap().description.as_str(),
                true
            ),
            ("deploy", Layer::ProjectPaicli, "Project deploy.", true),
            ("lint", Layer::ProjectAgents, "Project lint.", false),
            ("web-access", Layer::UserClaude, "My own web rules.", true),
        ]
    );
    assert_eq!(found.get("deploy").unwrap().body, "project body");
    assert_eq!(found.skipped.len(), 1, "{:?}", found.skipped);
    let skipped = &found.skipped[0];
    assert_eq!(skipped.path, fx.root.join(".claude/skills/broken/SKILL.md"));
    assert!(
        skipped.problem.contains("Broken_Name"),
        "{}",
        skipped.problem
    );
    // Only enabled skills with folders become readable.
    assert_eq!(
        found.enabled_dirs(),
        [
            fx.root.join(".paicli/skills/deploy"),
            user_claude.join("web-access")
        ]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_catalog_is_in_the_first_request_and_byte_identical_in_the_next() {
    let fx = Fixture::new();
    fx.deploy_skill(&fx.root.join(".paicli/skills"));
    fx.skill(
        &fx.root.join(".paicli/skills"),
        "off-one",
        "name: off-one\ndescription: Switched off by the user.",
        "",
    );
    let server = ScriptedServer::with_replies([
        Reply::text("first"),
        Reply::tool_calls([("c1", "list_dir", json!({"path": "."}))]),
        Reply::text("second"),
    ]);
    let (mut agent, services) = fx.session(&server, "[skills]\ndisabled = [\"off-one\"]\n");
    turn(&mut agent, "hello").await;
    turn(&mut agent, "list the project").await;
    let systems: Vec<Value> = (0..3).map(|i| messages(&server, i)[0].clone()).collect();
    let prompt = systems[0]["content"].as_str().unwrap();
    assert!(prompt.contains("\n# Skills\n"), "{prompt}");
    assert!(prompt.contains("\n- deploy: Deploys the service to staging.\n"));
    assert!(prompt.contains("\n- web-access: "));
    assert!(!prompt.contains("off-one"));
    for system in &systems[1..] {
        assert_eq!(system.to_string(), systems[0].to_string());
    }
    let tools: Vec<String> = server.chat_requests()[0].body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap().to_string())
        .collect();
    assert!(tools.contains(&"load_skill".to_string()));
    assert!(tools.contains(&"create_project".to_string()));
    services.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn load_skill_puts_the_body_in_a_user_message_after_the_batchs_tool_results() {
    let fx = Fixture::new();
    let folder = fx.deploy_skill(&fx.root.join(".paicli/skills"));
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([
            ("c1", "load_skill", json!({"name": "deploy"})),
            ("c2", "list_dir", json!({"path": "."})),
        ]),
        Reply::text("done"),
    ]);
    let (mut agent, services) = fx.session(&server, "");
    turn(&mut agent, "deploy it").await;
    let sent = messages(&server, 1);
    let roles: Vec<&str> = sent.iter().map(|m| m["role"].as_str().unwrap()).collect();
    assert_eq!(
        roles,
        ["system", "user", "assistant", "tool", "tool", "user"]
    );
    assert!(tool_result(&sent, "c1").contains("Skill `deploy` loaded"));
    let body = sent[5]["content"].as_str().unwrap();
    assert!(body.starts_with("[skill instructions: deploy]\n"), "{body}");
    assert!(body.contains("2. Run the deploy script."));
    let reference = folder.join("references/x.md");
    assert!(
        body.contains(&format!("- {}\n", reference.display())),
        "{body}"
    );
    services.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_skills_files_are_readable_by_their_path_and_nothing_outside_them() {
    let fx = Fixture::new();
    // Outside the project: only the skill's own folder becomes readable.
    let folder = fx.deploy_skill(&fx.user_home.join(".claude/skills"));
    let outside = fx.user_home.join("secret.txt");
    std::fs::write(&outside, "secret\n").unwrap();
    std::os::unix::fs::symlink(&outside, folder.join("link.md")).unwrap();
    let off = fx.skill(
        &fx.home.join("skills"),
        "off-one",
        "name: off-one\ndescription: Off.",
        "",
    );
    std::fs::write(off.join("notes.md"), "hidden\n").unwrap();
    let escape = format!(
        "{}/../../../../secret.txt",
        folder.join("references").display()
    );
    let passwd = format!("{}/../../etc/passwd", folder.display());
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([
            (
                "r1",
                "read_file",
                json!({"path": folder.join("references/x.md").display().to_string()}),
            ),
            ("r2", "read_file", json!({"path": passwd})),
            ("r3", "read_file", json!({"path": escape})),
            (
                "r4",
                "read_file",
                json!({"path": folder.join("link.md").display().to_string()}),
            ),
            (
                "r5",
                "list_dir",
                json!({"path": folder.display().to_string()}),
            ),
            (
                "r6",
                "read_file",
                json!({"path": off.join("notes.md").display().to_string()}),
            ),
        ]),
        Reply::tool_calls([(
            "w1",
            "write_file",
            json!({"path": folder.join("references/x.md").display().to_string(), "content": "changed"}),
        )]),
        Reply::text("done"),
    ]);
    let (mut agent, services) = fx.session(&server, "[skills]\ndisabled = [\"off-one\"]\n");
    turn(&mut agent, "deploy").await;
    let sent = messages(&server, 2);
    assert!(tool_result(&sent, "r1").contains("the staging host is stage-7"));
    for id in ["r2", "r3", "r4", "r6"] {
        let result = tool_result(&sent, id);
        assert!(
            result.contains("[denied: PATH_OUT_OF_BOUNDS]"),
            "{id}: {result}"
        );
    }
    assert!(tool_result(&sent, "r5").contains("references"));
    assert!(tool_result(&sent, "w1").contains("[denied: PATH_OUT_OF_BOUNDS]"));
    assert_eq!(
        std::fs::read_to_string(folder.join("references/x.md")).unwrap(),
        "the staging host is stage-7\n"
    );
    services.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn create_project_runs_directly_in_auto_mode_and_is_audited() {
    let fx = Fixture::new();
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "p1",
            "create_project",
            json!({"name": "hello", "type": "python"}),
        )]),
        Reply::text("created"),
    ]);
    let (mut agent, services) = fx.session_in(&server, "", ApprovalMode::Auto);
    turn(&mut agent, "create a python project called hello").await;
    let result = tool_result(&messages(&server, 1), "p1");
    assert!(
        result.contains("Created a python project in hello/"),
        "{result}"
    );
    assert!(fx.root.join("hello/main.py").is_file());
    let audit: String = std::fs::read_dir(fx.home.join("audit"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    assert!(audit.contains("\"create_project\""), "{audit}");
    services.shutdown().await;
}
