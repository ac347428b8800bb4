//! The tokens a recorded session spent, per model: its own ledger's usage records and its sub-agents' (the
//! sidechains beside it), so a resumed session's `/cost` shows what the session spent before, and `/export`
//! what each sub-agent spent.

use std::collections::BTreeMap;
use std::path::Path;

use super::record::Record;
use super::store::sidechains;
use crate::protocol::message::Usage;
use crate::session::ModelKey;

/// Usage per model, by key.
pub type UsageByModel = BTreeMap<ModelKey, Usage>;

/// What the session of `ledger` spent, with its sub-agents', per model; a file that cannot be read counts
/// nothing (its conversation's loading reports the damage).
pub fn recorded_usage(ledger: &Path) -> UsageByModel {
    let mut tally = ledger_usage(ledger);
    for sidechain in sidechains(ledger) {
        for (key, usage) in ledger_usage(&sidechain) {
            tally.entry(key).or_default().add(&usage);
        }
    }
    tally
}

/// The usage records of one ledger file, per model.
pub fn ledger_usage(path: &Path) -> UsageByModel {
    let mut tally = UsageByModel::new();
    let Ok(bytes) = std::fs::read(path) else {
        return tally;
    };
    let text = String::from_utf8_lossy(&bytes);
    // Only usage lines are parsed: messages can be large.
    for line in text.lines().filter(|l| l.starts_with(r#"{"type":"usage""#)) {
        if let Ok(Record::Usage { model, usage }) = serde_json::from_str::<Record>(line) {
            tally.entry(model).or_default().add(&usage);
        }
    }
    tally
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::protocol::message::ToolCall;
    use crate::session::Conversation;
    use crate::session::ledger::{FORMAT_VERSION, Header, Ledger, load};

    fn header(dir: &Path) -> Header {
        Header {
            format: FORMAT_VERSION,
            id: "lead".into(),
            project_root: dir.to_path_buf(),
            provider: "deepseek".into(),
            model: "deepseek-chat".into(),
            version: "0.0.0".into(),
            git_branch: None,
            started: "2026-12-01T09:00:00+00:00".into(),
            system_prompt: "lead".into(),
            tools: Vec::new(),
            forked_from: None,
        }
    }

    #[test]
    fn a_session_and_its_sub_agents_spending_is_read_back_per_model() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("20261201T090000000-lead.jsonl");
        let lead = Ledger::create(
            &path,
            header(dir.path()),
            std::sync::Arc::new(|s: &str| s.to_string()),
        )
        .unwrap();
        let mut c = Conversation::new("lead");
        c.attach_ledger(lead.clone());
        c.begin_turn(None, "go");
        let own = ModelKey::of_session("deepseek-chat");
        let kimi = ModelKey {
            provider: "kimi".into(),
            model: "kimi-k2.6".into(),
        };
        let spend = |ledger: &Ledger, model: &ModelKey, prompt| {
            ledger.write(&Record::Usage {
                model: model.clone(),
                usage: Usage::tokens(prompt, 5, 0, 0),
            });
        };
        let call = ToolCall {
            id: "c1".into(),
            name: "agent".into(),
            arguments: "{}".into(),
        };
        c.announce_round("", None, std::slice::from_ref(&call));
        // Usage recorded between a call and its result leaves the round whole.
        spend(&lead, &own, 100);
        let sidechain = lead.sidechain("explore-c1", "explore").unwrap();
        spend(&sidechain, &kimi, 40);
        spend(&sidechain, &kimi, 60);
        lead.record_result("c1", "found");
        c.push_tool_round("", None, vec![(call, "found".to_string())]);
        spend(&lead, &own, 200);

        let spent = recorded_usage(&path);
        assert_eq!(spent[&own], Usage::tokens(300, 10, 0, 0));
        assert_eq!(spent[&kimi], Usage::tokens(100, 10, 0, 0));
        let loaded = load(&path).unwrap();
        assert!(loaded.notices.is_empty(), "{:?}", loaded.notices);
        assert_eq!(loaded.conversation.messages(), c.messages());
    }
}
