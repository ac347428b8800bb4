//! Plain shared types with no behaviour of their own, and the small traits front-ends and gates plug in with.
//! Every module may use this one; it uses none.

pub mod approval;
pub mod browser;
pub mod events;
pub mod files;
pub mod gate;
pub mod hooks;
pub mod lifecycle;
pub mod memory_taint;
pub mod message;
pub mod notice;
pub mod outcome;
pub mod plan;
pub mod task_list;
pub mod traits;

pub use approval::{ApprovalAnswer, ApprovalRequest, Approver, NonInteractiveApprover, RuleLabel};
pub use browser::{OpenPage, PageInfo};
pub use events::{AgentEvent, DiagnosticsFile, EventLog, EventSink, HookOutcome, ToolStatus};
pub use files::{FileAccess, FileAccessError};
pub use gate::{
    CallGate, Confinement, GateCall, GateVerdict, HOOK_DENIED, HookAnswer, HookPermission,
    HookPermissions, SANDBOX_REQUIRED,
};
pub use hooks::{ToolFilter, TurnHook, TurnScope};
pub use lifecycle::{CompactTrigger, Lifecycle};
pub use memory_taint::{MemoryTaint, Reads};
pub use message::{ChatResponse, Content, ContentPart, Message, Role, ToolCall, ToolSpec, Usage};
pub use notice::{Notice, SkipReason};
pub use outcome::{FileDiff, ToolOutcome, ToolOutput};
pub use plan::{
    Plan, PlanDecision, PlanReviewer, PlanTask, PlanTaskOutcome, RunWithoutReview, TaskState,
};
pub use task_list::{StepStatus, TaskList, TaskStep};
pub use traits::{Risk, ToolKind, ToolTraits, ToolTraitsLookup};
