//! The user's settings: `$XDG_CONFIG_HOME/ccv/config.toml` (else
//! `~/.config/ccv/config.toml`, or `--config PATH`). A config that cannot
//! be read or parsed never stops ccv: what is wrong is ignored, the rest
//! applies, and each problem is reported with where it is.

mod default;
mod prices;

pub use default::default_text;

use crate::catalog::SortBy;
use crate::export::Format;
use crate::model::price::{ModelPrice, PriceTable};
use crate::rows::Filters;
use crate::style::theme::Theme;
use crate::viewer::Action;
use crate::viewer::keymap::{Key, Keymap};
use ratatui::style::Style;
use std::path::{Path, PathBuf};
use toml::Value;

/// What the config file set (every part optional).
#[derive(Debug, Default)]
pub struct Config {
    /// Price overrides by model family (`claude-opus-4-5`).
    pub prices: Vec<ModelPrice>,
    /// `auto`, `dark`, `light`, `mono`, or a `[themes.NAME]`.
    pub theme: Option<String>,
    /// Styles over the chosen theme (`[colors]`).
    pub colors: Vec<(String, Style)>,
    /// `[themes.NAME]`: a base theme and styles over it.
    pub themes: Vec<UserTheme>,
    pub mouse: Option<bool>,
    /// `glyphs = "ascii"`: see [`crate::style::glyphs`].
    pub ascii: Option<bool>,
    pub copy_format: Option<Format>,
    pub export_dir: Option<PathBuf>,
    pub picker_sort: Option<SortBy>,
    /// What a session opens with (`[filters]`).
    pub filters: Option<Filters>,
    /// `[top]`: the overview's window, bell and title.
    pub top: crate::top::TopSettings,
    /// `[redact]`: kind = "regex", secrets of the user's own.
    pub redact: Vec<(String, String)>,
    /// `[keys]`: actions bound to other keys, in the file's order.
    pub keys: Vec<(Action, Vec<Key>)>,
    /// `[picker.keys]`: the picker's, the same way.
    pub picker_keys: Vec<(crate::picker::Action, Vec<Key>)>,
    /// `[top.keys]`: `ccv top`'s.
    pub top_keys: Vec<(crate::top::keys::TopAction, Vec<Key>)>,
    /// Where it came from, when a file was read.
    pub path: Option<PathBuf>,
}

#[derive(Debug, Clone)]
pub struct UserTheme {
    pub name: String,
    pub base: String,
    pub styles: Vec<(String, Style)>,
}

/// The default place of the config file.
pub fn default_path() -> Option<PathBuf> {
    Some(crate::paths::config_dir()?.join("config.toml"))
}

/// Reads `explicit` (which must exist) or the default file (which may
/// not). Returns the config and what was ignored, one message each.
pub fn load(explicit: Option<&Path>) -> (Config, Vec<String>) {
    let path = match explicit {
        Some(p) => p.to_owned(),
        None => match default_path() {
            Some(p) if p.is_file() => p,
            _ => return (Config::default(), Vec::new()),
        },
    };
    let shown = crate::model::text::term_path(&path);
    // (said here: the session reader's word for it offers `-`, which a
    // config is not read from)
    if let Ok(meta) = std::fs::metadata(&path)
        && !meta.is_file()
    {
        let problem = format!("{shown}: not a regular file; using defaults");
        return (Config::default(), vec![problem]);
    }
    // a config is a few KB; a device or a huge file is not one
    let text = match crate::model::session::open_regular(&path).and_then(|f| {
        use std::io::Read;
        let mut s = String::new();
        f.take(1 << 20).read_to_string(&mut s).map(|_| s)
    }) {
        Ok(t) => t,
        Err(e) => {
            return (
                Config::default(),
                vec![format!("{shown}: {e}; using defaults")],
            );
        }
    };
    let (mut config, problems) = parse(&text, &shown);
    config.path = Some(path);
    (config, problems)
}

