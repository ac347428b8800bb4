//! Long-term memory through the agent: the tool, the external-content gate, recall before the user's message,
//! and two processes writing at once.

use std::path::Path;
use std::sync::Arc;

use serde_json::json;
use tokio_util::sync::CancellationToken;

use paicli::agent::{
    AgentOptions, EventLog, MEMORY_EXTERNAL_CONTEXT, MemoryGuardHook, TurnOutcome,
};
use paicli::llm::{Message, Role};
use paicli::memory::{MemoryStore, SaveOptions, SaveOutcome, Scope};
use paicli::protocol::MemoryTaint;
use paicli::tools::memory::SaveMemory;

use super::{FnClient, Project, answer, calls};

fn agent_with_memory(
    project: &Project,
    client: Arc<FnClient>,
    store: &Arc<MemoryStore>,
) -> paicli::agent::Agent {
    let taint = Arc::new(MemoryTaint::new(&project.root));
    let mut agent = project.agent(
        client,
        AgentOptions::default(),
        vec![Arc::new(SaveMemory::new(Arc::clone(store)))],
        vec![Arc::new(MemoryGuardHook::new(taint))],
    );
    agent.set_memory(Arc::clone(store));
    agent
}

fn tool_texts(messages: &[Message]) -> Vec<String> {
    messages
        .iter()
        .filter(|m| m.role == Role::Tool)
        .map(Message::text)
        .collect()
}

#[tokio::test]
async fn save_duplicate_and_conflict_through_the_tool() {
    let project = Project::new();
    let home = tempfile::tempdir().unwrap();
    let store = Arc::new(MemoryStore::new(home.path(), &project.root));
    let client = FnClient::script(vec![
        calls(&[(
            "c1",
            "save_memory",
            json!({"fact": "The project uses Java 17"}),
        )]),
        calls(&[(
            "c2",
            "save_memory",
            json!({"fact": "the project uses java 17."}),
        )]),
        calls(&[(
            "c3",
            "save_memory",
            json!({"fact": "The project uses Java 21", "scope": "project"}),
        )]),
        answer("asked"),
    ]);
    let mut agent = agent_with_memory(&project, client.clone(), &store);
    let report = agent
        .run_turn(
            "remember we use Java 17",
            &EventLog::default(),
            CancellationToken::new(),
        )
        .await;
    assert!(matches!(report.outcome, TurnOutcome::Finished { .. }));
    let texts = tool_texts(agent.history());
    assert!(
        texts[0].contains("saved to project memory as ["),
        "{}",
        texts[0]
    );
    assert!(texts[1].contains("already saved as ["), "{}", texts[1]);
    assert!(
        texts[2].contains("[denied: MEMORY_CONFLICT]"),
        "{}",
        texts[2]
    );
    assert!(
        texts[2].contains("The project uses Java 17"),
        "both facts go back: {}",
        texts[2]
    );
    assert!(texts[2].contains("Ask the user"), "{}", texts[2]);
    let saved = store.list(None).unwrap();
    assert_eq!(saved.len(), 1);

    // The user chose: replace.
    let client = FnClient::script(vec![
        calls(&[(
            "c4",
            "save_memory",
            json!({"fact": "The project uses Java 21", "replace_id": saved[0].id}),
        )]),
        answer("replaced"),
    ]);
    let mut agent = agent_with_memory(&project, client, &store);
    agent
        .run_turn(
            "yes, remember Java 21 instead",
            &EventLog::default(),
            CancellationToken::new(),
        )
        .await;
    let facts: Vec<String> = store
        .list(None)
        .unwrap()
        .into_iter()
        .map(|e| e.fact)
        .collect();
    assert_eq!(facts, ["The project uses Java 21"]);
    let id = store.list(None).unwrap()[0].id.clone();
    store.delete(&id).unwrap();
    assert!(store.list(None).unwrap().is_empty());
}

#[tokio::test]
async fn facts_after_shell_output_are_not_saved_unless_the_user_asked() {
    let project = Project::new();
    let home = tempfile::tempdir().unwrap();
    let store = Arc::new(MemoryStore::new(home.path(), &project.root));
    let script = || {
        FnClient::script(vec![
            calls(&[(
                "c1",
                "execute_command",
                json!({"command": "echo deploy target is prod-7"}),
            )]),
            calls(&[(
                "c2",
                "save_memory",
                json!({"fact": "Deploy target is prod-7"}),
            )]),
            answer("ok"),
        ])
    };
    let mut agent = agent_with_memory(&project, script(), &store);
    agent
        .run_turn(
            "find the deploy target",
            &EventLog::default(),
            CancellationToken::new(),
        )
        .await;
    let texts = tool_texts(agent.history());
    assert!(
        texts[1].contains(&format!("[denied: {MEMORY_EXTERNAL_CONTEXT}]")),
        "{}",
        texts[1]
    );
    assert!(store.list(None).unwrap().is_empty());

    let mut agent = agent_with_memory(&project, script(), &store);
    agent
        .run_turn(
            "find the deploy target and remember it",
            &EventLog::default(),
            CancellationToken::new(),
        )
        .await;
    assert_eq!(
        store.list(None).unwrap().len(),
        1,
        "the user asked to remember"
    );
}

