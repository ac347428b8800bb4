//! What sessions, resuming and forking tell the user, in English and Chinese.

use crate::app::sessions::{Resumed, StartError, StartNotice};
use crate::session::ledger::{FindError, LoadNotice, SessionSummary};
use crate::ui::i18n::Lang;

use super::picker::summary_lines;

/// Flags that do not fit together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FlagError {
    /// `--fork` without `--continue` or `--resume`.
    ForkAlone,
}

/// The error for `e`.
pub fn flag_error(lang: Lang, e: &FlagError) -> String {
    match (lang, e) {
        (Lang::En, FlagError::ForkAlone) => {
            "--fork continues an earlier session under a new id: use it with --continue or --resume"
                .into()
        }
        (Lang::Zh, FlagError::ForkAlone) => {
            "--fork 以新的 id 继续一个旧会话：请与 --continue 或 --resume 一起使用".into()
        }
    }
}

/// `-p --resume` without an id: the picker needs a terminal; lists what could be passed instead.
pub fn picker_needs_terminal(lang: Lang, summaries: &[SessionSummary]) -> String {
    let mut text = match lang {
        Lang::En => "--resume without an id picks from a list, which needs the interactive mode; pass an id: \
                     paicli --resume <id> -p \"…\""
            .to_string(),
        Lang::Zh => "不带 id 的 --resume 需要在交互模式中选择；请指定 id：paicli --resume <id> -p \"…\"".to_string(),
    };
    if !summaries.is_empty() {
        text.push('\n');
        text.push_str(picker_heading(lang));
        for line in summary_lines(lang, summaries, None) {
            text.push('\n');
            text.push_str(&line);
        }
    }
    text
}

/// Before the numbered list.
pub fn picker_heading(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "Sessions of this project, newest first:",
        Lang::Zh => "本项目的会话（最新的在前）：",
    }
}

/// The picker's question.
pub fn picker_prompt(lang: Lang) -> &'static str {
    match lang {
        Lang::En => {
            "Resume which? Type its number and Enter (Enter alone, ESC or Ctrl-C: new session): "
        }
        Lang::Zh => "恢复哪一个？输入编号并回车（直接回车、ESC 或 Ctrl-C：新会话）：",
    }
}

/// The project has no ledgers.
pub fn no_sessions(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "no earlier sessions of this project; starting a new one",
        Lang::Zh => "本项目没有旧会话；开始新会话",
    }
}

/// The typed answer was not a number of the list.
pub fn not_a_choice(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "not a number from the list; starting a new session",
        Lang::Zh => "不是列表中的编号；开始新会话",
    }
}

/// A notice from starting a session.
pub fn notice_text(lang: Lang, notice: &StartNotice) -> String {
    match (lang, notice) {
        (Lang::En, StartNotice::Load(LoadNotice::TornLastLine)) => {
            "the session's last line was cut off (paicli stopped while writing it) and was skipped".into()
        }
        (Lang::Zh, StartNotice::Load(LoadNotice::TornLastLine)) => {
            "会话记录的最后一行不完整（paicli 写入时被中断），已跳过".into()
        }
        (Lang::En, StartNotice::Load(LoadNotice::SkippedLines { count, first })) => format!(
            "skipped {count} damaged line(s) of the session's ledger (the first is line {first})"
        ),
        (Lang::Zh, StartNotice::Load(LoadNotice::SkippedLines { count, first })) => {
            format!("跳过了会话记录中 {count} 行损坏的内容（第一处在第 {first} 行）")
        }
        (Lang::En, StartNotice::Load(LoadNotice::AbortedCalls { count })) => format!(
            "{count} tool call(s) had no result (paicli stopped while they ran); they are marked aborted"
        ),
        (Lang::Zh, StartNotice::Load(LoadNotice::AbortedCalls { count })) => {
            format!("{count} 个工具调用没有结果（运行时 paicli 被中断），已标记为中止")
        }
        (Lang::En, StartNotice::InstructionsChanged) => {
            "the project instructions changed since this session started; the new ones apply from now on".into()
        }
        (Lang::Zh, StartNotice::InstructionsChanged) => "项目指令在本会话开始后有改动；从现在起使用新的指令".into(),
        (Lang::En, StartNotice::LedgerUnavailable(e)) => {
            format!("this session is not recorded and cannot be resumed later: {e}")
        }
        (Lang::Zh, StartNotice::LedgerUnavailable(e)) => format!("本会话未被记录，之后无法恢复：{e}"),
    }
}

