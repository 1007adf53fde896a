//! Threads that yield the cores to the ones a person waits for. Linux
//! gives each thread a nice value of its own, which the threads it starts
//! inherit; raising one's own needs no privilege, and where it fails (or
//! elsewhere: no thread has a priority of its own) nothing changes.

/// Work done ahead for a thread that waits on it (the decoders of a
/// load, whose ingest everything waits for): a tenth of a contended core.
pub fn helper() {
    lower_to(10);
}

/// Work nobody waits for (the search index built on the side): what the
/// cores leave over, however long it then takes.
pub fn background() {
    lower_to(19);
}

fn lower_to(nice: libc::c_int) {
    #[cfg(target_os = "linux")]
    // SAFETY: plain system calls on this thread's own id
    unsafe {
        let tid = libc::gettid();
        if let Ok(tid) = libc::id_t::try_from(tid) {
            libc::setpriority(libc::PRIO_PROCESS, tid, nice);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = nice;
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    /// The nice value is the thread's own: the thread that lowered itself
    /// runs at it, and so do the threads it starts; the others do not.
    #[test]
    fn a_thread_lowers_itself_and_what_it_starts_only() {
        let nice = || unsafe {
            // SAFETY: a plain system call on this thread's own id
            libc::getpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t)
        };
        let before = nice();
        let (mine, child) = std::thread::spawn(move || {
            super::background();
            (nice(), std::thread::spawn(nice).join().expect("child"))
        })
        .join()
        .expect("thread");
        assert_eq!((mine, child), (19, 19));
        assert_eq!(nice(), before);
    }
}
