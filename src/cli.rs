//! Command-line entry: parses arguments and dispatches. Kept thin; the work
//! lives in `model`, `export` and the TUI.

use crate::export::{self, Format, Options};
use crate::model::Session;
use crate::model::text::{term_line, term_path};
use crate::say::printed;
use clap::{Parser, Subcommand};
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Parser, Debug)]
#[command(
    name = "ccv",
    version,
    about = "Read Claude Code sessions in the terminal: live, colour-coded, with tool calls paired to their results",
    long_about = "Read Claude Code sessions in the terminal.\n\n\
        PATH may be a session file (<session-id>.jsonl), a project directory (opens its newest session \
        and follows it), a projects root (opens the session picker), or - for stdin \
        (e.g. `claude -p ... --output-format stream-json --verbose | ccv -`).\n\
        With no PATH, ccv opens the picker over $CLAUDE_CONFIG_DIR/projects or ~/.claude/projects \
        and $CODEX_HOME/sessions (Codex CLI, default ~/.codex), \
        or the bundled demo session when neither exists.",
    after_help = "In the viewer, ? shows the keys (the picker shows its own below its list). Settings (prices...) are read from \
        $XDG_CONFIG_HOME/ccv/config.toml or ~/.config/ccv/config.toml (--config PATH)."
)]
pub struct Cli {
    /// Session file (FILE:LINE opens on that line's row), project
    /// directory, projects root, or - for stdin. `+LINE FILE` also works.
    pub path: Option<PathBuf>,
    /// The file after `+LINE`.
    #[arg(hide = true)]
    pub then: Option<PathBuf>,
    /// Open the bundled demo session.
    #[arg(long)]
    pub demo: bool,
    /// No colours (also when NO_COLOR is set).
    #[arg(long)]
    pub no_color: bool,
    /// ASCII in place of the symbols drawn (│ ─ ● … ·), for a terminal
    /// that draws East Asian ambiguous characters two columns wide.
    #[arg(long)]
    pub ascii: bool,
    /// y / Y / v copy markdown instead of the labelled text.
    #[arg(long)]
    pub copy_markdown: bool,
    /// Start with secrets redacted on the screen (the picker's list and
    /// hits, every session opened) and in copies and exports, as `#`
    /// pressed twice: to share your screen.
    #[arg(long)]
    pub redact: bool,
    /// Colours: auto (the terminal's background decides), dark, light,
    /// mono, or a [themes.NAME] of the config.
    #[arg(long, value_name = "NAME")]
    pub theme: Option<String>,
    /// Config file (default: $XDG_CONFIG_HOME/ccv/config.toml or ~/.config/ccv/config.toml).
    #[arg(long, global = true, value_name = "PATH")]
    pub config: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Print the transcript to stdout.
    Export {
        /// Output format.
        #[arg(long, short, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Leave out thinking blocks.
        #[arg(long)]
        no_thinking: bool,
        /// Leave out tool calls and results (a tool group whole, the
        /// thinking between its calls with it, as the viewer's filter does).
        #[arg(long)]
        no_tools: bool,
        /// Leave out subagent transcripts.
        #[arg(long)]
        no_subagents: bool,
        /// Replace secrets (API keys, tokens, private keys, passwords,
        /// credentials in URLs...) with [REDACTED:kind]; counts on stderr.
        #[arg(long)]
        redact: bool,
        /// With --redact: list on stderr each replacement, by file, line
        /// and kind (`ccv: redacted FILE:LINE kind`), to review.
        #[arg(long, requires = "redact")]
        report: bool,
        /// Every session as a static site in DIR: index.html (projects,
        /// sessions, per-day totals), a page per project and per session,
        /// linked both ways. PATH is then the projects root. A second run
        /// renders only what changed and removes pages of sessions gone.
        #[arg(long, value_name = "DIR")]
        all: Option<PathBuf>,
        /// With --all: only sessions active since a date (2026-11-01) or a
        /// span (7d, 2w, 12h).
        #[arg(long, requires = "all")]
        since: Option<String>,
        /// With --all: only projects whose directory holds this.
        #[arg(long, requires = "all")]
        project: Option<String>,
        /// With --all: pages without their inline script (search, filter by
        /// kind, expand all); they read the same without it.
        #[arg(long, requires = "all")]
        no_script: bool,
        /// Session file, or - for stdin (with --all: the projects root).
        path: Option<PathBuf>,
    },
    /// Check a session's structure: tool calls without results, results
    /// without calls, dangling or cyclic parentUuid links, repeated uuids,
    /// several sessionIds, unreadable lines, lines read after a repair (a
    /// byte that is no UTF-8, a field of another type), subagents whose
    /// transcript is not found. Exit 0 when clean, 1 with findings, 2 on an
    /// I/O error.
    Check {
        /// Print one JSON object per finding.
        #[arg(long)]
        json: bool,
        /// Check only the session file, not its subagent files.
        #[arg(long)]
        no_subagents: bool,
        /// Session file.
        path: PathBuf,
    },
    /// List sessions, newest first.
    List {
        /// One JSON object per line instead of a table.
        #[arg(long)]
        json: bool,
        /// Only the sessions of this agent.
        #[arg(long, value_parser = crate::source::AGENTS)]
        agent: Option<String>,
        /// Secrets in titles, prompts, projects and branches replaced by
        /// `[REDACTED:kind]` (to share the list).
        #[arg(long)]
        redact: bool,
        /// Projects root, one project's folder, or one session file (default: $CLAUDE_CONFIG_DIR/projects or
        /// ~/.claude/projects, with $CODEX_HOME/sessions and archived_sessions when they exist).
        root: Option<PathBuf>,
    },
    /// Search the words of every session (prompts, answers, thinking, tool
    /// input and output, subagents, compaction summaries). Words in any
    /// order, "a quoted phrase", smart case. Exit 1 when nothing matched.
    Search {
        /// One JSON object per hit.
        #[arg(long)]
        json: bool,
        /// Only sessions whose project path contains this.
        #[arg(long, value_name = "P")]
        project: Option<String>,
        /// Only entries since a date (2026-11-01) or a span (7d, 2w, 12h).
        #[arg(long)]
        since: Option<String>,
        /// Only these kinds: user, assistant, thinking, tool, tool_call,
        /// tool_result, system, command, meta, compaction (repeat or comma-separate).
        #[arg(long, value_name = "KIND")]
        kind: Vec<String>,
        /// The query is one regular expression.
        #[arg(long)]
        regex: bool,
        /// Hits shown at most (the newest); at least 1.
        #[arg(long, default_value_t = 200,
              value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
        limit: usize,
        /// Secrets in snippets and titles replaced by `[REDACTED:kind]` (a
        /// hit so changed is printed unmarked).
        #[arg(long)]
        redact: bool,
        /// What to look for.
        query: String,
        /// Projects root, or one project's folder (default: $CLAUDE_CONFIG_DIR/projects or ~/.claude/projects,
        /// with $CODEX_HOME/sessions and archived_sessions when they exist).
        root: Option<PathBuf>,
    },
    /// Build or update the search index (`ccv search` does it by itself;
    /// the index lives in $XDG_CACHE_HOME/ccv and may be deleted any time).
    Index {
        /// Print nothing.
        #[arg(long)]
        quiet: bool,
        /// Projects root, or one project's folder (default: $CLAUDE_CONFIG_DIR/projects or ~/.claude/projects,
        /// with $CODEX_HOME/sessions and archived_sessions when they exist).
        root: Option<PathBuf>,
    },
    /// Print a completion script: bash, zsh, fish, elvish or powershell
    /// (e.g. `ccv completions bash > ~/.local/share/bash-completion/completions/ccv`).
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff): `ccv man > ccv.1; man ./ccv.1`.
    Man,
    /// Every session written lately, live: running (which tool), thinking,
    /// waiting for you, stalled, interrupted, failed, idle. Enter opens one
    /// following its end; q comes back. Piped: one snapshot as a table.
    Top {
        /// Sessions written within this many minutes (default 30, or
        /// `[top] minutes` of the config).
        #[arg(long)]
        minutes: Option<u32>,
        /// Projects root, or one project's folder (default: $CLAUDE_CONFIG_DIR/projects or ~/.claude/projects,
        /// with $CODEX_HOME/sessions and archived_sessions when they exist).
        root: Option<PathBuf>,
    },
    /// Check the config file and say where it is; `--default` prints a
    /// config with every setting at its default, commented
    /// (`ccv config --default > ~/.config/ccv/config.toml`).
    Config {
        /// Print the default config.
        #[arg(long)]
        default: bool,
    },
    /// The price table in force (bundled, fetched, config), where each rate
    /// comes from, and the models of your sessions that have no price.
    Prices {
        /// Fetch a newer table (LiteLLM's model_prices_and_context_window.json)
        /// into the cache; the only network request ccv makes, and only now.
        #[arg(long)]
        update: bool,
        /// Where --update reads (default: LiteLLM's table on GitHub).
        #[arg(long, requires = "update", value_name = "URL")]
        url: Option<String>,
        /// Projects root, or one project's folder (default: $CLAUDE_CONFIG_DIR/projects or ~/.claude/projects,
        /// with $CODEX_HOME/sessions and archived_sessions when they exist).
        root: Option<PathBuf>,
    },
    /// Totals over every session (or one: `ccv stats FILE`): cost, tokens,
    /// sessions, prompts, tool calls and the most used tools, in total or
    /// by day, project or model.
    Stats {
        /// One row per day (local time), project or model.
        #[arg(long, value_enum)]
        by: Option<crate::stats::By>,
        /// Only what happened since a date (2026-11-01) or a span (7d, 2w, 12h).
        #[arg(long)]
        since: Option<String>,
        /// One JSON object instead of a table.
        #[arg(long)]
        json: bool,
        /// Secrets in projects, models and tool names replaced by
        /// `[REDACTED:kind]` (to share the figures).
        #[arg(long)]
        redact: bool,
        /// Projects root, one project's folder, or one session file (with its subagents) (default:
        /// $CLAUDE_CONFIG_DIR/projects or ~/.claude/projects, with $CODEX_HOME/sessions and
        /// archived_sessions when they exist).
        root: Option<PathBuf>,
    },
}