/// The line after a session was loaded.
pub fn resumed_text(lang: Lang, id: &str, resumed: &Resumed) -> String {
    let turns = resumed.turns;
    match (lang, id == resumed.from) {
        (Lang::En, true) => format!("resumed session {id}: {turns} turn(s) so far"),
        (Lang::Zh, true) => format!("已恢复会话 {id}：已有 {turns} 轮"),
        (Lang::En, false) => format!(
            "forked session {} as {id}: {turns} turn(s) so far; the original is unchanged",
            resumed.from
        ),
        (Lang::Zh, false) => format!(
            "已将会话 {} 分叉为 {id}：已有 {turns} 轮；原会话保持不变",
            resumed.from
        ),
    }
}

/// Why the requested session could not start.
pub fn start_error_text(lang: Lang, e: &StartError) -> String {
    match (lang, e) {
        (Lang::En, StartError::NothingToContinue { root }) => format!(
            "there is no earlier session of {} to continue; run paicli to start one",
            root.display()
        ),
        (Lang::Zh, StartError::NothingToContinue { root }) => {
            format!(
                "{} 没有可继续的旧会话；运行 paicli 开始一个",
                root.display()
            )
        }
        (_, StartError::Find(find)) => find_error_text(lang, find),
        (Lang::En, e) => format!("cannot resume the session: {e}"),
        (Lang::Zh, e) => format!("无法恢复会话：{e}"),
    }
}

/// An id that named no session, or several.
pub fn find_error_text(lang: Lang, e: &FindError) -> String {
    match (lang, e) {
        (Lang::En, FindError::Unknown { prefix, candidates }) if candidates.is_empty() => {
            format!("no session id starts with `{prefix}`, and this project has no sessions yet")
        }
        (Lang::Zh, FindError::Unknown { prefix, candidates }) if candidates.is_empty() => {
            format!("没有以 `{prefix}` 开头的会话 id，本项目也还没有会话")
        }
        (Lang::En, FindError::Unknown { prefix, candidates }) => format!(
            "no session id starts with `{prefix}`; recent sessions of this project: {}",
            candidates.join(", ")
        ),
        (Lang::Zh, FindError::Unknown { prefix, candidates }) => format!(
            "没有以 `{prefix}` 开头的会话 id；本项目最近的会话：{}",
            candidates.join(", ")
        ),
        (Lang::En, FindError::Ambiguous { prefix, candidates }) => format!(
            "`{prefix}` matches several sessions: {}; type more of the id",
            candidates.join(", ")
        ),
        (Lang::Zh, FindError::Ambiguous { prefix, candidates }) => {
            format!(
                "`{prefix}` 匹配多个会话：{}；请输入更长的 id",
                candidates.join("、")
            )
        }
    }
}

/// `/sessions` with no ledgers for this project.
pub fn no_project_sessions(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "this project has no recorded sessions",
        Lang::Zh => "本项目没有已记录的会话",
    }
}

/// After `/fork`.
pub fn forked_text(lang: Lang, from: &str, id: &str) -> String {
    match lang {
        Lang::En => format!("forked: this is now session {id}; session {from} stays as it was"),
        Lang::Zh => format!("已分叉：当前会话为 {id}；会话 {from} 保持不变"),
    }
}

/// `/history clear`'s question.
pub fn history_clear_question(lang: Lang, count: usize) -> String {
    match lang {
        Lang::En => format!(
            "Delete the {count} other recorded session(s) of this project? They cannot be resumed afterwards. \
             [y/N] "
        ),
        Lang::Zh => format!("删除本项目其他 {count} 个已记录的会话？删除后无法恢复。[y/N] "),
    }
}

/// After `/history clear`.
pub fn history_cleared(lang: Lang, count: usize) -> String {
    match lang {
        Lang::En => format!("deleted {count} session ledger(s); the running session is kept"),
        Lang::Zh => format!("已删除 {count} 个会话记录；当前会话保留"),
    }
}

/// `/history clear` answered with anything but yes.
pub fn nothing_deleted(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "nothing deleted",
        Lang::Zh => "未删除任何内容",
    }
}

/// `/history` with an unknown subcommand.
pub fn history_usage(lang: Lang) -> &'static str {
    match lang {
        Lang::En => {
            "usage: /history clear   (deletes this project's other recorded sessions, after asking)"
        }
        Lang::Zh => "用法：/history clear   （询问后删除本项目其他已记录的会话）",
    }
}
