//! Timestamps: Claude Code writes `2025-10-12T21:35:53.825Z`; anything else
//! RFC 3339 goes through jiff.

/// Milliseconds since the Unix epoch.
pub fn parse_timestamp(s: &str) -> Option<i64> {
    fast_iso(s.as_bytes()).or_else(|| {
        s.parse::<jiff::Timestamp>()
            .ok()
            .map(|t| t.as_millisecond())
    })
}

fn fast_iso(b: &[u8]) -> Option<i64> {
    // YYYY-MM-DDTHH:MM:SS[.fff]Z, its minute most often the line before's
    // (every line of a session has a time, and reading the date and the
    // hour again was 2% of a cold listing)
    thread_local! {
        static MINUTE: std::cell::Cell<([u8; 16], i64)> =
            const { std::cell::Cell::new((*b"1970-01-01T00:00", 0)) };
    }
    let head = b.first_chunk::<16>()?;
    let (known, at) = MINUTE.with(std::cell::Cell::get);
    let minute = if known == *head {
        at
    } else {
        let at = minute_of(head)?;
        MINUTE.with(|m| m.set((*head, at)));
        at
    };
    if b.len() < 20 || b[16] != b':' {
        return None;
    }
    let s = two_digits(b[17], b[18])?;
    let mut ms = 0;
    let mut i = 19;
    if b[i] == b'.' {
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let digits = &b[start..i];
        // (jiff reads 1 to 9 digits; any other count is left to it)
        if !(1..=9).contains(&digits.len()) {
            return None;
        }
        for k in 0..3 {
            ms = ms * 10 + digits.get(k).map_or(0, |c| (c - b'0') as i64);
        }
    }
    // a leap second is left to jiff, which reads it as :59
    if i != b.len() - 1 || b[i] != b'Z' || s > 59 {
        return None;
    }
    Some(minute + s * 1000 + ms)
}

/// The milliseconds of `YYYY-MM-DDTHH:MM`, checked.
fn minute_of(b: &[u8; 16]) -> Option<i64> {
    if b[4] != b'-' || b[7] != b'-' || b[10] != b'T' || b[13] != b':' {
        return None;
    }
    let y = two_digits(b[0], b[1])? * 100 + two_digits(b[2], b[3])?;
    let (mo, d) = (two_digits(b[5], b[6])?, two_digits(b[8], b[9])?);
    let (h, mi) = (two_digits(b[11], b[12])?, two_digits(b[14], b[15])?);
    // (a day past its month's end, and the last year, whose end jiff
    // cannot hold, are left to jiff: what it reads, ccv reads)
    if !(1..=12).contains(&mo) || d < 1 || d > 28 && d > days_in(y, mo) || h > 23 || mi > 59 {
        return None;
    }
    // (before 1970 jiff rounds a part of a millisecond towards zero)
    if !(1970..9999).contains(&y) {
        return None;
    }
    Some((days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60) * 1000)
}

