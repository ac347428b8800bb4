//! The code index behind `search_code`, `paicli index`, `/index`, `/search` and `/graph`: one SQLite database
//! per project (`$PAICLI_HOME/index/<project-id>.sqlite`) holding tree-sitter chunks with their symbol paths,
//! an FTS5 keyword index over code, symbols and paths, optional embedding vectors, and the relations `/graph`
//! shows. Searches stay fresh by a stat walk before each query. See `docs/code-index.md`.

pub mod chunker;
pub mod embed;
pub mod graph;
pub mod language;
pub mod pool;
pub mod rank;
pub mod relations;
pub mod search;
pub mod store;
pub mod sync;
pub mod words;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use tokio_util::sync::CancellationToken;

use crate::config::IndexSettings;
pub use embed::{EmbedError, Embedder};
pub use graph::Graph;
pub use search::{Hit, Ranking, SearchRequest, SearchResults};
pub use store::Counts;
pub use sync::SyncReport;

/// Files a search re-indexes before it answers; a larger change is done in the background.
pub const INLINE_SYNC_LIMIT: usize = 200;
/// Chunks a search embeds before it answers (the rest wait for `/index` or the next searches).
const INLINE_EMBED_LIMIT: usize = 256;

/// Why the index could not be used.
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    #[error("index database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("cannot use {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("the index task stopped: {0}")]
    Task(String),
}

/// What an indexing run reports as it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndexProgress {
    /// Files read and chunked so far, of the files that changed.
    Files { done: usize, total: usize },
    /// Chunks embedded so far, of those waiting.
    Vectors { done: usize, total: usize },
}

/// Receives progress; called from a blocking thread.
pub type ProgressFn = Arc<dyn Fn(IndexProgress) + Send + Sync>;

/// What `paicli index` and `/index` print.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IndexReport {
    pub sync: SyncReport,
    pub counts: Counts,
    /// Chunks given a vector in this run.
    pub embedded: usize,
    /// The embedding server failed: its error, once.
    pub embed_error: Option<String>,
}

/// The index of one project. Cheap to share; operations borrow the process's open connection (or open their
/// own when it is lent out), so searches from several tasks and a background catch-up run side by side.
pub struct CodeIndex {
    root: PathBuf,
    db: PathBuf,
    embedder: Option<Embedder>,
    state: Arc<State>,
}

/// What the handles of one process share.
#[derive(Default)]
struct State {
    /// A background sync is running.
    catching_up: AtomicBool,
    /// The embedding server failed once: said once, then keywords only until the next `/index`.
    embed_failed: AtomicBool,
    /// The connection kept open between operations.
    pool: pool::Pool,
}

impl CodeIndex {
    /// The index of the project at `root` (canonical), stored under `home`.
    pub fn new(home: &Path, root: &Path, settings: &IndexSettings) -> CodeIndex {
        let embedder = settings.embeddings_url.as_deref().map(|url| {
            Embedder::new(
                url,
                &settings.embeddings_model,
                settings.embeddings_api_key.clone(),
            )
        });
        let db = database_path(home, root);
        adopt_legacy_database(home, root, &db);
        CodeIndex {
            root: root.to_path_buf(),
            db,
            embedder,
            state: Arc::new(State::default()),
        }
    }

    /// The project root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The database file.
    pub fn database(&self) -> &Path {
        &self.db
    }

    /// The embedding server, when one is configured.
    pub fn embedder(&self) -> Option<&Embedder> {
        self.embedder.as_ref()
    }

    /// Whether a background sync is still running.
    pub fn is_catching_up(&self) -> bool {
        self.state.catching_up.load(Ordering::SeqCst)
    }

    /// Brings the index up to date under `prefix` ("" for all), emptying it first when `rebuild`, then embeds
    /// every chunk still without a vector. For `paicli index` and `/index`.
    pub async fn build(
        &self,
        prefix: &str,
        rebuild: bool,
        progress: ProgressFn,
        cancel: &CancellationToken,
    ) -> Result<IndexReport, IndexError> {
        let (root, db, prefix_owned) = (self.root.clone(), self.db.clone(), prefix.to_string());
        let files_progress = Arc::clone(&progress);
        let task_cancel = cancel.clone();
        let state = Arc::clone(&self.state);
        let sync = blocking(move || {
            state.pool.with(&db, |session| {
                if rebuild {
                    session.store.clear()?;
                }
                sync_now(
                    session,
                    &root,
                    &prefix_owned,
                    &*files_progress,
                    &task_cancel,
                )
            })
        })
        .await?;
        self.state.embed_failed.store(false, Ordering::SeqCst);
        let (embedded, embed_error) = self.embed_pending(usize::MAX, &progress, cancel).await?;
        let (db, state) = (self.db.clone(), Arc::clone(&self.state));
        let counts = blocking(move || state.pool.with(&db, |s| s.store.counts())).await?;
        Ok(IndexReport {
            sync,
            counts,
            embedded,
            embed_error,
        })
    }

