//! The style layer under every screen and page: the theme (every colour in
//! one place), colours and cells fitted to the terminal, syntax
//! highlighting, ASCII for the symbols when asked, and the one-line
//! prompt. The view, the picker, `ccv top`
//! and the HTML page draw with it; it knows none of them.

pub mod color;
pub mod frame;
pub mod glyphs;
pub mod highlight;
pub mod prompt_line;
pub mod theme;
