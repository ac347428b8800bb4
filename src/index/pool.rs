//! The connection a process keeps open between searches, with the file table and vectors it last read: opening
//! SQLite, switching to WAL, checking the schema and preparing statements cost more than a whole warm search, and
//! the freshness walk would otherwise read every file row before each one.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};

use super::IndexError;
use super::search::Vectors;
use super::store::{FileState, Store};

/// What the index holds per path.
pub type FileStates = HashMap<String, FileState>;

/// An open database with what it read last: the file table and the vectors, valid while the database's
/// version (other connections' commits and this one's writes) has not moved.
pub struct Session {
    pub store: Store,
    files: Option<((i64, u64), Arc<FileStates>)>,
    vectors: Option<((i64, u64), Arc<Vectors>)>,
}

impl Session {
    /// Opens a connection of its own.
    pub fn open(db: &Path) -> Result<Session, IndexError> {
        Ok(Session {
            store: Store::open(db)?,
            files: None,
            vectors: None,
        })
    }

    /// The stored file states, read again only when the database changed.
    pub fn file_states(&mut self) -> Result<Arc<FileStates>, IndexError> {
        let version = self.store.version()?;
        if let Some((read_at, files)) = &self.files
            && *read_at == version
        {
            return Ok(Arc::clone(files));
        }
        let files = Arc::new(self.store.file_states()?);
        self.files = Some((version, Arc::clone(&files)));
        Ok(files)
    }

    /// The stored vectors, loaded again only when the database changed.
    pub fn vectors(&mut self) -> Result<Arc<Vectors>, IndexError> {
        let version = self.store.version()?;
        if let Some((read_at, vectors)) = &self.vectors
            && *read_at == version
        {
            return Ok(Arc::clone(vectors));
        }
        let vectors = Arc::new(Vectors::load(&self.store)?);
        self.vectors = Some((version, Arc::clone(&vectors)));
        Ok(vectors)
    }
}

/// At most one idle session, lent to one operation at a time; an operation that finds none opens its own, so
/// parallel searches never wait for each other here.
#[derive(Default)]
pub struct Pool {
    idle: Mutex<Option<Session>>,
}

impl Pool {
    /// The idle session, or a new one. A pooled connection whose database file is gone (the index directory
    /// was deleted) is dropped, so the next write creates the file again.
    pub fn take(&self, db: &Path) -> Result<Session, IndexError> {
        let idle = self
            .idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        match idle {
            Some(session) if db.exists() => Ok(session),
            _ => Session::open(db),
        }
    }

    /// Keeps `session` for the next operation (one idle session is enough; a second is closed).
    pub fn give_back(&self, session: Session) {
        let mut idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner);
        if idle.is_none() {
            *idle = Some(session);
        }
    }

    /// Runs `work` on a pooled session, returning it afterwards unless `work` failed (a failed connection
    /// is closed rather than reused).
    pub fn with<T>(
        &self,
        db: &Path,
        work: impl FnOnce(&mut Session) -> Result<T, IndexError>,
    ) -> Result<T, IndexError> {
        let mut session = self.take(db)?;
        let result = work(&mut session)?;
        self.give_back(session);
        Ok(result)
    }
}
