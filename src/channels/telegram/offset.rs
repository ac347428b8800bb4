//! The `getUpdates` offset, saved after every poll in `$PAICLI_HOME/channels/telegram/offset.json`: the next
//! poll confirms everything before it, so a restart neither replays nor loses an update.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::channels::store::write_private;
use crate::channels::transport::ChannelError;

#[derive(Debug, Default, Serialize, Deserialize)]
struct Saved {
    offset: i64,
}

/// The saved offset.
pub struct OffsetFile {
    path: PathBuf,
}

impl OffsetFile {
    pub fn new(dir: &Path) -> Self {
        OffsetFile {
            path: dir.join("offset.json"),
        }
    }

    /// The offset saved last; 0 (every unconfirmed update) when none was.
    pub fn load(&self) -> i64 {
        std::fs::read(&self.path)
            .ok()
            .and_then(|bytes| serde_json::from_slice::<Saved>(&bytes).ok())
            .map_or(0, |saved| saved.offset)
    }

    pub fn save(&self, offset: i64) -> Result<(), ChannelError> {
        let bytes = serde_json::to_vec(&Saved { offset }).map_err(|e| ChannelError::Io {
            channel: "telegram",
            source: std::io::Error::other(e),
        })?;
        write_private(&self.path, &bytes).map_err(|source| ChannelError::Io {
            channel: "telegram",
            source,
        })
    }
}
