//! The backend's bytes played on a model of a terminal that measures
//! some clusters otherwise than ccv's buffer does: every cell must land
//! where the buffer put it, and nothing drawn before may stay.

use super::*;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget};
use unicode_segmentation::UnicodeSegmentation;
use unicode_width::UnicodeWidthStr;

/// A grid of clusters, each with the columns the terminal gave it (0: the
/// second column of a wide one).
struct Terminal {
    w: usize,
    cells: Vec<Vec<(String, usize)>>,
    x: usize,
    y: usize,
}

impl Terminal {
    fn new(w: usize, h: usize) -> Terminal {
        Terminal {
            w,
            cells: vec![vec![(" ".to_owned(), 1); w]; h],
            x: 0,
            y: 0,
        }
    }

    /// Plays what the backend wrote: cursor moves, colours (passed over)
    /// and text, each cluster in the cells `model` makes of it.
    fn play(&mut self, bytes: &[u8], model: Model) {
        let text = String::from_utf8_lossy(bytes);
        let mut rest: &str = &text;
        while !rest.is_empty() {
            if let Some(seq) = rest.strip_prefix("\u{1b}[") {
                let end = seq
                    .find(|c: char| c.is_ascii_alphabetic())
                    .expect("a CSI ends");
                if &seq[end..=end] == "H" {
                    let mut p = seq[..end]
                        .split(';')
                        .map(|n| n.parse::<usize>().unwrap_or(1));
                    self.y = p.next().unwrap_or(1) - 1;
                    self.x = p.next().unwrap_or(1) - 1;
                }
                rest = &seq[end + 1..];
                continue;
            }
            let at = rest.find('\u{1b}').unwrap_or(rest.len());
            for g in rest[..at].graphemes(true) {
                for (part, w) in model(g) {
                    self.put(&part, w);
                }
            }
            rest = &rest[at..];
        }
    }

    /// A cluster written at the cursor, as tmux writes one: what it
    /// lands on is cleared whole (a wide cluster half overwritten goes).
    fn put(&mut self, g: &str, w: usize) {
        let (x, y) = (self.x, self.y);
        if x >= self.w {
            return;
        }
        for k in x..(x + w.max(1)).min(self.w) {
            self.clear(k, y);
        }
        self.cells[y][x] = (g.to_owned(), w);
        for k in x + 1..(x + w).min(self.w) {
            self.cells[y][k] = (String::new(), 0);
        }
        self.x += w;
    }

    fn clear(&mut self, x: usize, y: usize) {
        let row = &mut self.cells[y];
        let mut head = x;
        while head > 0 && row[head].1 == 0 {
            head -= 1;
        }
        let w = row[head].1.max(1);
        let end = (head + w).min(self.w);
        row[head..end].fill((" ".to_owned(), 1));
    }
}

/// How a terminal makes cells of a cluster: each part and its columns.
type Model = &'static dyn Fn(&str) -> Vec<(String, usize)>;

/// The terminal shows the buffer: over each cell's columns, the
/// terminal holds that cell's cluster and nothing else (nothing left of
/// an earlier frame), or with `loose` (a terminal that measures some
/// clusters otherwise) a part of it, or nothing, when the cluster is one
/// of uncertain width.
fn shows(t: &Terminal, buf: &Buffer, loose: bool) -> Result<(), String> {
    for y in 0..buf.area.height {
        let mut x = 0;
        while x < buf.area.width {
            let want = buf[(x, y)].symbol();
            let w = want.width().max(1) as u16;
            let got: String = (x..(x + w).min(buf.area.width))
                .map(|c| t.cells[y as usize][c as usize].0.as_str())
                .collect::<String>()
                .replace(' ', "");
            let want_bare = want.replace(' ', "");
            let ok = got == want_bare
                || (loose && uncertain(want) && want_bare.starts_with(got.as_str()));
            if !ok {
                let row: String = t.cells[y as usize].iter().map(|c| c.0.as_str()).collect();
                return Err(format!("({x}, {y}): {got:?} where {want:?}: {row}"));
            }
            x += w;
        }
    }
    Ok(())
}

