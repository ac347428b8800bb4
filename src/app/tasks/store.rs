//! The queue file and the event logs of a project's tasks under `$PAICLI_HOME/tasks/<project-id>/`, and the two
//! OS file locks that let several paicli processes share them: `queue.lock`, held for the moment of each change
//! (read, change, write back), and `runner.lock`, held by the one process that runs the queue for as long as it
//! runs. The OS drops both when the process ends, however it ends.

use std::fs::{File, TryLockError};
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
            dir: home.join("tasks").join(crate::config::project_id(root)),
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

    /// Reads the queue, lets `change` edit it and writes it back, with no other process changing it between;
    /// returns what `change` returned.
    pub fn update<R>(&self, change: impl FnOnce(&mut Vec<TaskRecord>) -> R) -> std::io::Result<R> {
        let lock = self.open_lock("queue.lock")?;
        lock.lock()?;
        let mut tasks = self.load();
        let answer = change(&mut tasks);
        self.save(&tasks)?;
        Ok(answer)
    }

    /// The runner lock when no other process holds it; kept until the returned file is dropped.
    pub fn try_runner_lock(&self) -> Option<File> {
        let file = match self.open_lock("runner.lock") {
            Ok(file) => file,
            Err(e) => {
                tracing::warn!("cannot open the task runner lock: {e}");
                return None;
            }
        };
        match file.try_lock() {
            Ok(()) => Some(file),
            Err(TryLockError::WouldBlock) => None,
            Err(TryLockError::Error(e)) => {
                tracing::warn!("cannot take the task runner lock: {e}");
                None
            }
        }
    }

    fn open_lock(&self, name: &str) -> std::io::Result<File> {
        std::fs::create_dir_all(&self.dir)?;
        std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(self.dir.join(name))
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
