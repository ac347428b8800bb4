//! What a tool is: each tool declares its [`ToolTraits`], and every gate reads them instead of its name.

/// How much harm a tool can do (spec §6.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Risk {
    /// Read-only or harmless.
    None,
    /// Edits files inside the project.
    Medium,
    /// Runs commands, rewinds history, or reaches an external server.
    High,
}

impl Risk {
    /// `none`, `medium` or `high`.
    pub fn label(self) -> &'static str {
        match self {
            Risk::None => "none",
            Risk::Medium => "medium",
            Risk::High => "high",
        }
    }
}

/// What kind of action a call is, as a person sees it: editors pick an icon by it (ACP's `ToolKind`), the terminal
/// shows a command's line by itself. Mostly display: the one gate that reads it is the memory guard, which
/// counts `Read` and `Search` calls as reading the project (see `MemoryTaint`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolKind {
    /// Reads files or data.
    Read,
    /// Writes, edits or restores files.
    Edit,
    /// Searches files, code or the web's index.
    Search,
    /// Runs a command.
    Execute,
    /// Retrieves data from outside the project (web pages, search results).
    Fetch,
    /// Reasons or plans without touching anything.
    Think,
    /// Anything else (the default for a tool that declares nothing).
    #[default]
    Other,
}

/// What a tool is, declared by the tool itself (or by the MCP bridge for server tools). Approval, audit, the memory
/// guard, exposure, diagnostics and snapshots read these through the registry; none of them matches tool names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ToolTraits {
    /// What kind of action a call is, for people (display only).
    pub kind: ToolKind,
    /// How much harm a call can do; `Medium` and `High` calls pass approval.
    pub risk: Risk,
    /// Every call is written to the audit log.
    pub audited: bool,
    /// Its results carry content from outside the project (web pages, command output, MCP servers), which must
    /// not be saved to memory unchecked.
    pub external_content: bool,
    /// It reaches the network (web tools); exposure filters it per turn.
    pub network: bool,
    /// It writes or edits project files (reported in `ToolOutput::changed_files`): diagnostics and snapshots
    /// follow its changes.
    pub edits_files: bool,
    /// It runs its `command` argument in a shell: the command guard and the classifier judge that line.
    pub runs_commands: bool,
    /// It fetches its `url` argument: offered only once the turn has a grounded URL (one the user wrote or a
    /// search returned), and only such URLs may be fetched.
    pub needs_grounded_url: bool,
    /// It saves facts to long-term memory: refused after external content unless the user asked to remember.
    pub writes_memory: bool,
    /// No side effects: it may run beside other parallel-safe calls.
    pub parallel_safe: bool,
    /// A batch containing it runs one call at a time, in order (e.g. a tool that rewinds what others see).
    pub serial_batch: bool,
    /// It acts on the open browser page (click, fill, type, run a script): on a page that looks like a login,
    /// payment or account page it needs the person in every approval mode but `full`.
    pub acts_on_page: bool,
    /// It runs a sub-agent (`agent`): no step time limit applies, the sub-agent's own budgets and the person's
    /// cancel stop it.
    pub delegates: bool,
}

impl ToolTraits {
    /// A read-only local tool: no risk, not audited, parallel-safe; it reads.
    pub const READ_ONLY: ToolTraits = ToolTraits {
        kind: ToolKind::Read,
        audited: false,
        parallel_safe: true,
        ..ToolTraits::side_effect(Risk::None)
    };

    /// A tool that writes or edits project files: medium risk, audited, run one at a time, its changes followed.
    pub const FILE_EDIT: ToolTraits = ToolTraits {
        kind: ToolKind::Edit,
        edits_files: true,
        ..ToolTraits::side_effect(Risk::Medium)
    };

    /// A tool with side effects of `risk`, audited, run one at a time; of kind `Other` until it says more.
    pub const fn side_effect(risk: Risk) -> ToolTraits {
        ToolTraits {
            kind: ToolKind::Other,
            risk,
            audited: true,
            external_content: false,
            network: false,
            edits_files: false,
            runs_commands: false,
            needs_grounded_url: false,
            writes_memory: false,
            parallel_safe: false,
            serial_batch: false,
            acts_on_page: false,
            delegates: false,
        }
    }
}

impl Default for ToolTraits {
    /// The cautious default for a tool that declares nothing: side effects, high risk, audited.
    fn default() -> Self {
        ToolTraits::side_effect(Risk::High)
    }
}

/// Finds what a registered tool declared, by name (the registry implements it): for gates and filters that see
/// tool names without the calls' traits, such as the per-turn tool filter.
pub trait ToolTraitsLookup: Send + Sync {
    /// The traits of the tool called `name`, or `None` when no such tool is registered.
    fn traits_of(&self, name: &str) -> Option<ToolTraits>;
}
