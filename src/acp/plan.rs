//! Plan mode's events as ACP's `plan` update: the whole list of entries each time a task changes, as the
//! protocol asks (a client replaces its plan with every update).

use agent_client_protocol::v1::schema::{
    Plan as AcpPlan, PlanEntry, PlanEntryPriority, PlanEntryStatus,
};

use crate::protocol::plan::{Plan, TaskState};
use crate::protocol::{StepStatus, TaskList};
use crate::text::{Lang, Msg, trf};

/// The plan the editor is shown, kept in step with the plan events.
#[derive(Default)]
pub struct PlanView {
    /// Task id, entry, in plan order.
    entries: Vec<(String, PlanEntry)>,
}

impl PlanView {
    /// A new or re-made plan: every task pending.
    pub fn propose(&mut self, plan: &Plan) -> AcpPlan {
        self.entries = plan
            .tasks
            .iter()
            .map(|task| {
                // Our plans do not rank tasks; one that others wait on is the one to watch.
                let waited_on = plan
                    .tasks
                    .iter()
                    .any(|other| other.depends_on.contains(&task.id));
                let priority = if waited_on {
                    PlanEntryPriority::High
                } else {
                    PlanEntryPriority::Medium
                };
                let entry = PlanEntry::new(task.title.clone(), priority, PlanEntryStatus::Pending);
                (task.id.clone(), entry)
            })
            .collect();
        self.current()
    }

    /// Task `task_id` moved to `state`; `None` when the plan has no such task.
    pub fn set_state(&mut self, task_id: &str, state: TaskState) -> Option<AcpPlan> {
        let (_, entry) = self.entries.iter_mut().find(|(id, _)| id == task_id)?;
        entry.status = entry_status(state);
        Some(self.current())
    }

    fn current(&self) -> AcpPlan {
        AcpPlan::new(self.entries.iter().map(|(_, e)| e.clone()).collect())
    }
}

/// The model's task list (`update_plan`) as the whole `plan` update: its steps in order, the running one high.
pub fn task_list_plan(list: &TaskList) -> AcpPlan {
    AcpPlan::new(
        list.plan
            .iter()
            .map(|s| {
                let (priority, status) = match s.status {
                    StepStatus::Pending => (PlanEntryPriority::Medium, PlanEntryStatus::Pending),
                    StepStatus::InProgress => {
                        (PlanEntryPriority::High, PlanEntryStatus::InProgress)
                    }
                    StepStatus::Completed => {
                        (PlanEntryPriority::Medium, PlanEntryStatus::Completed)
                    }
                };
                PlanEntry::new(s.step.clone(), priority, status)
            })
            .collect(),
    )
}

/// ACP v1 knows three states: a failed or skipped task is over, so it reads as completed.
fn entry_status(state: TaskState) -> PlanEntryStatus {
    match state {
        TaskState::Pending => PlanEntryStatus::Pending,
        TaskState::Running => PlanEntryStatus::InProgress,
        TaskState::Done | TaskState::Failed | TaskState::Skipped => PlanEntryStatus::Completed,
    }
}

/// The plan as Markdown for the editor's review: a numbered task list with ids, dependencies and descriptions.
pub fn plan_markdown(lang: Lang, plan: &Plan) -> String {
    let mut text = String::new();
    for (n, task) in plan.tasks.iter().enumerate() {
        text.push_str(&format!(
            "{}. **{}** `{}`",
            n + 1,
            task.title.trim(),
            task.id
        ));
        if !task.depends_on.is_empty() {
            let deps = task.depends_on.join(", ");
            let after = trf(lang, Msg::PlanTaskAfter, &[("deps", &deps)]);
            text.push_str(&format!(" ({after})"));
        }
        text.push('\n');
        for line in task.description.lines().filter(|l| !l.trim().is_empty()) {
            text.push_str(&format!("   {}\n", line.trim()));
        }
    }
    text
}
