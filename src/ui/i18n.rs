//! UI strings in English and Chinese, chosen by `ui.language = auto|en|zh` (auto reads the locale variables).

mod agent_notices;
mod fill;
mod lang;
mod notices;
#[cfg(test)]
mod tests;

pub use agent_notices::notice_text;
pub use fill::{fill, labelled, placeholders, trf};
pub use lang::Lang;
pub use notices::{mention_skipped, project_trusted, refused_setting, sandbox_shortfall};

/// A UI message with a fixed wording per language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Msg {
    Tip,
    TrustNextSession,
    Thinking,
    Cancelled,
    PressCtrlCAgain,
    Bye,
    NoRunningTask,
    HistoryCleared,
    CommandsHeading,
    NotWhileRunning,
    ErrorPrefix,
    NextStep,
    CostUnknown,
    ExportedTo,
    InitExists,
    ModelSwitched,
    ModelSaved,
    ContextHeading,
    MentionSkipped,
    ApprovalModeIs,
    ModeAsk,
    ModeAuto,
    ModePlan,
    ModeFull,
    ShiftTabCycles,
    AuditEmpty,
    PolicyGuards,
    PolicyNoRules,
    PolicySessionRules,
    MemoryOff,
    MemoryEmpty,
    MemorySaved,
    MemoryDuplicate,
    MemoryConflict,
    MemoryConflictHint,
    MemoryDeleted,
    MemoryVerified,
    MemoryReplaced,
    MemoryCleared,
    MemoryClearConfirm,
    NothingCompacted,
    DiagnosticsOff,
    McpNone,
    McpApproved,
    McpNoLogs,
    McpRestarting,
    McpDisabled,
    McpEnabling,
    McpNoResources,
    McpNoPrompts,
    // keys
    ApprovalWants,
    RiskHigh,
    RiskMedium,
    RiskNone,
    ApprovalWhy,
    ApprovalAskMode,
    ApprovalCommand,
    ApprovalCommandParts,
    ApprovalQuestion,
    KeyYes,
    KeyYesEveryTime,
    KeySession,
    KeyProject,
    KeyNo,
    KeyReason,
    KeyEdit,
    KeyHelp,
    ApprovalHelpYes,
    ApprovalHelpSession,
    ApprovalHelpProject,
    ApprovalHelpNoRemember,
    ApprovalHelpNo,
    ApprovalHelpReason,
    ApprovalHelpEdit,
    ApprovalHelpCancel,
    ApprovalUnknownKey,
    ApprovalReasonPrompt,
    ApprovalEditPrompt,
    ApprovalInvalidJson,
    ApprovalNotObject,
    ApprovalAllowed,
    ApprovalAllowedSession,
    ApprovalAllowedProject,
    ApprovalEdited,
    ApprovalDenied,
    ApprovalCancelled,
    DiffOverwrites,
    DiffNewFile,
    DiffEdits,
    DiffNoMatch,
    DiffMoreLines,
    ModeFullWarning,
    RuleEveryCall,
    RuleCommandPrefix,
    RuleExactCommand,
    ApprovalTooLongToEdit,
    ApprovalRuleNotSaved,
    // text
    UnknownCommandSuggest,
    UnknownCommandPlain,
    KeysHeading,
    KeyStop,
    KeyExit,
    KeyNewline,
    KeyComplete,
    KeyMode,
    ConfigThisSession,
    ContextSystem,
    ContextTools,
    ContextHistory,
    ContextTotal,
    ContextToolCount,
    ContextMessageCount,
    CostSession,
    CostEstimate,
    ModelUsage,
    ModelShow,
    ModelNoneListed,
    ModelListFailed,
    ModelUnknownProvider,
    ModelSwitchFailed,
    ModelSaveFailed,
    ExportFailed,
    TrustFailed,
    MemoryUsage,
    SaveUsage,
    SaveUnknownOption,
    MemoryStale,
    MemoryFailed,
    McpUsage,
    McpOriginUser,
    McpOriginProject,
    McpStarting,
    McpReady,
    McpFailed,
    McpStateDisabled,
    McpNeedsApproval,
    McpOneTool,
    McpTools,
    McpSeeLogs,
    McpApproveHint,
    McpNoServer,
    McpServerError,
    HintPrefix,
    HintAuth,
    HintConnect,
    HintRateLimited,
    HintContextRepl,
    HintContextOneShot,
    HintModelRepl,
    HintModelOneShot,
    HintRetry,
    ProgressThinking,
    ProgressThought,
    ProgressToolOk,
    ProgressToolDenied,
    ProgressToolFailed,
    ProgressToolAborted,
    PartialStagnation,
    PartialTokens,
    PartialIterations,
    StartNoCwd,
    StartConfig,
    StartSetup,
    StartTrust,
    StartEmptyTask,
    StartNoTask,
    StartStdin,
    StartRuntime,
    StartBadFlag,
    StartBadApproval,
    OneShotFailed,
    LspHeading,
    LspNotStarted,
    LspStarting,
    LspRunning,
    LspFailed,
    LspNotInstalled,
    LspStarts,
    LspNoProblems,
    LspProblems,
    SeverityError,
    SeverityWarning,
    SeverityInfo,
    // sessions
    SessionForkAlone,
    SessionPickerNeedsTerminal,
    SessionPickerHeading,
    SessionPickerPrompt,
    SessionNoneToPick,
    SessionNotAChoice,
    SessionTurnOne,
    SessionTurns,
    SessionTornLastLine,
    SessionSkippedLines,
    SessionAbortedCalls,
    SessionInstructionsChanged,
    SessionNotRecorded,
    SessionResumed,
    SessionResumedAsFork,
    SessionNothingToContinue,
    SessionCannotResume,
    SessionUnknownIdNoSessions,
    SessionUnknownId,
    SessionAmbiguousId,
    SessionIdSeparator,
    SessionNoProjectSessions,
    SessionForked,
    SessionHistoryClearQuestion,
    SessionHistoryCleared,
    SessionNothingDeleted,
    SessionHistoryUsage,
    // output
    PhaseWaitingModel,
    PhaseThinking,
    PhaseResponding,
    PhaseRunning,
    PhaseWaitingApproval,
    PhaseWorking,
    LiveEscToStop,
    LiveQueued,
    Tokens,
    ToolOk,
    ToolFailed,
    ToolDenied,
    ToolAborted,
    ToolChars,
    MoreLines,
    CtrlOExpand,
    NothingToExpand,
    StatusTurn,
    StatusSession,
    StatusMode,
    StatusIn,
    StatusOut,
    StatusCached,
    Seconds,
    DiagnosticsTitle,
    PartialCompletion,
    // snapshots
    SnapshotsOff,
    SnapshotsEmpty,
    SnapshotsHeading,
    SnapshotsStore,
    SnapshotCleanConfirm,
    SnapshotsCleaned,
    SnapshotFiles,
    RestoreUsage,
    Restored,
    RestoreNothing,
    RewindNoTurns,
    RewindPick,
    RewindHow,
    RewindNoCode,
    RewindConversation,
    RewindInvalid,
    // notices
    NoticeDsmlCallsRun,
    NoticeDsmlNotRun,
    NoticeAnswerCutOff,
    NoticeRunawayReminder,
    NoticeLedgerNotWritten,
    NoticeContextOverflow,
    NoticePartialCompletion,
    NoticeMemoryUnavailable,
    NoticeCompactionSkipped,
    NoticeSnapshotsOff,
    NoticeHeadlineOnly,
    NoticeMcpServerFailed,
    NoticeMcpConfigSkipped,
    NoticeMcpNotStarted,
    NoticeMcpNeedsApproval,
    NoticeMcpApprovalNotSaved,
    NoticeMcpStarting,
    NoticeNote,
    // skills
    SkillsHeading,
    SkillsSkippedHeading,
    SkillsNone,
    SkillsCatalogLeftOut,
    SkillOn,
    SkillOff,
    SkillUsage,
    SkillUnknown,
    SkillSwitchedOn,
    SkillSwitchedOff,
    SkillNotSaved,
    SkillsReloaded,
    SkillShowFiles,
    CustomCommandsHeading,
    CustomCommandDefaultHelp,
    CustomCommandShadows,
    CustomCommandSkipped,
    SkillSkippedNotice,
    // local
    NoticeToolCallsCutOff,
    NoticeToolCallsCutOffAgain,
    NoticeEmptyAnswer,
    NoticeReasoningOnly,
    NoticeReasoningCutOff,
    PartialOutputLimit,
    HintOutputLimit,
    WindowFromConfig,
    WindowFromServer,
    WindowFromTable,
    ContextThresholds,
    // compaction
    NoticeContextTrimmed,
    // sandbox
    KeyUnsandboxed,
    ApprovalHelpUnsandboxed,
    ApprovalAllowedUnsandboxed,
    NoticeSandboxUnavailable,
    NoticeSandboxNetworkOpen,
    PolicySandbox,
    PolicySandboxWritable,
    SandboxActive,
    SandboxInactive,
    SandboxReadOnly,
    // index
    IndexOff,
    IndexBuilt,
    IndexEmbedded,
    IndexEmbedFailed,
    IndexProgressFiles,
    IndexProgressVectors,
    IndexStatusNone,
    IndexStatus,
    IndexEmbeddingsAt,
    IndexEmbeddingsNone,
    IndexCatchingUp,
    IndexFailed,
    IndexCancelled,
    SearchUsage,
    SearchNone,
    SearchHeading,
    RankingKeywords,
    RankingHybrid,
    GraphUsage,
    GraphNone,
    GraphBestEffort,
    GraphDefinitions,
    GraphContains,
    GraphContainedIn,
    GraphExtends,
    GraphImplements,
    GraphSubtypes,
    GraphCallers,
    GraphCalls,
    // serve
    ServeNoApiKey,
    ServeNotLoopback,
    ServeCannotBind,
    ServeStopped,
    ServeListening,
    // background tasks
    TaskUsage,
    TaskQueued,
    TaskNone,
    TaskSession,
    TaskNoLog,
    TaskCancelling,
    TaskUnknown,
    TaskAlreadyDone,
    TaskNotSaved,
    TaskStateQueued,
    TaskStateRunning,
    TaskStateFinished,
    TaskStatePartial,
    TaskStateFailed,
    TaskStateCancelled,
    // io
    PipedCut,
    PipedBinary,
    AllDenied,
    InitFound,
    InitFoundNone,
    HintAuthKey,
    NoticeRetrying,
    PricesAsOf,
    CostUnknownModel,
    ImagesNeedVision,
    NoClipboardImage,
    CostReported,
    PasteNotSaved,
    // mcp
    NoticeMcpNeedsLogin,
    McpStateNeedsLogin,
    McpLoginHint,
    McpLoginOpen,
    McpLoginWaiting,
    McpLoginDone,
    McpLoginFailed,
    McpLogoutDone,
    McpLogoutNone,
    McpNotRemote,
    McpNoSuchServer,
    ElicitAsks,
    ElicitKeys,
    ElicitRequired,
    ElicitWantChoice,
    ElicitWantYesNo,
    ElicitWantInteger,
    ElicitWantNumber,
    ElicitWantValue,
    ElicitSent,
    ElicitDeclined,
    ElicitCancelled,
    // acp
    AcpAllowOnce,
    AcpAllowSession,
    AcpReject,
    // acp: the task runner lock
    TaskRunsElsewhere,
    // polish
    EscAgainToRewind,
    McpReadyCount,
    // browser
    McpStateOnDemand,
    BrowserUsage,
    BrowserOff,
    BrowserModeIsolated,
    BrowserModeConnected,
    BrowserModeUser,
    BrowserRunning,
    BrowserNotStarted,
    BrowserNoTabs,
    BrowserUntitled,
    BrowserLastError,
    BrowserConnecting,
    BrowserConnected,
    BrowserDisconnected,
    BrowserCancelled,
    BrowserFailed,
    // plan
    NoticePlanSingleStep,
    NoticePlanRepairing,
    NoticePlanReplanning,
    NoticePlanReplanFailed,
    NoticePlanStepRejected,
    PlanHeading,
    PlanTaskAfter,
    PlanTaskRunning,
    PlanTaskDone,
    PlanTaskFailed,
    PlanTaskSkipped,
    PlanResults,
    PlanNotMade,
    PlanCancelled,
    // plan review and task list
    PlanReviewHeading,
    PlanAfter,
    PlanKeyRun,
    PlanKeyDetails,
    PlanKeyInstruct,
    PlanKeyCancel,
    PlanInstructPrompt,
    PlanRunning,
    PlanReviewCancelled,
    PlanReplanning,
    PlanModeRestored,
    PlanNextInput,
    TeamNextInput,
    PlanStatePending,
    PlanStateRunning,
    PlanStateDone,
    PlanStateFailed,
    PlanStateSkipped,
    PlanFinishedHeading,
    PlanFailedToStart,
    PlanStopped,
    // acp: plan mode and session modes
    AcpPlanCall,
    AcpRunPlan,
    AcpDontRunPlan,
    AcpModeAsk,
    AcpModeAuto,
    AcpModePlan,
    AcpModeFull,
    // polish: a pending plan can be dropped
    PlanPendingUndo,
    PlanPendingDropped,
    PlanNonePending,
    PromptPlanPending,
    PromptTeamPending,
}