impl Command {
    /// Whether the command reads what it prints through the redactor.
    fn redacts(&self) -> bool {
        match self {
            Command::Export { redact, .. }
            | Command::List { redact, .. }
            | Command::Search { redact, .. }
            | Command::Stats { redact, .. } => *redact,
            _ => false,
        }
    }
}

pub fn main() -> i32 {
    main_with(&|| {})
}

/// [`main`], calling `viewing` before the viewer (not a command) starts:
/// the binary tunes its allocator for a long-lived process there.
pub fn main_with(viewing: &dyn Fn()) -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            // clap quotes the arguments it refuses: they reach the terminal
            // only made safe (help and version go to stdout as they are)
            let text = e.render().to_string();
            let safe: Vec<String> = text.lines().map(term_line).collect();
            if e.use_stderr() {
                crate::say_err!("{}", safe.join("\n"));
            } else if printed(crate::say!("{}", safe.join("\n"))) != 0 {
                return 1;
            }
            return e.exit_code();
        }
    };
    // `ccv --redact list` would show what the flag was meant to hide
    if cli.redact && cli.command.is_some() {
        crate::say_err!(
            "ccv: --redact goes before a PATH to view (`ccv --redact [PATH]`); an export, a list, a search and stats take their own (`ccv export --redact ...`, `ccv list --redact`, `ccv stats --redact`)"
        );
        return 2;
    }
    protect_roots(cli.path.as_deref());
    let (config, problems) = crate::config::load(cli.config.as_deref());
    config.apply();
    if cli.redact || cli.command.as_ref().is_some_and(Command::redacts) {
        crate::redact::warm_up();
    }
    // the viewer says it in its status bar; commands on stderr
    let config_note = (!problems.is_empty()).then(|| problems.join("; "));
    if cli.command.is_some() {
        for p in &problems {
            crate::say_err!("ccv: {p}");
        }
    } else {
        viewing();
    }
    match cli.command {
        Some(cmd @ Command::Export { .. }) => export_command(cmd),
        Some(Command::List {
            json,
            agent,
            redact,
            root,
        }) => run_list(root, json, agent.as_deref(), redact),
        Some(Command::Search {
            json,
            project,
            since,
            kind,
            regex,
            limit,
            redact,
            query,
            root,
        }) => with_root(root, |root| {
            crate::search::output::run(&crate::search::output::Args {
                query,
                root,
                json,
                project,
                since,
                kinds: kind,
                regex,
                limit,
                redact,
            })
        }),
        Some(Command::Completions { shell }) => {
            use clap::CommandFactory;
            let mut cmd = Cli::command();
            // (into memory first: the generator panics when a write fails)
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut cmd, "ccv", &mut script);
            printed(crate::say::out_bytes(&script))
        }
        Some(Command::Config { default: true }) => printed(crate::say::out(format_args!(
            "{}",
            crate::config::default_text()
        ))),
        Some(Command::Config { default: false }) => {
            let path = cli.config.clone().or_else(crate::config::default_path);
            let said = match (&config.path, path) {
                (Some(p), _) => crate::say!("{}", term_path(p)),
                (None, Some(p)) if p.exists() => {
                    crate::say!("{} (not read: defaults)", term_path(&p))
                }
                (None, Some(p)) => crate::say!(
                    "{} (not there: defaults; `ccv config --default` writes one)",
                    term_path(&p)
                ),
                (None, None) => crate::say!("no config directory (set HOME or XDG_CONFIG_HOME)"),
            };
            match printed(said) {
                0 if problems.is_empty() => 0,
                _ => 1,
            }
        }
        Some(Command::Man) => {
            use clap::CommandFactory;
            printed(crate::manpage::write(
                Cli::command(),
                &mut std::io::stdout(),
            ))
        }
        Some(Command::Index { quiet, root }) => {
            with_root(root, |root| crate::search::output::run_index(&root, quiet))
        }
        Some(Command::Stats {
            by,
            since,
            json,
            redact,
            root,
        }) => with_root(root, |root| {
            crate::stats::run(&root, by, since.as_deref(), (json, redact))
        }),
        Some(Command::Check {
            json,
            no_subagents,
            path,
        }) => crate::check::run(&path, json, no_subagents),
        Some(Command::Prices {
            update: true, url, ..
        }) => crate::prices::update(url.as_deref().unwrap_or(crate::prices::DEFAULT_URL)),
        Some(Command::Prices { root, .. }) => {
            let root = sessions_root(root);
            printed(crate::prices::show(
                root.as_deref(),
                &mut std::io::stdout().lock(),
            ))
        }
        Some(Command::Top { minutes, ref root }) => {
            let Some(root) = sessions_root(root.clone()) else {
                crate::say_err!(
                    "ccv: no projects root (set CLAUDE_CONFIG_DIR or HOME, or pass ROOT)"
                );
                return 2;
            };
            let mut config = config;
            if let Some(m) = minutes {
                config.top.minutes = m.max(1);
            }
            show(
                &cli,
                &config,
                config_note,
                crate::app::Start::Top(root),
                None,
                None,
            )
        }
        None => run_tui(&cli, &config, config_note),
    }
}