    /// Counts of what is stored, and whether the index exists at all.
    pub fn counts(&self) -> Result<Option<Counts>, IndexError> {
        if !self.db.exists() {
            return Ok(None);
        }
        self.state
            .pool
            .with(&self.db, |s| s.store.counts())
            .map(Some)
    }

    /// Definitions and relations of `symbol` (best effort).
    pub fn graph(&self, symbol: &str) -> Result<Graph, IndexError> {
        self.state
            .pool
            .with(&self.db, |s| graph::graph(&s.store, symbol))
    }

    /// Embeds up to `limit` chunks without a vector; returns how many got one and the server's error, if any.
    async fn embed_pending(
        &self,
        limit: usize,
        progress: &ProgressFn,
        cancel: &CancellationToken,
    ) -> Result<(usize, Option<String>), IndexError> {
        let Some(embedder) = &self.embedder else {
            return Ok((0, None));
        };
        if self.state.embed_failed.load(Ordering::SeqCst) {
            return Ok((0, None));
        }
        let (db, state) = (self.db.clone(), Arc::clone(&self.state));
        let model = embedder.model().to_string();
        let total = blocking(move || {
            state.pool.with(&db, |s| {
                s.store.use_model(&model)?;
                s.store.pending_count()
            })
        })
        .await?;
        let total = usize::try_from(total).unwrap_or(usize::MAX).min(limit);
        let mut done = 0;
        while done < total && !cancel.is_cancelled() {
            let (db, state) = (self.db.clone(), Arc::clone(&self.state));
            let want = embed::BATCH.min(total - done);
            let pending =
                blocking(move || state.pool.with(&db, |s| s.store.pending_vectors(want))).await?;
            if pending.is_empty() {
                break;
            }
            let texts: Vec<String> = pending.iter().map(|(_, t)| t.clone()).collect();
            let vectors = tokio::select! {
                result = embedder.embed(&texts) => result,
                () = cancel.cancelled() => break,
            };
            let vectors = match vectors {
                Ok(v) => v,
                Err(e) => {
                    tracing::warn!("embeddings off for now: {e}");
                    self.state.embed_failed.store(true, Ordering::SeqCst);
                    return Ok((done, Some(e.to_string())));
                }
            };
            let rows: Vec<(i64, Vec<f32>)> =
                pending.iter().map(|(id, _)| *id).zip(vectors).collect();
            let (db, model) = (self.db.clone(), embedder.model().to_string());
            let state = Arc::clone(&self.state);
            blocking(move || state.pool.with(&db, |s| s.store.set_vectors(&model, &rows))).await?;
            done += want;
            progress(IndexProgress::Vectors { done, total });
        }
        Ok((done, None))
    }

    /// Makes the index fresh enough to answer: builds it when empty, re-indexes a small change at once, and
    /// hands a large one to a background thread. Returns whether a background sync is still running.
    async fn freshen(
        &self,
        progress: ProgressFn,
        cancel: &CancellationToken,
    ) -> Result<bool, IndexError> {
        if self.is_catching_up() {
            return Ok(true);
        }
        let (root, db, state) = (self.root.clone(), self.db.clone(), Arc::clone(&self.state));
        let task_cancel = cancel.clone();
        blocking(move || {
            let mut session = state.pool.take(&db)?;
            let stored = session.file_states()?;
            let plan = sync::plan(sync::walk(&root, ""), &stored, "");
            if plan.is_empty() {
                state.pool.give_back(session);
                return Ok(false);
            }
            if stored.is_empty() || plan.changed.len() <= INLINE_SYNC_LIMIT {
                let report_progress =
                    |done: usize, total: usize| progress(IndexProgress::Files { done, total });
                sync::apply(
                    &mut session.store,
                    plan,
                    &stored,
                    &report_progress,
                    &task_cancel,
                )?;
                state.pool.give_back(session);
                return Ok(false);
            }
            // The background thread keeps this connection; the next operation opens another.
            let mut store = session.store;
            state.catching_up.store(true, Ordering::SeqCst);
            let background_state = Arc::clone(&state);
            let spawned = std::thread::Builder::new()
                .name("paicli-index".into())
                .spawn(move || {
                    let run = || -> Result<(), IndexError> {
                        sync::apply(
                            &mut store,
                            plan,
                            &stored,
                            &|_, _| {},
                            &CancellationToken::new(),
                        )?;
                        Ok(())
                    };
                    if let Err(e) = run() {
                        tracing::warn!("background index sync failed: {e}");
                    }
                    background_state.catching_up.store(false, Ordering::SeqCst);
                });
            if spawned.is_err() {
                state.catching_up.store(false, Ordering::SeqCst);
            }
            Ok(spawned.is_ok())
        })
        .await
    }

