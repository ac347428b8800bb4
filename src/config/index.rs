//! `[index]`: the code index behind search_code. Its embedding server receives the project's code, so a project's
//! own files may not point it elsewhere until trusted.

use super::settings::{NonEmpty, Plain, Project, Secret, Text, declare_settings, setting};

declare_settings! {
    /// The code index behind `search_code` (`[index]`).
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct IndexSettings in config.index {
        /// Offer search_code and /index, /search, /graph.
        pub enabled: bool = setting("index.enabled", Plain(true)).env(&["PAICLI_INDEX_ENABLED"]),
        /// The OpenAI-compatible /embeddings URL (or a base URL it is appended to); unset = keyword ranking only.
        pub embeddings_url: Option<String> = setting("index.embeddings.url", NonEmpty)
            .env(&["PAICLI_EMBEDDINGS_URL"])
            .project(Project::Trusted)
            .example("\"http://localhost:11434/v1\""),
        /// The embedding model.
        pub embeddings_model: String = setting("index.embeddings.model", Text("nomic-embed-text"))
            .env(&["PAICLI_EMBEDDINGS_MODEL"]),
        /// Bearer token for the embedding server.
        pub embeddings_api_key: Option<String> = setting("index.embeddings.api_key", Secret)
            .env_only(&["PAICLI_EMBEDDINGS_API_KEY"])
            .project(Project::Never),
    }
}
