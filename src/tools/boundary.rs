//! SKELETON — replaced by the executor helper.

/// Wraps a tool result for the model as untrusted data.
pub fn wrap(_tool: &str, _body: &str) -> String {
    todo!()
}
