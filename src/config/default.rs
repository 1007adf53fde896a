//! `ccv config --default`: a config with every setting at its default,
//! written from the same tables ccv runs on (the keymap, the theme's
//! styles), so it never falls behind them.

use crate::style::theme::Theme;
use crate::viewer::action::NAMED;
use crate::viewer::keymap::Keymap;
use std::fmt::Write;

pub fn default_text() -> String {
    let mut s = String::from(
        "# ccv's config: $XDG_CONFIG_HOME/ccv/config.toml or ~/.config/ccv/config.toml\n\
         # (or ccv --config PATH). Every setting is optional; what is wrong is\n\
         # reported with its line and ignored, and ccv starts with the rest.\n\n\
         # auto (the terminal's background decides), dark, light, mono, or a [themes.NAME]\n\
         theme = \"auto\"\n\
         # false: the terminal's own selection works (M toggles it in the viewer)\n\
         mouse = true\n\
         # unicode, or ascii: | - * ~ in place of │ ─ ● … (a terminal that draws\n\
         # East Asian ambiguous characters two columns wide)\n\
         glyphs = \"unicode\"\n\
         # what y / Y / v copy: text ([User] ... labels) or markdown\n\
         copy_format = \"text\"\n\
         # where e writes markdown (default: $XDG_STATE_HOME/ccv/exports)\n\
         # export_dir = \"~/notes/sessions\"\n\
         # the picker's first order: newest, cost or size (Tab cycles)\n\
         picker_sort = \"newest\"\n\n\
         # what a session opens with (t T s ! change them)\n\
         [filters]\n\
         tools = true\n\
         thinking = true\n\
         meta = false\n\
         errors = false\n\n\
         # action = \"key\" or [\"key\", ...]; [] unbinds. A key given to an action is\n\
         # taken from the one that had it. Keys: a character, Ctrl-x, Enter, Esc, Tab,\n\
         # Space, Backspace, Up, Down, Left, Right, Home, End, PgUp, PgDn, F1-F12.\n\
         [keys]\n",
    );
    let keys = Keymap::default();
    for (name, action) in NAMED {
        let bound: Vec<String> = keys
            .keys_of(action)
            .map(|k| format!("{:?}", k.config_name()))
            .collect();
        let _ = writeln!(s, "{name} = [{}]", bound.join(", "));
    }
    let list = |keys: &[crate::viewer::key::Key]| {
        keys.iter()
            .map(|k| format!("{:?}", k.config_name()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    s.push_str(
        "\n# The picker's keys (typing and the filter's editing keys are not here)\n\
         [picker.keys]\n",
    );
    for (name, _, keys, does) in crate::picker::keys::KEYS {
        let _ = writeln!(s, "{name} = [{}]  # {does}", list(keys));
    }
    s.push_str(
        "\n# Styles over the theme: \"FG\", \"FG on BG\", \"on BG\", and bold dim italic\n\
         # underlined reversed. Colours: names (red, lightblue, darkgray), #rrggbb, 0-255.\n\
         [colors]\n",
    );
    let mut dark = Theme::colored();
    for (name, _) in dark.styles_mut() {
        let _ = writeln!(s, "# {name} = \"…\"");
    }
    s.push_str(
        "\n# A theme of your own, chosen with theme = \"mine\":\n\
         # [themes.mine]\n\
         # base = \"light\"\n\
         # user = \"#005f87 bold\"\n\n\
         # ccv top: sessions written within this many minutes; ring the bell or set\n\
         # the terminal's title when a session starts waiting for you\n\
         [top]\n\
         minutes = 30\n\
         bell = false\n\
         title = false\n",
    );
    s.push_str("\n# its keys\n[top.keys]\n");
    for (name, _, keys, does) in crate::top::keys::KEYS {
        let _ = writeln!(s, "{name} = [{}]  # {does}", list(keys));
    }
    s.push_str(
        "\n# Secrets of your own for --redact and # (kind = \"regular expression\"):\n\
         # [redact]\n\
         # internal-host = \"[a-z0-9-]+\\\\.corp\\\\.example\\\\.com\"\n\n\
         # Prices in USD per million tokens, over the bundled table, by model family.\n\
         # Cache rates left out are 1.25x (5 min write), 2x (1 h write), 0.1x (read) the input.\n\
         # [prices.claude-opus-4-5]\n\
         # input = 5.0\n\
         # output = 25.0\n\
         # [prices.claude-opus-4-5.long_context]\n\
         # above = 200000\n\
         # input = 10.0\n\
         # output = 37.5\n",
    );
    s
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_default_config_reads_back_without_a_problem() {
        let text = super::default_text();
        let (c, problems) = super::super::parse(&text, "default");
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(c.keys.len(), super::NAMED.len());
        assert_eq!(c.picker_keys.len(), crate::picker::keys::KEYS.len());
        assert_eq!(c.top_keys.len(), crate::top::keys::KEYS.len());
        // the picker's and top's as given are their defaults
        let picker = crate::picker::keys::defaults();
        for (_, a, ..) in crate::picker::keys::KEYS {
            let given: Vec<_> = c.picker_keys().keys_of(a).collect();
            assert_eq!(given, picker.keys_of(a).collect::<Vec<_>>(), "{a:?}");
        }
        // binding every action to its default keys changes nothing
        let help = crate::viewer::keymap::Keymap::default().help();
        assert_eq!(c.keymap().help(), help);
    }
}
