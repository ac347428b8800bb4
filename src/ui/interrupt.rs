//! Ctrl-C as a cancel: while a task runs, SIGINT cancels its token instead of killing paicli (ESC is read by the
//! keyboard owner and cancels the same token).

use std::future::Future;

use tokio::runtime::Runtime;
use tokio_util::sync::CancellationToken;

/// Runs `work` on `runtime` to its end while Ctrl-C cancels `cancel`; the watcher ends with it.
pub fn block_on_interruptible<F: Future>(
    runtime: &Runtime,
    cancel: &CancellationToken,
    work: F,
) -> F::Output {
    runtime.block_on(async {
        let on_signal = cancel.clone();
        let ctrl_c = tokio::spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                on_signal.cancel();
            }
        });
        let output = work.await;
        ctrl_c.abort();
        output
    })
}
