//! rmcp's transport for an in-process server ([`SdkServer`]): each message the client side of rmcp sends goes
//! through the relay; a request's answer comes back as the server's message. A message the relay could not carry
//! is answered, for a request, with a JSON-RPC error naming why, so the call fails instead of waiting forever.

use std::future::Future;

use rmcp::RoleClient;
use rmcp::model::{ErrorCode, ErrorData, RequestId};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::Value;
use tokio::sync::mpsc;

use crate::mcp::sdk_relay::SdkServer;

/// JSON-RPC's "internal error": the relay failed or the answer was not JSON-RPC.
const INTERNAL_ERROR: i32 = -32603;

/// A message that cannot be encoded (never for rmcp's own types, but the trait wants an error type).
#[derive(Debug, thiserror::Error)]
#[error("cannot encode the message for the SDK server: {0}")]
pub struct SdkTransportError(#[from] serde_json::Error);

pub struct SdkTransport {
    server: SdkServer,
    answers_tx: mpsc::UnboundedSender<RxJsonRpcMessage<RoleClient>>,
    answers: mpsc::UnboundedReceiver<RxJsonRpcMessage<RoleClient>>,
}

impl SdkTransport {
    pub fn new(server: SdkServer) -> Self {
        let (answers_tx, answers) = mpsc::unbounded_channel();
        SdkTransport {
            server,
            answers_tx,
            answers,
        }
    }
}

impl Transport<RoleClient> for SdkTransport {
    type Error = SdkTransportError;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let encoded = serde_json::to_value(&item);
        let server = self.server.clone();
        let answers = self.answers_tx.clone();
        async move {
            let message = encoded?;
            // Only a request has an answer to hand back; a notification's acknowledgement is dropped.
            let request_id = message.get("method").and(message.get("id")).cloned();
            let carried = server.relay.carry(&server.name, message).await;
            if let Some(id) = request_id {
                let answer = answer_of(carried, &id, &server.name);
                let _ = answers.send(answer);
            }
            Ok(())
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
        self.answers.recv().await
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.answers.close();
        Ok(())
    }
}

/// The server's answer to request `id`, or a JSON-RPC error saying why there is none.
fn answer_of(
    carried: Result<Value, String>,
    id: &Value,
    server: &str,
) -> RxJsonRpcMessage<RoleClient> {
    let failure = match carried {
        Ok(answer) => match serde_json::from_value(answer) {
            Ok(message) => return message,
            Err(e) => {
                format!("the SDK server `{server}` answered with something else than JSON-RPC: {e}")
            }
        },
        Err(reason) => format!("the SDK server `{server}` could not be reached: {reason}"),
    };
    RxJsonRpcMessage::<RoleClient>::error(
        ErrorData::new(ErrorCode(INTERNAL_ERROR), failure, None),
        serde_json::from_value::<RequestId>(id.clone()).ok(),
    )
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    #[test]
    fn a_failed_relay_answers_the_request_with_a_json_rpc_error() {
        let answer = answer_of(Err("stdin closed".into()), &json!(7), "calc");
        let value = serde_json::to_value(&answer).unwrap();
        assert_eq!(value["id"], 7);
        assert_eq!(value["error"]["code"], INTERNAL_ERROR);
        assert!(
            value["error"]["message"]
                .as_str()
                .unwrap()
                .contains("stdin closed")
        );
        let garbled = answer_of(Ok(json!({"nope": true})), &json!("a"), "calc");
        let value = serde_json::to_value(&garbled).unwrap();
        assert_eq!(value["id"], "a");
        assert!(
            value["error"]["message"]
                .as_str()
                .unwrap()
                .contains("JSON-RPC")
        );
    }
}