    /// Answers a search: freshens the index, embeds a bounded number of new chunks, ranks by keywords and (when
    /// embeddings work) vectors, fused by reciprocal rank.
    pub async fn search(
        &self,
        request: &SearchRequest,
        progress: ProgressFn,
        cancel: &CancellationToken,
    ) -> Result<SearchResults, IndexError> {
        let catching_up = self.freshen(Arc::clone(&progress), cancel).await?;
        let (_, mut embed_error) = self
            .embed_pending(INLINE_EMBED_LIMIT, &progress, cancel)
            .await?;
        let mut query_vector = None;
        if let Some(embedder) = &self.embedder
            && !self.state.embed_failed.load(Ordering::SeqCst)
        {
            match embedder.embed(std::slice::from_ref(&request.query)).await {
                Ok(mut v) => query_vector = v.pop(),
                Err(e) => {
                    self.state.embed_failed.store(true, Ordering::SeqCst);
                    embed_error = Some(e.to_string());
                }
            }
        }
        let (db, state, request_owned) =
            (self.db.clone(), Arc::clone(&self.state), request.clone());
        let mut results = blocking(move || {
            state.pool.with(&db, |session| {
                let vectors = match &query_vector {
                    Some(_) => Some(session.vectors()?),
                    None => None,
                };
                search::run(
                    &session.store,
                    &request_owned,
                    query_vector.as_deref(),
                    vectors.as_deref(),
                )
            })
        })
        .await?;
        results.catching_up = catching_up;
        results.embed_error = embed_error;
        Ok(results)
    }
}

/// Syncs the files under `prefix` now.
fn sync_now(
    session: &mut pool::Session,
    root: &Path,
    prefix: &str,
    progress: &dyn Fn(IndexProgress),
    cancel: &CancellationToken,
) -> Result<SyncReport, IndexError> {
    let stored = session.file_states()?;
    let plan = sync::plan(sync::walk(root, prefix), &stored, prefix);
    if plan.is_empty() {
        return Ok(SyncReport {
            seen: plan.seen,
            ..SyncReport::default()
        });
    }
    sync::apply(
        &mut session.store,
        plan,
        &stored,
        &|done, total| progress(IndexProgress::Files { done, total }),
        cancel,
    )
}

/// Runs blocking database work off the async threads.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, IndexError> + Send + 'static,
) -> Result<T, IndexError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| IndexError::Task(e.to_string()))?
}

/// `$PAICLI_HOME/index/<project id>.sqlite` (see [`crate::config::project_id`]).
pub fn database_path(home: &Path, root: &Path) -> PathBuf {
    home.join("index")
        .join(format!("{}.sqlite", crate::config::project_id(root)))
}

/// Moves a database the index kept under its old name for the project (a folder name over 40 characters, or
/// none) to `db`, with its journal files, so the project keeps its index. Best effort: a failed move only means
/// a fresh index.
fn adopt_legacy_database(home: &Path, root: &Path, db: &Path) {
    let legacy = home.join("index").join(format!(
        "{}.sqlite",
        crate::config::project_id::legacy_index_id(root)
    ));
    if legacy == db || db.exists() || !legacy.exists() {
        return;
    }
    for suffix in ["", "-wal", "-shm"] {
        let from = PathBuf::from(format!("{}{suffix}", legacy.display()));
        if from.exists()
            && let Err(e) = std::fs::rename(&from, format!("{}{suffix}", db.display()))
        {
            tracing::warn!(
                "could not move the index {} to its new name: {e}",
                from.display()
            );
        }
    }
}

#[cfg(test)]
mod tests;
