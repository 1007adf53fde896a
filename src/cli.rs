//! Command-line entry: parses arguments and dispatches. Kept thin; the work
//! lives in `model`, `export` and the TUI.

use crate::export::{self, Format, Options};
use crate::model::Session;
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
        With no PATH, ccv opens the picker over $CLAUDE_CONFIG_DIR/projects or ~/.claude/projects, \
        or the bundled demo session when neither exists.",
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    /// Session file, project directory, projects root, or - for stdin.
    pub path: Option<PathBuf>,
    /// Open the bundled demo session.
    #[arg(long)]
    pub demo: bool,
    /// No colours (also when NO_COLOR is set).
    #[arg(long)]
    pub no_color: bool,
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
        /// Leave out tool calls and results.
        #[arg(long)]
        no_tools: bool,
        /// Leave out subagent transcripts.
        #[arg(long)]
        no_subagents: bool,
        /// Session file, or - for stdin.
        path: PathBuf,
    },
    /// List sessions, newest first.
    List {
        /// One JSON object per line instead of a table.
        #[arg(long)]
        json: bool,
        /// Projects root (default: $CLAUDE_CONFIG_DIR/projects or ~/.claude/projects).
        root: Option<PathBuf>,
    },
}

pub fn main() -> i32 {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Export {
            format,
            no_thinking,
            no_tools,
            no_subagents,
            path,
        }) => {
            let opts = Options {
                format,
                no_thinking,
                no_tools,
                no_subagents,
            };
            run_export(&path, &opts)
        }
        Some(Command::List { json, root }) => run_list(root, json),
        None => {
            eprintln!("ccv: the interactive viewer is not built yet; try `ccv export PATH`");
            2
        }
    }
}

fn run_list(root: Option<PathBuf>, json: bool) -> i32 {
    let Some(root) = root.or_else(crate::picker::default_projects_root) else {
        eprintln!("ccv: no projects root (set CLAUDE_CONFIG_DIR or HOME, or pass ROOT)");
        return 2;
    };
    match crate::picker::list::print_list(&root, json, &mut std::io::stdout().lock()) {
        Ok(()) => 0,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            eprintln!("ccv: {}: {e}", root.display());
            1
        }
    }
}

/// Loads a session for the non-interactive commands, with its subagent
/// files.
pub fn load_session(path: &Path) -> std::io::Result<Session> {
    crate::model::loader::load_with_subagents(path)
}

fn run_export(path: &Path, opts: &Options) -> i32 {
    let session = match load_session(path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("ccv: {}: {e}", path.display());
            return 1;
        }
    };
    report_problems(&session);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    match export::export(&session, opts, &mut out).and_then(|_| out.flush()) {
        Ok(()) => 0,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            eprintln!("ccv: {e}");
            1
        }
    }
}

/// `ccv: PATH:LINE: reason` on stderr, one per unreadable or repaired line.
pub fn report_problems(session: &Session) {
    let stderr = std::io::stderr();
    let mut err = stderr.lock();
    for (source, p) in &session.problems {
        let path = session
            .sources
            .get(*source as usize)
            .and_then(|s| s.path.as_deref())
            .map_or_else(|| "-".to_owned(), |p| p.display().to_string());
        let _ = writeln!(err, "ccv: {path}:{}: {}", p.line, p.message);
    }
}
