//! Loading a ledger: the header, then every record replayed on a fresh [`Conversation`], so the history equals
//! the one the session had in memory. Damage is skipped with a notice, never a panic: a torn last line (a crash
//! mid-write), lines that are not records, and tool calls whose results never came (answered as aborted, so the
//! next request is valid).

use std::path::{Path, PathBuf};

use super::record::{FORMAT_VERSION, Header, Record};
use crate::protocol::message::{Content, Message, Role, ToolSpec};
use crate::session::Conversation;

/// The result recorded for a tool call the ledger holds no result for.
pub const ABORTED_RESULT: &str =
    "[aborted by user] the session ended before this call finished; its result is unknown";

/// Why a ledger could not be loaded at all.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("cannot read the session ledger {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path} is not a paicli session ledger (its first line is not a session header)")]
    NoHeader { path: PathBuf },
    #[error(
        "{path} was written by a newer paicli (ledger format {found}; this one reads up to {FORMAT_VERSION}): \
         update paicli to resume it"
    )]
    NewerFormat { path: PathBuf, found: u64 },
}

/// Something loading skipped or repaired; the front-end tells the user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadNotice {
    /// The last line was cut off (the process died while writing it).
    TornLastLine,
    /// Lines that are not records (or do not fit the history) were skipped; `first` is 1-based.
    SkippedLines { count: usize, first: usize },
    /// Tool calls had no result and were answered as aborted.
    AbortedCalls { count: usize },
}

/// A loaded session.
#[derive(Debug)]
pub struct LoadedSession {
    pub header: Header,
    /// The history as it was at the end of the ledger, no ledger attached.
    pub conversation: Conversation,
    /// The model of the last model change, else the header's.
    pub model: String,
    /// The approval mode of the last mode change, if any.
    pub mode: Option<String>,
    /// The tool list of the last tool change, else the header's.
    pub tools: Vec<ToolSpec>,
    /// The input of the first user turn.
    pub first_input: Option<String>,
    pub notices: Vec<LoadNotice>,
}

