//! `/index`, `/search`, `/graph` and a model's `search_code` call in the real terminal.

use serde_json::json;

use super::{Sandbox, terminal, tool_messages};
use crate::support::{Reply, ScriptedServer};

fn project(sandbox: &Sandbox) {
    let src = sandbox.project.path().join("src");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::write(
        src.join("store.rs"),
        "pub trait Store {}\npub struct Disk;\nimpl Store for Disk {}\nimpl Disk {\n    /// Writes the upload queue to disk, retrying failed writes.\n    pub fn save(&self) { flush(); }\n}\nfn flush() {}\nfn main() { Disk.save(); }\n",
    )
    .unwrap();
}

#[test]
fn index_search_and_graph_from_the_prompt() {
    let sandbox = Sandbox::new();
    project(&sandbox);
    let server = ScriptedServer::start();
    let t = sandbox.start(&server);

    t.submit("/index status");
    t.wait_for("no index for this project yet");
    t.submit("/index");
    t.wait_for("chunks indexed in");
    let screen = t.wait_prompt(3, terminal::DEADLINE);
    assert!(screen.contains("2 files, 7 chunks indexed in"), "{screen}");

    t.submit("/search retry failed writes");
    let screen = t.wait_for("hits for \"retry failed writes\", ranked by keywords");
    assert!(
        screen.contains("src/store.rs:5-6  crate::store::Disk::save"),
        "{screen}"
    );

    t.submit("/graph Disk");
    t.wait_for("read from syntax and matched by name (best effort)");
    let screen = t.wait_until("the graph", terminal::DEADLINE, |s| {
        s.contains("implements") && s.contains("Store")
    });
    assert!(screen.contains("crate::store::Disk::save"), "{screen}");

    t.submit("/search");
    t.wait_for("usage: /search <query>");
    t.submit("/graph Nowhere");
    t.wait_for("the index knows nothing about `Nowhere`");
    t.submit("/index status");
    t.wait_for("2 files, 7 chunks, 0 with vectors");
    t.wait_for("embeddings: none, ranking by keywords");
    assert_eq!(
        server.chat_requests().len(),
        0,
        "no command asked the model"
    );
}

#[test]
fn a_model_call_to_search_code_gets_locations_back() {
    let sandbox = Sandbox::new();
    project(&sandbox);
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "c1",
            "search_code",
            json!({"query": "where is the upload queue saved"}),
        )]),
        Reply::text("It is Disk::save."),
    ]);
    let t = sandbox.start(&server);
    t.submit("where is the upload queue saved?");
    t.wait_for("It is Disk::save.");
    let results = tool_messages(&server, 1);
    assert_eq!(results.len(), 1);
    assert!(
        results[0].contains("src/store.rs:5-6  crate::store::Disk::save"),
        "{}",
        results[0]
    );
    assert!(
        results[0].contains("read_file {\"path\":\"src/store.rs\",\"offset\":5,\"limit\":2}"),
        "{}",
        results[0]
    );
}