/// What a backend wrote, kept for the test to read.
#[derive(Clone, Default)]
struct Shared(std::rc::Rc<std::cell::RefCell<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn frame(lines: &[&str], area: Rect) -> Buffer {
    let mut b = Buffer::empty(area);
    let text: Vec<Line<'_>> = lines.iter().map(|l| Line::raw(*l)).collect();
    Paragraph::new(text).render(area, &mut b);
    b
}

/// Rows of a session scrolled one at a time under a live tail: frames
/// of `rows` drawn in turn, each after the one before.
fn scrolled(rows: &[&str], h: usize) -> Vec<Vec<String>> {
    (0..rows.len().saturating_sub(h) + 1)
        .map(|top| {
            rows[top..(top + h).min(rows.len())]
                .iter()
                .map(|r| r.to_string())
                .collect()
        })
        .collect()
}

const ROWS: &[&str] = &[
    "Emoji such as 👩‍💻 and 🇯🇵 are measured as width 2 now ✅ done",
    "⚠️ Unreadable line 1894 · see the log",
    "🇯🇵",
    "🇯🇵 a flag first, then a row that has a blank where it ended",
    "x  the blank after the x is where the flag's second half was",
    "   🇫🇷 and 👍🏽 ⚠️",
    "… 1 more line",
    "What does `AppState` do? Explain it to me like I'm new.",
    "2 tool calls · Write · Bash ✍ noted · ✔️ ok",
    "漢字 wide and 👍🏽 toned, 🛠️ tools, 🇫🇷🇯🇵 flags, e\u{301}clair",
    "plain ascii text that runs along the whole of the row here",
    "private use \u{e0a0} icons and ❤️ and ☀️ weather",
    "the end of the session",
    "",
];

/// Plays every frame of [`ROWS`] scrolled, on a terminal whose widths
/// are `width`; the first frame that does not show.
fn play_all(model: Model, loose: bool, placed: bool) -> Result<(), String> {
    let area = Rect::new(0, 0, 64, 4);
    let mut t = Terminal::new(64, 4);
    let mut prev = Buffer::empty(area);
    let out = Shared::default();
    let (mut ours, mut theirs) = (
        Placed::sized(out.clone(), 64, 4),
        CrosstermBackend::new(out.clone()),
    );
    for (i, lines) in scrolled(ROWS, 4).iter().enumerate() {
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        let next = frame(&refs, area);
        let diff = prev.diff(&next);
        match placed {
            true => ours.draw(diff.into_iter()).expect("draws"),
            false => theirs.draw(diff.into_iter()).expect("draws"),
        }
        t.play(&std::mem::take(&mut *out.0.borrow_mut()), model);
        shows(&t, &next, loose).map_err(|e| format!("frame {i}: {e}"))?;
        prev = next;
    }
    Ok(())
}

/// A terminal that measures as the buffer does.
fn as_buffer(g: &str) -> Vec<(String, usize)> {
    vec![(g.to_owned(), g.width())]
}

/// tmux 3.3: an emoji with its selector takes one column, as its symbol
/// alone does; a flag is two cells of one column, a skin tone a cell of
/// its own after its emoji.
fn tmux_3_3(g: &str) -> Vec<(String, usize)> {
    let regional = |c: char| ('\u{1f1e6}'..='\u{1f1ff}').contains(&c);
    let tone = |c: char| ('\u{1f3fb}'..='\u{1f3ff}').contains(&c);
    if g.chars().count() > 1 && g.chars().all(regional) {
        return g.chars().map(|c| (c.to_string(), 1)).collect();
    }
    if let Some(at) = g.find(tone) {
        let (base, rest) = g.split_at(at);
        return vec![(base.to_owned(), base.width()), (rest.to_owned(), 2)];
    }
    vec![(g.to_owned(), g.trim_end_matches('\u{fe0f}').width())]
}

/// A terminal that draws every emoji-like symbol two columns wide, even
/// those the buffer measures as one (`✍`, a lone regional indicator).
fn wide_symbols(g: &str) -> Vec<(String, usize)> {
    let w = if uncertain(g) {
        g.width().max(2)
    } else {
        g.width()
    };
    vec![(g.to_owned(), w)]
}

#[test]
fn a_terminal_that_measures_as_the_buffer_shows_every_frame() {
    play_all(&as_buffer, false, true).expect("the buffer's widths");
}

#[test]
fn tmux_3_3_shows_every_frame_with_nothing_left_of_the_last() {
    play_all(&tmux_3_3, true, true).expect("tmux 3.3");
    // what crossterm's backend alone leaves: stray halves of flags
    let left = play_all(&tmux_3_3, true, false).expect_err("crossterm's backend");
    assert!(left.contains('\u{1f1f5}'), "{left}");
}

#[test]
fn a_terminal_that_draws_a_cluster_wider_keeps_every_other_cell_in_place() {
    play_all(&wide_symbols, true, true).expect("wider");
    assert!(play_all(&wide_symbols, true, false).is_err());
}

#[test]
fn what_is_uncertain() {
    for s in [
        "⚠️",
        "👩‍💻",
        "🇯🇵",
        "🇵",
        "✍",
        "👍🏽",
        "\u{e0a0}",
        "e\u{301}",
        "⏱",
        "✅",
    ] {
        assert!(uncertain(s), "{s}");
    }
    for s in ["a", "漢", "─", "│", "●", "▸", "∴", "→", "…", "é"] {
        assert!(!uncertain(s), "{s}");
    }
}

/// Frames of rows made at random of the clusters terminals measure
/// otherwise, each drawn over the last: every model shows each one.
#[test]
fn random_frames_show_on_every_terminal() {
    const PARTS: &[&str] = &[
        "a",
        "b",
        " ",
        "  ",
        "漢",
        "🇯🇵",
        "🇵",
        "⚠️",
        "👍🏽",
        "✍",
        "👩‍💻",
        "e\u{301}",
        "─",
        "\u{e0a0}",
        "✅",
        "x",
    ];
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let area = Rect::new(0, 0, 16, 3);
    for (name, model, loose) in [
        ("as the buffer", &as_buffer as Model, false),
        ("tmux 3.3", &tmux_3_3, true),
        ("wider", &wide_symbols, true),
    ] {
        for round in 0..200 {
            let out = Shared::default();
            let mut ours = Placed::sized(out.clone(), 16, 3);
            let mut t = Terminal::new(16, 3);
            let mut prev = Buffer::empty(area);
            for f in 0..6 {
                let rows: Vec<String> = (0..3)
                    .map(|_| (0..next(10)).map(|_| PARTS[next(PARTS.len())]).collect())
                    .collect();
                let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
                let frame = frame(&refs, area);
                ours.draw(prev.diff(&frame).into_iter()).expect("draws");
                t.play(&std::mem::take(&mut *out.0.borrow_mut()), model);
                if let Err(e) = shows(&t, &frame, loose) {
                    panic!("{name}, round {round}, frame {f}: {e}\n{rows:?}");
                }
                prev = frame;
            }
        }
    }
}
