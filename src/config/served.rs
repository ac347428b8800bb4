//! What the provider's server said about itself at start (local engines and custom endpoints), as plain data the
//! provider resolution and the compaction window read.

/// The server's answer: the model it serves and that model's context window. Empty when nobody asked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ServedModel {
    /// The model to use when none is configured (the only one the server lists).
    pub model: Option<String>,
    /// The window the server reported.
    pub window: Option<ServedWindow>,
}

/// A context window as the server reported it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServedWindow {
    pub tokens: u64,
    /// The model it was reported for; another model of the same server does not inherit it.
    pub model: String,
    /// Where it was read, e.g. `llama.cpp /props n_ctx`.
    pub source: &'static str,
}

/// Where the context window a session plans compaction for came from (`/model`, `/context`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WindowSource {
    /// `[llm] context_window` (file, env).
    Configured,
    /// The server's own report; the text names the endpoint and field.
    Server(&'static str),
    /// The provider table's value.
    Table,
}
