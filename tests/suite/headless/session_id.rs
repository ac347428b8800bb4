//! `--session-id <uuid>`: the new session's id, which `--resume` takes afterwards.

use serde_json::Value;

use crate::support::{CliSandbox, Reply, ScriptedServer, stderr_of, stdout_of};

const ID: &str = "123e4567-e89b-12d3-a456-426614174000";

fn result(
    sandbox: &CliSandbox,
    server: &ScriptedServer,
    args: &[&str],
) -> (Option<i32>, Value, String) {
    let output = sandbox
        .against(server)
        .args(["--output-format=json"])
        .args(args)
        .output()
        .unwrap();
    let result = serde_json::from_str(stdout_of(&output).trim()).unwrap_or(Value::Null);
    (output.status.code(), result, stderr_of(&output))
}

#[test]
fn a_new_session_takes_the_given_uuid_and_resume_finds_it() {
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies([Reply::text("Noted: blue."), Reply::text("Blue.")]);
    let (code, first, stderr) = result(
        &sandbox,
        &server,
        &["-p", "remember blue", "--session-id", ID],
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(first["session_id"], ID);

    let (code, second, stderr) =
        result(&sandbox, &server, &["-p", "which colour?", "--resume", ID]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(second["session_id"], ID);
    let history = server.chat_requests()[1].body["messages"].to_string();
    assert!(history.contains("remember blue"), "{history}");

    // The id is taken now: a second new session may not reuse it.
    let (code, _, stderr) = result(&sandbox, &server, &["-p", "again", "--session-id", ID]);
    assert_ne!(code, Some(0));
    assert!(stderr.contains("--resume"), "{stderr}");
    assert_eq!(server.chat_requests().len(), 2);
}

#[test]
fn a_session_id_that_is_not_a_uuid_is_refused() {
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies([Reply::text("unused")]);
    for bad in ["../../escape", "abc123"] {
        let (code, _, stderr) = result(&sandbox, &server, &["-p", "x", "--session-id", bad]);
        assert_ne!(code, Some(0));
        assert!(stderr.contains("is not a UUID"), "{stderr}");
    }
    assert!(server.chat_requests().is_empty());
}

/// Whether `id` reads as a UUID (`8-4-4-4-12` lowercase hex digits).
fn is_uuid(id: &str) -> bool {
    let groups: Vec<&str> = id.split('-').collect();
    groups.len() == 5
        && groups.iter().zip([8, 4, 4, 4, 12]).all(|(g, n)| {
            g.len() == n
                && g.chars()
                    .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
        })
}

#[test]
fn every_new_session_is_a_uuid_that_resume_and_continue_find() {
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies([
        Reply::text("Noted: blue."),
        Reply::text("Blue."),
        Reply::text("Still blue."),
        Reply::text("Forked."),
    ]);
    let (code, first, stderr) = result(&sandbox, &server, &["-p", "remember blue"]);
    assert_eq!(code, Some(0), "{stderr}");
    let id = first["session_id"].as_str().unwrap().to_string();
    assert!(is_uuid(&id), "{id}");

    let (code, second, stderr) =
        result(&sandbox, &server, &["-p", "which colour?", "--resume", &id]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(second["session_id"], id.as_str());
    let (code, third, stderr) = result(&sandbox, &server, &["-p", "and now?", "--continue"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(third["session_id"], id.as_str());
    let requests = server.chat_requests();
    for request in &requests[1..3] {
        let history = request.body["messages"].to_string();
        assert!(history.contains("remember blue"), "{history}");
    }

    // A fork is a new session: a new UUID, the history carried over.
    let (code, fork, stderr) = result(
        &sandbox,
        &server,
        &["-p", "fork it", "--resume", &id, "--fork-session"],
    );
    assert_eq!(code, Some(0), "{stderr}");
    let fork_id = fork["session_id"].as_str().unwrap();
    assert!(is_uuid(fork_id) && fork_id != id, "{fork_id}");
    assert!(
        server.chat_requests()[3].body["messages"]
            .to_string()
            .contains("and now?")
    );
}
