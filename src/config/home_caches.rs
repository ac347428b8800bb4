//! `$PAICLI_HOME`'s folders that hold only caches and logs; everything else there steers paicli. Both the command
//! guard's write fence and the sandbox's writable roots read this one list.

/// Cache and log folders under `$PAICLI_HOME`.
pub const HOME_CACHES: [&str; 6] = [
    "logs",
    "tool-outputs",
    "index",
    "cache",
    "snapshots",
    "exports",
];
