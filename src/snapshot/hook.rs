//! When snapshots are taken: a turn hook whose gate snapshots the project before the turn's first call that can
//! change files (judged by the call's declared traits, never its name), and whose end-of-turn note snapshots
//! it again on a background thread. It also remembers, per turn of this session, which snapshot holds the files
//! as they were before the turn, for `/rewind`.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use async_trait::async_trait;

use super::entry::{Label, SnapshotKind};
use super::store::SnapshotStore;
use crate::protocol::{
    CallGate, GateCall, GateVerdict, Notice, Risk, ToolTraits, TurnHook, TurnScope,
};

/// Takes the pre- and post-turn snapshots of a session.
#[derive(Clone)]
pub struct SnapshotHook {
    inner: Arc<Inner>,
}

struct Inner {
    /// `None` when snapshots are off (disabled, or `git` is missing).
    store: Option<Arc<SnapshotStore>>,
    /// Shown once, with the first turn (why snapshots are off).
    notice: Mutex<Option<Notice>>,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    session: String,
    /// The running (or last) turn, 1-based.
    turn: u32,
    label: Option<Label>,
    /// The current turn took its pre-turn snapshot.
    snapshotted: bool,
    /// Per turn of the conversation (index 0 = turn 1): the snapshot holding the files before it, when the
    /// turn had side effects.
    before: Vec<Option<u64>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Whether a call may change files: anything with risk, edits or commands (MCP calls, `revert_turn` included).
fn may_change_files(traits: ToolTraits) -> bool {
    traits.risk != Risk::None || traits.edits_files || traits.runs_commands
}

impl SnapshotHook {
    /// Snapshots into `store` for session `session`.
    pub fn new(store: Arc<SnapshotStore>, session: &str) -> Self {
        Self::build(Some(store), None, session)
    }

    /// Snapshots off; `notice` (why) is shown with the first turn when given.
    pub fn off(notice: Option<Notice>) -> Self {
        Self::build(None, notice, "")
    }

    fn build(store: Option<Arc<SnapshotStore>>, notice: Option<Notice>, session: &str) -> Self {
        SnapshotHook {
            inner: Arc::new(Inner {
                store,
                notice: Mutex::new(notice),
                state: Mutex::new(State {
                    session: session.to_string(),
                    ..State::default()
                }),
            }),
        }
    }

    /// The store, when snapshots are on.
    pub fn store(&self) -> Option<&Arc<SnapshotStore>> {
        self.inner.store.as_ref()
    }

    /// Labels later snapshots with `session` (the front-end knows the session id once it is chosen).
    pub fn set_session(&self, session: &str) {
        lock(&self.inner.state).session = session.to_string();
    }

    /// A label for an action the user takes between turns (`/restore 3`).
    pub fn user_label(&self, action: &str) -> Label {
        let state = lock(&self.inner.state);
        Label::new(&state.session, state.turn, action)
    }

    /// The label of the running turn (what a restore the model asks for is filed under).
    pub fn turn_label(&self) -> Label {
        let state = lock(&self.inner.state);
        state
            .label
            .clone()
            .unwrap_or_else(|| Label::new(&state.session, state.turn, ""))
    }

    /// The snapshot holding the files as they were before turn `turn` (0-based) of this session's
    /// conversation; `None` when neither that turn nor any later one changed files.
    pub fn before_turn(&self, turn: usize) -> Option<u64> {
        let state = lock(&self.inner.state);
        state.before.iter().skip(turn).find_map(|seq| *seq)
    }

    /// The conversation was rewound to `turns` turns: later turns are forgotten here too.
    pub fn rewind_to_turn(&self, turns: usize) {
        let mut state = lock(&self.inner.state);
        state.before.truncate(turns);
        state.turn = u32::try_from(turns).unwrap_or(u32::MAX);
    }
}

impl TurnHook for SnapshotHook {
    /// Its turn numbers are the lead conversation's (for `/undo`); sub-agent turns must not shift them.
    fn carries_into_forks(&self) -> bool {
        false
    }

    /// `/rewind` and `/restore` find snapshots by conversation turn; a person's `!command` is none.
    fn covers_person_commands(&self) -> bool {
        false
    }

    fn begin_turn(&self, submitted: &str) -> TurnScope {
        let notices: Vec<Notice> = lock(&self.inner.notice).take().into_iter().collect();
        let Some(store) = self.inner.store.clone() else {
            return TurnScope {
                notices,
                ..TurnScope::default()
            };
        };
        let mut state = lock(&self.inner.state);
        state.turn += 1;
        state.label = Some(Label::new(&state.session, state.turn, submitted));
        state.snapshotted = false;
        let index = usize::try_from(state.turn - 1).unwrap_or(usize::MAX);
        state.before.resize(index, None);
        state.before.push(None);
        TurnScope {
            gates: vec![Arc::new(PreTurnGate {
                hook: self.clone(),
                store,
                taking: tokio::sync::Mutex::new(()),
            })],
            notices,
            ..TurnScope::default()
        }
    }

    fn end_turn(&self) {
        let (Some(store), label) = (&self.inner.store, {
            let state = lock(&self.inner.state);
            state.snapshotted.then(|| state.label.clone()).flatten()
        }) else {
            return;
        };
        if let Some(label) = label {
            store.take_in_background(SnapshotKind::PostTurn, label);
        }
    }
}

/// The gate of one turn: snapshots before the first call that may change files.
struct PreTurnGate {
    hook: SnapshotHook,
    store: Arc<SnapshotStore>,
    /// Held while the snapshot is taken: a plan's sub-agents share this gate, and a second file-changing call
    /// must wait until the files are saved, not pass because the first call already started saving them.
    taking: tokio::sync::Mutex<()>,
}

#[async_trait]
impl CallGate for PreTurnGate {
    async fn check(&self, call: GateCall<'_>) -> GateVerdict {
        if !may_change_files(call.traits) {
            return GateVerdict::Allow;
        }
        let _taking = self.taking.lock().await;
        let label = {
            let mut state = lock(&self.hook.inner.state);
            if state.snapshotted {
                return GateVerdict::Allow;
            }
            state.snapshotted = true;
            state.label.clone()
        };
        let Some(label) = label else {
            return GateVerdict::Allow;
        };
        let store = Arc::clone(&self.store);
        let taken = tokio::task::spawn_blocking(move || store.checkpoint(&label)).await;
        match taken {
            Ok(Ok(seq)) => {
                let mut state = lock(&self.hook.inner.state);
                if let Some(slot) = state.before.last_mut() {
                    *slot = seq;
                }
            }
            // A failed snapshot must not stop the work; the store's own log line says why.
            Ok(Err(e)) => tracing::warn!("pre-turn snapshot failed: {e}"),
            Err(e) => tracing::warn!("pre-turn snapshot task failed: {e}"),
        }
        GateVerdict::Allow
    }
}
