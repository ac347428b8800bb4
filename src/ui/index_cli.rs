//! `paicli index [path] [--rebuild]`: builds or refreshes a project's code index from a script or CI and prints
//! files, chunks and seconds (progress goes to stderr on a terminal).

use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::time::Instant;

use tokio_util::sync::CancellationToken;

use crate::config::Config;
use crate::index::{CodeIndex, IndexProgress};
use crate::text::{Lang, Msg, labelled, tr, trf};

/// Indexes `config`'s project; returns the exit code (0, or 1 when the index could not be written).
pub fn run(config: &Config, rebuild: bool, lang: Lang) -> i32 {
    if !config.index.enabled {
        eprintln!("paicli: {}", tr(lang, Msg::IndexOff));
        return 1;
    }
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!(
                "paicli: {}",
                labelled(lang, Msg::ErrorPrefix, &e.to_string())
            );
            return 1;
        }
    };
    let index = CodeIndex::new(&config.home, &config.project_root, &config.index);
    let show = std::io::stderr().is_terminal();
    let (files, vectors) = (
        tr(lang, Msg::IndexProgressFiles),
        tr(lang, Msg::IndexProgressVectors),
    );
    let progress = Arc::new(move |p: IndexProgress| {
        if !show {
            return;
        }
        let (label, done, total) = match p {
            IndexProgress::Files { done, total } => (files, done, total),
            IndexProgress::Vectors { done, total } => (vectors, done, total),
        };
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r\x1b[2K{label} {done}/{total}");
        let _ = err.flush();
    });
    let started = Instant::now();
    let cancel = CancellationToken::new();
    let work = index.build("", rebuild, progress, &cancel);
    let result = crate::ui::interrupt::block_on_interruptible(&runtime, &cancel, work);
    if show {
        eprint!("\r\x1b[2K");
    }
    let report = match result {
        Ok(r) => r,
        Err(e) => {
            let text = trf(lang, Msg::IndexFailed, &[("error", &e.to_string())]);
            eprintln!("paicli: {text}");
            return 1;
        }
    };
    if cancel.is_cancelled() {
        eprintln!("paicli: {}", tr(lang, Msg::IndexCancelled));
    }
    println!(
        "{}",
        trf(
            lang,
            Msg::IndexBuilt,
            &[
                ("files", &report.counts.files),
                ("chunks", &report.counts.chunks),
                (
                    "seconds",
                    &format!("{:.2}", started.elapsed().as_secs_f64())
                ),
                ("reindexed", &report.sync.reindexed),
                ("removed", &report.sync.removed),
            ],
        )
    );
    if let (Some(e), true) = (index.embedder(), report.embedded > 0) {
        println!(
            "{}",
            trf(
                lang,
                Msg::IndexEmbedded,
                &[("embedded", &report.embedded), ("model", &e.model())]
            )
        );
    }
    if let Some(error) = &report.embed_error {
        eprintln!(
            "paicli: {}",
            trf(lang, Msg::IndexEmbedFailed, &[("error", error)])
        );
    }
    i32::from(cancel.is_cancelled())
}
