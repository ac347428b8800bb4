//! The `paicli` binary: parse flags, load config, pick a front-end.

use std::io::{IsTerminal, Read};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context;
use clap::Parser;
use tokio_util::sync::CancellationToken;

use paicli::config::{ApprovalMode, Config, Overrides, ProjectTrust};
use paicli::policy::approval::NonInteractiveApprover;
use paicli::ui::i18n::{self, Lang};
use paicli::ui::oneshot::{self, OutputFormat};

/// A terminal coding agent for any OpenAI-compatible model.
#[derive(Debug, Parser)]
#[command(name = "paicli", version, about)]
struct Cli {
    /// Run one task non-interactively and exit. Without a value, or with `-`, the task is read from stdin.
    #[arg(short = 'p', long = "print", value_name = "TASK", num_args = 0..=1, default_missing_value = "-")]
    print: Option<String>,

    /// How `-p` prints its result.
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    output_format: OutputFormat,

    /// Project directory to work in (default: the current directory).
    #[arg(short = 'C', long = "cwd", value_name = "DIR")]
    cwd: Option<PathBuf>,

    /// Provider id (deepseek, glm, kimi, hunyuan, step, qwen, openai, openrouter, ollama, custom, ...).
    #[arg(long)]
    provider: Option<String>,

    /// Model name.
    #[arg(long)]
    model: Option<String>,

    /// Base URL of an OpenAI-compatible endpoint (e.g. http://localhost:11434/v1).
    #[arg(long, value_name = "URL")]
    base_url: Option<String>,

    /// Model calls per task before paicli stops and reports a partial result (0 = unlimited).
    #[arg(long, value_name = "N")]
    max_iterations: Option<u32>,

    /// Input+output tokens per task before paicli stops and reports a partial result (0 = unlimited).
    #[arg(long, value_name = "TOKENS")]
    token_budget: Option<u64>,
    /// Approve and start the project's MCP servers (.mcp.json, .paicli/mcp.json) not approved yet; the approval
    /// is remembered per project and command line in $PAICLI_HOME/mcp-trust.json.
    #[arg(long)]
    trust_project_mcp: bool,

    /// Trust this project's .paicli/config.toml and .env with provider endpoints and language servers; remembered
    /// per project and file contents in $PAICLI_HOME/project-trust.json (a changed file needs trusting again).
    #[arg(long)]
    trust_project: bool,

    /// Approval mode for risky tools.
    #[arg(long, value_name = "MODE", value_parser = ["ask", "auto", "plan", "full"])]
    approval: Option<String>,
}

fn main() -> ExitCode {
    paicli::app::prewarm_patterns();
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(oneshot::EXIT_USAGE as u8)
        }
    }
}