/// `ccv export`: a session in a format, or with `--all` every session as a
/// static site.
fn export_command(cmd: Command) -> i32 {
    match cmd {
        Command::Export {
            format,
            no_thinking,
            no_tools,
            no_subagents,
            redact,
            report,
            all: Some(dir),
            since,
            project,
            no_script,
            path,
        } => {
            let _ = (format, no_thinking, no_tools, no_subagents, report);
            with_root(path, |root| {
                crate::archive::cli::run(&crate::archive::cli::Args {
                    dir: dir.clone(),
                    root,
                    since: since.clone(),
                    project: project.clone(),
                    redact,
                    script: !no_script,
                })
            })
        }
        Command::Export {
            format,
            no_thinking,
            no_tools,
            no_subagents,
            redact,
            report,
            path,
            ..
        } => {
            let opts = Options {
                format,
                no_thinking,
                no_tools,
                no_subagents,
                redact,
            };
            match path {
                Some(path) => run_export(&path, &opts, report),
                None => {
                    crate::say_err!("ccv: export: a session file (or - for stdin), or --all DIR");
                    2
                }
            }
        }
        _ => 2,
    }
}

/// Runs a command that needs the projects root, or says there is none.
fn with_root(root: Option<PathBuf>, run: impl FnOnce(PathBuf) -> i32) -> i32 {
    match sessions_root(root) {
        Some(root) => run(root),
        None => {
            crate::say_err!("ccv: no projects root (set CLAUDE_CONFIG_DIR or HOME, or pass ROOT)");
            2
        }
    }
}

