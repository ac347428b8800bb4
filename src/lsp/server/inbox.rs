//! The two pipe loops of a server: the writer owns stdin, the reader routes everything the server sends.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use serde_json::{Value, json};
use tokio::io::BufReader;
use tokio::process::{ChildStdin, ChildStdout};
use tokio::sync::mpsc;

use super::{Published, Shared, lock};
use crate::lsp::framing::{read_message, write_message};
use crate::lsp::uri::uri_path;

/// JSON-RPC "method not found".
const METHOD_NOT_FOUND: i64 = -32601;

/// Writes queued messages to the server's stdin until the queue closes or the pipe breaks.
pub(super) async fn write_loop(
    mut stdin: ChildStdin,
    mut rx: mpsc::UnboundedReceiver<Value>,
    name: String,
) {
    while let Some(message) = rx.recv().await {
        if let Err(e) = write_message(&mut stdin, &message).await {
            tracing::debug!(server = name, "cannot write to the language server: {e}");
            break;
        }
    }
}

/// Reads messages until the server's stdout ends or sends garbage; then marks the server dead and fails every
/// waiting request.
pub(super) async fn read_loop(mut stdout: BufReader<ChildStdout>, shared: Arc<Shared>) {
    loop {
        match read_message(&mut stdout).await {
            Ok(Some(message)) => route(&shared, message),
            Ok(None) => {
                tracing::info!(server = shared.name, "language server closed its output");
                break;
            }
            Err(e) => {
                tracing::warn!(server = shared.name, "{e}");
                break;
            }
        }
    }
    shared.alive.store(false, Ordering::SeqCst);
    lock(&shared.pending).clear();
    shared.publishes.send_modify(|n| *n += 1);
}

/// One message: a response to us, a request we must answer, or a notification.
fn route(shared: &Shared, message: Value) {
    let method = message.get("method").and_then(Value::as_str);
    let id = message.get("id").filter(|id| !id.is_null());
    match (method, id) {
        (None, Some(id)) => {
            let Some(id) = id.as_i64() else { return };
            let Some(tx) = lock(&shared.pending).remove(&id) else {
                return;
            };
            let answer = match message.get("error") {
                Some(e) => Err(e
                    .get("message")
                    .and_then(Value::as_str)
                    .unwrap_or("unknown error")
                    .to_string()),
                None => Ok(message.get("result").cloned().unwrap_or(Value::Null)),
            };
            let _ = tx.send(answer);
        }
        (Some(method), Some(id)) => {
            let params = message.get("params").unwrap_or(&Value::Null);
            let reply = match answer_request(shared, method, params) {
                Ok(result) => json!({ "jsonrpc": "2.0", "id": id, "result": result }),
                Err(()) => json!({
                    "jsonrpc": "2.0", "id": id,
                    "error": { "code": METHOD_NOT_FOUND, "message": format!("paicli does not handle {method}") },
                }),
            };
            let _ = shared.outbox.send(reply);
        }
        (Some("textDocument/publishDiagnostics"), None) => {
            if let Some(params) = message.get("params") {
                store_publish(shared, params);
            }
        }
        (Some("window/logMessage" | "window/showMessage"), None) => {
            let text = message.pointer("/params/message").and_then(Value::as_str);
            tracing::debug!(server = shared.name, "{}", text.unwrap_or(""));
        }
        _ => {}
    }
}

/// The answers a server needs before it will work; anything else is "method not found".
fn answer_request(shared: &Shared, method: &str, params: &Value) -> Result<Value, ()> {
    match method {
        // One null per item asked: "no settings, use your defaults".
        "workspace/configuration" => {
            let n = params
                .get("items")
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            Ok(Value::Array(vec![Value::Null; n]))
        }
        "client/registerCapability"
        | "client/unregisterCapability"
        | "window/workDoneProgress/create"
        | "window/showMessageRequest"
        | "workspace/diagnostic/refresh"
        | "workspace/semanticTokens/refresh"
        | "workspace/inlayHint/refresh"
        | "workspace/codeLens/refresh" => Ok(Value::Null),
        "workspace/workspaceFolders" => {
            let uri = crate::lsp::uri::file_uri(&shared.root);
            Ok(json!([{ "uri": uri, "name": "project" }]))
        }
        _ => Err(()),
    }
}

fn store_publish(shared: &Shared, params: &Value) {
    let Some(path) = params.get("uri").and_then(Value::as_str).and_then(uri_path) else {
        return;
    };
    let raw = params.get("diagnostics").cloned().unwrap_or(Value::Null);
    let diagnostics: Vec<lsp_types::Diagnostic> = match serde_json::from_value(raw) {
        Ok(d) => d,
        Err(e) => {
            // Better no answer (the syntax check stands in) than a false "all fixed".
            tracing::warn!(server = shared.name, "unreadable publishDiagnostics: {e}");
            return;
        }
    };
    let version = params
        .get("version")
        .and_then(Value::as_i64)
        .and_then(|v| i32::try_from(v).ok());
    // Only this task bumps the counter, and it stores the publish first, so a woken waiter always finds it.
    let seq = *shared.publishes.borrow() + 1;
    lock(&shared.published).insert(
        path,
        Published {
            seq,
            version,
            diagnostics,
        },
    );
    shared.publishes.send_replace(seq);
}
