//! Which plan task made each running call, read from the events its sub-agent sends, so a front-end can name the
//! task where it shows the call or asks about it (`[B] edit_file`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use crate::protocol::AgentEvent;

/// The plan task of each running sub-agent call (call id → task id), shared by a front-end's event sinks and its
/// approver so both name the task (`[B] edit_file`). An id two running tasks share maps to `None`: neither is
/// named rather than the wrong one.
#[derive(Clone, Default)]
pub struct CallTasks(Arc<Mutex<HashMap<String, Option<String>>>>);

impl CallTasks {
    /// The task that made the running call `call_id`, if one did and it is known for sure.
    pub fn task_of(&self, call_id: &str) -> Option<String> {
        self.lock().get(call_id).cloned().flatten()
    }

    /// `title` with the task of `call_id` in front, when there is one.
    pub fn titled(&self, call_id: &str, title: &str) -> String {
        match self.task_of(call_id) {
            Some(task) => format!("[{task}] {title}"),
            None => title.to_string(),
        }
    }

    /// Notes what `event`, from the sub-agent of `task`, says about its calls.
    pub fn observe(&self, task: &str, event: &AgentEvent) {
        match event {
            AgentEvent::ToolCallStarted { id, .. } => self.started(id, task),
            AgentEvent::ToolCallFinished { id, .. } => self.finished(id),
            _ => {}
        }
    }

    fn started(&self, call_id: &str, task: &str) {
        let mut calls = self.lock();
        let entry = calls.entry(call_id.to_string());
        entry
            .and_modify(|known| {
                if known.as_deref() != Some(task) {
                    *known = None;
                }
            })
            .or_insert_with(|| Some(task.to_string()));
    }

    fn finished(&self, call_id: &str) {
        self.lock().remove(call_id);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Option<String>>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
