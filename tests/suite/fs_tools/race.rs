//! A local process swapping a directory for a symlink to the outside must never win a read or a write.
//!
//! The swapper exchanges `d` (a real directory) and `d.link` (a symlink to `outside/`) atomically, as fast as
//! it can, while the tools run, so `d` is always one or the other. Whatever the interleaving, no outside byte
//! may reach the model and no file may appear outside.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::JoinHandle;

use paicli::tools::ToolOutcome;
use paicli::tools::fs::{ReadFile, WriteFile};
use serde_json::json;

use super::{Project, dir_names};

/// Calls per tool; the issue asks for at least 1,000.
const CALLS: usize = 2500;
const SECRET: &str = "SECRET-OUTSIDE";

/// Swaps `d` between a directory and a symlink to the outside until stopped.
struct Swapper {
    stop: Arc<AtomicBool>,
    swaps: Arc<AtomicUsize>,
    thread: Option<JoinHandle<()>>,
    d: PathBuf,
    link: PathBuf,
}

impl Swapper {
    fn start(root: &Path, outside: &Path) -> Self {
        fs::create_dir_all(root.join("d")).unwrap();
        fs::write(root.join("d/inside.txt"), "inside\n").unwrap();
        fs::write(outside.join("inside.txt"), format!("{SECRET}\n")).unwrap();
        symlink(outside, root.join("d.link")).unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let swaps = Arc::new(AtomicUsize::new(0));
        let (d, link) = (root.join("d"), root.join("d.link"));
        let thread = {
            let (stop, swaps) = (Arc::clone(&stop), Arc::clone(&swaps));
            let (d, link) = (d.clone(), link.clone());
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    swap(&d, &link);
                    swaps.fetch_add(1, Ordering::Relaxed);
                }
            })
        };
        // The race must be on before the first call, or a fast machine could finish without one.
        while swaps.load(Ordering::Relaxed) == 0 {
            std::thread::yield_now();
        }
        Swapper {
            stop,
            swaps,
            thread: Some(thread),
            d,
            link,
        }
    }

    /// Stops the swapper, leaves `d` a directory again and returns how many swaps it made.
    fn finish(mut self) -> usize {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            thread.join().unwrap();
        }
        if self.d.is_symlink() {
            swap(&self.d, &self.link);
        }
        self.swaps.load(Ordering::Relaxed)
    }
}

/// Exchanges the two names in one step (`RENAME_EXCHANGE`), so `d` never goes missing.
fn swap(d: &Path, link: &Path) {
    use rustix::fs::{CWD, RenameFlags, renameat_with};
    renameat_with(CWD, d, CWD, link, RenameFlags::EXCHANGE).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn read_file_never_returns_outside_bytes_while_a_dir_is_swapped_for_a_symlink() {
    let p = Project::new();
    let swapper = Swapper::start(&p.root, &p.outside);
    let mut read_inside = 0;
    let mut leaked = Vec::new();
    for _ in 0..CALLS {
        let outcome = p.call(&ReadFile, json!({"path": "d/inside.txt"})).await;
        let text = outcome.model_text();
        if text.contains(SECRET) {
            leaked.push(text);
        } else if matches!(outcome, ToolOutcome::Ok(_)) {
            assert!(text.contains("1 | inside"), "{text}");
            read_inside += 1;
        }
    }
    let swaps = swapper.finish();
    eprintln!(
        "read race: {swaps} swaps, {read_inside}/{CALLS} reads inside, {} leaks",
        leaked.len()
    );
    assert!(
        leaked.is_empty(),
        "{} of {CALLS} reads returned the outside secret: {:?}",
        leaked.len(),
        leaked.first()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn write_file_never_writes_outside_while_a_dir_is_swapped_for_a_symlink() {
    let p = Project::new();
    let swapper = Swapper::start(&p.root, &p.outside);
    let mut written = 0;
    for i in 0..CALLS {
        let outcome = p
            .call(
                &WriteFile,
                json!({"path": "d/new.txt", "content": format!("write {i}\n")}),
            )
            .await;
        if matches!(outcome, ToolOutcome::Ok(_)) {
            written += 1;
        }
    }
    let swaps = swapper.finish();
    eprintln!("write race: {swaps} swaps, {written}/{CALLS} writes landed");
    assert_eq!(dir_names(&p.outside), vec!["inside.txt"]);
    assert_eq!(
        fs::read_to_string(p.outside.join("inside.txt")).unwrap(),
        format!("{SECRET}\n")
    );
    assert!(p.root.join("d").is_dir());
    let in_d = dir_names(&p.root.join("d"));
    assert!(
        in_d.iter().all(|n| n == "inside.txt" || n == "new.txt"),
        "{in_d:?}"
    );
}