/// Parses a config's text; `name` prefixes the messages.
pub fn parse(text: &str, name: &str) -> (Config, Vec<String>) {
    let mut problems = Vec::new();
    let mut config = Config::default();
    let table: toml::Table = match text.parse() {
        Ok(t) => t,
        Err(e) => {
            let at = e.span().map(|s| line_of(text, s.start)).unwrap_or(0);
            problems.push(format!(
                "{name}:{at}: {}; using defaults",
                one_line(e.message())
            ));
            return (config, problems);
        }
    };
    // the table is sorted by name: the problems are put in the file's order
    let mut said: Vec<(usize, String)> = Vec::new();
    let lines = KeyLines::of(text);
    for (key, value) in table {
        let at = lines.of_key(&key);
        let mut say = |line: usize, what: String| said.push((line, what));
        if let Err(why) = setting(&mut config, &key, value, &lines, &mut say) {
            say(at, why);
        }
    }
    // a theme is named before the [themes.NAME] it may name: checked last
    if let Some(t) = config.theme.clone()
        && crate::style::theme::Theme::builtin(&t).is_none()
        && t != "auto"
        && !config.themes.iter().any(|u| u.name == t)
    {
        said.push((
            lines.of_key("theme"),
            format!(
                "theme: no theme `{}` (auto, dark, light, mono, or a [themes.NAME])",
                one_line(&t)
            ),
        ));
        config.theme = None;
    }
    for (line, what) in &mut said {
        *line = lines.of_message(what).unwrap_or(*line);
    }
    said.sort_by_key(|(line, _)| *line);
    problems.extend(
        said.into_iter()
            .map(|(line, what)| format!("{name}:{line}: {what}; ignored")),
    );
    (config, problems)
}