/// ccv never writes inside a folder of sessions: the default ones, and a
/// directory it was pointed at.
fn protect_roots(path: Option<&Path>) {
    for root in crate::paths::projects_root()
        .into_iter()
        .chain(crate::paths::codex_sessions_roots())
    {
        crate::writes::protect_root(&root);
    }
    if let Some(p) = path.filter(|p| p.is_dir()) {
        crate::writes::protect_root(p);
    }
}

/// What ccv reads when given no folder: Claude Code's projects root, which
/// brings every other agent's sessions along (see
/// [`crate::catalog::files::scope`]), else the first other agent's folder
/// there is, else the projects root that is not there (to name it).
fn default_root() -> Option<PathBuf> {
    crate::catalog::files::default_roots()
        .into_iter()
        .next()
        .or_else(crate::paths::projects_root)
}

/// The projects root a command reads: `root`, else the default one;
/// ccv writes nothing inside it.
fn sessions_root(root: Option<PathBuf>) -> Option<PathBuf> {
    let root = root.or_else(default_root)?;
    crate::writes::protect_root(&root);
    Some(root)
}

/// The interactive viewer: a session file, the demo, or (until the picker
/// lands) the demo with a note when a projects directory exists.
/// `FILE:LINE` (when FILE exists and the whole does not) or `+LINE FILE`.
fn path_and_line(path: Option<&Path>, then: Option<&Path>) -> (Option<PathBuf>, Option<u32>) {
    let Some(p) = path else {
        return (None, None);
    };
    let text = p.to_string_lossy();
    // a number past any file's lines is the last line's
    let number = |n: &str| {
        n.parse::<u64>()
            .ok()
            .map(|n| u32::try_from(n).unwrap_or(u32::MAX))
    };
    if let Some(n) = text.strip_prefix('+').and_then(number)
        && let Some(file) = then
    {
        return (Some(file.to_owned()), Some(n));
    }
    if !p.exists()
        && let Some((file, n)) = text.rsplit_once(':')
        && let Some(n) = number(n)
        && Path::new(file).is_file()
    {
        return (Some(PathBuf::from(file)), Some(n));
    }
    (Some(p.to_owned()), None)
}

