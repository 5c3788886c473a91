//! The thread pool extraction and resolution run on: rayon's, but with threads whose stack
//! fits the deepest file extraction accepts (`tether_extract::EXTRACTION_STACK_BYTES`; the
//! default for spawned threads is 2 MiB). Built once per process; the stack is reserved
//! address space, touched only as deep as a walk goes.

use std::sync::OnceLock;

fn pool() -> Option<&'static rayon::ThreadPool> {
    static POOL: OnceLock<Option<rayon::ThreadPool>> = OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .thread_name(|index| format!("tether-worker-{index}"))
            .stack_size(tether_extract::EXTRACTION_STACK_BYTES)
            .build()
            .ok()
    })
    .as_ref()
}

/// Runs `work` on the worker pool: every `par_iter` inside it uses the pool's threads.
pub fn on_worker_pool<R: Send>(work: impl FnOnce() -> R + Send) -> R {
    match pool() {
        Some(pool) => pool.install(work),
        None => work(),
    }
}