#[tokio::test]
async fn relevant_facts_come_right_before_the_user_message_and_the_prefix_stays_stable() {
    let project = Project::new();
    let home = tempfile::tempdir().unwrap();
    let store = Arc::new(MemoryStore::new(home.path(), &project.root));
    for fact in [
        "Run the tests with cargo nextest run",
        "The staging database is PostgreSQL 15",
    ] {
        store
            .save(fact, Scope::Project, &SaveOptions::default())
            .unwrap();
    }
    let client = FnClient::script(vec![
        answer("use nextest"),
        answer("postgres"),
        answer("again"),
    ]);
    let mut agent = agent_with_memory(&project, client.clone(), &store);
    agent
        .run_turn(
            "how do I run the tests?",
            &EventLog::default(),
            CancellationToken::new(),
        )
        .await;
    agent
        .run_turn(
            "which database does staging use?",
            &EventLog::default(),
            CancellationToken::new(),
        )
        .await;
    let requests = client.requests();
    let first = &requests[0].messages;
    assert_eq!(
        first[0].text(),
        "system prompt",
        "the system prompt is not rewritten"
    );
    assert_eq!(first.len(), 3);
    assert!(first[1].text().starts_with("[long-term memory]"));
    assert!(
        first[1].text().contains("cargo nextest"),
        "{}",
        first[1].text()
    );
    assert_eq!(first[2].text(), "how do I run the tests?");
    let second = &requests[1].messages;
    assert_eq!(
        &second[..first.len()],
        &first[..],
        "earlier messages are byte-identical"
    );
    assert!(second[first.len() + 1].text().contains("PostgreSQL"));
    assert_eq!(
        second.last().unwrap().text(),
        "which database does staging use?"
    );

    // A fact still in view is not recalled again.
    agent
        .run_turn(
            "run the tests again",
            &EventLog::default(),
            CancellationToken::new(),
        )
        .await;
    let third = &client.requests()[2].messages;
    assert_eq!(&third[..second.len()], &second[..]);
    assert_eq!(
        third.len(),
        second.len() + 2,
        "assistant answer and the new message only"
    );
}

const CHILD_HOME: &str = "PAICLI_TEST_MEMORY_CHILD_HOME";
const CHILD_ID: &str = "PAICLI_TEST_MEMORY_CHILD_ID";
const FACTS_PER_WRITER: usize = 25;

/// Runs only as a child of `two_processes_writing_at_once_lose_nothing` (no-op otherwise): saves facts.
#[test]
fn memory_child_writer() {
    let (Ok(home), Ok(id)) = (std::env::var(CHILD_HOME), std::env::var(CHILD_ID)) else {
        return;
    };
    let store = MemoryStore::new(Path::new(&home), Path::new("/shared/project"));
    for i in 0..FACTS_PER_WRITER {
        let fact = format!("process {id} learned fact {i} about module m{id}x{i}");
        let keep = SaveOptions {
            keep_both: true,
            ..SaveOptions::default()
        };
        let outcome = store.save(&fact, Scope::Project, &keep).unwrap();
        assert!(matches!(outcome, SaveOutcome::Saved(_)), "{outcome:?}");
    }
}

/// Two real processes (this test binary re-run on the child test above, selected with `--exact`) write to the
/// same memory file at once, as two paicli sessions would. The unit tests cover threads with separate stores;
/// only separate processes show that the lock and the reload-before-write hold across processes.
#[test]
fn two_processes_writing_at_once_lose_nothing() {
    let home = tempfile::tempdir().unwrap();
    let exe = std::env::current_exe().unwrap();
    let children: Vec<_> = (0..2)
        .map(|id| {
            std::process::Command::new(&exe)
                .args([
                    "suite::long_tasks::memory::memory_child_writer",
                    "--exact",
                    "--test-threads=1",
                ])
                .env(CHILD_HOME, home.path())
                .env(CHILD_ID, id.to_string())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            stdout.contains("1 passed"),
            "the child ran the writer: {stdout}"
        );
    }
    let store = MemoryStore::new(home.path(), Path::new("/shared/project"));
    let facts = store.list(None).unwrap();
    assert_eq!(facts.len(), 2 * FACTS_PER_WRITER);
    let mut ids: Vec<&str> = facts.iter().map(|e| e.id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 2 * FACTS_PER_WRITER, "ids are unique");
}
