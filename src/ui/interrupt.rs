//! Ctrl-C as a cancel: while a task runs, SIGINT cancels its token instead of killing paicli (ESC is read by the
//! keyboard owner and cancels the same token). While the approval prompt has lent the terminal to a pager, Ctrl-C
//! is the pager's: it reaches paicli too (one foreground process group), and is ignored then.

use std::future::Future;

use tokio::runtime::Runtime;
use tokio_util::sync::CancellationToken;

use crate::ui::keyboard::Keyboard;

/// Runs `work` on `runtime` to its end while Ctrl-C cancels `cancel`; the watcher ends with it.
pub fn block_on_interruptible<F: Future>(
    runtime: &Runtime,
    cancel: &CancellationToken,
    work: F,
) -> F::Output {
    watched(runtime, cancel, None, work)
}

/// [`block_on_interruptible`] for a task whose keys `keyboard` owns: Ctrl-C while it lends the terminal to a
/// pager does not cancel.
pub fn block_on_task<F: Future>(
    runtime: &Runtime,
    cancel: &CancellationToken,
    keyboard: &Keyboard,
    work: F,
) -> F::Output {
    watched(runtime, cancel, Some(keyboard.clone()), work)
}

fn watched<F: Future>(
    runtime: &Runtime,
    cancel: &CancellationToken,
    keyboard: Option<Keyboard>,
    work: F,
) -> F::Output {
    runtime.block_on(async {
        let on_signal = cancel.clone();
        let ctrl_c = tokio::spawn(async move {
            while tokio::signal::ctrl_c().await.is_ok() {
                if keyboard.as_ref().is_some_and(Keyboard::terminal_lent) {
                    continue;
                }
                on_signal.cancel();
                return;
            }
        });
        let output = work.await;
        ctrl_c.abort();
        output
    })
}
