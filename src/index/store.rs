//! The index database: one SQLite file per project under `$PAICLI_HOME/index/`, in WAL mode so readers never
//! wait for a writer and never see half a file. Every change of a file is one `BEGIN IMMEDIATE` transaction
//! group, so two paicli processes indexing the same project take turns (`busy_timeout`) instead of failing, and
//! a writer re-checks the stored hash inside its transaction, so the second one to arrive skips work already done.

use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};

use super::IndexError;
use super::chunker::Parsed;
use super::relations::RelationKind;

/// Bumped when the schema or what is stored changes; an older database is rebuilt.
const SCHEMA_VERSION: &str = "2";
/// The page cache of one connection, in KiB.
const CACHE_KIB: i64 = 16 * 1024;
/// How long a writer waits for another process's transaction before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(30);

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS files(
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    hash TEXT NOT NULL,
    language TEXT NOT NULL,
    skipped INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS chunks(
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL,
    symbol TEXT NOT NULL,
    kind TEXT NOT NULL,
    start_line INTEGER NOT NULL,
    end_line INTEGER NOT NULL,
    text TEXT NOT NULL,
    vector BLOB
);
CREATE INDEX IF NOT EXISTS chunks_file ON chunks(file_id);
-- Counting embedded chunks would otherwise read every chunk's row, text and all.
CREATE INDEX IF NOT EXISTS chunks_embedded ON chunks(id) WHERE vector IS NOT NULL;
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(symbol, path, body, tokenize = 'porter unicode61');
CREATE TABLE IF NOT EXISTS relations(
    file_id INTEGER NOT NULL,
    kind TEXT NOT NULL,
    source TEXT NOT NULL,
    target TEXT NOT NULL,
    line INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS relations_file ON relations(file_id);
CREATE INDEX IF NOT EXISTS relations_source ON relations(source);
CREATE INDEX IF NOT EXISTS relations_target ON relations(target);
";

/// What the index holds about one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileState {
    pub size: u64,
    pub mtime_ns: i64,
    pub hash: String,
}

/// A file to write: its stat, content hash, language and (unless skipped) its chunks and relations.
#[derive(Debug)]
pub struct FileRecord {
    pub path: String,
    pub size: u64,
    pub mtime_ns: i64,
    pub hash: String,
    pub language: &'static str,
    /// Binary or generated: remembered so the stat walk does not read it again, but not searchable.
    pub skipped: bool,
    pub parsed: Parsed,
}

/// One stored chunk, as search results show it.
#[derive(Clone, Debug, PartialEq)]
pub struct ChunkRow {
    pub id: i64,
    pub path: String,
    pub language: String,
    pub symbol: String,
    pub kind: String,
    pub start_line: usize,
    pub end_line: usize,
    pub text: String,
}

/// Limits a search to a path prefix and a language.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    /// Project-relative prefix with `/` separators; empty for all.
    pub path_prefix: String,
    /// `rust`, `python`…; empty for all.
    pub language: String,
}

/// Counts for `/index status` and `paicli index`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub files: u64,
    pub chunks: u64,
    pub embedded: u64,
    pub relations: u64,
}

/// One row of the relations table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RelationRow {
    pub kind: RelationKind,
    pub source: String,
    pub target: String,
    pub path: String,
    pub line: usize,
}

/// A stored vector with its chunk id, path and language.
pub type VectorRow = (i64, String, String, Vec<f32>);

/// An open index database.
pub struct Store {
    conn: Connection,
    /// Write transactions this connection committed: its own commits do not move `data_version`, so caches
    /// of what it read are keyed on both.
    writes: u64,
}