impl Msg {
    /// Every message, for the table test (`i18n/tests.rs` checks that this lists every variant).
    pub const ALL: &[Msg] = &[
        Msg::Tip,
        Msg::TrustNextSession,
        Msg::Thinking,
        Msg::Cancelled,
        Msg::PressCtrlCAgain,
        Msg::Bye,
        Msg::NoRunningTask,
        Msg::HistoryCleared,
        Msg::CommandsHeading,
        Msg::NotWhileRunning,
        Msg::ErrorPrefix,
        Msg::NextStep,
        Msg::CostUnknown,
        Msg::ExportedTo,
        Msg::InitExists,
        Msg::ModelSwitched,
        Msg::ModelSaved,
        Msg::ContextHeading,
        Msg::MentionSkipped,
        Msg::ApprovalModeIs,
        Msg::ModeAsk,
        Msg::ModeAuto,
        Msg::ModePlan,
        Msg::ModeFull,
        Msg::ShiftTabCycles,
        Msg::AuditEmpty,
        Msg::PolicyGuards,
        Msg::PolicyNoRules,
        Msg::PolicySessionRules,
        Msg::MemoryOff,
        Msg::MemoryEmpty,
        Msg::MemorySaved,
        Msg::MemoryDuplicate,
        Msg::MemoryConflict,
        Msg::MemoryConflictHint,
        Msg::MemoryDeleted,
        Msg::MemoryVerified,
        Msg::MemoryReplaced,
        Msg::MemoryCleared,
        Msg::MemoryClearConfirm,
        Msg::NothingCompacted,
        Msg::DiagnosticsOff,
        Msg::McpNone,
        Msg::McpApproved,
        Msg::McpNoLogs,
        Msg::McpRestarting,
        Msg::McpDisabled,
        Msg::McpEnabling,
        Msg::McpNoResources,
        Msg::McpNoPrompts,
        Msg::UnknownCommandSuggest,
        Msg::UnknownCommandPlain,
        Msg::KeysHeading,
        Msg::KeyStop,
        Msg::KeyExit,
        Msg::KeyNewline,
        Msg::KeyComplete,
        Msg::KeyMode,
        Msg::ConfigThisSession,
        Msg::ContextSystem,
        Msg::ContextTools,
        Msg::ContextHistory,
        Msg::ContextTotal,
        Msg::ContextToolCount,
        Msg::ContextMessageCount,
        Msg::CostSession,
        Msg::CostEstimate,
        Msg::ModelUsage,
        Msg::ModelShow,
        Msg::ModelNoneListed,
        Msg::ModelListFailed,
        Msg::ModelUnknownProvider,
        Msg::ModelSwitchFailed,
        Msg::ModelSaveFailed,
        Msg::ExportFailed,
        Msg::TrustFailed,
        Msg::MemoryUsage,
        Msg::SaveUsage,
        Msg::SaveUnknownOption,
        Msg::MemoryStale,
        Msg::MemoryFailed,
        Msg::McpUsage,
        Msg::McpOriginUser,
        Msg::McpOriginProject,
        Msg::McpStarting,
        Msg::McpReady,
        Msg::McpFailed,
        Msg::McpStateDisabled,
        Msg::McpNeedsApproval,
        Msg::McpOneTool,
        Msg::McpTools,
        Msg::McpSeeLogs,
        Msg::McpApproveHint,
        Msg::McpNoServer,
        Msg::McpServerError,
        Msg::HintPrefix,
        Msg::HintAuth,
        Msg::HintConnect,
        Msg::HintRateLimited,
        Msg::HintContextRepl,
        Msg::HintContextOneShot,
        Msg::HintModelRepl,
        Msg::HintModelOneShot,
        Msg::HintRetry,
        Msg::ProgressThinking,
        Msg::ProgressThought,
        Msg::ProgressToolOk,
        Msg::ProgressToolDenied,
        Msg::ProgressToolFailed,
        Msg::ProgressToolAborted,
        Msg::PartialStagnation,
        Msg::PartialTokens,
        Msg::PartialIterations,
        Msg::StartNoCwd,
        Msg::StartConfig,
        Msg::StartSetup,
        Msg::StartTrust,
        Msg::StartEmptyTask,
        Msg::StartNoTask,
        Msg::StartStdin,
        Msg::StartRuntime,
        Msg::StartBadFlag,
        Msg::StartBadApproval,
        Msg::OneShotFailed,
        Msg::LspHeading,
        Msg::LspNotStarted,
        Msg::LspStarting,
        Msg::LspRunning,
        Msg::LspFailed,
        Msg::LspNotInstalled,
        Msg::LspStarts,
        Msg::LspNoProblems,
        Msg::LspProblems,
        Msg::SeverityError,
        Msg::SeverityWarning,
        Msg::SeverityInfo,
        Msg::ApprovalWants,
        Msg::RiskHigh,
        Msg::RiskMedium,
        Msg::RiskNone,
        Msg::ApprovalWhy,
        Msg::ApprovalAskMode,
        Msg::ApprovalCommand,
        Msg::ApprovalCommandParts,
        Msg::ApprovalQuestion,
        Msg::KeyYes,
        Msg::KeyYesEveryTime,
        Msg::KeySession,
        Msg::KeyProject,
        Msg::KeyNo,
        Msg::KeyReason,
        Msg::KeyEdit,
        Msg::KeyHelp,
        Msg::ApprovalHelpYes,
        Msg::ApprovalHelpSession,
        Msg::ApprovalHelpProject,
        Msg::ApprovalHelpNoRemember,
        Msg::ApprovalHelpNo,
        Msg::ApprovalHelpReason,
        Msg::ApprovalHelpEdit,
        Msg::ApprovalHelpCancel,
        Msg::ApprovalUnknownKey,
        Msg::ApprovalReasonPrompt,
        Msg::ApprovalEditPrompt,
        Msg::ApprovalInvalidJson,
        Msg::ApprovalNotObject,
        Msg::ApprovalAllowed,
        Msg::ApprovalAllowedSession,
        Msg::ApprovalAllowedProject,
        Msg::ApprovalEdited,
        Msg::ApprovalDenied,
        Msg::ApprovalCancelled,
        Msg::DiffOverwrites,
        Msg::DiffNewFile,
        Msg::DiffEdits,
        Msg::DiffNoMatch,
        Msg::DiffMoreLines,
        Msg::ModeFullWarning,
        Msg::RuleEveryCall,
        Msg::RuleCommandPrefix,
        Msg::RuleExactCommand,
        Msg::ApprovalTooLongToEdit,
        Msg::ApprovalRuleNotSaved,
        // sessions
        Msg::SessionForkAlone,
        Msg::SessionPickerNeedsTerminal,
        Msg::SessionPickerHeading,
        Msg::SessionPickerPrompt,
        Msg::SessionNoneToPick,
        Msg::SessionNotAChoice,
        Msg::SessionTurnOne,
        Msg::SessionTurns,
        Msg::SessionTornLastLine,
        Msg::SessionSkippedLines,
        Msg::SessionAbortedCalls,
        Msg::SessionInstructionsChanged,
        Msg::SessionNotRecorded,
        Msg::SessionResumed,
        Msg::SessionResumedAsFork,
        Msg::SessionNothingToContinue,
        Msg::SessionCannotResume,
        Msg::SessionUnknownIdNoSessions,
        Msg::SessionUnknownId,
        Msg::SessionAmbiguousId,
        Msg::SessionIdSeparator,
        Msg::SessionNoProjectSessions,
        Msg::SessionForked,
        Msg::SessionHistoryClearQuestion,
        Msg::SessionHistoryCleared,
        Msg::SessionNothingDeleted,
        Msg::SessionHistoryUsage,
        Msg::PhaseWaitingModel,
        Msg::PhaseThinking,
        Msg::PhaseResponding,
        Msg::PhaseRunning,
        Msg::PhaseWaitingApproval,
        Msg::PhaseWorking,
        Msg::LiveEscToStop,
        Msg::LiveQueued,
        Msg::Tokens,
        Msg::ToolOk,
        Msg::ToolFailed,
        Msg::ToolDenied,
        Msg::ToolAborted,
        Msg::ToolChars,
        Msg::MoreLines,
        Msg::CtrlOExpand,
        Msg::NothingToExpand,
        Msg::StatusTurn,
        Msg::StatusSession,
        Msg::StatusMode,
        Msg::StatusIn,
        Msg::StatusOut,
        Msg::StatusCached,
        Msg::Seconds,
        Msg::DiagnosticsTitle,
        Msg::PartialCompletion,
        Msg::SnapshotsOff,
        Msg::SnapshotsEmpty,
        Msg::SnapshotsHeading,
        Msg::SnapshotsStore,
        Msg::SnapshotCleanConfirm,
        Msg::SnapshotsCleaned,
        Msg::SnapshotFiles,
        Msg::RestoreUsage,
        Msg::Restored,
        Msg::RestoreNothing,
        Msg::RewindNoTurns,
        Msg::RewindPick,
        Msg::RewindHow,
        Msg::RewindNoCode,
        Msg::RewindConversation,
        Msg::RewindInvalid,
        // notices
        Msg::NoticeDsmlCallsRun,
        Msg::NoticeDsmlNotRun,
        Msg::NoticeAnswerCutOff,
        Msg::NoticeRunawayReminder,
        Msg::NoticeLedgerNotWritten,
        Msg::NoticeContextOverflow,
        Msg::NoticePartialCompletion,
        Msg::NoticeMemoryUnavailable,
        Msg::NoticeCompactionSkipped,
        Msg::NoticeSnapshotsOff,
        Msg::NoticeHeadlineOnly,
        Msg::NoticeMcpServerFailed,
        Msg::NoticeMcpConfigSkipped,
        Msg::NoticeMcpNotStarted,
        Msg::NoticeMcpNeedsApproval,
        Msg::NoticeMcpApprovalNotSaved,
        Msg::NoticeMcpStarting,
        Msg::NoticeNote,
        // skills
        Msg::SkillsHeading,
        Msg::SkillsSkippedHeading,
        Msg::SkillsNone,
        Msg::SkillsCatalogLeftOut,
        Msg::SkillOn,
        Msg::SkillOff,
        Msg::SkillUsage,
        Msg::SkillUnknown,
        Msg::SkillSwitchedOn,
        Msg::SkillSwitchedOff,
        Msg::SkillNotSaved,
        Msg::SkillsReloaded,
        Msg::SkillShowFiles,
        Msg::CustomCommandsHeading,
        Msg::CustomCommandDefaultHelp,
        Msg::CustomCommandShadows,
        Msg::CustomCommandSkipped,
        Msg::SkillSkippedNotice,
        // local
        Msg::NoticeToolCallsCutOff,
        Msg::NoticeToolCallsCutOffAgain,
        Msg::NoticeEmptyAnswer,
        Msg::NoticeReasoningOnly,
        Msg::NoticeReasoningCutOff,
        Msg::PartialOutputLimit,
        Msg::HintOutputLimit,
        Msg::WindowFromConfig,
        Msg::WindowFromServer,
        Msg::WindowFromTable,
        Msg::ContextThresholds,
        // compaction
        Msg::NoticeContextTrimmed,
        // sandbox
        Msg::KeyUnsandboxed,
        Msg::ApprovalHelpUnsandboxed,
        Msg::ApprovalAllowedUnsandboxed,
        Msg::NoticeSandboxUnavailable,
        Msg::NoticeSandboxNetworkOpen,
        Msg::PolicySandbox,
        Msg::PolicySandboxWritable,
        Msg::SandboxActive,
        Msg::SandboxInactive,
        Msg::SandboxReadOnly,
        // index
        Msg::IndexOff,
        Msg::IndexBuilt,
        Msg::IndexEmbedded,
        Msg::IndexEmbedFailed,
        Msg::IndexProgressFiles,
        Msg::IndexProgressVectors,
        Msg::IndexStatusNone,
        Msg::IndexStatus,
        Msg::IndexEmbeddingsAt,
        Msg::IndexEmbeddingsNone,
        Msg::IndexCatchingUp,
        Msg::IndexFailed,
        Msg::IndexCancelled,
        Msg::SearchUsage,
        Msg::SearchNone,
        Msg::SearchHeading,
        Msg::RankingKeywords,
        Msg::RankingHybrid,
        Msg::GraphUsage,
        Msg::GraphNone,
        Msg::GraphBestEffort,
        Msg::GraphDefinitions,
        Msg::GraphContains,
        Msg::GraphContainedIn,
        Msg::GraphExtends,
        Msg::GraphImplements,
        Msg::GraphSubtypes,
        Msg::GraphCallers,
        Msg::GraphCalls,
        // serve
        Msg::ServeNoApiKey,
        Msg::ServeNotLoopback,
        Msg::ServeCannotBind,
        Msg::ServeStopped,
        Msg::ServeListening,
        // background tasks
        Msg::TaskUsage,
        Msg::TaskQueued,
        Msg::TaskNone,
        Msg::TaskSession,
        Msg::TaskNoLog,
        Msg::TaskCancelling,
        Msg::TaskUnknown,
        Msg::TaskAlreadyDone,
        Msg::TaskNotSaved,
        Msg::TaskStateQueued,
        Msg::TaskStateRunning,
        Msg::TaskStateFinished,
        Msg::TaskStatePartial,
        Msg::TaskStateFailed,
        Msg::TaskStateCancelled,
        // io
        Msg::PipedCut,
        Msg::PipedBinary,
        Msg::AllDenied,
        Msg::InitFound,
        Msg::InitFoundNone,
        Msg::HintAuthKey,
        Msg::NoticeRetrying,
        Msg::PricesAsOf,
        Msg::CostUnknownModel,
        Msg::ImagesNeedVision,
        Msg::NoClipboardImage,
        Msg::CostReported,
        Msg::PasteNotSaved,
        // mcp
        Msg::NoticeMcpNeedsLogin,
        Msg::McpStateNeedsLogin,
        Msg::McpLoginHint,
        Msg::McpLoginOpen,
        Msg::McpLoginWaiting,
        Msg::McpLoginDone,
        Msg::McpLoginFailed,
        Msg::McpLogoutDone,
        Msg::McpLogoutNone,
        Msg::McpNotRemote,
        Msg::McpNoSuchServer,
        Msg::ElicitAsks,
        Msg::ElicitKeys,
        Msg::ElicitRequired,
        Msg::ElicitWantChoice,
        Msg::ElicitWantYesNo,
        Msg::ElicitWantInteger,
        Msg::ElicitWantNumber,
        Msg::ElicitWantValue,
        Msg::ElicitSent,
        Msg::ElicitDeclined,
        Msg::ElicitCancelled,
        // acp
        Msg::AcpAllowOnce,
        Msg::AcpAllowSession,
        Msg::AcpReject,
        // acp: the task runner lock
        Msg::TaskRunsElsewhere,
        // polish
        Msg::EscAgainToRewind,
        Msg::McpReadyCount,
        // browser
        Msg::McpStateOnDemand,
        Msg::BrowserUsage,
        Msg::BrowserOff,
        Msg::BrowserModeIsolated,
        Msg::BrowserModeConnected,
        Msg::BrowserModeUser,
        Msg::BrowserRunning,
        Msg::BrowserNotStarted,
        Msg::BrowserNoTabs,
        Msg::BrowserUntitled,
        Msg::BrowserLastError,
        Msg::BrowserConnecting,
        Msg::BrowserConnected,
        Msg::BrowserDisconnected,
        Msg::BrowserCancelled,
        Msg::BrowserFailed,
        // plan
        Msg::NoticePlanSingleStep,
        Msg::NoticePlanRepairing,
        Msg::NoticePlanReplanning,
        Msg::NoticePlanReplanFailed,
        Msg::NoticePlanStepRejected,
        Msg::PlanHeading,
        Msg::PlanTaskAfter,
        Msg::PlanTaskRunning,
        Msg::PlanTaskDone,
        Msg::PlanTaskFailed,
        Msg::PlanTaskSkipped,
        Msg::PlanResults,
        Msg::PlanNotMade,
        Msg::PlanCancelled,
        // plan review and task list
        Msg::PlanReviewHeading,
        Msg::PlanAfter,
        Msg::PlanKeyRun,
        Msg::PlanKeyDetails,
        Msg::PlanKeyInstruct,
        Msg::PlanKeyCancel,
        Msg::PlanInstructPrompt,
        Msg::PlanRunning,
        Msg::PlanReviewCancelled,
        Msg::PlanReplanning,
        Msg::PlanModeRestored,
        Msg::PlanNextInput,
        Msg::TeamNextInput,
        Msg::PlanStatePending,
        Msg::PlanStateRunning,
        Msg::PlanStateDone,
        Msg::PlanStateFailed,
        Msg::PlanStateSkipped,
        Msg::PlanFinishedHeading,
        Msg::PlanFailedToStart,
        Msg::PlanStopped,
        Msg::AcpPlanCall,
        Msg::AcpRunPlan,
        Msg::AcpDontRunPlan,
        Msg::AcpModeAsk,
        Msg::AcpModeAuto,
        Msg::AcpModePlan,
        Msg::AcpModeFull,
        // polish: a pending plan can be dropped
        Msg::PlanPendingUndo,
        Msg::PlanPendingDropped,
        Msg::PlanNonePending,
        Msg::PromptPlanPending,
        Msg::PromptTeamPending,
    ];
}

