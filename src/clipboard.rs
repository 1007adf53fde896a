//! Copying to the clipboard: arboard, OSC 52, or a file. (Stub: see issue 5.)
