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
