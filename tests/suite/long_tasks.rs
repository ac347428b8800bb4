//! Long tasks: budget exits and the partial report, the runaway reminder, context compaction (thresholds and
//! overflow retry) and long-term memory, driven through the real agent loop.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod budget_exits;
mod memory;
mod overflow;
mod session;

use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use tokio_util::sync::CancellationToken;

use paicli::agent::{Agent, AgentOptions, TurnHook};
use paicli::llm::{
    ChatResponse, DeltaSink, LlmClient, LlmError, Message, Role, StreamDelta, ToolCall, ToolSpec,
    Usage,
};
use paicli::policy::path_guard::PathGuard;
use paicli::tools::{
    self, Executor, ExecutorOptions, SpillStore, Tool, ToolContext, ToolLimits, ToolRegistry,
};

/// What one request carried.
#[derive(Clone, Debug)]
pub struct Request {
    pub messages: Vec<Message>,
    pub tools: Vec<ToolSpec>,
}

type Responder = dyn Fn(&Request) -> Result<ChatResponse, LlmError> + Send + Sync;

/// An in-process model whose replies are computed from each request.
pub struct FnClient {
    respond: Box<Responder>,
    requests: Mutex<Vec<Request>>,
}

impl FnClient {
    pub fn new(
        respond: impl Fn(&Request) -> Result<ChatResponse, LlmError> + Send + Sync + 'static,
    ) -> Arc<Self> {
        Arc::new(FnClient {
            respond: Box::new(respond),
            requests: Mutex::default(),
        })
    }

    /// A client that plays `replies` in order.
    pub fn script(replies: Vec<ChatResponse>) -> Arc<Self> {
        let queue = Mutex::new(std::collections::VecDeque::from(replies));
        Self::new(move |_| {
            queue
                .lock()
                .unwrap()
                .pop_front()
                .ok_or_else(|| LlmError::InvalidResponse("script exhausted".into()))
        })
    }

    pub fn requests(&self) -> Vec<Request> {
        self.requests.lock().unwrap().clone()
    }
}

#[async_trait]
impl LlmClient for FnClient {
    async fn chat(
        &self,
        messages: &[Message],
        tools: &[ToolSpec],
        sink: &dyn DeltaSink,
        _cancel: &CancellationToken,
    ) -> Result<ChatResponse, LlmError> {
        let request = Request {
            messages: messages.to_vec(),
            tools: tools.to_vec(),
        };
        self.requests.lock().unwrap().push(request.clone());
        let reply = (self.respond)(&request)?;
        if !reply.content.is_empty() {
            sink.on_delta(StreamDelta::Content(reply.content.clone()));
        }
        Ok(reply)
    }

    fn model(&self) -> &str {
        "fn-client"
    }
}

pub fn usage() -> Option<Usage> {
    Some(Usage {
        prompt_tokens: 100,
        completion_tokens: 10,
        ..Usage::default()
    })
}

pub fn answer(text: &str) -> ChatResponse {
    ChatResponse {
        content: text.into(),
        finish_reason: Some("stop".into()),
        usage: usage(),
        ..ChatResponse::default()
    }
}

pub fn calls(list: &[(&str, &str, serde_json::Value)]) -> ChatResponse {
    ChatResponse {
        tool_calls: list
            .iter()
            .map(|(id, name, args)| ToolCall {
                id: (*id).into(),
                name: (*name).into(),
                arguments: args.to_string(),
            })
            .collect(),
        finish_reason: Some("tool_calls".into()),
        usage: usage(),
        ..ChatResponse::default()
    }
}

/// A temp project and the pieces to build agents in it.
pub struct Project {
    /// Kept so the directory lives as long as the project.
    _dir: tempfile::TempDir,
    pub root: std::path::PathBuf,
}

impl Project {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        Project { _dir: dir, root }
    }

    pub fn write(&self, rel: &str, text: &str) {
        std::fs::write(self.root.join(rel), text).unwrap();
    }

    /// An agent with the core tools plus `extra`, and `hooks`.
    pub fn agent(
        &self,
        client: Arc<dyn LlmClient>,
        options: AgentOptions,
        extra: Vec<Arc<dyn Tool>>,
        hooks: Vec<Arc<dyn TurnHook>>,
    ) -> Agent {
        let mut registry = ToolRegistry::new();
        for tool in tools::core_tools().into_iter().chain(extra) {
            registry.register(tool);
        }
        let registry = Arc::new(registry);
        let executor = Executor::new(Arc::clone(&registry), ExecutorOptions::default());
        let ctx = ToolContext {
            root: self.root.clone(),
            guard: Arc::new(PathGuard::new(&self.root).unwrap()),
            spill: Arc::new(SpillStore::new(&self.root, true, 32_000)),
            cancel: CancellationToken::new(),
            limits: ToolLimits::default(),
            gates: Vec::new(),
        };
        let mut agent = Agent::new(
            client,
            registry,
            executor,
            ctx,
            "system prompt".into(),
            options,
        );
        for hook in hooks {
            agent.add_turn_hook(hook);
        }
        agent
    }
}

/// Every assistant tool call is answered by exactly one tool message right after it, and no tool message is
/// orphaned.
pub fn assert_valid_pairing(messages: &[Message]) {
    let mut i = 0;
    while i < messages.len() {
        let m = &messages[i];
        assert_ne!(m.role, Role::Tool, "orphan tool message at {i}");
        i += 1;
        if m.role == Role::Assistant && !m.tool_calls.is_empty() {
            for call in &m.tool_calls {
                let answer = messages.get(i).expect("tool result missing");
                assert_eq!(answer.role, Role::Tool, "expected a tool message at {i}");
                assert_eq!(answer.tool_call_id.as_deref(), Some(call.id.as_str()));
                i += 1;
            }
        }
    }
}