/// Loads the ledger at `path`.
pub fn load(path: &Path) -> Result<LoadedSession, LoadError> {
    let bytes = std::fs::read(path).map_err(|source| LoadError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let text = String::from_utf8_lossy(&bytes);
    let torn = !text.is_empty() && !text.ends_with('\n');
    let mut lines = text
        .split('\n')
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let header = match lines.next() {
        Some((_, line)) => parse_header(path, line)?,
        None => {
            return Err(LoadError::NoHeader {
                path: path.to_path_buf(),
            });
        }
    };
    let mut replay = Replay::new(&header);
    let last = text.split('\n').count().saturating_sub(1);
    for (n, line) in lines {
        match serde_json::from_str::<Record>(line) {
            Ok(record) => {
                if !replay.apply(record) {
                    replay.skip(n + 1);
                }
            }
            // The torn last line has its own notice.
            Err(_) if torn && n == last => {}
            Err(_) => replay.skip(n + 1),
        }
    }
    replay.close_round();
    let mut notices = Vec::new();
    if torn {
        notices.push(LoadNotice::TornLastLine);
    }
    if let Some(first) = replay.first_skipped {
        notices.push(LoadNotice::SkippedLines {
            count: replay.skipped,
            first,
        });
    }
    if replay.aborted > 0 {
        notices.push(LoadNotice::AbortedCalls {
            count: replay.aborted,
        });
    }
    Ok(LoadedSession {
        model: replay.model.unwrap_or_else(|| header.model.clone()),
        mode: replay.mode,
        tools: replay.tools.unwrap_or_else(|| header.tools.clone()),
        first_input: replay.first_input,
        conversation: replay.conversation,
        header,
        notices,
    })
}

fn parse_header(path: &Path, line: &str) -> Result<Header, LoadError> {
    let no_header = || LoadError::NoHeader {
        path: path.to_path_buf(),
    };
    let value: serde_json::Value = serde_json::from_str(line).map_err(|_| no_header())?;
    // The version is checked before the shape: a newer header may have fields this build does not know.
    if let Some(found) = value.get("format").and_then(serde_json::Value::as_u64)
        && found > u64::from(FORMAT_VERSION)
    {
        return Err(LoadError::NewerFormat {
            path: path.to_path_buf(),
            found,
        });
    }
    match serde_json::from_value::<Record>(value) {
        Ok(Record::Session(header)) => Ok(header),
        _ => Err(no_header()),
    }
}

/// Replays records; an assistant message calling tools stays open until a record that is not one of its
/// results arrives, so results written in the order tools finished are put back in call order.
struct Replay {
    conversation: Conversation,
    open: Option<(Message, Vec<Message>)>,
    model: Option<String>,
    mode: Option<String>,
    tools: Option<Vec<ToolSpec>>,
    first_input: Option<String>,
    skipped: usize,
    first_skipped: Option<usize>,
    aborted: usize,
}

impl Replay {
    fn new(header: &Header) -> Self {
        Replay {
            conversation: Conversation::new(header.system_prompt.clone()),
            open: None,
            model: None,
            mode: None,
            tools: None,
            first_input: None,
            skipped: 0,
            first_skipped: None,
            aborted: 0,
        }
    }

    fn skip(&mut self, line: usize) {
        self.skipped += 1;
        self.first_skipped.get_or_insert(line);
    }

    /// Applies one record; false when it does not fit the history (it is skipped).
    fn apply(&mut self, record: Record) -> bool {
        // Usage is not history (and may come between a call and its results): `recorded_usage` reads it.
        if let Record::Usage { .. } = record {
            return true;
        }
        if let Record::Message { message } = &record
            && message.role == Role::Tool
        {
            return self.add_result(message);
        }
        self.close_round();
        let c = &mut self.conversation;
        match record {
            Record::Session(_) => return false,
            Record::Turn { recall, input } => {
                self.first_input.get_or_insert_with(|| input.clone());
                c.begin_turn(recall, input);
            }
            Record::Message { message } => match message.role {
                Role::User => match message.content {
                    Content::Text(text) => c.push_user(text),
                    Content::Parts(parts) => c.push_user_parts(parts),
                },
                Role::Assistant if message.tool_calls.is_empty() => c.push_answer(message.text()),
                Role::Assistant => self.open = Some((message, Vec::new())),
                Role::System | Role::Tool => return false,
            },
            Record::Compaction {
                start,
                end,
                replacement,
            } => return c.rewrite(start..end, replacement).is_ok(),
            Record::ToolOutputCleared { index, text } => return c.replace_tool_output(index, text),
            Record::Rewind { turn } => return c.rewind_to_turn(turn).is_ok(),
            Record::Clear => c.clear(),
            Record::SystemPrompt { text } => c.set_system_prompt(text),
            Record::Tools { tools } => self.tools = Some(tools),
            Record::Model { model } => self.model = Some(model),
            Record::Mode { mode } => self.mode = Some(mode),
            Record::Usage { .. } => {}
        }
        true
    }

    fn add_result(&mut self, message: &Message) -> bool {
        let Some((assistant, results)) = &mut self.open else {
            return false;
        };
        let Some(id) = &message.tool_call_id else {
            return false;
        };
        let called = assistant.tool_calls.iter().any(|c| &c.id == id);
        let answered = results.iter().any(|r| r.tool_call_id.as_ref() == Some(id));
        if !called || answered {
            return false;
        }
        results.push(message.clone());
        true
    }

    /// Appends the open round: each call with its result in call order, aborted where none came.
    fn close_round(&mut self) {
        let Some((assistant, results)) = self.open.take() else {
            return;
        };
        let round = assistant
            .tool_calls
            .iter()
            .map(|call| {
                let result = results
                    .iter()
                    .find(|r| r.tool_call_id.as_deref() == Some(call.id.as_str()));
                let text = match result {
                    Some(r) => r.text(),
                    None => {
                        self.aborted += 1;
                        ABORTED_RESULT.to_string()
                    }
                };
                (call.clone(), text)
            })
            .collect();
        self.conversation
            .push_tool_round(assistant.text(), assistant.reasoning_content, round);
    }
}