/// The days of month `m` (1 to 12) of year `y`.
fn days_in(y: i64, m: i64) -> i64 {
    match m {
        2 if y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

fn two_digits(a: u8, b: u8) -> Option<i64> {
    (a.is_ascii_digit() && b.is_ascii_digit())
        .then(|| i64::from(a - b'0') * 10 + i64::from(b - b'0'))
}

// Howard Hinnant's days_from_civil.
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

/// `2025-10-12T21:35:53.825Z`, or nothing past what jiff can represent.
/// Written here from 1970 on (every row of a JSON export has one, and
/// jiff's `strftime` was a twentieth of the export's writing); by jiff
/// before.
pub fn format_iso(ms: i64) -> String {
    if (0..=jiff::Timestamp::MAX.as_millisecond()).contains(&ms) {
        let (days, ms_of_day) = (ms / 86_400_000, ms % 86_400_000);
        let (y, m, d) = civil_from_days(days);
        let (h, mi) = (ms_of_day / 3_600_000, ms_of_day / 60_000 % 60);
        let (sec, milli) = (ms_of_day / 1000 % 60, ms_of_day % 1000);
        let mut out = [0u8; 24];
        let mut put = |at: usize, v: i64, width: usize| {
            let mut v = v;
            for k in (at..at + width).rev() {
                out[k] = b'0' + (v % 10) as u8;
                v /= 10;
            }
        };
        put(0, y, 4);
        put(5, m, 2);
        put(8, d, 2);
        put(11, h, 2);
        put(14, mi, 2);
        put(17, sec, 2);
        put(20, milli, 3);
        for (at, c) in [
            (4, b'-'),
            (7, b'-'),
            (10, b'T'),
            (13, b':'),
            (16, b':'),
            (19, b'.'),
            (23, b'Z'),
        ] {
            out[at] = c;
        }
        return String::from_utf8_lossy(&out).into_owned();
    }
    match jiff::Timestamp::from_millisecond(ms) {
        Ok(t) => t.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string(),
        Err(_) => String::new(),
    }
}

/// The (year, month, day) of a count of days since 1970-01-01, in the
/// proleptic Gregorian calendar (Howard Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// `850ms`, `12.3s`, `2m31s`, `1h10m`, `47h59m`, then days: `118d09h`.
pub fn human_duration(ms: u64) -> String {
    const HOUR: u64 = 3_600_000;
    if ms < 1000 {
        format!("{ms}ms")
    } else if ms < 60_000 {
        format!("{:.1}s", ms as f64 / 1000.0)
    } else if ms < 3_600_000 {
        format!("{}m{:02}s", ms / 60_000, (ms / 1000) % 60)
    } else if ms < 48 * HOUR {
        format!("{}h{:02}m", ms / HOUR, (ms / 60_000) % 60)
    } else {
        format!("{}d{:02}h", ms / (24 * HOUR), (ms / HOUR) % 24)
    }
}

/// The user's time zone as jiff finds it (`TZ`, else the system's),
/// found once. A `TZ` that names a file jiff would read whole but that is
/// no time zone file (a device such as `/dev/zero`, a FIFO, or a file
/// larger than any zone's) is not read: UTC, as for a `TZ` jiff cannot
/// read. jiff reads such a file to its end, so `TZ=/dev/zero` made
/// `ccv stats --by day` read for ever.
pub fn local_tz() -> jiff::tz::TimeZone {
    static TZ: std::sync::OnceLock<jiff::tz::TimeZone> = std::sync::OnceLock::new();
    TZ.get_or_init(|| match std::env::var_os("TZ") {
        Some(v) if !tz_file_is_sane(&v) => jiff::tz::TimeZone::UTC,
        Some(_) => jiff::tz::TimeZone::system(),
        None => read_localtime(std::path::Path::new(LOCALTIME))
            .unwrap_or_else(jiff::tz::TimeZone::system),
    })
    .clone()
}

/// The system's zone when `TZ` is unset (as jiff reads it too).
const LOCALTIME: &str = "/etc/localtime";

/// The zone of a link to a TZif file such as `/etc/localtime`, named as
/// jiff names it: by the part of the link's target after `zoneinfo/`.
/// jiff looked that name up in the system's zone database, which it
/// first lists whole (600 files in 60 folders: 0.6 ms, a tenth of the
/// viewer's first frame). `None` where jiff is left to find the zone: no
/// such link, or no zone's file where it points.
fn read_localtime(path: &std::path::Path) -> Option<jiff::tz::TimeZone> {
    use std::io::Read;
    let link = std::fs::read_link(path).ok()?;
    let (_, name) = link.to_str()?.rsplit_once("zoneinfo/")?;
    if name.is_empty() {
        return None;
    }
    // (a FIFO would block, a device never end)
    let f = super::session::open_regular(path).ok()?;
    let meta = f.metadata().ok()?;
    if meta.len() > 1 << 20 {
        return None;
    }
    let mut data = Vec::with_capacity(meta.len() as usize);
    f.take(1 << 20).read_to_end(&mut data).ok()?;
    jiff::tz::TimeZone::tzif(name, &data).ok()
}

/// Whether `TZ`'s value, read as a path (a leading `:` dropped, relative
/// to the working directory as jiff reads it), is no file, or one small
/// and regular enough to be a zone's (TZif files are a few KB).
fn tz_file_is_sane(tz: &std::ffi::OsStr) -> bool {
    let tz = tz.to_string_lossy();
    match std::fs::metadata(tz.strip_prefix(':').unwrap_or(&tz)) {
        Ok(m) => m.is_file() && m.len() <= 1 << 20,
        // a zone's name or a rule (`Europe/Paris`, `EST5EDT`)
        Err(_) => true,
    }
}

/// Now, as a date and time in the user's time zone (see [`local_tz`]).
pub fn local_now() -> jiff::Zoned {
    jiff::Timestamp::now().to_zoned(local_tz())
}

/// Milliseconds since the Unix epoch, now (0 if the clock is before it).
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// How far after this clock a file's time may be and still be now: the
/// clock of a network file system drifts by seconds, while a time days
/// ahead (a file touched to a later date, copied from a machine whose
/// clock was wrong) is no write of lately.
pub const SKEW_MS: i64 = 5 * 60_000;

/// Whether time `t` is at most `window_ms` before `now_ms` (and at most
/// [`SKEW_MS`] after it).
pub fn within(now_ms: i64, t: i64, window_ms: i64) -> bool {
    (-SKEW_MS..=window_ms).contains(&now_ms.saturating_sub(t))
}

/// `just now`, `2 min ago`, `3 h ago`, `yesterday`, `5 days ago`, then the date.
pub fn relative_time(now_ms: i64, ms: i64) -> String {
    let secs = now_ms.saturating_sub(ms) / 1000;
    match secs {
        s if s < 60 => "just now".to_owned(),
        s if s < 3600 => format!("{} min ago", s / 60),
        s if s < 86_400 => format!("{} h ago", s / 3600),
        s if s < 2 * 86_400 => "yesterday".to_owned(),
        s if s < 30 * 86_400 => format!("{} days ago", s / 86_400),
        _ => format_iso(ms).get(..10).unwrap_or("").to_owned(),
    }
}

/// `--since`: a date (`2026-11-01`, local midnight) or a span back from
/// now (`7d`, `2w`, `12h`).
pub fn parse_since(s: &str, now_ms: i64, tz: &jiff::tz::TimeZone) -> Result<i64, String> {
    let s = s.trim();
    if let Some((n, unit)) = s
        .find(|c: char| !c.is_ascii_digit())
        .filter(|&p| p > 0)
        .map(|p| s.split_at(p))
        && let Ok(n) = n.parse::<i64>()
    {
        let hour = 3_600_000;
        let ms = match unit {
            "h" => hour,
            "d" => 24 * hour,
            "w" => 7 * 24 * hour,
            _ => 0,
        };
        if ms > 0 {
            return Ok(now_ms.saturating_sub(n.saturating_mul(ms)));
        }
    }
    let date: jiff::civil::Date = s
        .parse()
        .map_err(|_| format!("{s:?} is not a date (YYYY-MM-DD) or a span (7d, 2w, 12h)"))?;
    match date.to_zoned(tz.clone()) {
        Ok(z) => Ok(z.timestamp().as_millisecond()),
        // the last days of year 9999 are past the last instant a clock
        // holds: after every entry, so none is since
        Err(_) if date.year() == 9999 => Ok(i64::MAX),
        Err(e) => Err(e.to_string()),
    }
}

#[cfg(test)]
mod localtime_tests {
    use super::read_localtime;
    use std::os::unix::fs::symlink;

    /// The system's zone read off its link is the zone jiff finds by the
    /// link's name, at every instant; what is no link to a zone's file is
    /// left to jiff.
    #[test]
    fn the_zone_a_link_names_is_the_zone_jiff_finds_by_that_name() {
        let zones = std::path::Path::new("/usr/share/zoneinfo");
        let dir = tempfile::tempdir().expect("tempdir");
        let mut read = 0;
        for name in [
            "Europe/Paris",
            "America/St_Johns",
            "Asia/Kolkata",
            "Australia/Lord_Howe",
            "Etc/UTC",
        ] {
            let Ok(data) = std::fs::read(zones.join(name)) else {
                continue;
            };
            let file = dir.path().join("share/zoneinfo").join(name);
            std::fs::create_dir_all(file.parent().expect("parent")).expect("mkdir");
            std::fs::write(&file, &data).expect("write");
            let link = dir.path().join(format!("localtime-{read}"));
            symlink(&file, &link).expect("symlink");
            let ours = read_localtime(&link).expect("a zone");
            let theirs = jiff::tz::TimeZone::tzif(name, &data).expect("tzif");
            assert_eq!(ours.iana_name(), Some(name));
            for t in (-2_000_000_000i64..4_000_000_000).step_by(7_777_777) {
                let t = jiff::Timestamp::from_second(t).expect("instant");
                assert_eq!(ours.to_offset(t), theirs.to_offset(t), "{name} at {t}");
            }
            read += 1;
        }
        if read == 0 {
            eprintln!("SKIP: no zone files in {}", zones.display());
        }
        // a file, not a link; a link to no zone's file, to a FIFO, to
        // nothing, or to a path without `zoneinfo/`
        let plain = dir.path().join("plain");
        std::fs::write(&plain, b"TZif").expect("write");
        assert!(read_localtime(&plain).is_none());
        let bad = dir.path().join("share/zoneinfo/Bad/Zone");
        std::fs::create_dir_all(bad.parent().expect("parent")).expect("mkdir");
        std::fs::write(&bad, b"not a zone").expect("write");
        let fifo = dir.path().join("share/zoneinfo/Fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        for (i, target) in [bad, fifo, dir.path().join("share/zoneinfo/None"), plain]
            .iter()
            .enumerate()
        {
            if i == 1 && !made.as_ref().is_ok_and(|s| s.success()) {
                continue;
            }
            let link = dir.path().join(format!("odd-{i}"));
            symlink(target, &link).expect("symlink");
            assert!(read_localtime(&link).is_none(), "{}", target.display());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_date_past_the_last_instant_is_after_every_entry() {
        let utc = jiff::tz::TimeZone::UTC;
        assert_eq!(parse_since("9999-12-31", 0, &utc), Ok(i64::MAX));
        let ms = parse_since("2026-11-01", 0, &utc).expect("a date");
        assert_eq!(format_iso(ms), "2026-11-01T00:00:00.000Z");
        assert!(parse_since("2026-13-01", 0, &utc).is_err());
    }

    #[test]
    fn parses_and_formats() {
        let ms = parse_timestamp("2025-10-12T21:35:53.825Z").expect("parses");
        assert_eq!(format_iso(ms), "2025-10-12T21:35:53.825Z");
        assert_eq!(
            parse_timestamp("2025-10-12T21:35:53Z")
                .map(format_iso)
                .as_deref(),
            Some("2025-10-12T21:35:53.000Z")
        );
        assert_eq!(parse_timestamp("2025-10-12T23:35:53.825+02:00"), Some(ms));
        assert_eq!(parse_timestamp("yesterday"), None);
        assert_eq!(human_duration(151_000), "2m31s");
        assert_eq!(human_duration(47 * 3_600_000 + 59 * 60_000), "47h59m");
        assert_eq!(human_duration(48 * 3_600_000), "2d00h");
        assert_eq!(human_duration(2841 * 3_600_000 + 41 * 60_000), "118d09h");
        assert!(!human_duration(u64::MAX).is_empty());
    }

    /// What jiff writes, for the days around every edge of the calendar
    /// (leap days, years of 100 and 400) and a spread of other instants.
    #[test]
    fn formats_as_jiff_does() {
        let jiff = |ms: i64| {
            jiff::Timestamp::from_millisecond(ms)
                .map(|t| t.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string())
                .unwrap_or_default()
        };
        let day = 86_400_000i64;
        let mut cases = vec![
            0,
            1,
            999,
            day - 1,
            -1,
            -day,
            253_402_300_799_999,
            253_402_300_800_000,
        ];
        for year_start in [
            "2000-01-01",
            "2100-01-01",
            "2024-01-01",
            "1972-01-01",
            "9999-01-01",
        ] {
            let t = parse_timestamp(&format!("{year_start}T00:00:00Z")).expect("parses");
            cases.extend((-400..400).map(|k| t + k * day + k * 7_919));
        }
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            cases.push((x % 260_000_000_000_000) as i64 - 4_000_000_000_000);
        }
        for ms in cases {
            assert_eq!(format_iso(ms), jiff(ms), "{ms}");
        }
    }
}

#[cfg(test)]
mod recent {
    /// A time a little ahead of the clock is now; one days ahead is not.
    #[test]
    fn a_time_far_ahead_of_the_clock_is_not_recent() {
        let now = 1_800_000_000_000;
        let window = 60_000;
        assert!(super::within(now, now, window));
        assert!(super::within(now, now - window, window));
        assert!(!super::within(now, now - window - 1, window));
        assert!(super::within(now, now + 30_000, window), "a clock's drift");
        assert!(!super::within(now, now + 86_400_000, window));
        assert!(!super::within(now, i64::MAX, window));
        assert!(!super::within(now, i64::MIN, window));
    }
}

#[cfg(test)]
mod zone_file {
    use std::ffi::OsStr;

    /// What `TZ` may name for jiff to read: a zone's name or rule, or a
    /// small regular file; not a folder, a device or a huge file.
    #[test]
    fn only_a_small_regular_file_is_read_as_a_zone() {
        let dir = tempfile::tempdir().expect("tempdir");
        let small = dir.path().join("Zone");
        std::fs::write(&small, b"TZif2").expect("write");
        let huge = dir.path().join("Huge");
        std::fs::File::create(&huge)
            .and_then(|f| f.set_len(64 << 20))
            .expect("a sparse file");
        let sane = |p: &std::path::Path| super::tz_file_is_sane(p.as_os_str());
        assert!(sane(&small));
        assert!(super::tz_file_is_sane(
            format!(":{}", small.display()).as_ref()
        ));
        assert!(!sane(&huge));
        assert!(!sane(dir.path()));
        for name in ["Europe/Paris", "EST5EDT", "<+14>-14", ":Asia/Tokyo", ""] {
            assert!(super::tz_file_is_sane(OsStr::new(name)), "{name}");
        }
        #[cfg(unix)]
        assert!(!super::tz_file_is_sane(OsStr::new("/dev/zero")));
    }
}

#[cfg(test)]
mod jiff_agrees {
    /// Every string of the fast form reads as jiff reads it: the same
    /// instant, or none (a day past its month's end, a leap second, the
    /// last year, too many digits), with the minute of the time before
    /// kept or not.
    #[test]
    fn the_fast_parse_reads_what_jiff_reads() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let bases = [
            "2025-10-12T21:35:53.825Z",
            "2026-02-28T23:59:59Z",
            "2024-02-29T23:59:60.1Z",
            "2023-02-29T10:00:00Z",
            "2026-04-31T10:00:00Z",
            "1900-02-29T00:00:00Z",
            "2000-02-29T00:00:00Z",
            "1999-12-31T00:00:00.123456Z",
            "9999-12-31T23:59:59.999Z",
            "9999-12-30T21:59:59.999Z",
            "0000-01-01T00:00:00Z",
            "2025-10-12T21:35:53.Z",
            "2025-10-12T21:35:53.1234567891Z",
        ];
        let bytes = b"0123456789-T:.Z x";
        let mut bad = Vec::new();
        for round in 0..100_000 {
            // (runs of 7 from one time: the minute of the time before kept)
            let mut t = bases[(round / 7) % bases.len()].as_bytes().to_vec();
            if round >= 7 * bases.len() {
                for _ in 0..(next() % 3) {
                    let at = (next() as usize) % t.len();
                    t[at] = bytes[(next() as usize) % bytes.len()];
                }
            }
            let Ok(s) = std::str::from_utf8(&t) else {
                continue;
            };
            let jiff = s
                .parse::<jiff::Timestamp>()
                .ok()
                .map(|t| t.as_millisecond());
            if super::parse_timestamp(s) != jiff && bad.len() < 20 {
                bad.push((s.to_owned(), super::parse_timestamp(s), jiff));
            }
        }
        assert!(bad.is_empty(), "{bad:#?}");
    }
}