/// Reads one top-level setting into `config`; problems inside a table
/// go to `say`, one whose whole value is wrong is the `Err`.
fn setting(
    config: &mut Config,
    key: &str,
    value: Value,
    lines: &KeyLines,
    say: &mut dyn FnMut(usize, String),
) -> Result<(), String> {
    let line = |k: &str| lines.of_key(k);
    let string = |v: &Value| {
        v.as_str()
            .map(str::to_owned)
            .ok_or(format!("{key}: not a string"))
    };
    let table = |v: Value| match v {
        Value::Table(t) => Ok(t),
        _ => Err(format!("{key}: not a table")),
    };
    match key {
        "theme" => config.theme = Some(string(&value)?),
        "mouse" => config.mouse = Some(value.as_bool().ok_or("mouse: true or false")?),
        "glyphs" => {
            config.ascii = Some(match string(&value)?.as_str() {
                "unicode" => false,
                "ascii" => true,
                other => {
                    return Err(format!("glyphs: `{}`: unicode or ascii", one_line(other)));
                }
            })
        }
        "copy_format" => {
            config.copy_format = Some(match string(&value)?.as_str() {
                "text" => Format::Text,
                "markdown" => Format::Markdown,
                other => {
                    return Err(format!(
                        "copy_format: `{}`: text or markdown",
                        one_line(other)
                    ));
                }
            })
        }
        "export_dir" => config.export_dir = Some(crate::paths::expand_tilde(&string(&value)?)),
        "picker_sort" => {
            let v = string(&value)?;
            config.picker_sort = Some(
                [SortBy::Newest, SortBy::Cost, SortBy::Size]
                    .into_iter()
                    .find(|s| s.name() == v)
                    .ok_or(format!(
                        "picker_sort: `{}`: newest, cost or size",
                        one_line(&v)
                    ))?,
            );
        }
        "filters" => {
            let mut f = Filters::default();
            for (k, v) in table(value)? {
                let Some(on) = v.as_bool() else {
                    say(line(&k), format!("filters.{}: true or false", one_line(&k)));
                    continue;
                };
                match k.as_str() {
                    "tools" => f.tools = on,
                    "thinking" => f.thinking = on,
                    "meta" => f.meta = on,
                    "errors" => f.errors = on,
                    other => say(
                        line(other),
                        format!(
                            "filters.{}: not a filter (tools, thinking, meta, errors)",
                            one_line(other)
                        ),
                    ),
                }
            }
            config.filters = Some(f);
        }
        "keys" => {
            for (k, v) in table(value)? {
                match keys_of(&k, v) {
                    Ok(b) => config.keys.push(b),
                    Err(why) => say(line(&k), format!("keys.{}: {why}", one_line(&k))),
                }
            }
            if config.keymap_as_given().keep_a_way_out() {
                say(
                    line("keys"),
                    "keys: no key would quit; Ctrl-C still quits".to_owned(),
                );
            }
        }
        "redact" => {
            redact_patterns(config, table(value)?, &line, say);
            // each compiles as a text regex; it must compile the
            // redactor's way too (bytes, no Unicode classes), checked
            // without making the redactor (10 ms a command): one that
            // does not is left out
            config.redact.retain(|(kind, pattern)| {
                let one = [(kind.clone(), pattern.clone())];
                match crate::redact::check_patterns(&one) {
                    Ok(()) => true,
                    Err(e) => {
                        say(line(kind), one_line(&e));
                        false
                    }
                }
            });
        }
        "top" => {
            for (k, v) in table(value)? {
                let at = line(&k);
                match (k.as_str(), &v) {
                    ("minutes", Value::Integer(m)) if *m >= 1 => {
                        config.top.minutes = u32::try_from(*m).unwrap_or(u32::MAX)
                    }
                    ("bell", Value::Boolean(b)) => config.top.bell = *b,
                    ("keys", Value::Table(t)) => screen_keys(config, "top", t.clone(), &line, say),
                    ("title", Value::Boolean(b)) => config.top.title = *b,
                    _ => say(
                        at,
                        format!(
                            "top.{}: minutes = N (1 or more), bell = true|false, title = true|false, [top.keys]",
                            one_line(&k)
                        ),
                    ),
                }
            }
        }
        "picker" => {
            for (k, v) in table(value)? {
                match (k.as_str(), v) {
                    ("keys", Value::Table(t)) => screen_keys(config, "picker", t, &line, say),
                    _ => say(
                        line(&k),
                        format!("picker.{}: [picker.keys] only", one_line(&k)),
                    ),
                }
            }
        }
        "colors" => config.colors = styles(table(value)?, "colors", &line, say),
        "themes" => themes(config, table(value)?, &line, say),
        "prices" => {
            for (family, v) in table(value)? {
                match v
                    .try_into::<prices::PriceEntry>()
                    .map_err(|e| one_line(e.message()))
                    .and_then(|e| prices::price_of(&family, e))
                {
                    Ok(p) => config.prices.push(p),
                    Err(why) => say(line(&family), format!("prices.{family}: {why}")),
                }
            }
        }
        other => return Err(format!("unknown setting `{}`", one_line(other))),
    }
    Ok(())
}

/// `[redact]`: kind = "regex"; each pattern must compile.
fn redact_patterns(
    config: &mut Config,
    t: toml::Table,
    line: &dyn Fn(&str) -> usize,
    say: &mut dyn FnMut(usize, String),
) {
    for (kind, v) in t {
        let at = line(&kind);
        match v.as_str() {
            Some("") => say(
                at,
                format!(
                    "redact.{}: an empty pattern would match everywhere",
                    one_line(&kind)
                ),
            ),
            Some(p) => match regex::RegexBuilder::new(p).size_limit(1 << 20).build() {
                Ok(re) if re.is_match("") => say(
                    at,
                    format!(
                        "redact.{}: the pattern matches empty text, so it would match everywhere",
                        one_line(&kind)
                    ),
                ),
                Ok(_)
                    if kind
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') =>
                {
                    config.redact.push((kind, p.to_owned()))
                }
                Ok(_) => say(
                    at,
                    format!(
                        "redact.{}: a kind is letters, digits, - and _",
                        one_line(&kind)
                    ),
                ),
                Err(e) => say(
                    at,
                    format!("redact.{}: {}", one_line(&kind), one_line(&e.to_string())),
                ),
            },
            None => say(
                at,
                format!(
                    "redact.{}: a regular expression (a string)",
                    one_line(&kind)
                ),
            ),
        }
    }
}

