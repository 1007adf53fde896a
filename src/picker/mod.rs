//! The session picker and `ccv list`. (Stub: see issue 6.)
