//! Live follow: watching session files and feeding appended bytes to the
//! model. (Stub: see issue 4.)