/// `[themes.NAME]`: a base (`dark`, `light`, `mono`, `auto`) and styles.
fn themes(
    config: &mut Config,
    t: toml::Table,
    line: &dyn Fn(&str) -> usize,
    say: &mut dyn FnMut(usize, String),
) {
    for (theme, v) in t {
        let at = line(&theme);
        let Value::Table(mut t) = v else {
            say(at, format!("themes.{}: not a table", one_line(&theme)));
            continue;
        };
        let base = match t.remove("base") {
            Some(Value::String(b)) => b,
            Some(_) => {
                say(
                    at,
                    format!("themes.{}.base: not a string", one_line(&theme)),
                );
                "dark".into()
            }
            None => "dark".into(),
        };
        if !matches!(base.as_str(), "dark" | "light" | "mono" | "auto") {
            say(
                at,
                format!(
                    "themes.{}.base: `{}`: dark, light, mono or auto",
                    one_line(&theme),
                    one_line(&base)
                ),
            );
        }
        let styles = styles(t, &format!("themes.{theme}"), &line, say);
        config.themes.push(UserTheme {
            name: theme,
            base,
            styles,
        });
    }
}

/// `[picker.keys]` and `[top.keys]`: a screen's actions bound to other
/// keys, as `[keys]` does the viewer's.
fn screen_keys(
    config: &mut Config,
    screen: &str,
    t: toml::Table,
    line: &dyn Fn(&str) -> usize,
    say: &mut dyn FnMut(usize, String),
) {
    for (k, v) in t {
        let keys = match key_list(v) {
            Ok(keys) => keys,
            Err(why) => {
                say(line(&k), format!("{screen}.keys.{}: {why}", one_line(&k)));
                continue;
            }
        };
        let known = match screen {
            "picker" => crate::picker::keys::named(&k).map(|a| config.picker_keys.push((a, keys))),
            _ => crate::top::keys::named(&k).map(|a| config.top_keys.push((a, keys))),
        };
        if known.is_none() {
            say(
                line(&k),
                format!(
                    "{screen}.keys.{}: not an action of the {screen} (`ccv config --default` lists them)",
                    one_line(&k)
                ),
            );
        }
    }
}

/// `"key"` or `["key", ...]`.
fn key_list(v: Value) -> Result<Vec<Key>, String> {
    let words: Vec<String> = match v {
        Value::String(s) => vec![s],
        Value::Array(a) => a
            .into_iter()
            .map(|x| x.as_str().map(str::to_owned).ok_or("keys are strings"))
            .collect::<Result<_, _>>()?,
        _ => return Err("a key (\"j\") or a list of keys".into()),
    };
    words
        .iter()
        .map(|w| Key::parse(w))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| one_line(&e))
}

/// `action = "key"` or `action = ["key", ...]` (`[]`: unbound).
fn keys_of(action: &str, v: Value) -> Result<(Action, Vec<Key>), String> {
    let a = Action::named(action)
        .ok_or_else(|| "not an action (`ccv config --default` lists them)".to_owned())?;
    Ok((a, key_list(v)?))
}

