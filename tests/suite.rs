//! Integration tests, one module per area.

mod llm_client;
