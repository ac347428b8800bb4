//! The person's wording of the typed notices the agent and the layers under it send (`protocol::Notice`).

use super::{Lang, Msg, mention_skipped, tr};
use crate::protocol::Notice;

/// `notice` in `lang`, its data filled in.
pub fn notice_text(lang: Lang, notice: &Notice) -> String {
    match (notice, notice_msg(notice)) {
        (_, Some(msg)) => notice.fill(tr(lang, msg)),
        (Notice::MentionSkipped { mention, reason }, None) => {
            mention_skipped(lang, mention, reason)
        }
        (_, None) => notice.to_string(),
    }
}

/// The table entry that words `notice`; its English text equals `Notice::english` (tested). `None` for a notice
/// whose data is worded per language too (a skipped mention's reason), which has its own function.
fn notice_msg(notice: &Notice) -> Option<Msg> {
    Some(match notice {
        Notice::DsmlCallsRun { .. } => Msg::NoticeDsmlCallsRun,
        Notice::DsmlNotRun { .. } => Msg::NoticeDsmlNotRun,
        Notice::AnswerCutOff => Msg::NoticeAnswerCutOff,
        Notice::RunawayReminder => Msg::NoticeRunawayReminder,
        Notice::LedgerNotWritten { .. } => Msg::NoticeLedgerNotWritten,
        Notice::ContextOverflow => Msg::NoticeContextOverflow,
        Notice::PartialCompletion { .. } => Msg::NoticePartialCompletion,
        Notice::MemoryUnavailable { .. } => Msg::NoticeMemoryUnavailable,
        Notice::CompactionSkipped { .. } => Msg::NoticeCompactionSkipped,
        Notice::SnapshotsOff { .. } => Msg::NoticeSnapshotsOff,
        Notice::HeadlineOnly => Msg::NoticeHeadlineOnly,
        Notice::McpServerFailed { .. } => Msg::NoticeMcpServerFailed,
        Notice::McpConfigSkipped { .. } => Msg::NoticeMcpConfigSkipped,
        Notice::McpNotStarted { .. } => Msg::NoticeMcpNotStarted,
        Notice::McpNeedsApproval { .. } => Msg::NoticeMcpNeedsApproval,
        Notice::McpApprovalNotSaved { .. } => Msg::NoticeMcpApprovalNotSaved,
        Notice::McpStarting { .. } => Msg::NoticeMcpStarting,
        Notice::Note { .. } => Msg::NoticeNote,
        Notice::ToolCallsCutOff { .. } => Msg::NoticeToolCallsCutOff,
        Notice::ToolCallsCutOffAgain { .. } => Msg::NoticeToolCallsCutOffAgain,
        Notice::EmptyAnswer => Msg::NoticeEmptyAnswer,
        Notice::ReasoningOnly => Msg::NoticeReasoningOnly,
        Notice::ReasoningCutOff => Msg::NoticeReasoningCutOff,
        Notice::ContextTrimmed { .. } => Msg::NoticeContextTrimmed,
        Notice::Retrying { .. } => Msg::NoticeRetrying,
        Notice::McpNeedsLogin { .. } => Msg::NoticeMcpNeedsLogin,
        Notice::PlanRepairing { .. } => Msg::NoticePlanRepairing,
        Notice::PlanReplanning { .. } => Msg::NoticePlanReplanning,
        Notice::PlanReplanFailed { .. } => Msg::NoticePlanReplanFailed,
        Notice::PlanStepRejected { .. } => Msg::NoticePlanStepRejected,
        Notice::PlanStepRejectedFinal { .. } => Msg::NoticePlanStepRejectedFinal,
        Notice::PlanStepApproved => Msg::NoticePlanStepApproved,
        Notice::PlanModeLeft { .. } => Msg::PlanModeRestored,
        Notice::ImagesNotSent { .. } => Msg::ImagesNeedVision,
        Notice::MentionsAttached { .. } => Msg::NoticeMentionsAttached,
        Notice::HookMessage { .. } => Msg::NoticeHookMessage,
        Notice::HookPromptBlocked { .. } => Msg::NoticeHookPromptBlocked,
        Notice::HookStopContinues { .. } => Msg::NoticeHookStopContinues,
        Notice::HookStopLimit { .. } => Msg::NoticeHookStopLimit,
        Notice::HookNeedsTrust { .. } => Msg::NoticeHookNeedsTrust,
        Notice::AgentModelInherited { .. } => Msg::NoticeAgentModelInherited,
        Notice::RoleModelRefused { .. } => Msg::NoticeRoleModelRefused,
        Notice::MentionSkipped { .. } => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One of every kind, so a new kind without a table entry shows up here.
    fn every_kind() -> Vec<Notice> {
        let s = || "x".to_string();
        vec![
            Notice::DsmlCallsRun { calls: 2 },
            Notice::DsmlNotRun { why: s() },
            Notice::AnswerCutOff,
            Notice::RunawayReminder,
            Notice::LedgerNotWritten { error: s() },
            Notice::ContextOverflow,
            Notice::PartialCompletion { reason: s() },
            Notice::MemoryUnavailable { error: s() },
            Notice::CompactionSkipped { error: s() },
            Notice::SnapshotsOff { error: s() },
            Notice::HeadlineOnly,
            Notice::McpServerFailed {
                server: s(),
                error: s(),
            },
            Notice::McpConfigSkipped { error: s() },
            Notice::McpNotStarted {
                server: s(),
                reason: s(),
            },
            Notice::McpNeedsApproval {
                server: s(),
                source: s(),
                command: s(),
            },
            Notice::McpNeedsLogin { server: s() },
            Notice::McpApprovalNotSaved {
                server: s(),
                error: s(),
            },
            Notice::McpStarting { server: s() },
            Notice::Note { text: s() },
            Notice::ToolCallsCutOff { calls: 2 },
            Notice::ToolCallsCutOffAgain { calls: 1 },
            Notice::EmptyAnswer,
            Notice::ReasoningOnly,
            Notice::ReasoningCutOff,
            Notice::ContextTrimmed {
                dropped: 3,
                shortened: 1,
                before: 13_000,
                after: 9_000,
            },
            Notice::Retrying {
                cause: "HTTP 429".into(),
                seconds: "2".into(),
                attempt: 2,
                max: 3,
            },
            Notice::PlanRepairing { error: s() },
            Notice::PlanReplanning {
                failed: 2,
                total: 3,
            },
            Notice::PlanReplanFailed { error: s() },
            Notice::PlanStepRejected {
                reasons: s(),
                retry: 1,
                max: 2,
            },
            Notice::PlanStepRejectedFinal {
                reasons: s(),
                retries: 2,
            },
            Notice::PlanStepApproved,
            Notice::PlanModeLeft { mode: s() },
            Notice::HookMessage { text: s() },
            Notice::HookPromptBlocked { reason: s() },
            Notice::HookStopContinues { reason: s() },
            Notice::HookStopLimit {
                times: 5,
                reason: s(),
            },
            Notice::HookNeedsTrust {
                event: s(),
                source: s(),
                command: s(),
            },
            Notice::AgentModelInherited {
                agent: s(),
                alias: s(),
                model: s(),
            },
            Notice::RoleModelRefused {
                role: s(),
                reason: s(),
            },
            Notice::MentionSkipped {
                mention: "@a.txt".into(),
                reason: crate::protocol::SkipReason::Binary,
            },
            Notice::ImagesNotSent {
                model: s(),
                paths: vec![s(), s()],
            },
            Notice::MentionsAttached {
                paths: vec![s(), s()],
            },
        ]
    }

    #[test]
    fn the_english_entry_is_the_protocol_wording_so_json_and_the_terminal_agree() {
        for notice in every_kind() {
            if let Some(msg) = notice_msg(&notice) {
                assert_eq!(tr(Lang::En, msg), notice.english(), "{notice:?}");
            }
            assert_eq!(notice_text(Lang::En, &notice), notice.to_string());
        }
    }

    #[test]
    fn a_hook_notice_reads_in_chinese() {
        let notice = Notice::HookPromptBlocked {
            reason: "secret".into(),
        };
        assert_eq!(
            notice_text(Lang::Zh, &notice),
            "UserPromptSubmit 钩子拦下了这条输入，未发送给模型：secret"
        );
    }

    #[test]
    fn chinese_fills_the_same_data() {
        let notice = Notice::McpNeedsApproval {
            server: "gh".into(),
            source: ".mcp.json".into(),
            command: "npx gh".into(),
        };
        assert_eq!(
            notice_text(Lang::Zh, &notice),
            "来自 .mcp.json 的 MCP 服务器 `gh` 尚未获准用于此项目，未启动。请检查其命令 `npx gh`，然后用 \
             --trust-project-mcp 运行一次 paicli 以批准它。"
        );
    }
}
