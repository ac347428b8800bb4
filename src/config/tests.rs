#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::time::Duration;

use super::*;

struct Dirs {
    project: tempfile::TempDir,
    home: tempfile::TempDir,
}

fn dirs() -> Dirs {
    Dirs {
        project: tempfile::tempdir().unwrap(),
        home: tempfile::tempdir().unwrap(),
    }
}

impl Dirs {
    fn env(&self, extra: &[(&str, &str)]) -> Vec<(String, String)> {
        let mut env = vec![(
            "PAICLI_HOME".to_string(),
            self.home.path().display().to_string(),
        )];
        env.extend(extra.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        env
    }

    fn load(&self, extra: &[(&str, &str)], overrides: &Overrides) -> Result<Config, ConfigError> {
        Config::load_with_env(self.project.path(), self.env(extra), overrides)
    }

    fn write(&self, base: &Path, rel: &str, text: &str) {
        let path = base.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

#[test]
fn defaults_match_the_documented_values() {
    let d = dirs();
    let c = d.load(&[], &Overrides::default()).unwrap();
    assert_eq!(c.home, d.home.path());
    assert_eq!(c.llm.idle_timeout, Duration::from_secs(300));
    assert_eq!(c.llm.retry.max_attempts, 3);
    assert_eq!(c.tools.command_timeout, Duration::from_secs(60));
    assert_eq!(c.tools.offload_threshold_chars, 32_000);
    assert_eq!(c.tools.max_parallel, 4);
    assert_eq!(c.agent.max_iterations, None);
    assert_eq!(c.approval, ApprovalMode::Auto);
}

#[test]
fn each_layer_overrides_the_one_below() {
    let d = dirs();
    d.write(
        d.home.path(),
        "config.toml",
        "[tools]\ncommand_timeout_secs = 10\nmax_parallel = 2\n[agent]\nmax_iterations = 7\n",
    );
    d.write(
        d.project.path(),
        ".paicli/config.toml",
        "[tools]\ncommand_timeout_secs = 20\n",
    );
    let c = d.load(&[], &Overrides::default()).unwrap();
    assert_eq!(
        c.tools.command_timeout,
        Duration::from_secs(20),
        "project file beats home file"
    );
    assert_eq!(
        c.tools.max_parallel, 2,
        "home file value kept where the project is silent"
    );
    assert_eq!(c.agent.max_iterations, Some(7));

    d.write(
        d.project.path(),
        ".env",
        "PAICLI_COMMAND_TIMEOUT_SECS=30\nPAICLI_MAX_ITERATIONS=8\n",
    );
    let c = d.load(&[], &Overrides::default()).unwrap();
    assert_eq!(
        c.tools.command_timeout,
        Duration::from_secs(30),
        ".env beats files"
    );

    let c = d
        .load(
            &[("PAICLI_COMMAND_TIMEOUT_SECS", "40")],
            &Overrides::default(),
        )
        .unwrap();
    assert_eq!(
        c.tools.command_timeout,
        Duration::from_secs(40),
        "environment beats .env"
    );

    let flags = Overrides {
        max_iterations: Some(9),
        ..Overrides::default()
    };
    let c = d.load(&[("PAICLI_MAX_ITERATIONS", "5")], &flags).unwrap();
    assert_eq!(c.agent.max_iterations, Some(9), "flags beat everything");
    let zero = Overrides {
        max_iterations: Some(0),
        ..Overrides::default()
    };
    assert_eq!(
        d.load(&[], &zero).unwrap().agent.max_iterations,
        None,
        "0 means unlimited"
    );
}

#[test]
fn project_env_file_beats_home_env_file() {
    let d = dirs();
    d.write(
        d.home.path(),
        ".env",
        "DEEPSEEK_API_KEY=home-key\nGLM_API_KEY=glm\n",
    );
    d.write(
        d.project.path(),
        ".env",
        "# comment\nDEEPSEEK_API_KEY=project-key\n",
    );
    let c = d.load(&[], &Overrides::default()).unwrap();
    assert_eq!(c.env.get("DEEPSEEK_API_KEY"), Some("project-key"));
    assert_eq!(c.env.get("GLM_API_KEY"), Some("glm"));
}

#[test]
fn a_bad_config_file_names_the_file_line_and_key() {
    let d = dirs();
    d.write(
        d.project.path(),
        ".paicli/config.toml",
        "[tools]\ncommand_timeout_secs = 5\ncomand_timeout = 3\n",
    );
    let err = d.load(&[], &Overrides::default()).unwrap_err().to_string();
    assert!(err.contains(".paicli/config.toml"), "{err}");
    assert!(err.contains("line 3"), "{err}");
    assert!(err.contains("comand_timeout"), "{err}");

    d.write(
        d.project.path(),
        ".paicli/config.toml",
        "[tools]\ncommand_timeout_secs = \"soon\"\n",
    );
    let err = d.load(&[], &Overrides::default()).unwrap_err().to_string();
    assert!(
        err.contains("line 2") && err.contains("command_timeout_secs"),
        "{err}"
    );
}

#[test]
fn a_bad_environment_value_names_the_variable() {
    let d = dirs();
    let err = d
        .load(&[("PAICLI_MAX_ITERATIONS", "many")], &Overrides::default())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("PAICLI_MAX_ITERATIONS") && err.contains("many"),
        "{err}"
    );
    let err = d
        .load(
            &[("PAICLI_TOOL_OFFLOAD_ENABLED", "maybe")],
            &Overrides::default(),
        )
        .unwrap_err()
        .to_string();
    assert!(err.contains("PAICLI_TOOL_OFFLOAD_ENABLED"), "{err}");
}

#[test]
fn provider_is_detected_from_the_first_key_found() {
    let d = dirs();
    let c = d
        .load(
            &[("KIMI_API_KEY", "k"), ("GLM_API_KEY", "g")],
            &Overrides::default(),
        )
        .unwrap();
    let p = c.provider().unwrap();
    assert_eq!(p.id, "glm", "glm comes before kimi in the table");
    assert_eq!(p.api_key.as_deref(), Some("g"));
    assert_eq!(p.model, "glm-5.1");

    let c = d
        .load(&[("MOONSHOT_API_KEY", "m")], &Overrides::default())
        .unwrap();
    let p = c.provider().unwrap();
    assert_eq!((p.id.as_str(), p.api_key.as_deref()), ("kimi", Some("m")));
}

#[test]
fn missing_key_says_which_variable_to_set() {
    let d = dirs();
    let c = d.load(&[], &Overrides::default()).unwrap();
    let err = c.provider().unwrap_err();
    assert!(matches!(err, ConfigError::MissingApiKey { .. }));
    assert!(err.to_string().contains("DEEPSEEK_API_KEY"), "{err}");

    let flags = Overrides {
        provider: Some("kimi".into()),
        ..Overrides::default()
    };
    let err = d
        .load(&[], &flags)
        .unwrap()
        .provider()
        .unwrap_err()
        .to_string();
    assert!(err.contains("KIMI_API_KEY or MOONSHOT_API_KEY"), "{err}");
}

#[test]
fn model_and_url_precedence() {
    let d = dirs();
    d.write(
        d.project.path(),
        ".paicli/config.toml",
        "[llm]\nprovider = \"deepseek\"\nmodel = \"from-file\"\n",
    );
    let env = [("DEEPSEEK_API_KEY", "k")];
    let p = d
        .load(&env, &Overrides::default())
        .unwrap()
        .provider()
        .unwrap();
    assert_eq!(p.model, "from-file");

    let env = [
        ("DEEPSEEK_API_KEY", "k"),
        ("DEEPSEEK_MODEL", "from-provider-var"),
    ];
    let p = d
        .load(&env, &Overrides::default())
        .unwrap()
        .provider()
        .unwrap();
    assert_eq!(
        p.model, "from-provider-var",
        "provider variable beats the file"
    );

    let env = [
        ("DEEPSEEK_API_KEY", "k"),
        ("DEEPSEEK_MODEL", "from-provider-var"),
        ("PAICLI_MODEL", "generic"),
        ("DEEPSEEK_BASE_URL", "https://proxy.example/v1"),
    ];
    let p = d
        .load(&env, &Overrides::default())
        .unwrap()
        .provider()
        .unwrap();
    assert_eq!(
        p.model, "generic",
        "PAICLI_MODEL beats the provider variable"
    );
    assert_eq!(p.chat_url(), "https://proxy.example/v1/chat/completions");

    let flags = Overrides {
        model: Some("flag".into()),
        ..Overrides::default()
    };
    let p = d.load(&env, &flags).unwrap().provider().unwrap();
    assert_eq!(p.model, "flag", "the flag beats PAICLI_MODEL");
}

#[test]
fn a_base_url_alone_means_a_custom_server_without_key() {
    let d = dirs();
    let flags = Overrides {
        base_url: Some("http://127.0.0.1:8080/v1".into()),
        model: Some("local".into()),
        ..Overrides::default()
    };
    let p = d.load(&[], &flags).unwrap().provider().unwrap();
    assert_eq!(p.id, "custom");
    assert_eq!(p.api_key, None);
    assert_eq!(p.chat_url(), "http://127.0.0.1:8080/v1/chat/completions");

    let no_model = Overrides {
        base_url: Some("http://127.0.0.1:8080/v1".into()),
        ..Overrides::default()
    };
    let err = d
        .load(&[], &no_model)
        .unwrap()
        .provider()
        .unwrap_err()
        .to_string();
    assert!(err.contains("--model"), "{err}");

    let bad = Overrides {
        base_url: Some("localhost:8080".into()),
        model: Some("m".into()),
        ..Overrides::default()
    };
    let err = d
        .load(&[], &bad)
        .unwrap()
        .provider()
        .unwrap_err()
        .to_string();
    assert!(err.contains("http://"), "{err}");
}

#[test]
fn local_providers_need_no_key_and_unknown_ones_are_named() {
    let d = dirs();
    let flags = Overrides {
        provider: Some("ollama".into()),
        ..Overrides::default()
    };
    let p = d.load(&[], &flags).unwrap().provider().unwrap();
    assert_eq!(p.chat_url(), "http://localhost:11434/v1/chat/completions");

    let flags = Overrides {
        provider: Some("nosuch".into()),
        ..Overrides::default()
    };
    let err = d
        .load(&[], &flags)
        .unwrap()
        .provider()
        .unwrap_err()
        .to_string();
    assert!(err.contains("nosuch") && err.contains("deepseek"), "{err}");
}

#[test]
fn approvals_and_shell_sections_from_the_user_file() {
    let d = dirs();
    d.write(
        d.home.path(),
        "config.toml",
        "[approvals]\nallow = [\"cargo test\", \"tool:write_file\"]\ndeny = [\"git push\"]\n\n[shell]\nkeep_env = [\"NPM_TOKEN\"]\n",
    );
    d.write(
        d.project.path(),
        ".paicli/config.toml",
        "[approvals]\ndeny = [\"rm\"]\n",
    );
    let c = d.load(&[], &Overrides::default()).unwrap();
    assert_eq!(c.approvals.allow, ["cargo test", "tool:write_file"]);
    // Deny rules of every layer add up.
    assert_eq!(c.approvals.deny, ["git push", "rm"]);
    assert_eq!(c.shell.keep_env, ["NPM_TOKEN"]);
    // app::tool_limits hands these to the tools (tested there).
}

#[test]
fn project_rules_saved_in_the_user_file_apply_to_their_root_only_and_never_from_a_project() {
    let d = dirs();
    let root = d.project.path().canonicalize().unwrap();
    let user = format!(
        "[approvals.projects]\n{:?} = [\"cargo test\"]\n\"/elsewhere\" = [\"rm\"]\n",
        root.display().to_string()
    );
    d.write(d.home.path(), "config.toml", &user);
    // A project cannot save rules for itself, not even under a key with a dot the filter sees as two.
    d.write(
        d.project.path(),
        ".paicli/config.toml",
        &format!(
            "[approvals.projects]\n{:?} = [\"curl\"]\n\"a.b\" = [\"x\"]\n",
            root.display().to_string()
        ),
    );
    let c = d.load(&[], &Overrides::default()).unwrap();
    assert_eq!(c.approvals.project_allow, ["cargo test"]);
    assert!(c.approvals.allow.is_empty());
}

#[test]
fn safety_sections_default_to_empty() {
    let d = dirs();
    let c = d.load(&[], &Overrides::default()).unwrap();
    assert_eq!(c.approvals, ApprovalRules::default());
    assert!(c.shell.keep_env.is_empty());
}

#[test]
fn a_project_file_may_not_allow_commands_keep_secrets_or_open_sockets() {
    // These were load errors; now the key is ignored with a notice, like every key a project may not set.
    for (text, key) in [
        ("[approvals]\nallow = [\"curl\"]\n", "approvals.allow"),
        (
            "[shell]\nkeep_env = [\"AWS_SECRET_ACCESS_KEY\"]\n",
            "shell.keep_env",
        ),
        // A daemon's socket opened to commands is the user's call, never a cloned repository's.
        (
            "[sandbox]\nallow_sockets = [\"/var/run/docker.sock\"]\n",
            "sandbox.allow_sockets",
        ),
    ] {
        let d = dirs();
        d.write(d.project.path(), ".paicli/config.toml", text);
        let c = d.load(&[], &Overrides::default()).unwrap();
        assert!(c.approvals.allow.is_empty() && c.shell.keep_env.is_empty());
        assert!(c.sandbox.allow_sockets.is_empty());
        assert_eq!(c.refused.len(), 1);
        assert_eq!(c.refused[0].key, key);
        assert_eq!(c.refused[0].refusal, Refusal::UserOnly);
    }
}

#[test]
fn unknown_keys_in_the_safety_sections_are_errors() {
    let d = dirs();
    d.write(d.home.path(), "config.toml", "[shell]\nkeep_envs = []\n");
    let err = d.load(&[], &Overrides::default()).unwrap_err().to_string();
    assert!(err.contains("keep_envs"), "{err}");
}

#[test]
fn long_task_settings_from_file_env_and_flags() {
    let d = dirs();
    let c = d.load(&[], &Overrides::default()).unwrap();
    assert_eq!(
        (
            c.agent.stagnation_window,
            c.llm.context_window,
            c.agent.token_budget
        ),
        (5, None, None)
    );
    d.write(
        d.project.path(),
        ".paicli/config.toml",
        "[llm]\ncontext_window = 8000\n[agent]\nstagnation_window = 6\ntoken_budget = 1000\n",
    );
    let c = d.load(&[], &Overrides::default()).unwrap();
    assert_eq!(
        (
            c.agent.stagnation_window,
            c.llm.context_window,
            c.agent.token_budget
        ),
        (6, Some(8000), Some(1000))
    );
    let flags = Overrides {
        token_budget: Some(50),
        ..Overrides::default()
    };
    let c = d
        .load(
            &[
                ("PAICLI_CONTEXT_WINDOW", "16000"),
                ("PAICLI_STAGNATION_WINDOW", "7"),
            ],
            &flags,
        )
        .unwrap();
    assert_eq!(
        (
            c.agent.stagnation_window,
            c.llm.context_window,
            c.agent.token_budget
        ),
        (7, Some(16000), Some(50))
    );
    let provider = crate::config::providers::ResolvedProvider::new(
        crate::config::providers::lookup("custom").unwrap(),
        "m",
        Some("http://127.0.0.1:1"),
        None,
    );
    assert_eq!(c.context_window(&provider), 16_000);
}

#[test]
fn a_stagnation_window_at_or_below_the_reminder_threshold_is_rejected() {
    let d = dirs();
    let err = d
        .load(&[("PAICLI_STAGNATION_WINDOW", "3")], &Overrides::default())
        .unwrap_err();
    assert!(err.to_string().contains("agent.stagnation_window"), "{err}");
}

#[test]
fn web_settings_come_from_the_file_then_the_environment() {
    let d = dirs();
    let c = d.load(&[], &Overrides::default()).unwrap();
    assert_eq!(c.web, WebSettings::default());
    assert!(!c.web.allow_private_hosts);
    assert_eq!(c.web.fetch_max_chars, 8000);
    assert_eq!(c.web.requests_per_minute, 30);

    d.write(
        d.project.path(),
        ".paicli/config.toml",
        "[web]\nsearch_provider = \"searxng\"\nallow_private_hosts = true\nfetch_max_chars = 500\n\
         searxng_url = \"http://search.lan\"\n",
    );
    // A project cannot open non-public addresses to web_fetch (only keep them closed).
    let c = d.load(&[], &Overrides::default()).unwrap();
    assert!(!c.web.allow_private_hosts);
    // An endpoint that receives the user's search key comes from the user's own file (see config::project), and
    // so does opening non-public addresses.
    d.write(
        d.home.path(),
        "config.toml",
        "[web]\nbrave_base_url = \"http://127.0.0.1:1\"\nallow_private_hosts = true\n",
    );
    let c = d
        .load(&[("GLM_API_KEY", "g")], &Overrides::default())
        .unwrap();
    assert_eq!(c.web.search_provider, Some(SearchProviderKind::Searxng));
    assert!(c.web.allow_private_hosts);
    assert_eq!(c.web.fetch_max_chars, 500);
    assert_eq!(c.web.searxng_url.as_deref(), Some("http://search.lan"));
    assert_eq!(c.web.brave_base_url, "http://127.0.0.1:1");
    assert_eq!(c.web.glm_api_key.as_deref(), Some("g"));

    let c = d
        .load(
            &[
                ("PAICLI_WEB_SEARCH_PROVIDER", "brave"),
                ("PAICLI_WEB_ALLOW_PRIVATE_HOSTS", "false"),
                ("SEARXNG_URL", "http://other.lan"),
                ("ZHIPU_SEARCH_ENGINE", "search_pro"),
            ],
            &Overrides::default(),
        )
        .unwrap();
    assert_eq!(c.web.search_provider, Some(SearchProviderKind::Brave));
    assert!(!c.web.allow_private_hosts, "environment beats the file");
    assert_eq!(c.web.searxng_url.as_deref(), Some("http://other.lan"));
    assert_eq!(c.web.zhipu_search_engine, "search_pro");
    assert!(
        !format!("{:?}", c.web).contains("\"g\""),
        "keys stay out of debug output"
    );

    let err = d
        .load(
            &[("PAICLI_WEB_SEARCH_PROVIDER", "bing")],
            &Overrides::default(),
        )
        .unwrap_err();
    assert!(
        err.to_string().contains("PAICLI_WEB_SEARCH_PROVIDER"),
        "{err}"
    );
    d.write(
        d.project.path(),
        ".paicli/config.toml",
        "[web]\nallow_private = true\n",
    );
    let err = d.load(&[], &Overrides::default()).unwrap_err();
    assert!(err.to_string().contains("allow_private"), "{err}");
}

#[test]
fn the_example_config_parses() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/.paicli.example.toml"))
            .unwrap();
    let d = dirs();
    d.write(d.home.path(), "config.toml", &text);
    let c = d.load(&[], &Overrides::default()).unwrap();
    assert_eq!(
        c.web,
        WebSettings::default(),
        "the example documents the defaults"
    );
}

#[test]
fn mcp_settings_default_and_layer() {
    let d = dirs();
    let c = d.load(&[], &Overrides::default()).unwrap();
    assert_eq!(c.mcp.startup_wait, Duration::from_secs(8));
    assert_eq!(c.mcp.call_timeout, Duration::from_secs(60));
    assert!(!c.mcp.trust_project_servers);
    d.write(
        d.home.path(),
        "config.toml",
        "[mcp]\nstartup_wait_secs = 3\ncall_timeout_seconds = 5\ntrust_project_servers = true\n",
    );
    let c = d
        .load(
            &[("PAICLI_MCP_STARTUP_WAIT_SECS", "1")],
            &Overrides::default(),
        )
        .unwrap();
    assert_eq!(c.mcp.startup_wait, Duration::from_secs(1), "env beats file");
    assert_eq!(c.mcp.call_timeout, Duration::from_secs(5));
    assert!(c.mcp.trust_project_servers);
    // The old spellings (`*_seconds`) are still read.
    let c = d
        .load(
            &[("PAICLI_MCP_STARTUP_WAIT_SECONDS", "2")],
            &Overrides::default(),
        )
        .unwrap();
    assert_eq!(c.mcp.startup_wait, Duration::from_secs(2));
}

#[test]
fn ui_language_comes_from_the_file_and_rejects_unknown_values() {
    let d = dirs();
    let env = [("DEEPSEEK_API_KEY", "k")];
    assert_eq!(
        d.load(&env, &Overrides::default()).unwrap().ui_language,
        UiLanguage::Auto
    );
    d.write(d.home.path(), "config.toml", "[ui]\nlanguage = \"zh\"\n");
    assert_eq!(
        d.load(&env, &Overrides::default()).unwrap().ui_language,
        UiLanguage::Zh
    );
    d.write(d.home.path(), "config.toml", "[ui]\nlanguage = \"fr\"\n");
    let err = d.load(&env, &Overrides::default()).unwrap_err().to_string();
    assert!(err.contains("language"), "{err}");
}

#[test]
fn lsp_section_layers_servers_by_name_and_env_wins() {
    let d = dirs();
    let c = d.load(&[], &Overrides::default()).unwrap();
    assert!(c.lsp.enabled);
    assert_eq!(c.lsp.wait, Duration::from_millis(3000));
    assert_eq!(c.lsp.max_diagnostics, 20);
    assert!(c.lsp.servers.is_empty());

    d.write(
        d.home.path(),
        "config.toml",
        "[lsp]\nwait_ms = 500\n[lsp.servers.pyright]\ncommand = \"user-pyright\"\n\
         [lsp.servers.mine]\ncommand = \"my-ls\"\nargs = [\"--stdio\"]\nextensions = [\"foo\"]\n",
    );
    d.write(
        d.project.path(),
        ".paicli/config.toml",
        "[lsp]\nmax_diagnostics = 5\n[lsp.servers.pyright]\ncommand = \"project-pyright\"\nargs = [\"-x\"]\n",
    );
    let c = d
        .load(&[("PAICLI_LSP_ENABLED", "false")], &Overrides::default())
        .unwrap();
    assert!(!c.lsp.enabled);
    assert_eq!(c.lsp.wait, Duration::from_millis(500));
    assert_eq!(c.lsp.max_diagnostics, 5);
    // A project's own server commands need the user's trust (see config::project); the user's entry stays.
    assert_eq!(c.lsp.servers["pyright"].command, "user-pyright");
    assert!(c.lsp.servers["pyright"].args.is_empty());
    assert!(c.refused.iter().any(|r| r.key == "lsp.servers.pyright"));
    assert_eq!(c.lsp.servers["mine"].extensions, vec!["foo".to_string()]);

    d.write(
        d.project.path(),
        ".paicli/config.toml",
        "[lsp.servers.x]\ncommand = \"a\"\nextension = [\"py\"]\n",
    );
    let err = d.load(&[], &Overrides::default()).unwrap_err().to_string();
    assert!(err.contains("extension"), "{err}");
}

#[test]
fn every_flag_reaches_its_setting_through_the_declarations() {
    let d = dirs();
    let flags = Overrides {
        provider: Some("deepseek".to_string()),
        model: Some("m".to_string()),
        base_url: Some("http://127.0.0.1:9/v1".to_string()),
        max_iterations: Some(0),
        token_budget: Some(9),
        max_output_tokens: Some(0),
        approval: Some(ApprovalMode::Plan),
        trust_project_mcp: true,
        sandbox: Some(SandboxMode::Off),
    };
    assert_eq!(flags.given().len(), 9, "every field is a given flag");
    let c = d.load(&[("PAICLI_MAX_ITERATIONS", "4")], &flags).unwrap();
    assert_eq!(c.llm.provider.as_deref(), Some("deepseek"));
    assert_eq!(c.llm.model.as_deref(), Some("m"));
    assert_eq!(c.llm.base_url.as_deref(), Some("http://127.0.0.1:9/v1"));
    assert_eq!(
        c.agent.max_iterations, None,
        "0 means unlimited, as in files"
    );
    assert_eq!(c.agent.token_budget, Some(9));
    assert_eq!(c.llm.max_output_tokens, Some(0), "0 means send none");
    assert_eq!(c.approval, ApprovalMode::Plan);
    assert!(c.mcp.trust_project_servers);
    assert_eq!(c.sandbox.mode, SandboxMode::Off);
    assert!(!Overrides::default().has("--model") && flags.has("--sandbox"));
}

#[test]
fn the_users_own_files_may_link_anywhere_but_a_projects_may_not_link_out() {
    // A dotfiles checkout holds the user's real config and .env; $PAICLI_HOME links to them.
    let d = dirs();
    let dotfiles = tempfile::tempdir().unwrap();
    d.write(
        dotfiles.path(),
        "config.toml",
        "[tools]\ncommand_timeout_secs = 7\n",
    );
    d.write(dotfiles.path(), "env", "GLM_API_KEY=from-dotfiles\n");
    std::os::unix::fs::symlink(
        dotfiles.path().join("config.toml"),
        d.home.path().join("config.toml"),
    )
    .unwrap();
    std::os::unix::fs::symlink(dotfiles.path().join("env"), d.home.path().join(".env")).unwrap();
    // The project's own .env links out of the project: refused, with a notice.
    std::os::unix::fs::symlink(dotfiles.path().join("env"), d.project.path().join(".env")).unwrap();
    let c = d.load(&[], &Overrides::default()).unwrap();
    assert_eq!(c.tools.command_timeout, Duration::from_secs(7));
    assert_eq!(c.env.get("GLM_API_KEY"), Some("from-dotfiles"));
    let noticed: Vec<_> = c.file_notices.iter().map(|n| n.path.clone()).collect();
    assert_eq!(
        noticed,
        [d.project.path().join(".env")],
        "{:?}",
        c.file_notices
    );
}
