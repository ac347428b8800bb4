//! One lock per path, shared by every executor cloned from the same one (the lead agent and its sub-agents):
//! calls that change the same file never run at the same time, so two parallel plan tasks editing one file lose
//! no update.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use tokio::sync::OwnedMutexGuard;

/// The per-path locks.
#[derive(Debug, Default)]
pub struct PathLocks {
    locks: Mutex<HashMap<PathBuf, Arc<tokio::sync::Mutex<()>>>>,
}

/// Held while a call changes its paths; dropping it lets the next call on those paths run.
#[derive(Debug)]
pub struct PathsHeld {
    _guards: Vec<OwnedMutexGuard<()>>,
}

impl PathLocks {
    /// Waits until every path of `paths` is free and holds them all. Paths are taken in sorted order, so two
    /// calls wanting overlapping sets cannot deadlock.
    pub async fn hold(&self, paths: &[PathBuf]) -> PathsHeld {
        let mut sorted: Vec<&PathBuf> = paths.iter().collect();
        sorted.sort();
        sorted.dedup();
        let locks: Vec<Arc<tokio::sync::Mutex<()>>> = {
            let mut map = match self.locks.lock() {
                Ok(map) => map,
                Err(poisoned) => poisoned.into_inner(),
            };
            // Locks nobody holds or waits for are dropped, so the map stays as small as the work in flight.
            map.retain(|_, lock| Arc::strong_count(lock) > 1);
            sorted
                .into_iter()
                .map(|path| Arc::clone(map.entry(path.clone()).or_default()))
                .collect()
        };
        let mut guards = Vec::with_capacity(locks.len());
        for lock in locks {
            guards.push(lock.lock_owned().await);
        }
        PathsHeld { _guards: guards }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_held_path_waits_for_its_release_and_other_paths_do_not() {
        let locks = Arc::new(PathLocks::default());
        let held = locks.hold(&[PathBuf::from("a.txt")]).await;
        // Another path is free right away.
        let other = locks.hold(&[PathBuf::from("b.txt")]).await;
        drop(other);
        let waiting = {
            let locks = Arc::clone(&locks);
            tokio::spawn(async move { locks.hold(&[PathBuf::from("a.txt")]).await })
        };
        tokio::task::yield_now().await;
        assert!(!waiting.is_finished(), "the same path must wait");
        drop(held);
        let second = waiting.await;
        assert!(second.is_ok());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn overlapping_sets_in_any_order_do_not_deadlock() {
        let locks = Arc::new(PathLocks::default());
        let (a, b) = (PathBuf::from("a"), PathBuf::from("b"));
        // Two callers take the same two paths, named in opposite orders (one twice), many times over, yielding
        // while they hold them: taking them in the order given would deadlock at the first interleaving.
        let callers = [vec![b.clone(), a.clone(), a.clone()], vec![a, b]].map(|paths| {
            let locks = Arc::clone(&locks);
            tokio::spawn(async move {
                for _ in 0..200 {
                    let held = locks.hold(&paths).await;
                    tokio::task::yield_now().await;
                    drop(held);
                }
            })
        });
        // A deadlock fails the test instead of hanging it.
        let all = futures_util::future::join_all(callers);
        let done = tokio::time::timeout(std::time::Duration::from_secs(10), all).await;
        let Ok(results) = done else {
            panic!("the callers deadlocked");
        };
        assert!(results.iter().all(Result::is_ok), "{results:?}");
    }
}