/// A table of `style_name = "spec"`; names that no style has, and specs
/// that do not read, are said and skipped.
fn styles(
    t: toml::Table,
    what: &str,
    line: &dyn Fn(&str) -> usize,
    say: &mut dyn FnMut(usize, String),
) -> Vec<(String, Style)> {
    let mut out = Vec::new();
    let mut probe = Theme::colored();
    for (k, v) in t {
        let spec = match v.as_str() {
            Some(s) => s,
            None => {
                say(line(&k), format!("{what}.{}: not a string", one_line(&k)));
                continue;
            }
        };
        match crate::style::color::parse_style(spec) {
            Ok(st) if probe.set(&k, st) => out.push((k, st)),
            Ok(_) => say(
                line(&k),
                format!("{what}.{}: no style has that name", one_line(&k)),
            ),
            Err(e) => say(
                line(&k),
                format!("{what}.{}: {}", one_line(&k), one_line(&e)),
            ),
        }
    }
    out
}

impl Config {
    /// The keys: the defaults with `[keys]` applied in order.
    pub fn keymap(&self) -> Keymap {
        let mut k = self.keymap_as_given();
        k.keep_a_way_out();
        k
    }

    /// The picker's keys: the defaults with `[picker.keys]` applied; a
    /// table that left no way out gets Ctrl-C back as quit.
    pub fn picker_keys(&self) -> crate::viewer::key::KeyTable<crate::picker::Action> {
        use crate::picker::Action;
        let mut k = crate::picker::keys::defaults();
        for (action, keys) in &self.picker_keys {
            k.rebind(action, keys);
        }
        if k.keys_of(&Action::Quit).next().is_none() && k.keys_of(&Action::Back).next().is_none() {
            k.rebind(&Action::Quit, &[crate::viewer::key::ctrl('c')]);
        }
        k
    }

    /// `ccv top`'s keys: the defaults with `[top.keys]` applied.
    pub fn top_keys(&self) -> crate::viewer::key::KeyTable<crate::top::keys::TopAction> {
        let mut k = crate::top::keys::defaults();
        for (action, keys) in &self.top_keys {
            k.rebind(action, keys);
        }
        k
    }

    fn keymap_as_given(&self) -> Keymap {
        let mut k = Keymap::default();
        for (action, keys) in &self.keys {
            k.rebind(action, keys);
        }
        k
    }

    /// The theme to draw with: `--theme` (`cli`) over `theme =`, `auto`
    /// asking the terminal; `[colors]` over it. With colour off, mono.
    /// Returns what could not be used too.
    pub fn theme(&self, cli: Option<&str>, color: bool) -> (Theme, Option<String>) {
        if !color {
            return (Theme::mono(), None);
        }
        let mut problem = None;
        let auto = || match crate::style::theme::background_is_light() {
            Some(true) => Theme::light(),
            _ => Theme::colored(),
        };
        let base = |name: &str| match name {
            "auto" => Some(auto()),
            n => Theme::builtin(n),
        };
        let name = cli.or(self.theme.as_deref()).unwrap_or("auto");
        let mut theme = match base(name) {
            Some(t) => t,
            None => match self.themes.iter().find(|t| t.name == name) {
                Some(u) => {
                    let mut t = base(&u.base).unwrap_or_else(Theme::colored);
                    for (k, st) in &u.styles {
                        t.set(k, *st);
                    }
                    t
                }
                None => {
                    problem = Some(format!(
                        "no theme `{}` (dark, light, mono, auto, or a [themes.NAME]): using auto",
                        one_line(name)
                    ));
                    auto()
                }
            },
        };
        for (k, st) in &self.colors {
            theme.set(k, *st);
        }
        (theme, problem)
    }

    /// Makes the config's prices the ones every cost uses, and its
    /// secret patterns join the redactor's.
    pub fn apply(&self) {
        if !self.redact.is_empty() {
            crate::redact::install(self.redact.clone());
        }
        // the bundled table, a fetched one over it (`ccv prices --update`),
        // the config's families over both
        let fetched = crate::prices::load_fetched();
        if fetched.is_some() || !self.prices.is_empty() {
            let mut t = PriceTable::bundled().clone();
            if let Some(f) = &fetched {
                t = t.with_fetched(f);
            }
            PriceTable::install(t.with_overrides(self.prices.iter().cloned()));
        }
    }
}

