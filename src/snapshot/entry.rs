//! One snapshot as the store lists it: which commit and tree, when, why, and for which turn. The facts are kept
//! as `key: value` lines in the commit message, below a first line people read.

/// Why a snapshot was taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SnapshotKind {
    /// Before the first side-effecting call of a user turn (files the user changed since the last snapshot).
    PreTurn,
    /// After a turn that had side effects: what the turn changed.
    PostTurn,
    /// Before a restore, so the restore itself can be undone.
    PreRestore,
    /// Right after a restore.
    Restored,
}

impl SnapshotKind {
    /// The name written in the commit message.
    pub fn name(self) -> &'static str {
        match self {
            SnapshotKind::PreTurn => "pre-turn",
            SnapshotKind::PostTurn => "post-turn",
            SnapshotKind::PreRestore => "pre-restore",
            SnapshotKind::Restored => "restored",
        }
    }

    fn parse(name: &str) -> Option<Self> {
        [
            SnapshotKind::PreTurn,
            SnapshotKind::PostTurn,
            SnapshotKind::PreRestore,
            SnapshotKind::Restored,
        ]
        .into_iter()
        .find(|k| k.name() == name)
    }

    /// Whether the snapshot records a change made by paicli (a turn or a restore), which `revert_turn` can
    /// undo; a pre-turn snapshot only records what the user changed between turns.
    pub fn is_change(self) -> bool {
        self != SnapshotKind::PreTurn
    }
}

/// What a snapshot is labelled with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    /// The session that took it.
    pub session: String,
    /// The user turn (1-based) within the session.
    pub turn: u32,
    /// The first line of the user's message, shortened.
    pub text: String,
}

/// Longest label text kept, in characters.
const LABEL_CHARS: usize = 80;

impl Label {
    /// A label for `turn` of `session`, from the first line of `message` (control characters dropped).
    pub fn new(session: &str, turn: u32, message: &str) -> Self {
        let first = message.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        let mut text: String = first
            .trim()
            .chars()
            .filter(|c| !c.is_control())
            .take(LABEL_CHARS)
            .collect();
        if first.trim().chars().count() > LABEL_CHARS {
            text.push('…');
        }
        Label {
            session: session.chars().filter(|c| !c.is_control()).collect(),
            turn,
            text,
        }
    }
}

/// One snapshot in the store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// Its position in the store (increasing with time).
    pub seq: u64,
    /// The commit under `refs/snapshots/<seq>`.
    pub commit: String,
    /// The files, as a git tree.
    pub tree: String,
    pub kind: SnapshotKind,
    /// Session, turn and message it belongs to.
    pub label: Label,
    /// Seconds since the Unix epoch.
    pub time: i64,
    /// Files that differ from the snapshot before it.
    pub changed: usize,
}

impl Snapshot {
    /// The commit message that records `kind`, `label`, `time` and `changed`.
    pub fn message(kind: SnapshotKind, label: &Label, time: i64, changed: usize) -> String {
        format!(
            "{}\n\nkind: {}\nsession: {}\nturn: {}\ntime: {time}\nchanged: {changed}\n",
            if label.text.is_empty() {
                "(no message)"
            } else {
                &label.text
            },
            kind.name(),
            label.session,
            label.turn,
        )
    }

    /// Reads a snapshot back from its ref sequence, commit, tree and message; `None` for a foreign commit.
    pub fn parse(seq: u64, commit: &str, tree: &str, message: &str) -> Option<Snapshot> {
        let mut lines = message.lines();
        let text = lines.next().unwrap_or("").to_string();
        let field = |name: &str| {
            message
                .lines()
                .find_map(|l| l.strip_prefix(name)?.strip_prefix(": "))
                .map(str::to_string)
        };
        Some(Snapshot {
            seq,
            commit: commit.to_string(),
            tree: tree.to_string(),
            kind: SnapshotKind::parse(&field("kind")?)?,
            label: Label {
                session: field("session").unwrap_or_default(),
                turn: field("turn").and_then(|t| t.parse().ok()).unwrap_or(0),
                text: if text == "(no message)" {
                    String::new()
                } else {
                    text
                },
            },
            time: field("time").and_then(|t| t.parse().ok()).unwrap_or(0),
            changed: field("changed").and_then(|t| t.parse().ok()).unwrap_or(0),
        })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_message_reads_back_as_the_same_snapshot() {
        let label = Label::new("s1", 3, "\n  fix the parser\nand more");
        assert_eq!(label.text, "fix the parser");
        let message = Snapshot::message(SnapshotKind::PostTurn, &label, 1700, 4);
        let snapshot = Snapshot::parse(7, "c", "t", &message).unwrap();
        assert_eq!(snapshot.label, label);
        assert_eq!(snapshot.kind, SnapshotKind::PostTurn);
        assert_eq!(
            (snapshot.seq, snapshot.time, snapshot.changed),
            (7, 1700, 4)
        );
        assert!(Snapshot::parse(1, "c", "t", "someone else's commit").is_none());
    }

    #[test]
    fn long_labels_are_shortened_and_control_characters_dropped() {
        let label = Label::new("s\u{1b}1", 1, &format!("a\u{7}{}", "x".repeat(200)));
        assert_eq!(label.session, "s1");
        assert_eq!(label.text.chars().count(), LABEL_CHARS + 1);
        assert!(!label.text.contains('\u{7}'));
    }
}
