//! The queue file and the event logs of a project's tasks under `$PAICLI_HOME/tasks/<project-id>/`.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::TaskRecord;
use crate::config::json_store::write_json_store;

/// Where one project's tasks are kept.
pub struct TaskStore {
    dir: PathBuf,
}

impl TaskStore {
    /// The store of the project at `root`.
    pub fn for_project(home: &Path, root: &Path) -> TaskStore {
        TaskStore {
            dir: home.join("tasks").join(crate::snapshot::project_id(root)),
        }
    }

    /// `queue.json`.
    pub fn queue_path(&self) -> PathBuf {
        self.dir.join("queue.json")
    }

    /// The stored tasks; none when the file is missing or unreadable.
    pub fn load(&self) -> Vec<TaskRecord> {
        std::fs::read_to_string(self.queue_path())
            .ok()
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or_default()
    }

    /// Replaces the queue file (atomically).
    pub fn save(&self, tasks: &[TaskRecord]) -> std::io::Result<()> {
        write_json_store(&self.queue_path(), &tasks)
    }

    fn log_path(&self, id: u64) -> PathBuf {
        self.dir.join(format!("{id}.jsonl"))
    }

    /// Appends one line to the log of task `id`.
    pub fn append_log(&self, id: u64, line: &str) {
        let written = std::fs::create_dir_all(&self.dir).and_then(|()| {
            let mut file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(self.log_path(id))?;
            writeln!(file, "{line}")
        });
        if let Err(e) = written {
            tracing::warn!("cannot write the log of task {id}: {e}");
        }
    }

    /// Every line of the log of task `id`.
    pub fn read_log(&self, id: u64) -> Vec<String> {
        std::fs::read_to_string(self.log_path(id))
            .map(|text| text.lines().map(str::to_string).collect())
            .unwrap_or_default()
    }
}
