//! Errors of the runtime API: a status and a JSON body `{"error": {"code", "message"}}` a program can match on.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// A request the API refuses, or could not carry out.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("missing or wrong API key (Authorization: Bearer $PAICLI_RUNTIME_API_KEY)")]
    Unauthorized,
    #[error("the body is not valid JSON for this request: {0}")]
    BadJson(String),
    #[error("{0}")]
    BadRequest(String),
    #[error("no thread `{0}`")]
    UnknownThread(String),
    #[error("{0}")]
    UnknownSession(String),
    #[error("no approval request `{0}` is waiting")]
    UnknownApproval(String),
    #[error("turn `{0}` is still running; wait for its end or cancel it")]
    TurnRunning(String),
    #[error("no turn is running")]
    NoTurnRunning,
    #[error("{0}")]
    Conflict(String),
    #[error("{0}")]
    Internal(String),
}

impl ApiError {
    fn status_and_code(&self) -> (StatusCode, &'static str) {
        match self {
            ApiError::Unauthorized => (StatusCode::UNAUTHORIZED, "unauthorized"),
            ApiError::BadJson(_) => (StatusCode::BAD_REQUEST, "bad_json"),
            ApiError::BadRequest(_) => (StatusCode::BAD_REQUEST, "bad_request"),
            ApiError::UnknownThread(_) => (StatusCode::NOT_FOUND, "unknown_thread"),
            ApiError::UnknownSession(_) => (StatusCode::NOT_FOUND, "unknown_session"),
            ApiError::UnknownApproval(_) => (StatusCode::NOT_FOUND, "unknown_approval"),
            ApiError::TurnRunning(_) => (StatusCode::CONFLICT, "turn_running"),
            ApiError::NoTurnRunning => (StatusCode::CONFLICT, "no_turn_running"),
            ApiError::Conflict(_) => (StatusCode::CONFLICT, "conflict"),
            ApiError::Internal(_) => (StatusCode::INTERNAL_SERVER_ERROR, "internal"),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, code) = self.status_and_code();
        let body = axum::Json(json!({"error": {"code": code, "message": self.to_string()}}));
        let mut response = (status, body).into_response();
        if status == StatusCode::UNAUTHORIZED
            && let Ok(value) = axum::http::HeaderValue::from_str("Bearer")
        {
            response
                .headers_mut()
                .insert(axum::http::header::WWW_AUTHENTICATE, value);
        }
        response
    }
}

/// Parses a JSON request body; an empty body reads as `{}`.
pub fn parse_body<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    let body = if body.iter().all(u8::is_ascii_whitespace) {
        b"{}".as_slice()
    } else {
        body
    };
    serde_json::from_slice(body).map_err(|e| ApiError::BadJson(e.to_string()))
}