/// Errors returned here are usage or configuration errors (exit code 2); task outcomes come back as codes.
fn run(cli: Cli) -> anyhow::Result<i32> {
    let project_dir = match &cli.cwd {
        Some(dir) => dir.clone(),
        None => std::env::current_dir().context("cannot read the current directory")?,
    };
    let approval = cli
        .approval
        .as_deref()
        .map(str::parse::<ApprovalMode>)
        .transpose()
        .map_err(anyhow::Error::msg)?;
    let overrides = Overrides {
        provider: cli.provider.clone(),
        model: cli.model.clone(),
        base_url: cli.base_url.clone(),
        max_iterations: cli.max_iterations,
        token_budget: cli.token_budget,
        approval,
        trust_project_mcp: cli.trust_project_mcp,
    };
    let mut config = Config::load(&project_dir, &overrides)?;
    let lang = Lang::resolve(config.ui_language, &config.env);
    if cli.trust_project {
        ProjectTrust::load(&config.home)
            .trust(&config.project_root)
            .context("cannot write the project trust file")?;
        eprintln!(
            "paicli: {}",
            i18n::project_trusted(lang, &config.project_root)
        );
        config = Config::load(&project_dir, &overrides)?;
    }
    let _log_guard = paicli::app::init_logging(&config);

    let Some(task) = cli.print.as_deref() else {
        let refused = config.refused.clone();
        return paicli::ui::repl::run(config, overrides, new_session_id()).map_err(|e| {
            // The banner never came; a refused setting may be why (a project URL without its key).
            for r in &refused {
                eprintln!("paicli: {}", i18n::refused_setting(lang, r));
            }
            e.into()
        });
    };
    let task = if task == "-" {
        read_stdin_task()?
    } else {
        task.to_string()
    };
    if task.trim().is_empty() {
        anyhow::bail!(
            "the task is empty: pass it as paicli -p \"task\" or on stdin with paicli -p -"
        );
    }

    // The REPL shows these in its banner; `-p` has only stderr.
    for refused in &config.refused {
        eprintln!("paicli: {}", i18n::refused_setting(lang, refused));
    }

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let (mut agent, services) = {
        let _runtime = runtime.enter();
        let approval = paicli::app::build_approval_hook(&config, Arc::new(NonInteractiveApprover))?;
        paicli::app::build_session(&config, approval)?
    };
    let session_id = new_session_id();
    services.snapshots.set_session(&session_id);
    let code = runtime.block_on(async {
        let cancel = CancellationToken::new();
        tokio::spawn(cancel_on_ctrl_c(cancel.clone()));
        let with_files = oneshot::expand_task(&config, &task);
        let (input, notices) =
            paicli::app::prepare_first_input(&config, &services.mcp, &with_files, &cancel).await;
        for notice in notices {
            eprintln!("paicli: {notice}");
        }
        let format = cli.output_format;
        let code = oneshot::run(&mut agent, &task, &input, format, &session_id, cancel).await;
        services.shutdown().await;
        code
    });
    Ok(code)
}

fn read_stdin_task() -> anyhow::Result<String> {
    let mut stdin = std::io::stdin();
    if stdin.is_terminal() {
        anyhow::bail!("no task given: pass it as paicli -p \"task\" or pipe it to paicli -p -");
    }
    let mut task = String::new();
    stdin
        .read_to_string(&mut task)
        .context("cannot read the task from stdin")?;
    Ok(task)
}

/// First Ctrl-C cancels the task cleanly; a second one exits at once.
async fn cancel_on_ctrl_c(cancel: CancellationToken) {
    if tokio::signal::ctrl_c().await.is_ok() {
        cancel.cancel();
        if tokio::signal::ctrl_c().await.is_ok() {
            std::process::exit(oneshot::EXIT_CANCELLED);
        }
    }
}

fn new_session_id() -> String {
    format!(
        "{}-{:06x}",
        chrono::Local::now().format("%Y%m%d-%H%M%S"),
        fastrand::u32(..0x100_0000)
    )
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::Cli;
    use paicli::config::settings::SETTINGS;

    /// Flags that are actions or front-end choices, not settings.
    const NOT_SETTINGS: &[&str] = &[
        "print",
        "output-format",
        "cwd",
        "trust-project",
        "help",
        "version",
    ];

    #[test]
    fn every_flag_is_a_settings_row_or_an_action() {
        for arg in Cli::command().get_arguments() {
            let Some(long) = arg.get_long() else { continue };
            let flag = format!("--{long}");
            assert!(
                NOT_SETTINGS.contains(&long)
                    || SETTINGS.iter().any(|s| s.flag == Some(flag.as_str())),
                "{flag} has no row in config/settings.rs"
            );
        }
        for s in SETTINGS {
            if let Some(flag) = s.flag {
                let long = flag.trim_start_matches("--");
                assert!(
                    Cli::command()
                        .get_arguments()
                        .any(|a| a.get_long() == Some(long)),
                    "{} names {flag}, which paicli does not accept",
                    s.key
                );
            }
        }
    }
}