fn line_of(text: &str, byte: usize) -> usize {
    text.get(..byte).map_or(0, |t| t.matches('\n').count() + 1)
}

/// The first line naming each key (in an assignment, `key = ...`, or
/// in a table header, `[a.key]`), for messages: found in one pass over
/// the text, so a config of many keys is read in linear time.
struct KeyLines {
    first: std::collections::HashMap<String, usize>,
    /// Each key's line by its whole dotted path (`themes.b.inherits`): a
    /// name used in two tables is told apart there.
    paths: std::collections::HashMap<String, usize>,
}

impl KeyLines {
    fn of(text: &str) -> KeyLines {
        let mut first = std::collections::HashMap::new();
        let mut paths = std::collections::HashMap::new();
        let clean = |k: &str| {
            k.split('.')
                .map(|seg| seg.trim().trim_matches(|c| c == '"' || c == '\''))
                .collect::<Vec<_>>()
                .join(".")
        };
        let mut note = |k: &str, n: usize| {
            let k = k.trim().trim_matches(|c| c == '"' || c == '\'');
            if !k.is_empty() {
                first.entry(k.to_owned()).or_insert(n);
            }
        };
        let mut table = String::new();
        for (i, l) in text.lines().enumerate() {
            let l = l.trim_start();
            if let Some(h) = l.strip_prefix('[') {
                let h = h.trim_start_matches('[');
                let h = h.split(']').next().unwrap_or("");
                for seg in h.split('.') {
                    note(seg, i + 1);
                }
                table = clean(h);
                paths.entry(table.clone()).or_insert(i + 1);
            } else if let Some((k, _)) = l.split_once('=') {
                note(k.split('.').next_back().unwrap_or(k), i + 1);
                note(k, i + 1);
                let path = match table.as_str() {
                    "" => clean(k),
                    t => format!("{t}.{}", clean(k)),
                };
                paths.entry(path).or_insert(i + 1);
            }
        }
        KeyLines { first, paths }
    }

    /// The line of `key`; 1 when it cannot be found.
    fn of_key(&self, key: &str) -> usize {
        self.first.get(key).copied().unwrap_or(1)
    }

    /// The line of the key a message is about (its words before the
    /// first `: `, `themes.b.inherits: ...`), when that is a whole path.
    fn of_message(&self, what: &str) -> Option<usize> {
        let path = what.split(": ").next()?;
        self.paths.get(path).copied()
    }
}