fn run_tui(cli: &Cli, config: &crate::config::Config, config_note: Option<String>) -> i32 {
    let (path, line) = path_and_line(cli.path.as_deref(), cli.then.as_deref());
    let (start, message) = match (&path, cli.demo) {
        (_, true) => (crate::app::Start::Demo, None),
        (Some(p), false) if p.as_os_str() == "-" => {
            use std::io::IsTerminal;
            if std::io::stdin().is_terminal() {
                crate::say_err!(
                    "ccv: -: standard input is the terminal; pipe a session into it \
                     (claude -p \"…\" --output-format stream-json --verbose | ccv -)"
                );
                return 2;
            }
            (crate::app::Start::Stdin, None)
        }
        (Some(p), false) if p.is_dir() => match crate::live::newest_session(p) {
            // a project directory: its newest session, followed
            Some(s) => (crate::app::Start::Project(s), None),
            // a projects root: the picker
            None => (crate::app::Start::Picker(p.clone()), None),
        },
        (Some(p), false) => (crate::app::Start::Session(p.clone()), None),
        (None, false) => match default_root().filter(|d| d.is_dir()) {
            Some(d) => (crate::app::Start::Picker(d), None),
            None => (
                crate::app::Start::Demo,
                Some("no Claude Code or Codex sessions found: showing the bundled demo".to_owned()),
            ),
        },
    };
    if let crate::app::Start::Session(p) = &start
        && p.as_os_str() != "-"
        && let Err(e) = std::fs::metadata(p)
    {
        crate::say_err!("ccv: {}: {}", term_path(p), term_line(&e.to_string()));
        return 1;
    }
    show(cli, config, config_note, start, message, line)
}