/// How many tasks a plan has: "1 task", "3 tasks", "3 个任务".
pub fn task_count(lang: Lang, n: usize) -> String {
    match lang {
        Lang::En if n == 1 => "1 task".to_string(),
        Lang::En => format!("{n} tasks"),
        Lang::Zh => format!("{n} 个任务"),
    }
}

/// The text of `msg` in `lang`.
pub fn tr(lang: Lang, msg: Msg) -> &'static str {
    use Msg::*;
    match (lang, msg) {
        (Lang::En, Tip) => {
            "Type a task, /help for commands, @path to attach a file; ESC stops a running task."
        }
        (Lang::Zh, Tip) => "输入任务；/help 查看命令，@路径 附加文件；任务运行时按 ESC 停止。",
        (Lang::En, TrustNextSession) => {
            "the settings ignored at start-up apply from the next session"
        }
        (Lang::Zh, TrustNextSession) => "启动时被忽略的设置将从下一次会话起生效",
        (Lang::En, Thinking) => "Thinking",
        (Lang::Zh, Thinking) => "思考中",
        (Lang::En, Cancelled) => "cancelled by user",
        (Lang::Zh, Cancelled) => "已被用户取消",
        (Lang::En, PressCtrlCAgain) => "press Ctrl-C again to exit (or Ctrl-D)",
        (Lang::Zh, PressCtrlCAgain) => "再按一次 Ctrl-C 退出（或 Ctrl-D）",
        (Lang::En, Bye) => "bye",
        (Lang::Zh, Bye) => "再见",
        (Lang::En, NoRunningTask) => "no running task",
        (Lang::Zh, NoRunningTask) => "没有正在运行的任务",
        (Lang::En, HistoryCleared) => "conversation cleared",
        (Lang::Zh, HistoryCleared) => "对话已清空",
        (Lang::En, CommandsHeading) => "Commands",
        (Lang::Zh, CommandsHeading) => "命令",
        (Lang::En, NotWhileRunning) => "not available while a task runs",
        (Lang::Zh, NotWhileRunning) => "任务运行时不可用",
        (Lang::En, ErrorPrefix) => "error",
        (Lang::Zh, ErrorPrefix) => "错误",
        (Lang::En, NextStep) => "next step",
        (Lang::Zh, NextStep) => "下一步",
        (Lang::En, CostUnknown) => "cost: no prices known for this provider",
        (Lang::Zh, CostUnknown) => "费用：该提供商没有已知价格",
        (Lang::En, ExportedTo) => "conversation exported to",
        (Lang::Zh, ExportedTo) => "对话已导出到",
        (Lang::En, InitExists) => "PAI.md already exists; run /init --force to regenerate it",
        (Lang::Zh, InitExists) => "PAI.md 已存在；用 /init --force 重新生成",
        (Lang::En, ModelSwitched) => "model for this session",
        (Lang::Zh, ModelSwitched) => "本会话的模型",
        (Lang::En, ModelSaved) => "saved as the default in",
        (Lang::Zh, ModelSaved) => "已保存为默认值：",
        (Lang::En, ContextHeading) => "Context (estimated tokens)",
        (Lang::Zh, ContextHeading) => "上下文（估算 token）",
        (Lang::En, MentionSkipped) => "not attached",
        (Lang::Zh, MentionSkipped) => "未附加",
        (Lang::En, ApprovalModeIs) => "approval mode",
        (Lang::Zh, ApprovalModeIs) => "审批模式",
        (Lang::En, ModeAsk) => "every edit, command and MCP call asks you first",
        (Lang::Zh, ModeAsk) => "每次编辑、命令和 MCP 调用都先询问你",
        (Lang::En, ModeAuto) => {
            "edits run; a classifier judges each command and asks you when unsure; MCP calls and reverts are refused"
        }
        (Lang::Zh, ModeAuto) => {
            "编辑直接执行；命令由分类器判断，拿不准时询问你；MCP 调用和回退被拒绝"
        }
        (Lang::En, ModePlan) => "read-only tools until you approve a plan",
        (Lang::Zh, ModePlan) => "批准计划前只能使用只读工具",
        (Lang::En, ModeFull) => "everything runs without asking; the guards still apply",
        (Lang::Zh, ModeFull) => "全部直接执行，不再询问；防护仍然生效",
        (Lang::En, ShiftTabCycles) => {
            "Shift+Tab at the prompt cycles auto → plan → ask → auto; /mode full for full"
        }
        (Lang::Zh, ShiftTabCycles) => {
            "在提示符处按 Shift+Tab 循环切换 auto → plan → ask → auto；用 /mode full 进入 full"
        }
        (Lang::En, AuditEmpty) => "no audit entries yet in",
        (Lang::Zh, AuditEmpty) => "还没有审计记录：",
        (Lang::En, PolicyGuards) => {
            "Always on, in every mode: path fence (files stay inside the project), command guard (destructive \
             commands are refused), secret scrubbing (keys are masked in the audit log and removed from the \
             command environment)"
        }
        (Lang::Zh, PolicyGuards) => {
            "在所有模式下始终生效：路径围栏（文件限于项目内）、命令防护（拒绝破坏性命令）、密钥清洗（审计日志中打码，\
             命令环境中移除）"
        }
        (Lang::En, PolicyNoRules) => "none",
        (Lang::Zh, PolicyNoRules) => "无",
        (Lang::En, PolicySessionRules) => "this session (approved with `a`):",
        (Lang::Zh, PolicySessionRules) => "本会话（用 `a` 批准）：",
        (Lang::En, MemoryOff) => "long-term memory is not available in this session",
        (Lang::Zh, MemoryOff) => "本会话没有长期记忆",
        (Lang::En, MemoryEmpty) => "no memories saved yet (/save <fact>)",
        (Lang::Zh, MemoryEmpty) => "还没有保存的记忆（/save <事实>）",
        (Lang::En, MemorySaved) => "saved",
        (Lang::Zh, MemorySaved) => "已保存",
        (Lang::En, MemoryDuplicate) => "already saved; marked as verified",
        (Lang::Zh, MemoryDuplicate) => "已存在；已标记为已验证",
        (Lang::En, MemoryConflict) => "not saved: it may contradict",
        (Lang::Zh, MemoryConflict) => "未保存：可能与以下记忆矛盾",
        (Lang::En, MemoryConflictHint) => {
            "use /save --force <fact> to keep both, or /memory replace <id> <fact> to replace one"
        }
        (Lang::Zh, MemoryConflictHint) => {
            "用 /save --force <事实> 同时保留，或用 /memory replace <id> <事实> 替换其中一条"
        }
        (Lang::En, MemoryDeleted) => "deleted",
        (Lang::Zh, MemoryDeleted) => "已删除",
        (Lang::En, MemoryVerified) => "verified",
        (Lang::Zh, MemoryVerified) => "已验证",
        (Lang::En, MemoryReplaced) => "replaced",
        (Lang::Zh, MemoryReplaced) => "已替换",
        (Lang::En, MemoryCleared) => "memories deleted",
        (Lang::Zh, MemoryCleared) => "条记忆已删除",
        (Lang::En, MemoryClearConfirm) => {
            "this deletes every saved memory (this project's and the global ones); run /memory clear --yes"
        }
        (Lang::Zh, MemoryClearConfirm) => {
            "这会删除所有记忆（本项目和全局）；确认请运行 /memory clear --yes"
        }
        (Lang::En, NothingCompacted) => "nothing compacted",
        (Lang::Zh, NothingCompacted) => "未压缩",
        (Lang::En, DiagnosticsOff) => "diagnostics are off ([lsp] enabled = false)",
        (Lang::Zh, DiagnosticsOff) => "诊断已关闭（[lsp] enabled = false）",
        (Lang::En, McpNone) => {
            "no MCP servers configured ($PAICLI_HOME/mcp.json or .paicli/mcp.json)"
        }
        (Lang::Zh, McpNone) => "没有配置 MCP 服务器（$PAICLI_HOME/mcp.json 或 .paicli/mcp.json）",
        (Lang::En, McpApproved) => "approved for this project; starting",
        (Lang::Zh, McpApproved) => "已为本项目批准；正在启动",
        (Lang::En, McpNoLogs) => "no stderr output kept for",
        (Lang::Zh, McpNoLogs) => "没有保留的 stderr 输出：",
        (Lang::En, McpRestarting) => "restarting",
        (Lang::Zh, McpRestarting) => "正在重启",
        (Lang::En, McpDisabled) => "stopped and disabled for this session",
        (Lang::Zh, McpDisabled) => "已停止，本次会话中禁用",
        (Lang::En, McpEnabling) => "enabled; starting",
        (Lang::Zh, McpEnabling) => "已启用；正在启动",
        (Lang::En, McpNoResources) => "the server lists no resources",
        (Lang::Zh, McpNoResources) => "该服务器没有列出资源",
        (Lang::En, McpNoPrompts) => "the server lists no prompts",
        (Lang::Zh, McpNoPrompts) => "该服务器没有列出提示模板",
        // keys
        (Lang::En, ApprovalWants) => "{tool} wants to run (risk: {risk})",
        (Lang::Zh, ApprovalWants) => "{tool} 请求执行（风险：{risk}）",
        (Lang::En, RiskHigh) => "high",
        (Lang::Zh, RiskHigh) => "高",
        (Lang::En, RiskMedium) => "medium",
        (Lang::Zh, RiskMedium) => "中",
        (Lang::En, RiskNone) => "none",
        (Lang::Zh, RiskNone) => "无",
        (Lang::En, ApprovalWhy) => "why asked",
        (Lang::Zh, ApprovalWhy) => "询问原因",
        (Lang::En, ApprovalAskMode) => "ask mode asks before every call that changes something",
        (Lang::Zh, ApprovalAskMode) => "ask 模式在每个会改动内容的调用前询问",
        (Lang::En, ApprovalCommand) => "command",
        (Lang::Zh, ApprovalCommand) => "命令",
        (Lang::En, ApprovalCommandParts) => "{n} commands",
        (Lang::Zh, ApprovalCommandParts) => "{n} 条命令",
        (Lang::En, ApprovalQuestion) => "Approve?",
        (Lang::Zh, ApprovalQuestion) => "批准？",
        (Lang::En, KeyYes) => "[y/Enter] yes",
        (Lang::Zh, KeyYes) => "[y/Enter] 是",
        (Lang::En, KeyYesEveryTime) => "[y/Enter] yes (asked every time)",
        (Lang::Zh, KeyYesEveryTime) => "[y/Enter] 是（每次都会询问）",
        (Lang::En, KeySession) => "[a] yes, and allow {rule} this session",
        (Lang::Zh, KeySession) => "[a] 是，并在本次会话中允许{rule}",
        (Lang::En, KeyProject) => "[p] always allow it in this project",
        (Lang::Zh, KeyProject) => "[p] 在本项目中始终允许",
        (Lang::En, KeyNo) => "[n] no",
        (Lang::Zh, KeyNo) => "[n] 否",
        (Lang::En, KeyReason) => "[r] no, with a reason",
        (Lang::Zh, KeyReason) => "[r] 否，并说明原因",
        (Lang::En, KeyEdit) => "[m] edit arguments",
        (Lang::Zh, KeyEdit) => "[m] 编辑参数",
        (Lang::En, KeyHelp) => "[?] keys",
        (Lang::Zh, KeyHelp) => "[?] 按键说明",
        (Lang::En, ApprovalHelpYes) => "y or Enter  run this call once",
        (Lang::Zh, ApprovalHelpYes) => "y 或 Enter  执行这一次调用",
        (Lang::En, ApprovalHelpSession) => {
            "a           run it, and allow {rule} for the rest of this session"
        }
        (Lang::Zh, ApprovalHelpSession) => "a           执行，并在本次会话剩余时间内允许{rule}",
        (Lang::En, ApprovalHelpProject) => {
            "p           run it, and always allow {rule} in this project (saved in your config.toml)"
        }
        (Lang::Zh, ApprovalHelpProject) => {
            "p           执行，并在本项目中始终允许{rule}（保存到你的 config.toml）"
        }
        (Lang::En, ApprovalHelpNoRemember) => {
            "            (a and p are not offered: this call is asked about every time)"
        }
        (Lang::Zh, ApprovalHelpNoRemember) => "            （不提供 a 和 p：这类调用每次都会询问）",
        (Lang::En, ApprovalHelpNo) => "n           do not run it; the model is told you refused",
        (Lang::Zh, ApprovalHelpNo) => "n           不执行；告诉模型你拒绝了",
        (Lang::En, ApprovalHelpReason) => {
            "r           do not run it, and type a reason the model reads"
        }
        (Lang::Zh, ApprovalHelpReason) => "r           不执行，并输入一条给模型看的原因",
        (Lang::En, ApprovalHelpEdit) => {
            "m           edit the arguments as JSON, then run with them (ESC goes back)"
        }
        (Lang::Zh, ApprovalHelpEdit) => "m           以 JSON 编辑参数后按新参数执行（ESC 返回）",
        (Lang::En, ApprovalHelpCancel) => "ESC, Ctrl-C  do not run it, and cancel the whole task",
        (Lang::Zh, ApprovalHelpCancel) => "ESC、Ctrl-C  不执行，并取消整个任务",
        (Lang::En, ApprovalUnknownKey) => "not a key of this prompt; press ? to see the keys",
        (Lang::Zh, ApprovalUnknownKey) => "这个按键无效；按 ? 查看所有按键",
        (Lang::En, ApprovalReasonPrompt) => "Reason for the model (Enter sends, ESC goes back): ",
        (Lang::Zh, ApprovalReasonPrompt) => "给模型的原因（Enter 发送，ESC 返回）：",
        (Lang::En, ApprovalEditPrompt) => {
            "Arguments as JSON (Enter runs with them, ESC goes back): "
        }
        (Lang::Zh, ApprovalEditPrompt) => "JSON 格式的参数（Enter 按此执行，ESC 返回）：",
        (Lang::En, ApprovalInvalidJson) => "invalid JSON",
        (Lang::Zh, ApprovalInvalidJson) => "JSON 无效",
        (Lang::En, ApprovalNotObject) => "the arguments must be a JSON object ({...})",
        (Lang::Zh, ApprovalNotObject) => "参数必须是 JSON 对象（{...}）",
        (Lang::En, ApprovalAllowed) => "allowed",
        (Lang::Zh, ApprovalAllowed) => "已允许",
        (Lang::En, ApprovalAllowedSession) => {
            "allowed; {rule} runs without asking for the rest of this session"
        }
        (Lang::Zh, ApprovalAllowedSession) => "已允许；本次会话剩余时间内{rule}无需再询问",
        (Lang::En, ApprovalAllowedProject) => {
            "allowed; {rule} always runs in this project (saved in the user config)"
        }
        (Lang::Zh, ApprovalAllowedProject) => {
            "已允许；本项目中{rule}将始终直接执行（已保存到用户配置）"
        }
        (Lang::En, ApprovalEdited) => "allowed with edited arguments",
        (Lang::Zh, ApprovalEdited) => "已允许，使用编辑后的参数",
        (Lang::En, ApprovalDenied) => "denied",
        (Lang::Zh, ApprovalDenied) => "已拒绝",
        (Lang::En, ApprovalCancelled) => "denied; the task is cancelled",
        (Lang::Zh, ApprovalCancelled) => "已拒绝；任务已取消",
        (Lang::En, DiffOverwrites) => "overwrites {path}",
        (Lang::Zh, DiffOverwrites) => "将覆盖 {path}",
        (Lang::En, DiffNewFile) => "new file {path} ({n} lines)",
        (Lang::Zh, DiffNewFile) => "新文件 {path}（{n} 行）",
        (Lang::En, DiffEdits) => "edits {path}",
        (Lang::Zh, DiffEdits) => "将编辑 {path}",
        (Lang::En, DiffNoMatch) => "old_text is not in {path} as it is now; the tool will say so",
        (Lang::Zh, DiffNoMatch) => "{path} 当前内容中找不到 old_text；工具会报告这一点",
        (Lang::En, DiffMoreLines) => "… {n} more lines",
        (Lang::Zh, DiffMoreLines) => "… 还有 {n} 行",
        (Lang::En, ModeFullWarning) => {
            "full mode: every call runs without asking (the guards still apply); /mode auto to go back"
        }
        (Lang::Zh, ModeFullWarning) => {
            "full 模式：所有调用都不再询问直接执行（防护仍然生效）；/mode auto 可切回"
        }
        (Lang::En, RuleEveryCall) => "every `{x}` call",
        (Lang::Zh, RuleEveryCall) => "每次 `{x}` 调用",
        (Lang::En, RuleCommandPrefix) => "commands starting with `{x}`",
        (Lang::Zh, RuleCommandPrefix) => "以 `{x}` 开头的命令",
        (Lang::En, RuleExactCommand) => "exactly the command `{x}`",
        (Lang::Zh, RuleExactCommand) => "仅限命令 `{x}`",
        (Lang::En, ApprovalTooLongToEdit) => {
            "the arguments ({n} chars) are too long to edit on this screen; answer with another key"
        }
        (Lang::En, ApprovalRuleNotSaved) => {
            "the rule was not saved, so it holds for this session only: {error}"
        }
        (Lang::Zh, ApprovalRuleNotSaved) => "规则未能保存，仅在本次会话中有效：{error}",
        (Lang::Zh, ApprovalTooLongToEdit) => {
            "参数（{n} 个字符）太长，无法在此屏幕上编辑；请用其他按键回答"
        }
        // text
        (Lang::En, UnknownCommandSuggest) => {
            "unknown command /{name}; did you mean /{suggestion}? (/help)"
        }
        (Lang::Zh, UnknownCommandSuggest) => {
            "未知命令 /{name}；你是不是想输入 /{suggestion}？（/help）"
        }
        (Lang::En, UnknownCommandPlain) => "unknown command /{name} (/help)",
        (Lang::Zh, UnknownCommandPlain) => "未知命令 /{name}（/help）",
        (Lang::En, KeysHeading) => "Keys",
        (Lang::Zh, KeysHeading) => "按键",
        (Lang::En, KeyStop) => "ESC or Ctrl-C stops a running task",
        (Lang::Zh, KeyStop) => "ESC 或 Ctrl-C 停止运行中的任务",
        (Lang::En, KeyExit) => "Ctrl-C twice or Ctrl-D exits",
        (Lang::Zh, KeyExit) => "连按两次 Ctrl-C 或 Ctrl-D 退出",
        (Lang::En, KeyNewline) => "Alt-Enter or a trailing \\ starts a new line",
        (Lang::Zh, KeyNewline) => "Alt-Enter 或行尾的 \\ 换行",
        (Lang::En, KeyComplete) => "Tab completes /commands and @paths and lists the choices",
        (Lang::Zh, KeyComplete) => "Tab 补全 /命令 和 @路径，并列出可选项",
        (Lang::En, KeyMode) => "Shift+Tab cycles the approval mode",
        (Lang::Zh, KeyMode) => "Shift+Tab 切换审批模式",
        (Lang::En, ConfigThisSession) => "/model (this session)",
        (Lang::Zh, ConfigThisSession) => "/model（本会话）",
        (Lang::En, ContextSystem) => "system",
        (Lang::Zh, ContextSystem) => "系统",
        (Lang::En, ContextTools) => "tools",
        (Lang::Zh, ContextTools) => "工具",
        (Lang::En, ContextHistory) => "history",
        (Lang::Zh, ContextHistory) => "历史",
        (Lang::En, ContextTotal) => "total",
        (Lang::Zh, ContextTotal) => "合计",
        (Lang::En, ContextToolCount) => "({count} tools)",
        (Lang::Zh, ContextToolCount) => "（{count} 个工具）",
        (Lang::En, ContextMessageCount) => "({count} messages)",
        (Lang::Zh, ContextMessageCount) => "（{count} 条消息）",
        (Lang::En, CostSession) => {
            "session: {turns} turns, {requests} requests · in {input} · out {output} · cached {cached} · reasoning {reasoning}"
        }
        (Lang::Zh, CostSession) => {
            "本会话：{turns} 轮，{requests} 次请求 · 输入 {input} · 输出 {output} · 缓存 {cached} · 推理 {reasoning}"
        }
        (Lang::En, CostEstimate) => "estimated cost: {cost}",
        (Lang::Zh, CostEstimate) => "估算费用：{cost}",
        (Lang::En, ModelUsage) => "usage: /model [list | <model> | <provider> <model>] [--save]",
        (Lang::Zh, ModelUsage) => "用法：/model [list | <模型> | <提供商> <模型>] [--save]",
        (Lang::En, ModelShow) => "{provider}/{model} · window {window} · {url}",
        (Lang::Zh, ModelShow) => "{provider}/{model} · 上下文窗口 {window} · {url}",
        (Lang::En, ModelNoneListed) => "(the provider listed no models)",
        (Lang::Zh, ModelNoneListed) => "（提供商没有列出任何模型）",
        (Lang::En, ModelListFailed) => "cannot list models: {error}",
        (Lang::Zh, ModelListFailed) => "无法列出模型：{error}",
        (Lang::En, ModelUnknownProvider) => "unknown provider {name}; known: {known}",
        (Lang::Zh, ModelUnknownProvider) => "未知提供商 {name}；已知：{known}",
        (Lang::En, ModelSwitchFailed) => "cannot switch to {model}: {error}",
        (Lang::Zh, ModelSwitchFailed) => "无法切换到 {model}：{error}",
        (Lang::En, ModelSaveFailed) => "cannot save {path}: {error}",
        (Lang::Zh, ModelSaveFailed) => "无法保存 {path}：{error}",
        (Lang::En, ExportFailed) => "cannot export to {dir}: {error}",
        (Lang::Zh, ExportFailed) => "无法导出到 {dir}：{error}",
        (Lang::En, TrustFailed) => "cannot write the project trust file: {error}",
        (Lang::Zh, TrustFailed) => "无法写入项目信任文件：{error}",
        (Lang::En, MemoryUsage) => {
            "usage: /memory [list | search <q> | delete <id> | verify <id> | replace <id> <fact> | clear --yes]"
        }
        (Lang::Zh, MemoryUsage) => {
            "用法：/memory [list | search <查询> | delete <id> | verify <id> | replace <id> <事实> | clear --yes]"
        }
        (Lang::En, SaveUsage) => "usage: /save [--global|--project] [--force] <fact>",
        (Lang::Zh, SaveUsage) => "用法：/save [--global|--project] [--force] <事实>",
        (Lang::En, SaveUnknownOption) => "unknown option --{option} ({usage})",
        (Lang::Zh, SaveUnknownOption) => "未知选项 --{option}（{usage}）",
        (Lang::En, MemoryStale) => "(stale: /memory verify to keep it)",
        (Lang::Zh, MemoryStale) => "（已过期：用 /memory verify 保留）",
        (Lang::En, MemoryFailed) => "the memory store failed: {error}",
        (Lang::Zh, MemoryFailed) => "记忆存储出错：{error}",
        (Lang::En, McpUsage) => {
            "usage: /mcp [logs|approve|restart|disable|enable|resources|prompts <name>]"
        }
        (Lang::Zh, McpUsage) => {
            "用法：/mcp [logs|approve|restart|disable|enable|resources|prompts <名称>]"
        }
        (Lang::En, McpOriginUser) => "user",
        (Lang::Zh, McpOriginUser) => "用户",
        (Lang::En, McpOriginProject) => "project",
        (Lang::Zh, McpOriginProject) => "项目",
        (Lang::En, McpStarting) => "starting",
        (Lang::Zh, McpStarting) => "启动中",
        (Lang::En, McpReady) => "ready",
        (Lang::Zh, McpReady) => "就绪",
        (Lang::En, McpFailed) => "failed",
        (Lang::Zh, McpFailed) => "失败",
        (Lang::En, McpStateDisabled) => "disabled",
        (Lang::Zh, McpStateDisabled) => "已禁用",
        (Lang::En, McpNeedsApproval) => "needs approval",
        (Lang::Zh, McpNeedsApproval) => "待批准",
        (Lang::En, McpOneTool) => "{count} tool",
        (Lang::Zh, McpOneTool) => "{count} 个工具",
        (Lang::En, McpTools) => "{count} tools",
        (Lang::Zh, McpTools) => "{count} 个工具",
        (Lang::En, McpSeeLogs) => "{reason} (/mcp logs {name})",
        (Lang::Zh, McpSeeLogs) => "{reason}（/mcp logs {name}）",
        (Lang::En, McpApproveHint) => "runs `{command}`; /mcp approve {name}",
        (Lang::Zh, McpApproveHint) => "将运行 `{command}`；/mcp approve {name}",
        (Lang::En, McpNoServer) => "no MCP server named `{name}`",
        (Lang::Zh, McpNoServer) => "没有名为 `{name}` 的 MCP 服务器",
        (Lang::En, McpServerError) => "{error}",
        (Lang::Zh, McpServerError) => "MCP 服务器出错：{error}",
        (Lang::En, HintPrefix) => "hint",
        (Lang::Zh, HintPrefix) => "提示",
        (Lang::En, HintAuth) => {
            "check the API key variable for your provider (e.g. DEEPSEEK_API_KEY)"
        }
        (Lang::Zh, HintAuth) => "检查所用提供商的 API 密钥变量（例如 DEEPSEEK_API_KEY）",
        (Lang::En, HintConnect) => {
            "check the network and the base URL (--base-url / PAICLI_BASE_URL)"
        }
        (Lang::Zh, HintConnect) => "检查网络和接口地址（--base-url / PAICLI_BASE_URL）",
        (Lang::En, HintRateLimited) => "the provider is rate limiting; wait a moment and try again",
        (Lang::Zh, HintRateLimited) => "提供商正在限流；稍等片刻再试",
        (Lang::En, HintContextRepl) => {
            "the conversation is too long for the model's window; /compact or /clear"
        }
        (Lang::Zh, HintContextRepl) => "对话超出了模型的上下文窗口；用 /compact 或 /clear",
        (Lang::En, HintContextOneShot) => "the task is too long for the model's window",
        (Lang::Zh, HintContextOneShot) => "任务超出了模型的上下文窗口",
        (Lang::En, HintModelRepl) => "check the model name (/model list) and the base URL",
        (Lang::Zh, HintModelRepl) => "检查模型名称（/model list）和接口地址",
        (Lang::En, HintModelOneShot) => "check the model name (--model) and the base URL",
        (Lang::Zh, HintModelOneShot) => "检查模型名称（--model）和接口地址",
        (Lang::En, HintRetry) => "retry the task, or /model to switch the model",
        (Lang::Zh, HintRetry) => "重试该任务，或用 /model 切换模型",
        (Lang::En, ProgressThinking) => "thinking…",
        (Lang::Zh, ProgressThinking) => "思考中…",
        (Lang::En, ProgressThought) => "thought ({count} chars)",
        (Lang::Zh, ProgressThought) => "已思考（{count} 字符）",
        (Lang::En, ProgressToolOk) => "{name} ({ms} ms, {chars} chars)",
        (Lang::Zh, ProgressToolOk) => "{name}（{ms} 毫秒，{chars} 字符）",
        (Lang::En, ProgressToolDenied) => "{name} denied: {detail}",
        (Lang::Zh, ProgressToolDenied) => "{name} 被拒绝：{detail}",
        (Lang::En, ProgressToolFailed) => "{name} failed: {detail}",
        (Lang::Zh, ProgressToolFailed) => "{name} 失败：{detail}",
        (Lang::En, ProgressToolAborted) => "{name} aborted by user",
        (Lang::Zh, ProgressToolAborted) => "{name} 已被用户中止",
        (Lang::En, PartialStagnation) => {
            "stopped early ({reason}): the model repeated the same tool calls; the answer is a partial report"
        }
        (Lang::Zh, PartialStagnation) => {
            "提前停止（{reason}）：模型反复发出相同的工具调用；输出是部分结果"
        }
        (Lang::En, PartialTokens) => {
            "stopped early ({reason}): the task used up its token budget (--token-budget); the answer is a partial report"
        }
        (Lang::Zh, PartialTokens) => {
            "提前停止（{reason}）：任务用完了 token 预算（--token-budget）；输出是部分结果"
        }
        (Lang::En, PartialIterations) => {
            "stopped early ({reason}): the task reached its model-call limit (--max-iterations); the answer is a partial report"
        }
        (Lang::Zh, PartialIterations) => {
            "提前停止（{reason}）：任务达到了模型调用次数上限（--max-iterations）；输出是部分结果"
        }
        (Lang::En, StartNoCwd) => "cannot read the current directory: {error}",
        (Lang::Zh, StartNoCwd) => "无法读取当前目录：{error}",
        (Lang::En, StartConfig) => "{error}",
        (Lang::Zh, StartConfig) => "配置有误：{error}",
        (Lang::En, StartSetup) => "{error}",
        (Lang::Zh, StartSetup) => "无法启动：{error}",
        (Lang::En, StartTrust) => "cannot write the project trust file: {error}",
        (Lang::Zh, StartTrust) => "无法写入项目信任文件：{error}",
        (Lang::En, StartEmptyTask) => {
            "the task is empty: pass it as paicli -p \"task\" or on stdin with paicli -p -"
        }
        (Lang::Zh, StartEmptyTask) => {
            "任务为空：用 paicli -p \"任务\" 传入，或通过标准输入 paicli -p -"
        }
        (Lang::En, StartNoTask) => {
            "no task given: pass it as paicli -p \"task\" or pipe it to paicli -p -"
        }
        (Lang::Zh, StartNoTask) => {
            "没有给出任务：用 paicli -p \"任务\" 传入，或通过管道传给 paicli -p -"
        }
        (Lang::En, StartStdin) => "cannot read the task from stdin: {error}",
        (Lang::Zh, StartStdin) => "无法从标准输入读取任务：{error}",
        (Lang::En, StartRuntime) => "cannot start the async runtime: {error}",
        (Lang::Zh, StartRuntime) => "无法启动异步运行时：{error}",
        (Lang::En, StartBadFlag) => "{error}",
        (Lang::Zh, StartBadFlag) => "命令行参数有误（paicli --help 查看用法）：{error}",
        (Lang::En, StartBadApproval) => "{error}",
        (Lang::Zh, StartBadApproval) => "审批模式无效：{error}",
        (Lang::En, OneShotFailed) => "{error}",
        (Lang::Zh, OneShotFailed) => "模型请求失败：{error}",
        (Lang::En, LspHeading) => "Language servers:",
        (Lang::Zh, LspHeading) => "语言服务器：",
        (Lang::En, LspNotStarted) => "installed, not started",
        (Lang::Zh, LspNotStarted) => "已安装，未启动",
        (Lang::En, LspStarting) => "starting",
        (Lang::Zh, LspStarting) => "启动中",
        (Lang::En, LspRunning) => "running",
        (Lang::Zh, LspRunning) => "运行中",
        (Lang::En, LspFailed) => "failed: {reason}",
        (Lang::Zh, LspFailed) => "失败：{reason}",
        (Lang::En, LspNotInstalled) => "not installed",
        (Lang::Zh, LspNotInstalled) => "未安装",
        (Lang::En, LspStarts) => "(started {count} times)",
        (Lang::Zh, LspStarts) => "（已启动 {count} 次）",
        (Lang::En, LspNoProblems) => "No problems in the files checked so far.",
        (Lang::Zh, LspNoProblems) => "已检查的文件中没有发现问题。",
        (Lang::En, LspProblems) => "Problems in the files checked so far:",
        (Lang::Zh, LspProblems) => "已检查的文件中发现的问题：",
        (Lang::En, SeverityError) => "error",
        (Lang::Zh, SeverityError) => "错误",
        (Lang::En, SeverityWarning) => "warning",
        (Lang::Zh, SeverityWarning) => "警告",
        (Lang::En, SeverityInfo) => "info",
        (Lang::Zh, SeverityInfo) => "提示",
        // sessions
        (Lang::En, SessionForkAlone) => {
            "--fork continues an earlier session under a new id: use it with --continue or --resume"
        }
        (Lang::Zh, SessionForkAlone) => {
            "--fork 以新的 id 继续一个旧会话：请与 --continue 或 --resume 一起使用"
        }
        (Lang::En, SessionPickerNeedsTerminal) => {
            "--resume without an id picks from a list, which needs the interactive mode; pass an id: paicli --resume <id> -p \"…\""
        }
        (Lang::Zh, SessionPickerNeedsTerminal) => {
            "不带 id 的 --resume 需要在交互模式中选择；请指定 id：paicli --resume <id> -p \"…\""
        }
        (Lang::En, SessionPickerHeading) => "Sessions of this project, newest first:",
        (Lang::Zh, SessionPickerHeading) => "本项目的会话（最新的在前）：",
        (Lang::En, SessionPickerPrompt) => {
            "Resume which? Type its number and Enter (Enter alone, ESC or Ctrl-C: new session): "
        }
        (Lang::Zh, SessionPickerPrompt) => {
            "恢复哪一个？输入编号并回车（直接回车、ESC 或 Ctrl-C：新会话）："
        }
        (Lang::En, SessionNoneToPick) => "no earlier sessions of this project; starting a new one",
        (Lang::Zh, SessionNoneToPick) => "本项目没有旧会话；开始新会话",
        (Lang::En, SessionNotAChoice) => "not a number from the list; starting a new session",
        (Lang::Zh, SessionNotAChoice) => "不是列表中的编号；开始新会话",
        (Lang::En, SessionTurnOne) => "{count} turn ",
        (Lang::Zh, SessionTurnOne) => "{count} 轮",
        (Lang::En, SessionTurns) => "{count} turns",
        (Lang::Zh, SessionTurns) => "{count} 轮",
        (Lang::En, SessionTornLastLine) => {
            "the session's last line was cut off (paicli stopped while writing it) and was skipped"
        }
        (Lang::Zh, SessionTornLastLine) => {
            "会话记录的最后一行不完整（paicli 写入时被中断），已跳过"
        }
        (Lang::En, SessionSkippedLines) => {
            "skipped {count} damaged line(s) of the session's ledger (the first is line {first})"
        }
        (Lang::Zh, SessionSkippedLines) => {
            "跳过了会话记录中 {count} 行损坏的内容（第一处在第 {first} 行）"
        }
        (Lang::En, SessionAbortedCalls) => {
            "{count} tool call(s) had no result (paicli stopped while they ran); they are marked aborted"
        }
        (Lang::Zh, SessionAbortedCalls) => {
            "{count} 个工具调用没有结果（运行时 paicli 被中断），已标记为中止"
        }
        (Lang::En, SessionInstructionsChanged) => {
            "the project instructions changed since this session started; the new ones apply from now on"
        }
        (Lang::Zh, SessionInstructionsChanged) => {
            "项目指令在本会话开始后有改动；从现在起使用新的指令"
        }
        (Lang::En, SessionNotRecorded) => {
            "this session is not recorded and cannot be resumed later: {error}"
        }
        (Lang::Zh, SessionNotRecorded) => "本会话未被记录，之后无法恢复：{error}",
        (Lang::En, SessionResumed) => "resumed session {id}: {turns} turn(s) so far",
        (Lang::Zh, SessionResumed) => "已恢复会话 {id}：已有 {turns} 轮",
        (Lang::En, SessionResumedAsFork) => {
            "forked session {from} as {id}: {turns} turn(s) so far; the original is unchanged"
        }
        (Lang::Zh, SessionResumedAsFork) => {
            "已将会话 {from} 分叉为 {id}：已有 {turns} 轮；原会话保持不变"
        }
        (Lang::En, SessionNothingToContinue) => {
            "there is no earlier session of {root} to continue; run paicli to start one"
        }
        (Lang::Zh, SessionNothingToContinue) => "{root} 没有可继续的旧会话；运行 paicli 开始一个",
        (Lang::En, SessionCannotResume) => "cannot resume the session: {error}",
        (Lang::Zh, SessionCannotResume) => "无法恢复会话：{error}",
        (Lang::En, SessionUnknownIdNoSessions) => {
            "no session id starts with `{prefix}`, and this project has no sessions yet"
        }
        (Lang::Zh, SessionUnknownIdNoSessions) => {
            "没有以 `{prefix}` 开头的会话 id，本项目也还没有会话"
        }
        (Lang::En, SessionUnknownId) => {
            "no session id starts with `{prefix}`; recent sessions of this project: {ids}"
        }
        (Lang::Zh, SessionUnknownId) => "没有以 `{prefix}` 开头的会话 id；本项目最近的会话：{ids}",
        (Lang::En, SessionAmbiguousId) => {
            "`{prefix}` matches several sessions: {ids}; type more of the id"
        }
        (Lang::Zh, SessionAmbiguousId) => "`{prefix}` 匹配多个会话：{ids}；请输入更长的 id",
        (Lang::En, SessionIdSeparator) => ", ",
        (Lang::Zh, SessionIdSeparator) => "、",
        (Lang::En, SessionNoProjectSessions) => "this project has no recorded sessions",
        (Lang::Zh, SessionNoProjectSessions) => "本项目没有已记录的会话",
        (Lang::En, SessionForked) => {
            "forked: this is now session {id}; session {from} stays as it was"
        }
        (Lang::Zh, SessionForked) => "已分叉：当前会话为 {id}；会话 {from} 保持不变",
        (Lang::En, SessionHistoryClearQuestion) => {
            "Delete the {count} other recorded session(s) of this project? They cannot be resumed afterwards. [y/N] "
        }
        (Lang::Zh, SessionHistoryClearQuestion) => {
            "删除本项目其他 {count} 个已记录的会话？删除后无法恢复。[y/N] "
        }
        (Lang::En, SessionHistoryCleared) => {
            "deleted {count} session ledger(s); the running session is kept"
        }
        (Lang::Zh, SessionHistoryCleared) => "已删除 {count} 个会话记录；当前会话保留",
        (Lang::En, SessionNothingDeleted) => "nothing deleted",
        (Lang::Zh, SessionNothingDeleted) => "未删除任何内容",
        (Lang::En, SessionHistoryUsage) => {
            "usage: /history clear   (deletes this project's other recorded sessions, after asking)"
        }
        (Lang::Zh, SessionHistoryUsage) => {
            "用法：/history clear   （询问后删除本项目其他已记录的会话）"
        }
        // output
        (Lang::En, PhaseWaitingModel) => "waiting for the model",
        (Lang::Zh, PhaseWaitingModel) => "等待模型响应",
        (Lang::En, PhaseThinking) => "thinking",
        (Lang::Zh, PhaseThinking) => "思考中",
        (Lang::En, PhaseResponding) => "writing the answer",
        (Lang::Zh, PhaseResponding) => "正在输出回答",
        (Lang::En, PhaseRunning) => "running",
        (Lang::Zh, PhaseRunning) => "正在运行",
        (Lang::En, PhaseWaitingApproval) => "waiting for approval",
        (Lang::Zh, PhaseWaitingApproval) => "等待审批",
        (Lang::En, PhaseWorking) => "working",
        (Lang::Zh, PhaseWorking) => "处理中",
        (Lang::En, LiveEscToStop) => "esc to stop",
        (Lang::Zh, LiveEscToStop) => "按 esc 停止",
        (Lang::En, LiveQueued) => "queued",
        (Lang::Zh, LiveQueued) => "条排队中",
        (Lang::En, Tokens) => "tokens",
        (Lang::Zh, Tokens) => "个 token",
        (Lang::En, ToolOk) => "ok",
        (Lang::Zh, ToolOk) => "成功",
        (Lang::En, ToolFailed) => "failed",
        (Lang::Zh, ToolFailed) => "失败",
        (Lang::En, ToolDenied) => "denied",
        (Lang::Zh, ToolDenied) => "已拒绝",
        (Lang::En, ToolAborted) => "aborted by user",
        (Lang::Zh, ToolAborted) => "已被用户中止",
        (Lang::En, ToolChars) => "chars",
        (Lang::Zh, ToolChars) => "字符",
        (Lang::En, MoreLines) => "more lines",
        (Lang::Zh, MoreLines) => "行未显示",
        (Lang::En, CtrlOExpand) => "ctrl+o to expand",
        (Lang::Zh, CtrlOExpand) => "按 ctrl+o 展开",
        (Lang::En, NothingToExpand) => "nothing to expand yet",
        (Lang::Zh, NothingToExpand) => "还没有可展开的内容",
        (Lang::En, StatusTurn) => "turn",
        (Lang::Zh, StatusTurn) => "本轮",
        (Lang::En, StatusSession) => "session",
        (Lang::Zh, StatusSession) => "会话",
        (Lang::En, StatusMode) => "mode",
        (Lang::Zh, StatusMode) => "模式",
        (Lang::En, StatusIn) => "in",
        (Lang::Zh, StatusIn) => "输入",
        (Lang::En, StatusOut) => "out",
        (Lang::Zh, StatusOut) => "输出",
        (Lang::En, StatusCached) => "cached",
        (Lang::Zh, StatusCached) => "缓存",
        (Lang::En, Seconds) => "s",
        (Lang::Zh, Seconds) => "秒",
        (Lang::En, DiagnosticsTitle) => "diagnostics shown to the model",
        (Lang::Zh, DiagnosticsTitle) => "已告知模型的诊断",
        (Lang::En, PartialCompletion) => "partial completion",
        (Lang::Zh, PartialCompletion) => "部分完成",
        // snapshots
        (Lang::En, SnapshotsOff) => {
            "snapshots are off (snapshots.enabled = false, or the git program is not installed)"
        }
        (Lang::Zh, SnapshotsOff) => "快照已关闭（snapshots.enabled = false，或未安装 git）",
        (Lang::En, SnapshotsEmpty) => "no snapshots of this project yet",
        (Lang::Zh, SnapshotsEmpty) => "本项目还没有快照",
        (Lang::En, SnapshotsHeading) => "Snapshots (newest first; /restore N puts the files back)",
        (Lang::Zh, SnapshotsHeading) => "快照（最新在前；/restore N 恢复文件）",
        (Lang::En, SnapshotsStore) => "store size on disk",
        (Lang::Zh, SnapshotsStore) => "快照库占用磁盘",
        (Lang::En, SnapshotCleanConfirm) => "Remove every snapshot of this project? [y/N] ",
        (Lang::Zh, SnapshotCleanConfirm) => "删除本项目的所有快照？[y/N] ",
        (Lang::En, SnapshotsCleaned) => "snapshots removed",
        (Lang::Zh, SnapshotsCleaned) => "快照已删除",
        (Lang::En, SnapshotFiles) => "file(s) changed",
        (Lang::Zh, SnapshotFiles) => "个文件有改动",
        (Lang::En, RestoreUsage) => "usage: /restore N (N from /snapshot)",
        (Lang::Zh, RestoreUsage) => "用法：/restore N（N 见 /snapshot）",
        (Lang::En, Restored) => "restored; /restore 1 or revert_turn undoes it",
        (Lang::Zh, Restored) => "已恢复；/restore 1 或 revert_turn 可撤销",
        (Lang::En, RestoreNothing) => "the files already match that snapshot",
        (Lang::Zh, RestoreNothing) => "文件已与该快照一致",
        (Lang::En, RewindNoTurns) => "there is no earlier message to rewind to",
        (Lang::Zh, RewindNoTurns) => "没有可回退到的早先消息",
        (Lang::En, RewindPick) => {
            "Rewind to before which message? Number + Enter (Enter or ESC cancels): "
        }
        (Lang::Zh, RewindPick) => "回退到哪条消息之前？输入编号并回车（回车或 ESC 取消）：",
        (Lang::En, RewindHow) => {
            "Rewind [c] code  [v] conversation  [b] both (Enter or ESC cancels): "
        }
        (Lang::Zh, RewindHow) => "回退 [c] 代码  [v] 对话  [b] 两者（回车或 ESC 取消）：",
        (Lang::En, RewindNoCode) => "no files changed since that message; the code is as it was",
        (Lang::Zh, RewindNoCode) => "该消息之后没有文件改动；代码保持不变",
        (Lang::En, RewindConversation) => {
            "conversation rewound: the next request starts before that message"
        }
        (Lang::Zh, RewindConversation) => "对话已回退：下一次请求从该消息之前开始",
        (Lang::En, RewindInvalid) => "not a number from the list; nothing was changed",
        (Lang::Zh, RewindInvalid) => "不是列表中的编号；未做任何改动",
        // notices
        (Lang::En, NoticeDsmlCallsRun) => {
            "the model wrote {calls} tool call(s) as DSML text; running them as tool calls"
        }
        (Lang::Zh, NoticeDsmlCallsRun) => "模型以 DSML 文本写了 {calls} 个工具调用；按工具调用执行",
        (Lang::En, NoticeDsmlNotRun) => {
            "tool call not executed: the answer holds DSML markup that paicli cannot run ({why})"
        }
        (Lang::Zh, NoticeDsmlNotRun) => {
            "工具调用未执行：回答中含有 paicli 无法执行的 DSML 标记（{why}）"
        }
        (Lang::En, NoticeAnswerCutOff) => "the answer was cut off at the model's output limit",
        (Lang::Zh, NoticeAnswerCutOff) => "回答在模型的输出上限处被截断",
        (Lang::En, NoticeRunawayReminder) => {
            "runaway guard: the model keeps repeating itself; reminded it to change course"
        }
        (Lang::Zh, NoticeRunawayReminder) => "失控保护：模型一直在重复自己；已提醒它换个做法",
        (Lang::En, NoticeLedgerNotWritten) => {
            "the session ledger could not be written; resuming may miss this turn: {error}"
        }
        (Lang::Zh, NoticeLedgerNotWritten) => "会话记录写入失败；恢复会话时可能缺少本轮：{error}",
        (Lang::En, NoticeContextOverflow) => {
            "the request exceeded the model's context window: compacting and retrying once"
        }
        (Lang::Zh, NoticeContextOverflow) => "请求超出了模型的上下文窗口：正在压缩并重试一次",
        (Lang::En, NoticePartialCompletion) => {
            "partial completion ({reason}): asking the model for a report"
        }
        (Lang::Zh, NoticePartialCompletion) => "部分完成（{reason}）：正在请模型给出报告",
        (Lang::En, NoticeMemoryUnavailable) => "long-term memory unavailable: {error}",
        (Lang::Zh, NoticeMemoryUnavailable) => "长期记忆不可用：{error}",
        (Lang::En, NoticeCompactionSkipped) => "context compaction skipped: {error}",
        (Lang::Zh, NoticeCompactionSkipped) => "已跳过上下文压缩：{error}",
        (Lang::En, NoticeSnapshotsOff) => "snapshots are off: {error}",
        (Lang::Zh, NoticeSnapshotsOff) => "快照已关闭：{error}",
        (Lang::En, NoticeHeadlineOnly) => {
            "This looks like a headline only, so web tools are off for this turn. Say what you want done with it (e.g. summarize it, write an article, explain the topic)."
        }
        (Lang::Zh, NoticeHeadlineOnly) => {
            "这看起来只是一个标题，所以本轮不使用网络工具。请说明要对它做什么（例如总结、写文章、解释这个主题）。"
        }
        (Lang::En, NoticeMcpServerFailed) => "MCP server `{server}` failed: {error}",
        (Lang::Zh, NoticeMcpServerFailed) => "MCP 服务器 `{server}` 失败：{error}",
        (Lang::En, NoticeMcpConfigSkipped) => "MCP config skipped: {error}",
        (Lang::Zh, NoticeMcpConfigSkipped) => "已跳过 MCP 配置：{error}",
        (Lang::En, NoticeMcpNotStarted) => "MCP server `{server}` not started: {reason}",
        (Lang::Zh, NoticeMcpNotStarted) => "MCP 服务器 `{server}` 未启动：{reason}",
        (Lang::En, NoticeMcpNeedsApproval) => {
            "MCP server `{server}` from {source} is not approved for this project and was not started. Review its command `{command}`, then run paicli once with --trust-project-mcp to approve it."
        }
        (Lang::Zh, NoticeMcpNeedsApproval) => {
            "来自 {source} 的 MCP 服务器 `{server}` 尚未获准用于此项目，未启动。请检查其命令 `{command}`，然后用 --trust-project-mcp 运行一次 paicli 以批准它。"
        }
        (Lang::En, NoticeMcpApprovalNotSaved) => {
            "could not remember the approval of `{server}`: {error}"
        }
        (Lang::Zh, NoticeMcpApprovalNotSaved) => "无法记住对 `{server}` 的批准：{error}",
        (Lang::En, NoticeMcpStarting) => {
            "MCP server `{server}` is still starting; its tools join when it is ready"
        }
        (Lang::Zh, NoticeMcpStarting) => "MCP 服务器 `{server}` 仍在启动；就绪后会加入它的工具",
        (Lang::En, NoticeNote) => "note: {text}",
        (Lang::Zh, NoticeNote) => "提示：{text}",
        // skills
        (Lang::En, SkillsHeading) => "skills (a later layer replaces a skill of the same name):",
        (Lang::Zh, SkillsHeading) => "技能（后面的层会替换同名技能）：",
        (Lang::En, SkillsSkippedHeading) => "skipped:",
        (Lang::Zh, SkillsSkippedHeading) => "已跳过：",
        (Lang::En, SkillsNone) => "no skills found",
        (Lang::Zh, SkillsNone) => "未找到技能",
        (Lang::En, SkillsCatalogLeftOut) => {
            "the system prompt lists {listed} skills; {count} more are left out (at most 20 skills / 4 KB)"
        }
        (Lang::Zh, SkillsCatalogLeftOut) => {
            "系统提示列出了 {listed} 个技能；另有 {count} 个未列出（最多 20 个技能 / 4 KB）"
        }
        (Lang::En, SkillOn) => "on",
        (Lang::Zh, SkillOn) => "开",
        (Lang::En, SkillOff) => "off",
        (Lang::Zh, SkillOff) => "关",
        (Lang::En, SkillUsage) => "usage: /skill [list|show <name>|on <name>|off <name>|reload]",
        (Lang::Zh, SkillUsage) => "用法：`/skill [list|show <名称>|on <名称>|off <名称>|reload]`",
        (Lang::En, SkillUnknown) => "no skill named `{name}`; /skill list shows them",
        (Lang::Zh, SkillUnknown) => "没有名为 `{name}` 的技能；`/skill list` 可列出全部",
        (Lang::En, SkillSwitchedOn) => {
            "skill `{name}` is on (saved in {path}); the system prompt lists it from the next request"
        }
        (Lang::Zh, SkillSwitchedOn) => {
            "技能 `{name}` 已开启（保存在 {path}）；从下一次请求起系统提示会列出它"
        }
        (Lang::En, SkillSwitchedOff) => {
            "skill `{name}` is off (saved in {path}); the system prompt no longer lists it"
        }
        (Lang::Zh, SkillSwitchedOff) => "技能 `{name}` 已关闭（保存在 {path}）；系统提示不再列出它",
        (Lang::En, SkillNotSaved) => "could not save the change: {error}",
        (Lang::Zh, SkillNotSaved) => "无法保存更改：{error}",
        (Lang::En, SkillsReloaded) => {
            "skills reloaded: {on} on, {skipped} skipped; the system prompt lists them from the next request"
        }
        (Lang::Zh, SkillsReloaded) => {
            "技能已重新加载：{on} 个开启，{skipped} 个跳过；从下一次请求起系统提示会列出它们"
        }
        (Lang::En, SkillShowFiles) => "folder:",
        (Lang::Zh, SkillShowFiles) => "文件夹：",
        (Lang::En, CustomCommandsHeading) => "Commands from files",
        (Lang::Zh, CustomCommandsHeading) => "来自文件的命令",
        (Lang::En, CustomCommandDefaultHelp) => "sends {file} as your message",
        (Lang::Zh, CustomCommandDefaultHelp) => "把 {file} 作为你的消息发送",
        (Lang::En, CustomCommandShadows) => {
            "command file {path} is ignored: /{name} is a built-in command"
        }
        (Lang::Zh, CustomCommandShadows) => "已忽略命令文件 {path}：/{name} 是内置命令",
        (Lang::En, CustomCommandSkipped) => "command file {path} skipped: {problem}",
        (Lang::Zh, CustomCommandSkipped) => "已跳过命令文件 {path}：{problem}",
        (Lang::En, SkillSkippedNotice) => "skill {path} skipped: {problem} (/skill list)",
        (Lang::Zh, SkillSkippedNotice) => "已跳过技能 {path}：{problem}（`/skill list`）",
        // local
        (Lang::En, NoticeToolCallsCutOff) => {
            "the reply was cut off at the output limit before its {calls} tool call(s) were complete; none ran, asking the model for a shorter step"
        }
        (Lang::Zh, NoticeToolCallsCutOff) => {
            "回复在输出上限处被截断，其中 {calls} 个工具调用不完整；均未执行，已请模型换一个更短的步骤"
        }
        (Lang::En, NoticeToolCallsCutOffAgain) => {
            "the reply was cut off at the output limit again; its {calls} tool call(s) did not run and the task stops (raise max_output_tokens or ask for smaller steps)"
        }
        (Lang::Zh, NoticeToolCallsCutOffAgain) => {
            "回复再次在输出上限处被截断；其中 {calls} 个工具调用未执行，任务停止（调高 max_output_tokens 或要求更小的步骤）"
        }
        (Lang::En, NoticeEmptyAnswer) => "the model gave no answer: its reply was empty",
        (Lang::Zh, NoticeEmptyAnswer) => "模型没有给出回答：回复为空",
        (Lang::En, NoticeReasoningOnly) => {
            "the model gave no answer: its reply held only reasoning"
        }
        (Lang::Zh, NoticeReasoningOnly) => "模型没有给出回答：回复中只有思考过程",
        (Lang::En, NoticeReasoningCutOff) => {
            "the model gave no answer: it was still reasoning when the reply reached the output limit (raise max_output_tokens)"
        }
        (Lang::Zh, NoticeReasoningCutOff) => {
            "模型没有给出回答：回复达到输出上限时它仍在思考（调高 max_output_tokens）"
        }
        (Lang::En, PartialOutputLimit) => {
            "stopped early ({reason}): the model's replies kept stopping at the output limit before their tool calls were complete; the answer is a partial report"
        }
        (Lang::Zh, PartialOutputLimit) => {
            "提前停止（{reason}）：模型的回复一再在工具调用完成前达到输出上限；输出是部分结果"
        }
        (Lang::En, HintOutputLimit) => {
            "raise the output limit (--max-output-tokens, [llm] max_output_tokens) or ask for a shorter answer"
        }
        (Lang::Zh, HintOutputLimit) => {
            "调高输出上限（--max-output-tokens、[llm] max_output_tokens），或要求更短的回答"
        }
        (Lang::En, WindowFromConfig) => "{window} (set by [llm] context_window)",
        (Lang::Zh, WindowFromConfig) => "{window}（由 [llm] context_window 设置）",
        (Lang::En, WindowFromServer) => "{window} (reported by the server: {what})",
        (Lang::Zh, WindowFromServer) => "{window}（服务器报告：{what}）",
        (Lang::En, WindowFromTable) => "{window} (provider table default)",
        (Lang::Zh, WindowFromTable) => "{window}（提供商表默认值）",
        (Lang::En, ContextThresholds) => {
            "  compaction: old tool results cleared at {clearing} tokens, summary at {summary}"
        }
        (Lang::Zh, ContextThresholds) => {
            "  压缩：{clearing} token 时清理旧工具结果，{summary} token 时生成摘要"
        }
        // compaction
        (Lang::En, NoticeContextTrimmed) => {
            "the conversation still did not fit the context window: dropped {dropped} older messages and shortened {shortened} tool results ({before} → {after} tokens)"
        }
        (Lang::Zh, NoticeContextTrimmed) => {
            "对话仍超出上下文窗口：已丢弃 {dropped} 条较早的消息，缩短了 {shortened} 个工具结果（{before} → {after} 个词元）"
        }
        // sandbox
        (Lang::En, KeyUnsandboxed) => "[u] yes, outside the sandbox (once)",
        (Lang::Zh, KeyUnsandboxed) => "[u] 是，在沙箱外执行（仅此一次）",
        (Lang::En, ApprovalHelpUnsandboxed) => {
            "u           run this one command outside the OS sandbox (it may write anywhere; audited)"
        }
        (Lang::Zh, ApprovalHelpUnsandboxed) => {
            "u           在操作系统沙箱外执行这一条命令（可写入任何位置；会记入审计日志）"
        }
        (Lang::En, ApprovalAllowedUnsandboxed) => "allowed once, outside the sandbox",
        (Lang::Zh, ApprovalAllowedUnsandboxed) => "已允许一次，在沙箱外执行",
        (Lang::En, NoticeSandboxUnavailable) => {
            "the command sandbox is not available here ({reason}); commands run unconfined, with only the command guard ([sandbox] mode = \"required\" refuses them instead)"
        }
        (Lang::Zh, NoticeSandboxUnavailable) => {
            "此处无法使用命令沙箱（{reason}）；命令将在无沙箱的情况下运行，仅有命令守卫把关（设置 [sandbox] mode = \"required\" 则改为拒绝执行）"
        }
        (Lang::En, NoticeSandboxNetworkOpen) => {
            "[sandbox] network = false cannot be enforced on this kernel (Landlock before ABI 4); commands can still reach the network"
        }
        (Lang::Zh, NoticeSandboxNetworkOpen) => {
            "此内核无法强制执行 [sandbox] network = false（Landlock ABI 低于 4）；命令仍可访问网络"
        }
        (Lang::En, PolicySandbox) => {
            "sandbox: {state} (mode = {mode}, {support}; network = {network}, protect_git = {git})"
        }
        (Lang::Zh, PolicySandbox) => {
            "沙箱：{state}（mode = {mode}，{support}；network = {network}，protect_git = {git}）"
        }
        (Lang::En, PolicySandboxWritable) => "commands may write to: {roots}",
        (Lang::Zh, PolicySandboxWritable) => "命令可写入：{roots}",
        (Lang::En, SandboxActive) => "on",
        (Lang::Zh, SandboxActive) => "已启用",
        (Lang::En, SandboxInactive) => "off",
        (Lang::Zh, SandboxInactive) => "未启用",
        (Lang::En, SandboxReadOnly) => "nothing (read-only, plan mode)",
        (Lang::Zh, SandboxReadOnly) => "无（只读，计划模式）",
        // index
        (Lang::En, IndexOff) => "the code index is off (index.enabled = false)",
        (Lang::Zh, IndexOff) => "代码索引已关闭（`index.enabled = false`）",
        (Lang::En, IndexBuilt) => {
            "{files} files, {chunks} chunks indexed in {seconds} s ({reindexed} re-indexed, {removed} removed)"
        }
        (Lang::Zh, IndexBuilt) => {
            "已索引 {files} 个文件、{chunks} 个片段，用时 {seconds} 秒（重新索引 {reindexed} 个，移除 {removed} 个）"
        }
        (Lang::En, IndexEmbedded) => "{embedded} chunks embedded with {model}",
        (Lang::Zh, IndexEmbedded) => "已用 {model} 为 {embedded} 个片段生成向量",
        (Lang::En, IndexEmbedFailed) => {
            "the embedding server failed, so ranking uses keywords only: {error}"
        }
        (Lang::Zh, IndexEmbedFailed) => "向量服务出错，仅按关键词排序：{error}",
        (Lang::En, IndexProgressFiles) => "indexing files",
        (Lang::Zh, IndexProgressFiles) => "正在索引文件",
        (Lang::En, IndexProgressVectors) => "embedding chunks",
        (Lang::Zh, IndexProgressVectors) => "正在生成向量",
        (Lang::En, IndexStatusNone) => {
            "no index for this project yet; /index builds it (search_code does too, on first use)"
        }
        (Lang::Zh, IndexStatusNone) => {
            "本项目还没有索引；`/index` 会建立索引（`search_code` 首次使用时也会）"
        }
        (Lang::En, IndexStatus) => {
            "{path}: {files} files, {chunks} chunks, {embedded} with vectors, {relations} relations"
        }
        (Lang::Zh, IndexStatus) => {
            "{path}：{files} 个文件、{chunks} 个片段，其中 {embedded} 个有向量，{relations} 条关系"
        }
        (Lang::En, IndexEmbeddingsAt) => "embeddings: {model} at {url}",
        (Lang::Zh, IndexEmbeddingsAt) => "向量：{url} 上的 {model}",
        (Lang::En, IndexEmbeddingsNone) => {
            "embeddings: none, ranking by keywords (set [index.embeddings] url to add them)"
        }
        (Lang::Zh, IndexEmbeddingsNone) => {
            "向量：未配置，按关键词排序（设置 `[index.embeddings] url` 即可启用）"
        }
        (Lang::En, IndexCatchingUp) => {
            "the index is catching up with a large change; recent edits may be missing"
        }
        (Lang::Zh, IndexCatchingUp) => "索引正在跟进大量改动；最近的修改可能尚未收录",
        (Lang::En, IndexFailed) => "the code index failed: {error}",
        (Lang::Zh, IndexFailed) => "代码索引出错：{error}",
        (Lang::En, IndexCancelled) => "indexing stopped; what was indexed so far is kept",
        (Lang::Zh, IndexCancelled) => "索引已停止；已完成的部分会保留",
        (Lang::En, SearchUsage) => "usage: /search <query>",
        (Lang::Zh, SearchUsage) => "用法：`/search <query>`",
        (Lang::En, SearchNone) => "no matches for \"{query}\"",
        (Lang::Zh, SearchNone) => "没有匹配“{query}”的结果",
        (Lang::En, SearchHeading) => "{count} hits for \"{query}\", ranked by {ranking}",
        (Lang::Zh, SearchHeading) => "“{query}”的 {count} 条结果，{ranking}",
        (Lang::En, RankingKeywords) => "keywords",
        (Lang::Zh, RankingKeywords) => "按关键词排序",
        (Lang::En, RankingHybrid) => "keywords + embeddings",
        (Lang::Zh, RankingHybrid) => "按关键词和向量排序",
        (Lang::En, GraphUsage) => "usage: /graph <Symbol>",
        (Lang::Zh, GraphUsage) => "用法：`/graph <Symbol>`",
        (Lang::En, GraphNone) => "the index knows nothing about `{symbol}`",
        (Lang::Zh, GraphNone) => "索引中没有关于 `{symbol}` 的信息",
        (Lang::En, GraphBestEffort) => "read from syntax and matched by name (best effort)",
        (Lang::Zh, GraphBestEffort) => "依据语法、按名称匹配（尽力而为）",
        (Lang::En, GraphDefinitions) => "defined at",
        (Lang::Zh, GraphDefinitions) => "定义于",
        (Lang::En, GraphContains) => "contains",
        (Lang::Zh, GraphContains) => "包含",
        (Lang::En, GraphContainedIn) => "member of",
        (Lang::Zh, GraphContainedIn) => "属于",
        (Lang::En, GraphExtends) => "extends",
        (Lang::Zh, GraphExtends) => "继承",
        (Lang::En, GraphImplements) => "implements",
        (Lang::Zh, GraphImplements) => "实现",
        (Lang::En, GraphSubtypes) => "extended or implemented by",
        (Lang::Zh, GraphSubtypes) => "被以下类型继承或实现",
        (Lang::En, GraphCallers) => "called by",
        (Lang::Zh, GraphCallers) => "调用者",
        (Lang::En, GraphCalls) => "calls",
        (Lang::Zh, GraphCalls) => "调用",
        // serve
        (Lang::En, ServeNoApiKey) => {
            "PAICLI_RUNTIME_API_KEY is not set: `paicli serve` needs a key that every request presents as `Authorization: Bearer <key>`"
        }
        (Lang::Zh, ServeNoApiKey) => {
            "未设置 PAICLI_RUNTIME_API_KEY：`paicli serve` 需要一个密钥，每个请求以 `Authorization: Bearer <密钥>` 出示"
        }
        (Lang::En, ServeNotLoopback) => {
            "refusing to listen on {addr}: the runtime API can run commands, so it listens on 127.0.0.1 only unless --unsafe-bind is given"
        }
        (Lang::Zh, ServeNotLoopback) => {
            "拒绝在 {addr} 上监听：运行时 API 可以执行命令，因此除非给出 --unsafe-bind，只监听 127.0.0.1"
        }
        (Lang::En, ServeCannotBind) => "cannot listen on {addr}: {error}",
        (Lang::Zh, ServeCannotBind) => "无法在 {addr} 上监听：{error}",
        (Lang::En, ServeStopped) => "the runtime API stopped: {error}",
        (Lang::Zh, ServeStopped) => "运行时 API 已停止：{error}",
        (Lang::En, ServeListening) => "runtime API listening on {url} (Ctrl-C stops it)",
        (Lang::Zh, ServeListening) => "运行时 API 正在 {url} 上监听（Ctrl-C 停止）",
        // background tasks
        (Lang::En, TaskUsage) => "usage: /task [list|add <text>|log <id>|cancel <id>]",
        (Lang::Zh, TaskUsage) => "用法：/task [list|add <文本>|log <编号>|cancel <编号>]",
        (Lang::En, TaskQueued) => "queued task {id}; /task log {id} shows its progress",
        (Lang::Zh, TaskQueued) => "已加入后台任务 {id}；/task log {id} 查看进度",
        (Lang::En, TaskNone) => "no background tasks in this project; /task add <text> queues one",
        (Lang::Zh, TaskNone) => "本项目没有后台任务；/task add <文本> 可加入一个",
        (Lang::En, TaskSession) => "(session {id})",
        (Lang::Zh, TaskSession) => "（会话 {id}）",
        (Lang::En, TaskNoLog) => "task {id} has not started yet",
        (Lang::Zh, TaskNoLog) => "任务 {id} 尚未开始",
        (Lang::En, TaskCancelling) => "cancelling task {id}",
        (Lang::Zh, TaskCancelling) => "正在取消任务 {id}",
        (Lang::En, TaskUnknown) => "no task {id} in this project",
        (Lang::Zh, TaskUnknown) => "本项目没有任务 {id}",
        (Lang::En, TaskAlreadyDone) => "task {id} has already ended",
        (Lang::Zh, TaskAlreadyDone) => "任务 {id} 已经结束",
        (Lang::En, TaskNotSaved) => "could not save the task queue: {error}",
        (Lang::Zh, TaskNotSaved) => "无法保存任务队列：{error}",
        (Lang::En, TaskStateQueued) => "queued",
        (Lang::Zh, TaskStateQueued) => "排队中",
        (Lang::En, TaskStateRunning) => "running",
        (Lang::Zh, TaskStateRunning) => "运行中",
        (Lang::En, TaskStateFinished) => "finished",
        (Lang::Zh, TaskStateFinished) => "已完成",
        (Lang::En, TaskStatePartial) => "partial",
        (Lang::Zh, TaskStatePartial) => "部分完成",
        (Lang::En, TaskStateFailed) => "failed",
        (Lang::Zh, TaskStateFailed) => "失败",
        (Lang::En, TaskStateCancelled) => "cancelled",
        (Lang::Zh, TaskStateCancelled) => "已取消",
        // io
        (Lang::En, PipedCut) => "piped input cut at {limit} of {total} characters",
        (Lang::Zh, PipedCut) => "管道输入过长，只附加了前 {limit} 个字符（共 {total} 个）",
        (Lang::En, PipedBinary) => {
            "piped input not attached: it is binary ({bytes} bytes); attach images with @path"
        }
        (Lang::En, AllDenied) => "nothing done: all actions were denied (exit code 4)",
        (Lang::Zh, AllDenied) => "什么也没做：所有操作都被拒绝（退出码 4）",
        (Lang::En, InitFound) => "project instructions found: {files}",
        (Lang::Zh, InitFound) => "找到的项目说明文件：{files}",
        (Lang::En, InitFoundNone) => {
            "no project instructions found (AGENTS.md, CLAUDE.md, PAI.md, .paicli/PAI.md)"
        }
        (Lang::Zh, InitFoundNone) => {
            "未找到项目说明文件（AGENTS.md、CLAUDE.md、PAI.md、.paicli/PAI.md）"
        }
        (Lang::En, HintAuthKey) => "check {key}: the provider refused the key paicli sent from it",
        (Lang::Zh, HintAuthKey) => "检查 {key}：提供商拒绝了 paicli 从这里取用的密钥",
        (Lang::En, NoticeRetrying) => "{cause}, retrying in {seconds} s ({attempt}/{max})",
        (Lang::Zh, NoticeRetrying) => "{cause}，{seconds} 秒后重试（{attempt}/{max}）",
        (Lang::En, PricesAsOf) => "list prices as of {date}",
        (Lang::Zh, PricesAsOf) => "按 {date} 的公开价格估算",
        (Lang::En, CostUnknownModel) => "cost: no prices known for {model} (price list of {date})",
        (Lang::Zh, CostUnknownModel) => "费用：没有 {model} 的已知价格（价格表日期 {date}）",
        (Lang::En, ImagesNeedVision) => {
            "{model} does not take images, so {paths} was not attached; switch to a vision model (/model, --model) or set llm.vision = true if it does take them"
        }
        (Lang::Zh, ImagesNeedVision) => {
            "{model} 不支持图片，所以没有附加 {paths}；请换用支持图片的模型（/model、--model），如果它其实支持图片，请设置 llm.vision = true"
        }
        (Lang::En, NoClipboardImage) => {
            "no image on the clipboard (Ctrl+V reads it with wl-paste or xclip); attach a file with @image:path"
        }
        (Lang::Zh, NoClipboardImage) => {
            "剪贴板里没有图片（Ctrl+V 通过 wl-paste 或 xclip 读取）；可用 @image:路径 附加图片文件"
        }
        (Lang::Zh, PipedBinary) => {
            "管道输入未附加：它是二进制数据（{bytes} 字节）；图片请用 @路径 附加"
        }
        (Lang::En, CostReported) => "as reported by the provider",
        (Lang::Zh, CostReported) => "由服务商报告",
        (Lang::En, PasteNotSaved) => "the pasted image could not be saved in the project: {error}",
        (Lang::Zh, PasteNotSaved) => "粘贴的图片无法保存到项目中：{error}",
        // mcp
        (Lang::En, NoticeMcpNeedsLogin) => {
            "MCP server `{server}` needs you to log in and was not started: run `paicli mcp login {server}`"
        }
        (Lang::Zh, NoticeMcpNeedsLogin) => {
            "MCP 服务器 `{server}` 需要登录，未启动：请运行 `paicli mcp login {server}`"
        }
        (Lang::En, McpStateNeedsLogin) => "needs login",
        (Lang::Zh, McpStateNeedsLogin) => "待登录",
        (Lang::En, McpLoginHint) => "log in: /mcp login {name}",
        (Lang::Zh, McpLoginHint) => "登录：/mcp login {name}",
        (Lang::En, McpLoginOpen) => "To log in to `{server}`, open this address in a browser:",
        (Lang::Zh, McpLoginOpen) => "要登录 `{server}`，请在浏览器中打开此地址：",
        (Lang::En, McpLoginWaiting) => "Waiting for the browser (Ctrl-C stops)…",
        (Lang::Zh, McpLoginWaiting) => "正在等待浏览器（Ctrl-C 停止）……",
        (Lang::En, McpLoginDone) => "Logged in to `{server}`; tokens saved in {path}",
        (Lang::Zh, McpLoginDone) => "已登录 `{server}`；令牌已保存到 {path}",
        (Lang::En, McpLoginFailed) => "login to `{server}` failed: {error}",
        (Lang::Zh, McpLoginFailed) => "登录 `{server}` 失败：{error}",
        (Lang::En, McpLogoutDone) => "Logged out of `{server}`: its tokens are removed",
        (Lang::Zh, McpLogoutDone) => "已退出 `{server}`：其令牌已删除",
        (Lang::En, McpLogoutNone) => "No tokens were stored for `{server}`",
        (Lang::Zh, McpLogoutNone) => "`{server}` 没有保存的令牌",
        (Lang::En, McpNotRemote) => "`{server}` is not a remote MCP server (it has no url)",
        (Lang::Zh, McpNotRemote) => "`{server}` 不是远程 MCP 服务器（没有 url）",
        (Lang::En, McpNoSuchServer) => "no MCP server named `{server}`",
        (Lang::Zh, McpNoSuchServer) => "没有名为 `{server}` 的 MCP 服务器",
        (Lang::En, ElicitAsks) => "MCP server `{server}` asks: {message}",
        (Lang::Zh, ElicitAsks) => "MCP 服务器 `{server}` 请求：{message}",
        (Lang::En, ElicitKeys) => "Enter keeps the shown value · ESC declines · Ctrl-C cancels",
        (Lang::Zh, ElicitKeys) => "回车保留显示的值 · ESC 拒绝 · Ctrl-C 取消",
        (Lang::En, ElicitRequired) => "required",
        (Lang::Zh, ElicitRequired) => "必填",
        (Lang::En, ElicitWantChoice) => "one of: {choices}",
        (Lang::Zh, ElicitWantChoice) => "可选值：{choices}",
        (Lang::En, ElicitWantYesNo) => "answer yes or no",
        (Lang::Zh, ElicitWantYesNo) => "请回答 yes 或 no",
        (Lang::En, ElicitWantInteger) => "a whole number",
        (Lang::Zh, ElicitWantInteger) => "应为整数",
        (Lang::En, ElicitWantNumber) => "a number",
        (Lang::Zh, ElicitWantNumber) => "应为数字",
        (Lang::En, ElicitWantValue) => "a value is required",
        (Lang::Zh, ElicitWantValue) => "必须填写",
        (Lang::En, ElicitSent) => "sent to `{server}`",
        (Lang::Zh, ElicitSent) => "已发送给 `{server}`",
        (Lang::En, ElicitDeclined) => "declined",
        (Lang::Zh, ElicitDeclined) => "已拒绝",
        (Lang::En, ElicitCancelled) => "cancelled",
        (Lang::Zh, ElicitCancelled) => "已取消",
        // acp
        (Lang::En, AcpAllowOnce) => "Allow once",
        (Lang::Zh, AcpAllowOnce) => "允许一次",
        (Lang::En, AcpAllowSession) => "Allow for this session",
        (Lang::Zh, AcpAllowSession) => "本会话内始终允许",
        (Lang::En, AcpReject) => "Reject",
        (Lang::Zh, AcpReject) => "拒绝",
        // acp: the task runner lock
        (Lang::En, TaskRunsElsewhere) => {
            "another paicli in this project runs the queue; it starts there (this one takes over when that one ends)"
        }
        (Lang::Zh, TaskRunsElsewhere) => {
            "本项目中另一个 paicli 正在运行任务队列，任务将在那里开始（那个进程结束后由本进程接管）"
        }
        // polish
        (Lang::En, EscAgainToRewind) => "  ESC again to rewind",
        (Lang::Zh, EscAgainToRewind) => "  再按一次 ESC 回退",
        (Lang::En, McpReadyCount) => "MCP {ready}/{total} ready (/mcp for details)",
        (Lang::Zh, McpReadyCount) => "MCP 服务器 {ready}/{total} 个就绪（/mcp 查看详情）",
        // browser
        (Lang::En, McpStateOnDemand) => "on demand",
        (Lang::Zh, McpStateOnDemand) => "按需启动",
        (Lang::En, BrowserUsage) => "usage: /browser [status|connect [port]|tabs|disconnect]",
        (Lang::Zh, BrowserUsage) => "用法：/browser [status|connect [端口]|tabs|disconnect]",
        (Lang::En, BrowserOff) => {
            "The browser is off: the `chrome-devtools` entry of your mcp.json is disabled."
        }
        (Lang::Zh, BrowserOff) => "浏览器已关闭：mcp.json 中的 `chrome-devtools` 条目被禁用。",
        (Lang::En, BrowserModeIsolated) => {
            "mode: isolated browser (a fresh profile, thrown away afterwards)"
        }
        (Lang::Zh, BrowserModeIsolated) => "模式：隔离浏览器（全新配置，用后即弃）",
        (Lang::En, BrowserModeConnected) => "mode: connected to your Chrome ({url})",
        (Lang::Zh, BrowserModeConnected) => "模式：已连接到你的 Chrome（{url}）",
        (Lang::En, BrowserModeUser) => "mode: as the `chrome-devtools` entry of your mcp.json says",
        (Lang::Zh, BrowserModeUser) => "模式：按 mcp.json 中 `chrome-devtools` 条目的配置",
        (Lang::En, BrowserRunning) => "server: running",
        (Lang::Zh, BrowserRunning) => "服务：运行中",
        (Lang::En, BrowserNotStarted) => {
            "server: not started (it starts on the first browser call)"
        }
        (Lang::Zh, BrowserNotStarted) => "服务：未启动（首次使用浏览器工具时启动）",
        (Lang::En, BrowserNoTabs) => "  no open tabs",
        (Lang::Zh, BrowserNoTabs) => "  没有打开的标签页",
        (Lang::En, BrowserUntitled) => "(untitled)",
        (Lang::Zh, BrowserUntitled) => "（无标题）",
        (Lang::En, BrowserLastError) => "last error: {error}",
        (Lang::Zh, BrowserLastError) => "最近的错误：{error}",
        (Lang::En, BrowserConnecting) => "Connecting to {url} … (ESC cancels)",
        (Lang::Zh, BrowserConnecting) => "正在连接 {url} …（ESC 取消）",
        (Lang::En, BrowserConnected) => "Connected to {url}: {count} tab(s)",
        (Lang::Zh, BrowserConnected) => "已连接到 {url}：{count} 个标签页",
        (Lang::En, BrowserDisconnected) => {
            "Back to the isolated browser (it starts on the next browser call); your Chrome keeps running."
        }
        (Lang::Zh, BrowserDisconnected) => {
            "已回到隔离浏览器（下次使用浏览器工具时启动）；你的 Chrome 保持运行。"
        }
        (Lang::En, BrowserCancelled) => "Cancelled; the isolated browser is back.",
        (Lang::Zh, BrowserCancelled) => "已取消；已回到隔离浏览器。",
        (Lang::En, BrowserFailed) => "browser: {error}",
        (Lang::Zh, BrowserFailed) => "浏览器：{error}",
        // plan
        (Lang::En, NoticePlanSingleStep) => {
            "the goal is a single step: running it as one task without a planner call"
        }
        (Lang::Zh, NoticePlanSingleStep) => "目标只有一步：不调用规划器，直接作为一个任务运行",
        (Lang::En, NoticePlanRepairing) => {
            "the plan is invalid ({error}); asking the planner to fix it"
        }
        (Lang::Zh, NoticePlanRepairing) => "计划无效（{error}）；请规划器修正",
        (Lang::En, NoticePlanReplanning) => {
            "{failed} of {total} tasks failed and less than half is done: making a new plan"
        }
        (Lang::Zh, NoticePlanReplanning) => {
            "{total} 个任务中 {failed} 个失败，完成不到一半：重新规划"
        }
        (Lang::En, NoticePlanReplanFailed) => "the new plan could not be made: {error}",
        (Lang::Zh, NoticePlanReplanFailed) => "无法重新规划：{error}",
        (Lang::En, NoticePlanStepRejected) => {
            "the reviewer rejected the step (retry {retry} of {max}): {reasons}"
        }
        (Lang::Zh, NoticePlanStepRejected) => {
            "审查者驳回了这一步（第 {retry}/{max} 次重试）：{reasons}"
        }
        (Lang::En, PlanHeading) => "plan (revision {revision}, {count}):",
        (Lang::Zh, PlanHeading) => "计划（第 {revision} 版，{count}）：",
        (Lang::En, PlanTaskAfter) => "after {deps}",
        (Lang::Zh, PlanTaskAfter) => "依赖 {deps}",
        (Lang::En, PlanTaskRunning) => "▶ {id}: {title}",
        (Lang::Zh, PlanTaskRunning) => "▶ {id}：{title}",
        (Lang::En, PlanTaskDone) => "✓ {id} done",
        (Lang::Zh, PlanTaskDone) => "✓ {id} 完成",
        (Lang::En, PlanTaskFailed) => "✗ {id} failed: {summary}",
        (Lang::Zh, PlanTaskFailed) => "✗ {id} 失败：{summary}",
        (Lang::En, PlanTaskSkipped) => "- {id} skipped: {summary}",
        (Lang::Zh, PlanTaskSkipped) => "- {id} 已跳过：{summary}",
        (Lang::En, PlanResults) => "plan: {done} done, {failed} failed, {skipped} skipped",
        (Lang::Zh, PlanResults) => "计划：{done} 个完成，{failed} 个失败，{skipped} 个跳过",
        (Lang::En, PlanNotMade) => "no plan: {error}",
        (Lang::Zh, PlanNotMade) => "未能生成计划：{error}",
        (Lang::En, PlanCancelled) => "plan cancelled",
        (Lang::Zh, PlanCancelled) => "计划已取消",
        // plan review and task list
        (Lang::En, PlanReviewHeading) => "Plan ({n}): {goal}",
        (Lang::Zh, PlanReviewHeading) => "计划（{n}）：{goal}",
        (Lang::En, PlanAfter) => "after {ids}",
        (Lang::Zh, PlanAfter) => "在 {ids} 之后",
        (Lang::En, PlanKeyRun) => "Enter run",
        (Lang::Zh, PlanKeyRun) => "回车 执行",
        (Lang::En, PlanKeyDetails) => "Ctrl+O details",
        (Lang::Zh, PlanKeyDetails) => "Ctrl+O 展开/收起详情",
        (Lang::En, PlanKeyInstruct) => "i add instructions and re-plan",
        (Lang::Zh, PlanKeyInstruct) => "i 补充要求并重新规划",
        (Lang::En, PlanKeyCancel) => "ESC cancel",
        (Lang::Zh, PlanKeyCancel) => "ESC 取消",
        (Lang::En, PlanInstructPrompt) => "Add to the plan (Enter re-plans, ESC goes back): ",
        (Lang::Zh, PlanInstructPrompt) => "补充要求（回车重新规划，ESC 返回）：",
        (Lang::En, PlanRunning) => "running the plan",
        (Lang::Zh, PlanRunning) => "开始执行计划",
        (Lang::En, PlanReviewCancelled) => "plan cancelled; nothing was run",
        (Lang::Zh, PlanReviewCancelled) => "计划已取消，未执行任何任务",
        (Lang::En, PlanReplanning) => "re-planning with your instructions…",
        (Lang::Zh, PlanReplanning) => "正在按你的补充要求重新规划……",
        (Lang::En, PlanModeRestored) => "plan approved: it runs in {mode} mode, and plan mode ends",
        (Lang::Zh, PlanModeRestored) => "计划已批准：以 {mode} 模式执行，plan 模式结束",
        (Lang::En, PlanNextInput) => "your next message is planned first (review, then run)",
        (Lang::Zh, PlanNextInput) => "下一条消息将先制定计划（审阅后执行）",
        (Lang::En, TeamNextInput) => {
            "your next message goes to the team: planner, two workers and a reviewer"
        }
        (Lang::Zh, TeamNextInput) => "下一条消息将交给团队：规划者、两名执行者和一名审查者",
        (Lang::En, PlanStatePending) => "pending",
        (Lang::Zh, PlanStatePending) => "等待",
        (Lang::En, PlanStateRunning) => "running",
        (Lang::Zh, PlanStateRunning) => "运行中",
        (Lang::En, PlanStateDone) => "done",
        (Lang::Zh, PlanStateDone) => "完成",
        (Lang::En, PlanStateFailed) => "failed",
        (Lang::Zh, PlanStateFailed) => "失败",
        (Lang::En, PlanStateSkipped) => "skipped",
        (Lang::Zh, PlanStateSkipped) => "跳过",
        (Lang::En, PlanFinishedHeading) => "Plan finished: {done} of {total} tasks done",
        (Lang::Zh, PlanFinishedHeading) => "计划结束：{total} 个任务中完成 {done} 个",
        (Lang::En, PlanFailedToStart) => "no plan could be made: {error}",
        (Lang::Zh, PlanFailedToStart) => "无法制定计划：{error}",
        (Lang::En, PlanStopped) => "plan stopped: the running tasks were cancelled",
        (Lang::Zh, PlanStopped) => "计划已停止：正在运行的任务已取消",
        (Lang::En, AcpPlanCall) => "Plan: {count}",
        (Lang::Zh, AcpPlanCall) => "计划：{count}",
        (Lang::En, AcpRunPlan) => "Run the plan",
        (Lang::Zh, AcpRunPlan) => "执行计划",
        (Lang::En, AcpDontRunPlan) => "Don't run it",
        (Lang::Zh, AcpDontRunPlan) => "不执行",
        (Lang::En, AcpModeAsk) => "Ask",
        (Lang::Zh, AcpModeAsk) => "询问",
        (Lang::En, AcpModeAuto) => "Auto",
        (Lang::Zh, AcpModeAuto) => "自动",
        (Lang::En, AcpModePlan) => "Plan",
        (Lang::Zh, AcpModePlan) => "计划",
        (Lang::En, AcpModeFull) => "Full",
        (Lang::Zh, AcpModeFull) => "完全",
        // polish: a pending plan can be dropped
        (Lang::En, PlanPendingUndo) => "{cmd} off drops it",
        (Lang::Zh, PlanPendingUndo) => "输入 {cmd} off 可取消",
        (Lang::En, PlanPendingDropped) => {
            "dropped: your next message is sent as usual, not planned"
        }
        (Lang::Zh, PlanPendingDropped) => "已取消：下一条消息照常发送，不再先制定计划",
        (Lang::En, PlanNonePending) => "no plan is waiting for your next message",
        (Lang::Zh, PlanNonePending) => "没有等待下一条消息的计划",
        (Lang::En, PromptPlanPending) => "plan",
        (Lang::Zh, PromptPlanPending) => "计划",
        (Lang::En, PromptTeamPending) => "team",
        (Lang::Zh, PromptTeamPending) => "团队",
    }
}