fn one_line(s: &str) -> String {
    crate::model::text::term_line(s.trim()).replace('\n', " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key named alike in two tables is said at its own line.
    #[test]
    fn a_problem_is_said_at_its_own_tables_line() {
        let text = "theme = \"a\"\n[themes.a]\ninherits = \"b\"\n\n[themes.b]\ninherits = \"a\"\n[keys]\nq = \"nonsense\"\n";
        let (_, problems) = parse(text, "c.toml");
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(
            problems[0].starts_with("c.toml:3: themes.a.inherits"),
            "{problems:?}"
        );
        assert!(
            problems[1].starts_with("c.toml:6: themes.b.inherits"),
            "{problems:?}"
        );
        assert!(problems[2].starts_with("c.toml:8: keys.q"), "{problems:?}");
    }

    /// A pattern the redactor cannot compile its way (bytes, no Unicode
    /// classes) is left out and said at its own line; the others stay.
    #[test]
    fn a_redact_pattern_the_redactor_cannot_use_is_left_out_alone() {
        let (c, problems) = parse(
            "[redact]\ngreek = \"\\\\p{Greek}+\"\nticket = \"TKT-[0-9]{6}\"\n",
            "c.toml",
        );
        assert_eq!(c.redact.len(), 1, "{:?}", c.redact);
        assert_eq!(c.redact[0].0, "ticket");
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].starts_with("c.toml:2: redact.greek"),
            "{problems:?}"
        );
    }

    #[test]
    fn prices_override_and_defaults_fill_in() {
        let (c, problems) = parse(
            "[prices.claude-opus-4-5]\ninput = 4.0\noutput = 20.0\n\n[prices.my-model]\ninput = 1.0\noutput = 2.0\n",
            "config.toml",
        );
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(c.prices.len(), 2);
        let t = PriceTable::bundled().with_overrides(c.prices);
        let opus = t.find("claude-opus-4-5-20251101").expect("opus");
        assert_eq!(opus.rates.input, 4.0);
        assert_eq!(opus.rates.cache_read, 0.4);
        assert!(t.find("my-model").is_some());
        assert_ne!(t.fingerprint(), PriceTable::bundled().fingerprint());
    }

    /// A cloud's own id is no family of the page's: unpriced, until the
    /// config prices it under its whole id (as the README shows).
    #[test]
    fn a_clouds_model_id_is_priced_only_by_the_config() {
        let t = PriceTable::bundled();
        for id in [
            "us.anthropic.claude-opus-4-5-20251101-v1:0",
            "global.anthropic.claude-sonnet-4-5-20250929-v1:0",
            "claude-opus-4-5@20251101",
        ] {
            assert!(t.find(id).is_none(), "{id}");
        }
        let (c, problems) = parse(
            "[prices.\"us.anthropic.claude-opus-4-5-20251101-v1:0\"]\ninput = 5.5\noutput = 27.5\n",
            "config.toml",
        );
        assert!(problems.is_empty(), "{problems:?}");
        let t = t.with_overrides(c.prices);
        let bedrock = t.find("us.anthropic.claude-opus-4-5-20251101-v1:0");
        assert_eq!(bedrock.map(|p| p.rates.output), Some(27.5));
    }

    #[test]
    fn what_is_wrong_is_ignored_and_said_with_its_line() {
        let (c, problems) = parse(
            "colour = 3\n[prices.a]\ninput = 1.0\n[prices.b]\ninput = \"x\"\noutput = 1.0\n",
            "c.toml",
        );
        assert!(
            c.prices.is_empty(),
            "prices.a lacks output, b is not a number"
        );
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(
            problems[0].starts_with("c.toml:1: unknown setting `colour`"),
            "{problems:?}"
        );
        assert!(
            problems.iter().any(|p| p.contains("prices")),
            "{problems:?}"
        );
        let (_, broken) = parse("[prices\n", "c.toml");
        assert!(broken[0].starts_with("c.toml:1:"), "{broken:?}");
        assert!(broken[0].ends_with("using defaults"), "{broken:?}");
        let (_, negative) = parse("[prices.a]\ninput = -1.0\noutput = 1.0\n", "c.toml");
        assert!(negative[0].contains("prices.a"), "{negative:?}");
        // past any price there is, or no name: no price (a rate of 1e300
        // made the sums infinite)
        for (text, why) in [
            (
                "[prices.a]\ninput = 1e300\noutput = 1.0\n",
                "from 0 to 10000",
            ),
            (
                "[prices.a]\ninput = 1.0\noutput = 2.0\ncache_read = inf\n",
                "from 0 to 10000",
            ),
            (
                "[prices.a]\ninput = 1.0\noutput = 2.0\nlong_context = { above = 1, input = 1e9, output = 1.0 }\n",
                "from 0 to 10000",
            ),
            (
                "[prices.\" \"]\ninput = 1.0\noutput = 2.0\n",
                "name is empty",
            ),
        ] {
            let (c, said) = parse(text, "c.toml");
            assert!(c.prices.is_empty(), "{text}");
            assert!(said.iter().any(|s| s.contains(why)), "{text}: {said:?}");
        }
    }
}