/// Draws `start` (or prints it when stdout is not a terminal).
fn show(
    cli: &Cli,
    config: &crate::config::Config,
    config_note: Option<String>,
    start: crate::app::Start,
    message: Option<String>,
    line: Option<u32>,
) -> i32 {
    let color = crate::style::theme::want_color(cli.no_color);
    // not a terminal (`ccv FILE | less`): the text, not a screen
    use std::io::IsTerminal;
    if !std::io::stdout().is_terminal() {
        return print_instead(&start, config.top.minutes, cli.redact);
    }
    // the theme asks the terminal its background: only when drawing
    let (theme, theme_note) = config.theme(cli.theme.as_deref(), color);
    crate::style::theme::install(theme);
    crate::style::color::set_depth(crate::style::color::Depth::detect());
    crate::style::glyphs::set_ascii(cli.ascii || config.ascii == Some(true));
    let note = [config_note, theme_note]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join("; ");
    let opts = crate::app::run::Options {
        message: (!note.is_empty())
            .then(|| format!("config: {note}"))
            .or(message),
        copy_markdown: cli.copy_markdown
            || config.copy_format == Some(crate::export::Format::Markdown),
        line,
        settings: crate::viewer::state::Settings {
            keys: std::rc::Rc::new(config.keymap()),
            export_dir: config.export_dir.clone(),
            mouse: config.mouse.unwrap_or(true),
            redact: if cli.redact {
                crate::viewer::state::Redaction::Screen
            } else {
                crate::viewer::state::Redaction::Off
            },
            histories: crate::prompt::Histories::dir()
                .map(|d| crate::prompt::Histories::load(&d))
                .unwrap_or_default(),
        },
        filters: config.filters,
        sort: config.picker_sort.unwrap_or_default(),
        picker_keys: Some(std::rc::Rc::new(config.picker_keys())),
        top: crate::top::TopSettings {
            keys: std::rc::Rc::new(config.top_keys()),
            ..config.top.clone()
        },
    };
    // sessions read from the start are read through the redactor
    crate::redact::set_screen(cli.redact);
    let r = crate::app::run::run_with(start, opts);
    if let Some(code) = crate::app::restore::signal_exit_code() {
        return code;
    }
    match r {
        Ok(()) => 0,
        Err(e) => {
            crate::say_err!("ccv: {}", term_line(&format!("{e:#}")));
            1
        }
    }
}

/// What `ccv PATH` prints when stdout is not a terminal: a session's text
/// export, or a projects root's list.
fn print_instead(start: &crate::app::Start, top_minutes: u32, redact: bool) -> i32 {
    use crate::app::Start;
    let opts = Options {
        format: Format::Text,
        no_thinking: false,
        no_tools: false,
        no_subagents: false,
        redact,
    };
    match start {
        Start::Session(p) | Start::Project(p) => run_export(p, &opts, false),
        Start::Stdin => run_export(Path::new("-"), &opts, false),
        Start::Top(root) => crate::top::print::run(root, i64::from(top_minutes) * 60_000, redact),
        Start::Picker(root) => run_list(Some(root.clone()), false, None, redact),
        Start::Demo => {
            let session = crate::app::demo::session();
            let mut out = std::io::stdout().lock();
            printed(export::export(&session, &opts, &mut out))
        }
    }
}

fn run_list(root: Option<PathBuf>, json: bool, agent: Option<&str>, redact: bool) -> i32 {
    let Some(root) = sessions_root(root) else {
        crate::say_err!("ccv: no projects root (set CLAUDE_CONFIG_DIR or HOME, or pass ROOT)");
        return 2;
    };
    let mut out = std::io::stdout().lock();
    match crate::catalog::list::print_list(&root, json, agent, redact, &mut out) {
        Ok(()) => 0,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            crate::say_err!("ccv: {}: {}", term_path(&root), term_line(&e.to_string()));
            1
        }
    }
}

/// Loads a session for the non-interactive commands, with its subagent
/// files.
pub fn load_session(path: &Path) -> std::io::Result<Session> {
    crate::source::load_with_subagents(path)
}

fn run_export(path: &Path, opts: &Options, report: bool) -> i32 {
    // long texts are read back from the files as they are written out
    let summaries = opts.format == Format::Html;
    let session = match crate::source::load_for_export(path, summaries) {
        Ok(s) => s,
        Err(e) => {
            crate::say_err!("ccv: {}: {}", term_path(path), term_line(&e.to_string()));
            return 1;
        }
    };
    report_problems(&session);
    let _ = crate::redact::take_counts();
    let _ = crate::redact::take_log();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let written = if opts.format == Format::Html {
        crate::html::write(&session, opts, opts.filters(), &mut out)
    } else {
        export::export(&session, opts, &mut out)
    };
    let code = printed(written.and_then(|_| out.flush()));
    if opts.redact {
        if report {
            report_redactions(&session);
        }
        crate::say_err!(
            "ccv: {}",
            crate::redact::describe(&crate::redact::take_counts())
        );
    }
    let changed = session.texts_changed();
    if changed > 0 {
        crate::say_err!(
            "ccv: {}: {changed} text(s) changed on disk during the export; each says so in its place",
            term_path(path)
        );
    }
    // The process ends now: freeing a 100 MB session item by item would
    // cost a tenth of the export's time for nothing.
    std::mem::forget(session);
    code
}

