//! An in-process model and a temp project for driving the real `Agent` loop without HTTP: `FnClient` computes each
//! reply from the request (or plays scripted steps), and records what every request carried.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use tokio_util::sync::CancellationToken;

use paicli::agent::{Agent, AgentOptions, TurnHook};
use paicli::guard::path_guard::PathGuard;
use paicli::llm::{
    ChatResponse, DeltaSink, LlmClient, LlmError, Message, Role, StreamDelta, ToolCall, ToolSpec,
    Usage,
};
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

/// One scripted model reply.
pub enum Step {
    /// Streams the reply's reasoning and content, then returns it.
    Reply(ChatResponse),
    /// Streams `text`, then waits until the request is cancelled.
    StreamThenHang(String),
    Fail(LlmError),
}

/// Where replies come from.
enum Source {
    Computed(Box<Responder>),
    Steps(Mutex<VecDeque<Step>>),
}

/// An in-process model whose replies are computed from each request or scripted.
pub struct FnClient {
    source: Source,
    requests: Mutex<Vec<Request>>,
}

impl FnClient {
    pub fn new(
        respond: impl Fn(&Request) -> Result<ChatResponse, LlmError> + Send + Sync + 'static,
    ) -> Arc<Self> {
        Arc::new(FnClient {
            source: Source::Computed(Box::new(respond)),
            requests: Mutex::default(),
        })
    }

    /// A client that plays `steps` in order.
    pub fn steps(steps: Vec<Step>) -> Arc<Self> {
        Arc::new(FnClient {
            source: Source::Steps(Mutex::new(steps.into())),
            requests: Mutex::default(),
        })
    }

    /// A client that plays `replies` in order.
    pub fn script(replies: Vec<ChatResponse>) -> Arc<Self> {
        Self::steps(replies.into_iter().map(Step::Reply).collect())
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
        cancel: &CancellationToken,
    ) -> Result<ChatResponse, LlmError> {
        let request = Request {
            messages: messages.to_vec(),
            tools: tools.to_vec(),
        };
        self.requests.lock().unwrap().push(request.clone());
        let step = match &self.source {
            Source::Computed(respond) => match respond(&request) {
                Ok(reply) => Step::Reply(reply),
                Err(e) => Step::Fail(e),
            },
            Source::Steps(queue) => queue.lock().unwrap().pop_front().unwrap_or_else(|| {
                Step::Fail(LlmError::InvalidResponse("script exhausted".into()))
            }),
        };
        match step {
            Step::Reply(reply) => {
                if !reply.reasoning.is_empty() {
                    sink.on_delta(StreamDelta::Reasoning(reply.reasoning.clone()));
                }
                if !reply.content.is_empty() {
                    sink.on_delta(StreamDelta::Content(reply.content.clone()));
                }
                Ok(reply)
            }
            Step::StreamThenHang(text) => {
                sink.on_delta(StreamDelta::Content(text));
                cancel.cancelled().await;
                Err(LlmError::Cancelled)
            }
            Step::Fail(e) => Err(e),
        }
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
        let ctx = ToolContext {
            root: self.root.clone(),
            guard: Arc::new(PathGuard::new(&self.root).unwrap()),
            spill: Arc::new(SpillStore::new(&self.root, true, 32_000)),
            cancel: CancellationToken::new(),
            limits: ToolLimits::default(),
            gates: Vec::new(),
            progress: paicli::tools::Progress::default(),
            files: None,
            delegation: None,
        };
        let mut registry = ToolRegistry::new();
        for tool in tools::core_tools(&ctx.limits, &ctx.spill)
            .into_iter()
            .chain(extra)
        {
            registry.register(tool);
        }
        let registry = Arc::new(registry);
        let executor = Executor::new(Arc::clone(&registry), ExecutorOptions::default());
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
