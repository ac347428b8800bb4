//! The editor's buffers as the file tools' [`FileAccess`]: `fs/read_text_file` and `fs/write_text_file` requests
//! to the client, used when it offers both in `initialize`.

use std::path::Path;
use std::sync::OnceLock;

use agent_client_protocol::Client;
use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::{ReadTextFileRequest, WriteTextFileRequest};
use async_trait::async_trait;

use crate::protocol::{FileAccess, FileAccessError};

/// Reads and writes through the client of one session.
pub struct ClientFiles {
    connection: ConnectionTo<Client>,
    /// Known once the ledger has started the session (before any tool runs).
    session: OnceLock<String>,
}

impl ClientFiles {
    /// Files served over `connection`, for the session named later with [`ClientFiles::set_session`].
    pub fn new(connection: ConnectionTo<Client>) -> Self {
        ClientFiles {
            connection,
            session: OnceLock::new(),
        }
    }

    /// Names the session the requests belong to.
    pub fn set_session(&self, id: &str) {
        let _ = self.session.set(id.to_string());
    }

    fn session(&self) -> String {
        self.session.get().cloned().unwrap_or_default()
    }
}

#[async_trait]
impl FileAccess for ClientFiles {
    async fn read_text(&self, path: &Path) -> Result<String, FileAccessError> {
        let request = ReadTextFileRequest::new(self.session(), path);
        let answer = self.connection.send_request(request).block_task().await;
        answer
            .map(|response| response.content)
            .map_err(|e| failed("read", path, &e))
    }

    async fn write_text(&self, path: &Path, text: &str) -> Result<(), FileAccessError> {
        let request = WriteTextFileRequest::new(self.session(), path, text);
        let answer = self.connection.send_request(request).block_task().await;
        answer.map(|_| ()).map_err(|e| failed("write", path, &e))
    }
}

fn failed(
    action: &'static str,
    path: &Path,
    error: &agent_client_protocol::Error,
) -> FileAccessError {
    FileAccessError {
        action,
        path: path.display().to_string(),
        reason: error.to_string(),
    }
}