/// `ccv: redacted PATH:LINE kind` on stderr, one per replacement, in the
/// files' order (the title block's: `PATH (title) kind`).
fn report_redactions(session: &Session) {
    let mut log = crate::redact::take_log();
    log.sort_by(|a, b| (a.source, a.line, &a.kind).cmp(&(b.source, b.line, &b.kind)));
    let stderr = std::io::stderr();
    let mut err = stderr.lock();
    for r in &log {
        let path = session
            .sources
            .get(r.source as usize)
            .and_then(|s| s.path.as_deref())
            .map_or_else(|| "-".to_owned(), term_path);
        let place = match r.line {
            0 => format!("{path} (title)"),
            n => format!("{path}:{n}"),
        };
        let _ = writeln!(err, "ccv: redacted {place} {}", term_line(&r.kind));
    }
}

/// Unreadable or repaired lines an export names on stderr; past them, a
/// count (a file of junk made hundreds of thousands of lines there, a
/// write each, which no one reads: `ccv check` lists them all, and the
/// export holds each in its place).
const PROBLEMS_LISTED: usize = 100;

/// `ccv: PATH:LINE: reason` on stderr, one per unreadable or repaired line
/// up to [`PROBLEMS_LISTED`], then how many more.
pub fn report_problems(session: &Session) {
    let stderr = std::io::stderr();
    let mut err = std::io::BufWriter::new(stderr.lock());
    let path_of = |source: u16| {
        session
            .sources
            .get(source as usize)
            .and_then(|s| s.path.as_deref())
            .map_or_else(|| "-".to_owned(), term_path)
    };
    for (source, p) in session.problems.iter().take(PROBLEMS_LISTED) {
        let path = path_of(*source);
        let _ = writeln!(err, "ccv: {path}:{}: {}", p.line, term_line(&p.message));
    }
    let more = session.problems.len().saturating_sub(PROBLEMS_LISTED);
    if more > 0 {
        let main = path_of(crate::model::session::MAIN);
        let plain = |c: char| c.is_ascii_alphanumeric() || "/._-+:@%,=".contains(c);
        // (a name that starts like an option or a line number is a path's)
        let path = if main.starts_with(['-', '+']) {
            format!("./{main}")
        } else {
            main.clone()
        };
        let word = if path.chars().all(plain) {
            path
        } else {
            crate::app::shell_quote(&path)
        };
        let _ = writeln!(
            err,
            "ccv: {main}: {more} more unreadable or repaired line(s) not listed here: each is in the transcript in its place, and `ccv check {word}` lists them all"
        );
    }
    let _ = err.flush();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_line_and_plus_line() {
        let dir = tempfile::tempdir().expect("tempdir");
        let f = dir.path().join("s.jsonl");
        std::fs::write(&f, "{}\n").expect("write");
        let odd = dir.path().join("odd:12");
        std::fs::write(&odd, "{}\n").expect("write");
        let with = |s: String| PathBuf::from(s);
        assert_eq!(
            path_and_line(Some(&with(format!("{}:42", f.display()))), None),
            (Some(f.clone()), Some(42))
        );
        assert_eq!(
            path_and_line(Some(Path::new("+7")), Some(&f)),
            (Some(f.clone()), Some(7))
        );
        // a number past any line is the last one's, not a file's name
        assert_eq!(
            path_and_line(Some(&with(format!("{}:99999999999", f.display()))), None),
            (Some(f.clone()), Some(u32::MAX))
        );
        assert_eq!(
            path_and_line(Some(Path::new("+99999999999")), Some(&f)),
            (Some(f.clone()), Some(u32::MAX))
        );
        // a file whose name ends in :N is that file
        assert_eq!(path_and_line(Some(&odd), None), (Some(odd.clone()), None));
        // nothing there: left as given (and reported as missing)
        let gone = with(format!("{}/none.jsonl:3", dir.path().display()));
        assert_eq!(path_and_line(Some(&gone), None), (Some(gone.clone()), None));
    }
}