impl Store {
    /// Opens (creating) the database at `path`, in WAL mode, with the current schema.
    pub fn open(path: &Path) -> Result<Store, IndexError> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|source| IndexError::Io {
                path: dir.to_path_buf(),
                source,
            })?;
        }
        let conn = Connection::open(path)?;
        conn.busy_timeout(BUSY_TIMEOUT)?;
        // Switching to WAL takes a lock the busy handler does not cover; another process may hold it briefly.
        let mut attempt = 0;
        loop {
            match conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get::<_, String>(0)) {
                Ok(_) => break,
                Err(e) if attempt < 50 && is_busy(&e) => {
                    attempt += 1;
                    std::thread::sleep(Duration::from_millis(20));
                }
                Err(e) => return Err(e.into()),
            }
        }
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        // The connection stays open between searches: a page cache that holds the FTS index and the doc sizes
        // BM25 reads for every match saves a read call per page (the default is 2 MB).
        conn.pragma_update(None, "cache_size", -CACHE_KIB)?;
        let mut store = Store { conn, writes: 0 };
        store.ensure_schema()?;
        Ok(store)
    }

    fn ensure_schema(&mut self) -> Result<(), IndexError> {
        // The common case reads only: opening for a search must not queue behind another process's writer.
        let current: Option<String> = self
            .conn
            .query_row("SELECT value FROM meta WHERE key = 'schema'", [], |r| {
                r.get(0)
            })
            .optional()
            .unwrap_or(None);
        if current.as_deref() == Some(SCHEMA_VERSION) {
            return Ok(());
        }
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        tx.execute_batch(
            "CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);",
        )?;
        let version: Option<String> = tx
            .query_row("SELECT value FROM meta WHERE key = 'schema'", [], |r| {
                r.get(0)
            })
            .optional()?;
        if version.as_deref() != Some(SCHEMA_VERSION) {
            tx.execute_batch(
                "DROP TABLE IF EXISTS files; DROP TABLE IF EXISTS chunks; DROP TABLE IF EXISTS chunks_fts;
                 DROP TABLE IF EXISTS relations; DELETE FROM meta;",
            )?;
            tx.execute_batch(SCHEMA)?;
            tx.execute(
                "INSERT INTO meta(key, value) VALUES ('schema', ?1)",
                [SCHEMA_VERSION],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    /// What the index holds for each path.
    pub fn file_states(&self) -> Result<HashMap<String, FileState>, IndexError> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT path, size, mtime_ns, hash FROM files")?;
        let rows = stmt.query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                FileState {
                    size: r.get::<_, i64>(1)?.try_into().unwrap_or(0),
                    mtime_ns: r.get(2)?,
                    hash: r.get(3)?,
                },
            ))
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Records a new stat for files whose content did not change.
    pub fn touch(&mut self, files: &[(String, u64, i64)]) -> Result<(), IndexError> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        {
            let mut stmt =
                tx.prepare_cached("UPDATE files SET size = ?2, mtime_ns = ?3 WHERE path = ?1")?;
            for (path, size, mtime) in files {
                stmt.execute(params![path, to_i64(*size), mtime])?;
            }
        }
        tx.commit()?;
        self.writes += 1;
        Ok(())
    }

    /// Replaces the stored chunks and relations of each file in one transaction; returns how many files were
    /// written (a file another process already stored with the same hash is only re-stat'ed).
    pub fn write_files(&mut self, files: &[FileRecord]) -> Result<usize, IndexError> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let mut written = 0;
        for file in files {
            let stored: Option<(i64, String)> = tx
                .query_row(
                    "SELECT id, hash FROM files WHERE path = ?1",
                    [&file.path],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()?;
            if let Some((_, hash)) = &stored
                && *hash == file.hash
            {
                tx.execute(
                    "UPDATE files SET size = ?2, mtime_ns = ?3 WHERE path = ?1",
                    params![file.path, to_i64(file.size), file.mtime_ns],
                )?;
                continue;
            }
            if let Some((id, _)) = stored {
                delete_contents(&tx, id)?;
            }
            let id: i64 = tx.query_row(
                "INSERT INTO files(path, size, mtime_ns, hash, language, skipped) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                 ON CONFLICT(path) DO UPDATE SET size = excluded.size, mtime_ns = excluded.mtime_ns,
                   hash = excluded.hash, language = excluded.language, skipped = excluded.skipped
                 RETURNING id",
                params![
                    file.path,
                    to_i64(file.size),
                    file.mtime_ns,
                    file.hash,
                    file.language,
                    file.skipped
                ],
                |r| r.get(0),
            )?;
            insert_contents(&tx, id, file)?;
            written += 1;
        }
        tx.commit()?;
        self.writes += 1;
        Ok(written)
    }

    /// Forgets the given paths.
    pub fn delete_paths(&mut self, paths: &[String]) -> Result<(), IndexError> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        for path in paths {
            let id: Option<i64> = tx
                .query_row("SELECT id FROM files WHERE path = ?1", [path], |r| r.get(0))
                .optional()?;
            if let Some(id) = id {
                delete_contents(&tx, id)?;
                tx.execute("DELETE FROM files WHERE id = ?1", [id])?;
            }
        }
        tx.commit()?;
        self.writes += 1;
        Ok(())
    }

    /// Empties the index (`--rebuild`).
    pub fn clear(&mut self) -> Result<(), IndexError> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        tx.execute_batch(
            "DELETE FROM chunks_fts; DELETE FROM chunks; DELETE FROM relations; DELETE FROM files;
             DELETE FROM meta WHERE key = 'embedding_model';",
        )?;
        tx.commit()?;
        self.writes += 1;
        Ok(())
    }

    /// The best chunks for an FTS5 `MATCH` expression, by BM25 (symbol names weigh most, then paths, then
    /// text), best first, with their scores (higher is better).
    pub fn keyword_search(
        &self,
        expression: &str,
        filter: &Filter,
        limit: usize,
    ) -> Result<Vec<(i64, f64)>, IndexError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT c.id, bm25(chunks_fts, 6.0, 2.0, 1.0) AS score
             FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid JOIN files f ON f.id = c.file_id
             WHERE chunks_fts MATCH ?1
               AND (?2 = '' OR substr(f.path, 1, length(?2)) = ?2)
               AND (?3 = '' OR f.language = ?3)
             ORDER BY score LIMIT ?4",
        )?;
        let rows = stmt.query_map(
            params![
                expression,
                filter.path_prefix,
                filter.language,
                to_i64(limit as u64)
            ],
            |r| Ok((r.get::<_, i64>(0)?, -r.get::<_, f64>(1)?)),
        )?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The chunks with these ids, in the order given.
    pub fn chunks(&self, ids: &[i64]) -> Result<Vec<ChunkRow>, IndexError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT c.id, f.path, f.language, c.symbol, c.kind, c.start_line, c.end_line, c.text
             FROM chunks c JOIN files f ON f.id = c.file_id WHERE c.id = ?1",
        )?;
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            let row = stmt
                .query_row([id], |r| {
                    Ok(ChunkRow {
                        id: r.get(0)?,
                        path: r.get(1)?,
                        language: r.get(2)?,
                        symbol: r.get(3)?,
                        kind: r.get(4)?,
                        start_line: r.get::<_, i64>(5)?.try_into().unwrap_or(0),
                        end_line: r.get::<_, i64>(6)?.try_into().unwrap_or(0),
                        text: r.get(7)?,
                    })
                })
                .optional()?;
            out.extend(row);
        }
        Ok(out)
    }

    /// Every stored vector with its chunk id, path and language (for the in-memory cosine ranking).
    pub fn vectors(&self) -> Result<Vec<VectorRow>, IndexError> {
        let mut stmt = self.conn.prepare(
            "SELECT c.id, f.path, f.language, c.vector FROM chunks c JOIN files f ON f.id = c.file_id
             WHERE c.vector IS NOT NULL",
        )?;
        let rows = stmt.query_map([], |r| {
            let blob: Vec<u8> = r.get(3)?;
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, decode_vector(&blob)))
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Up to `limit` chunks that have no vector yet: id and the text to embed.
    pub fn pending_vectors(&self, limit: usize) -> Result<Vec<(i64, String)>, IndexError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT c.id, c.symbol || char(10) || f.path || char(10) || c.text
             FROM chunks c JOIN files f ON f.id = c.file_id WHERE c.vector IS NULL LIMIT ?1",
        )?;
        let rows = stmt.query_map([to_i64(limit as u64)], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// How many chunks still wait for a vector.
    pub fn pending_count(&self) -> Result<u64, IndexError> {
        // All chunks less the embedded ones: both counts come from an index, not from the rows.
        let n: i64 = self.conn.query_row(
            "SELECT (SELECT count(*) FROM chunks) - (SELECT count(*) FROM chunks WHERE vector IS NOT NULL)",
            [],
            |r| r.get(0),
        )?;
        Ok(n.try_into().unwrap_or(0))
    }

    /// Stores vectors made by `model`; vectors of another model are dropped first.
    pub fn set_vectors(
        &mut self,
        model: &str,
        vectors: &[(i64, Vec<f32>)],
    ) -> Result<(), IndexError> {
        self.use_model(model)?;
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        {
            let mut stmt = tx.prepare_cached("UPDATE chunks SET vector = ?2 WHERE id = ?1")?;
            for (id, vector) in vectors {
                stmt.execute(params![id, encode_vector(vector)])?;
            }
        }
        tx.commit()?;
        self.writes += 1;
        Ok(())
    }

    /// Makes `model` the embedding model of the stored vectors, dropping those of any other.
    pub fn use_model(&mut self, model: &str) -> Result<(), IndexError> {
        let current: Option<String> = self
            .conn
            .query_row(
                "SELECT value FROM meta WHERE key = 'embedding_model'",
                [],
                |r| r.get(0),
            )
            .optional()?;
        if current.as_deref() == Some(model) {
            return Ok(());
        }
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let stored: Option<String> = tx
            .query_row(
                "SELECT value FROM meta WHERE key = 'embedding_model'",
                [],
                |r| r.get(0),
            )
            .optional()?;
        if stored.as_deref() != Some(model) {
            tx.execute(
                "UPDATE chunks SET vector = NULL WHERE vector IS NOT NULL",
                [],
            )?;
            tx.execute(
                "INSERT INTO meta(key, value) VALUES ('embedding_model', ?1)
                 ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                [model],
            )?;
        }
        tx.commit()?;
        self.writes += 1;
        Ok(())
    }

    /// Files, chunks, embedded chunks and relations stored.
    pub fn counts(&self) -> Result<Counts, IndexError> {
        let count = |sql: &str| -> Result<u64, IndexError> {
            let n: i64 = self.conn.query_row(sql, [], |r| r.get(0))?;
            Ok(n.try_into().unwrap_or(0))
        };
        Ok(Counts {
            files: count("SELECT count(*) FROM files WHERE skipped = 0")?,
            chunks: count("SELECT count(*) FROM chunks")?,
            embedded: count("SELECT count(*) FROM chunks WHERE vector IS NOT NULL")?,
            relations: count("SELECT count(*) FROM relations WHERE kind <> 'defines'")?,
        })
    }

    /// Changes whenever the database changed since this connection last looked: `data_version` (moved by
    /// other connections' commits) with this connection's own write count. Caches of what it read key on it.
    pub fn version(&self) -> Result<(i64, u64), IndexError> {
        let data_version = self
            .conn
            .query_row("PRAGMA data_version", [], |r| r.get(0))?;
        Ok((data_version, self.writes))
    }

    /// Relations whose source or target is one of `names` (symbol paths or short names).
    pub fn relations_about(&self, names: &[String]) -> Result<Vec<RelationRow>, IndexError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT r.kind, r.source, r.target, f.path, r.line FROM relations r JOIN files f ON f.id = r.file_id
             WHERE r.source = ?1 OR r.target = ?1 ORDER BY f.path, r.line",
        )?;
        let mut out: Vec<RelationRow> = Vec::new();
        for name in names {
            let rows = stmt.query_map([name], |r| {
                let kind: String = r.get(0)?;
                Ok((kind, r.get(1)?, r.get(2)?, r.get(3)?, r.get::<_, i64>(4)?))
            })?;
            for row in rows {
                let (kind, source, target, path, line) = row?;
                let Some(kind) = RelationKind::parse(&kind) else {
                    continue;
                };
                let row = RelationRow {
                    kind,
                    source,
                    target,
                    path,
                    line: line.try_into().unwrap_or(0),
                };
                if !out.contains(&row) {
                    out.push(row);
                }
            }
        }
        Ok(out)
    }

    /// Symbol paths defined with this short name or path, or ending in `::name` / `.name`.
    pub fn definitions_named(&self, name: &str) -> Result<Vec<RelationRow>, IndexError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT r.source, r.target, f.path, r.line FROM relations r JOIN files f ON f.id = r.file_id
             WHERE r.kind = 'defines' AND (r.target = ?1 OR r.source = ?1 OR r.source LIKE ?2 ESCAPE '\\'
               OR r.source LIKE ?3 ESCAPE '\\')
             ORDER BY f.path, r.line LIMIT 50",
        )?;
        let escaped = name
            .replace('\\', "\\\\")
            .replace('%', "\\%")
            .replace('_', "\\_");
        let rows = stmt.query_map(
            params![name, format!("%::{escaped}"), format!("%.{escaped}")],
            |r| {
                Ok(RelationRow {
                    kind: RelationKind::Defines,
                    source: r.get(0)?,
                    target: r.get(1)?,
                    path: r.get(2)?,
                    line: r.get::<_, i64>(3)?.try_into().unwrap_or(0),
                })
            },
        )?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

fn delete_contents(tx: &rusqlite::Transaction<'_>, file_id: i64) -> Result<(), IndexError> {
    tx.execute(
        "DELETE FROM chunks_fts WHERE rowid IN (SELECT id FROM chunks WHERE file_id = ?1)",
        [file_id],
    )?;
    tx.execute("DELETE FROM chunks WHERE file_id = ?1", [file_id])?;
    tx.execute("DELETE FROM relations WHERE file_id = ?1", [file_id])?;
    Ok(())
}

fn insert_contents(
    tx: &rusqlite::Transaction<'_>,
    file_id: i64,
    file: &FileRecord,
) -> Result<(), IndexError> {
    if file.skipped {
        return Ok(());
    }
    let mut chunk = tx.prepare_cached(
        "INSERT INTO chunks(file_id, symbol, kind, start_line, end_line, text) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    let mut fts = tx.prepare_cached(
        "INSERT INTO chunks_fts(rowid, symbol, path, body) VALUES (?1, ?2, ?3, ?4)",
    )?;
    let path_words = super::words::index_text(&file.path);
    for c in &file.parsed.chunks {
        chunk.execute(params![
            file_id,
            c.symbol,
            c.kind,
            to_i64(c.start_line as u64),
            to_i64(c.end_line as u64),
            c.text
        ])?;
        let id = tx.last_insert_rowid();
        fts.execute(params![
            id,
            super::words::index_text(&c.symbol),
            path_words,
            super::words::index_text(&c.text)
        ])?;
    }
    let mut relation = tx.prepare_cached(
        "INSERT INTO relations(file_id, kind, source, target, line) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    for r in &file.parsed.relations {
        relation.execute(params![
            file_id,
            r.kind.name(),
            r.from,
            r.to,
            to_i64(r.line as u64)
        ])?;
    }
    Ok(())
}

fn is_busy(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
    )
}

fn to_i64(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// Little-endian `f32`s.
fn encode_vector(vector: &[f32]) -> Vec<u8> {
    vector.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn decode_vector(blob: &[u8]) -> Vec<f32> {
    blob.chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}
