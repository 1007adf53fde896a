//! The search index: a tantivy index of the words of each span of a
//! session file (a run of whole lines of about [`SPAN`] bytes; documents
//! only: no positions, no stored text, so it stays a small part of the
//! sessions' size), with the span's file, first line, byte offset and
//! length, the kinds of its entries and the time of its newest entry.
//! The lines of a span that holds every word are read back from the
//! session file, scanned as a search without the index scans them, and
//! those that pass decoded and checked: the index only says where not to
//! look. (One document per entry recorded 2.4 times the (document, word)
//! pairs of real sessions, and the writer that records them was a third
//! of the build.) Kept up to date by reading
//! only what was appended to each file since (keyed by path, size, mtime
//! and a hash of the file's head); it lives under `$XDG_CACHE_HOME/ccv/`
//! and can be deleted at any time.

use super::extract::{Entry, entries};
pub use super::state::FileState;
use super::state::{FileMap, State};
use crate::catalog::files::{SearchFile, in_scope};
use crate::model::Kind;
use std::collections::HashMap;
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use tantivy::collector::{Collector, SegmentCollector};
use tantivy::columnar::Column;
use tantivy::query::{BooleanQuery, Occur, RegexQuery, TermSetQuery};
use tantivy::schema::{
    FAST, Field, INDEXED, IndexRecordOption, Schema, TextFieldIndexing, TextOptions,
};
use tantivy::tokenizer::TextAnalyzer;
use tantivy::{Index, IndexWriter, ReloadPolicy, TantivyDocument, Term};

use super::words::{Listed, MAX_WORD, Seen, Words};

/// The text field's tokenizer: an entry's words, listed by the reading
/// threads (split at anything not a letter or digit, lowercased, words of
/// 100 bytes or more cut to their head), split at spaces (see
/// [`super::words`]).
/// The name is the one indexes built before were made with, of the same
/// words.
const TOKENIZER: &str = "ccv";
/// Bumped when the schema or what a document holds changes (3: words
/// without their positions; 4: a document per span, not per entry; 5:
/// joined words listed as pairs too, see `words::pair_of`; 6: letters
/// folded as a search ignoring case folds them, see `words::fold_into`;
/// 7: its files believed only as ccv wrote them, see `super::checked`,
/// and its list of files checked file by file; 8: the whole outputs
/// Claude Code saved apart indexed with their results' lines; 9: a word
/// of 100 bytes or more listed by its head, see `words::long_head`; the
/// ones before are emptied, see [`super::index_dir::empty_older`]).
pub const VERSION: u32 = 9;
/// A span's bytes: lines are added to one until it holds this many or
/// more. A candidate span is read whole and
/// scanned, so a query reads this much per span a word is in; a bigger
/// span records fewer (document, word) pairs (16 KB: 0.60 times an
/// entry's, 64 KB 0.42, 256 KB 0.26, on the real corpus). 128 KB since
/// joined words are listed as pairs (index v5): a build of 1 GB as fast
/// as it was with 64 KB and no pairs, its queries 0-12% slower than with
/// 64 KB spans (1-3 ms), an index a fifth smaller.
pub const SPAN: usize = 128 << 10;
/// Pieces of a file read at a time (at line boundaries): the model of a
/// piece is held while it is indexed, so memory does not follow file size.
const PIECE: usize = 4 << 20;

struct Fields {
    text: Field,
    file: Field,
    line: Field,
    offset: Field,
    len: Field,
    kind: Field,
    ts: Field,
}

fn schema() -> (Schema, Fields) {
    let mut b = Schema::builder();
    let text = b.add_text_field(
        "text",
        TextOptions::default().set_indexing_options(
            TextFieldIndexing::default()
                .set_tokenizer(TOKENIZER)
                // which spans hold a word, not where: every candidate is
                // checked against its text, which puts a phrase's words in
                // a row (with positions the index of 2,000 sessions was
                // 91 MB and took 7.3 s and 188 MB to build; without, 31 MB,
                // 5.5 s and 109 MB, and queries as fast)
                .set_index_option(IndexRecordOption::Basic),
        ),
    );
    let fields = Fields {
        text,
        file: b.add_u64_field("file", INDEXED | FAST),
        line: b.add_u64_field("line", FAST),
        offset: b.add_u64_field("offset", FAST),
        len: b.add_u64_field("len", FAST),
        // one value for each kind of entry in the span
        kind: b.add_u64_field("kind", INDEXED),
        ts: b.add_i64_field("ts", FAST),
    };
    (b.build(), fields)
}

/// A search index in a directory.
pub struct SearchIndex {
    dir: PathBuf,
    index: Index,
    fields: Fields,
    state: State,
}

/// A span the index matched: its lines may hold the words (they are
/// not yet read).
#[derive(Debug, Clone, Copy)]
pub struct Span {
    pub file: u64,
    /// Its first line's number and byte offset, and its length in bytes
    /// (whole lines, with their newlines).
    pub line: u32,
    pub offset: u64,
    pub len: u64,
    /// Of its newest entry: none of its entries is newer.
    pub timestamp: Option<i64>,
}

/// What the index matched: each span's time, and the columns its file
/// and place are read from when a search reaches it.
pub struct Ranked {
    pub spans: Vec<Match>,
    columns: HashMap<u32, Place>,
}

/// A segment's columns of a span's file, line, byte offset and length.
type Place = (Column<u64>, Column<u64>, Column<u64>, Column<u64>);

impl Ranked {
    /// The span `m` is (`None` when its columns do not say).
    pub fn span(&self, &(timestamp, addr): &Match) -> Option<Span> {
        let (file, line, offset, len) = self.columns.get(&addr.segment_ord)?;
        let d = addr.doc_id;
        Some(Span {
            file: file.first(d)?,
            line: u32::try_from(line.first(d)?).ok()?,
            offset: offset.first(d)?,
            len: len.first(d)?,
            timestamp,
        })
    }
}

/// What an update did.
#[derive(Debug, Default, Clone, Copy)]
pub struct Updated {
    pub files_read: usize,
    pub bytes_read: u64,
    pub files_dropped: usize,
}

fn err(e: impl std::fmt::Display) -> io::Error {
    io::Error::other(e.to_string())
}

/// `search-v3` in [`crate::paths::cache_dir`].
pub fn default_dir() -> Option<PathBuf> {
    Some(crate::paths::cache_dir()?.join(format!("search-v{VERSION}")))
}

impl SearchIndex {
    /// Opens the index in `dir` to read it, changing nothing: `None` when
    /// there is none yet; an error when the directory is not ccv's
    /// (`PermissionDenied`, saying why) or the index is damaged.
    pub fn open_existing(dir: &Path) -> io::Result<Option<SearchIndex>> {
        match super::index_dir::inspect(dir) {
            super::index_dir::Found::Missing => return Ok(None),
            super::index_dir::Found::Foreign(why) => {
                return Err(io::Error::new(io::ErrorKind::PermissionDenied, why));
            }
            super::index_dir::Found::Ours => {}
        }
        if !dir.join("meta.json").is_file() {
            return Ok(None);
        }
        if !super::index_dir::managed_list_is_sound(dir) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "the index's list of files names files elsewhere",
            ));
        }
        let (schema, fields) = schema();
        let index = Index::open_in_dir(dir).map_err(err)?;
        if index.schema() != schema {
            return Err(io::Error::new(io::ErrorKind::InvalidData, "another schema"));
        }
        // an index whose list of files is gone, damaged or of another
        // version holds entries of files it cannot name: rebuilt (before,
        // it was taken as empty, and its entries' ids were given again
        // to other files)
        let Some(state) = State::read(dir) else {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "the index's list of files cannot be read",
            ));
        };
        if !super::checked::whole(dir, &index) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "the index's files are not as ccv wrote them",
            ));
        }
        Ok(Some(SearchIndex::with(dir, index, fields, state)))
    }

    /// Opens the index in `dir` to change it, under its lock (`_lock`):
    /// made when missing, thrown away and started again when damaged or
    /// of another version. A directory that is not ccv's is refused.
    pub fn open_for_update(
        dir: &Path,
        _lock: &super::index_dir::DirLock,
    ) -> io::Result<SearchIndex> {
        match SearchIndex::open_existing(dir) {
            Ok(Some(ix)) => return Ok(ix),
            Err(e) if e.kind() == io::ErrorKind::PermissionDenied => return Err(e),
            // missing, damaged or another version: nothing here is worth
            // more than a rebuild
            _ => {}
        }
        super::index_dir::wipe(dir);
        let (schema, fields) = schema();
        let index = Index::create_in_dir(dir, schema).map_err(err)?;
        let state = State {
            version: VERSION,
            ..State::default()
        };
        Ok(SearchIndex::with(dir, index, fields, state))
    }

    fn with(dir: &Path, index: Index, fields: Fields, state: State) -> SearchIndex {
        index
            .tokenizers()
            .register(TOKENIZER, TextAnalyzer::from(Listed::default()));
        SearchIndex {
            dir: dir.to_owned(),
            index,
            fields,
            state,
        }
    }

    /// Whether the index holds `files` (every file in `scope`'s folders)
    /// as they are: none changed, added or gone. Told by a digest of
    /// both lists (paths, sizes, times) rather than a lookup of each file
    /// (20,000 of them in a big history: a tenth of a query).
    pub fn is_current(&self, scope: &[PathBuf], files: &[SearchFile]) -> bool {
        self.is_current_given(&self.known_in(scope), files)
    }

    /// [`Self::is_current`] with the digest of what the index holds in the
    /// scope made before ([`Self::known_in`]: a search makes it while the
    /// files are being found).
    pub fn is_current_given(&self, known: &Digest, files: &[SearchFile]) -> bool {
        !self.state.files.is_empty()
            && Digest::of(files.iter().map(|f| (f.path_hash, f.size, f.mtime_ns))) == *known
    }

    /// The digest of the files the index holds in `scope`'s folders.
    pub fn known_in(&self, scope: &[PathBuf]) -> Digest {
        let test = crate::catalog::files::ScopeTest::new(scope);
        Digest::of(
            self.state
                .files
                .iter()
                .filter_map(|(p, k)| Some((test.hash_within(p)?, k.size, k.mtime_ns))),
        )
    }

    /// Whether nothing has been indexed yet.
    pub fn is_empty(&self) -> bool {
        self.state.files.is_empty()
    }

    /// id -> (path, state), for reading many candidates.
    pub fn files_by_id(&self) -> rustc_hash::FxHashMap<u64, (&Path, &FileState)> {
        self.state
            .files
            .iter()
            .map(|(p, f)| (f.id, (p.as_path(), f)))
            .collect()
    }

    /// Brings the index up to date with `files` (every file in `scope`'s
    /// folders):
    /// appended bytes are read, changed files read again, gone ones dropped.
    /// Fails with `WouldBlock` when another ccv is updating it.
    pub fn update(
        &mut self,
        scope: &[PathBuf],
        files: &[SearchFile],
        threads: usize,
    ) -> io::Result<Updated> {
        let present: std::collections::HashSet<&Path> =
            files.iter().map(|f| f.path.as_path()).collect();
        if self.is_current(scope, files) {
            // nothing to write: no writer, no commit (but the list of
            // files in its present form)
            // (an index made new and left empty: known from now on)
            super::checked::record(&self.dir, &self.index)?;
            return Ok(Updated::default());
        }
        // looked up by path while the update runs (a search only goes
        // through the list: hashing 20,000 paths was a tenth of it)
        let mut known: FileMap = std::mem::take(&mut self.state.files).into_iter().collect();
        let done = self.update_known(scope, files, &present, &mut known, threads);
        self.state.files = known.into_iter().collect();
        let done = done?;
        self.save_state()?;
        // (the files just written are checked while they are in memory)
        super::checked::record(&self.dir, &self.index)?;
        Ok(done)
    }

    /// [`Self::update`] of what the index knows (`known`, the state's
    /// files), saved by the caller.
    fn update_known(
        &mut self,
        scope: &[PathBuf],
        files: &[SearchFile],
        present: &std::collections::HashSet<&Path>,
        known_files: &mut FileMap,
        threads: usize,
    ) -> io::Result<Updated> {
        // the writer's threads record each entry's words (listed by the
        // readers, see `words::list_words`) and were the build's critical
        // path: one for every two readers, so that more cores build
        // faster; each with the memory one had
        let writers = (threads / 2).clamp(1, 4);
        let budget = writers * 30_000_000;
        let mut writer: IndexWriter = match self.index.writer_with_num_threads(writers, budget) {
            Ok(w) => w,
            Err(tantivy::TantivyError::LockFailure(..)) => {
                return Err(io::Error::new(
                    io::ErrorKind::WouldBlock,
                    "the index is being updated",
                ));
            }
            Err(e) => {
                // an index that cannot take a writer is damaged: start again
                super::index_dir::wipe(&self.dir);
                return Err(err(e));
            }
        };
        if known_files.is_empty() {
            // whatever an earlier builder left without saying so
            writer.delete_all_documents().map_err(err)?;
        }
        let mut done = Updated::default();
        let gone: Vec<PathBuf> = known_files
            .keys()
            .filter(|p| in_scope(scope, p) && !present.contains(p.as_path()))
            .cloned()
            .collect();
        for p in gone {
            if let Some(f) = known_files.remove(&p) {
                writer.delete_term(Term::from_field_u64(self.fields.file, f.id));
                done.files_dropped += 1;
            }
        }
        // what to read, from where
        let mut jobs: Vec<(SearchFile, FileState)> = Vec::new();
        for f in files {
            let known = known_files.get(&f.path);
            if known.is_some_and(|k| k.size == f.size && k.mtime_ns == f.mtime_ns) {
                continue;
            }
            let head = head_hash(&f.path).unwrap_or(0);
            let job = match known {
                Some(k) if f.size >= k.bytes && k.head == head => FileState {
                    size: f.size,
                    mtime_ns: f.mtime_ns,
                    ..k.clone()
                },
                other => {
                    let id = match other {
                        Some(k) => {
                            writer.delete_term(Term::from_field_u64(self.fields.file, k.id));
                            k.id
                        }
                        None => {
                            self.state.next_id += 1;
                            self.state.next_id
                        }
                    };
                    FileState {
                        id,
                        session: f.session.clone(),
                        size: f.size,
                        mtime_ns: f.mtime_ns,
                        bytes: 0,
                        lines: 0,
                        head,
                    }
                }
            };
            jobs.push((f.clone(), job));
        }
        let next = std::sync::atomic::AtomicUsize::new(0);
        let results = Mutex::new(Vec::new());
        let fields = &self.fields;
        let writer_ref = &writer;
        std::thread::scope(|s| {
            for _ in 0..threads.clamp(1, jobs.len().max(1)) {
                s.spawn(|| {
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some((f, st)) = jobs.get(i) else { break };
                        let mut st = st.clone();
                        let before = st.bytes;
                        if index_file(&f.path, &mut st, fields, writer_ref).is_ok()
                            && let Ok(mut r) = results.lock()
                        {
                            r.push((f.path.clone(), st.clone(), st.bytes - before));
                        }
                    }
                });
            }
        });
        for (path, st, read) in results.into_inner().unwrap_or_default() {
            done.files_read += 1;
            done.bytes_read += read;
            known_files.insert(path, st);
        }
        writer.commit().map_err(err)?;
        drop(writer);
        super::index_dir::private_files(&self.dir);
        Ok(done)
    }

    fn save_state(&self) -> io::Result<()> {
        self.state.save(&self.dir)
    }

    /// The spans whose words start with every word of `terms` (each term
    /// split into words as the index splits text); `kinds`, when not
    /// empty, keeps the spans holding an entry of one of them. `None`: some term has no word the index can
    /// look up (punctuation only, or a word too long), so the index cannot
    /// answer.
    pub fn candidates(&self, terms: &[String], kinds: &[Kind]) -> io::Result<Option<Ranked>> {
        // a term's words as the entries' were listed (see `words::list_words`)
        let mut analyzer = TextAnalyzer::from(Words::default());
        let reader = self
            .index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()
            .map_err(err)?;
        let searcher = reader.searcher();
        let mut clauses: Vec<(Occur, Box<dyn tantivy::query::Query>)> = Vec::new();
        for t in terms {
            let mut words = Vec::new();
            // the pairs of joined words (see `words::pair_of`), each with
            // the place of its second word
            let mut pairs = Vec::new();
            let mut stream = analyzer.token_stream(t);
            let mut before: Option<(String, usize)> = None;
            while stream.advance() {
                let w = stream.token();
                // (a long word, listed by its head, pairs with none)
                let long = w.offset_to - w.offset_from >= MAX_WORD;
                if let Some((b, end)) = before.as_ref().filter(|_| !long)
                    && let Some(pair) = t
                        .get(*end..w.offset_from)
                        .and_then(|between| super::words::pair_of(b, between, &w.text))
                {
                    pairs.push((pair, words.len()));
                }
                before = (!long).then(|| (w.text.clone(), w.offset_to));
                words.push(w.text.clone());
            }
            let Some(last) = words.last() else {
                return Ok(None);
            };
            // a word typed so far may start a long one, listed by its head
            let prefix = |w: &str| -> io::Result<Box<dyn tantivy::query::Query>> {
                let pattern = format!("{}.*", regex::escape(super::words::long_head(w)));
                Ok(Box::new(
                    RegexQuery::from_pattern(&pattern, self.fields.text).map_err(err)?,
                ))
            };
            // every word of the term anywhere in the entry, the last as
            // typed so far (the text check puts them in a row)
            for w in &words[..words.len() - 1] {
                let q = tantivy::query::TermQuery::new(
                    Term::from_field_text(self.fields.text, w),
                    IndexRecordOption::Basic,
                );
                clauses.push((Occur::Must, Box::new(q)));
            }
            clauses.push((Occur::Must, prefix(last)?));
            // the joined words in a row (a pair of the last word is as
            // typed so far too: `resolve_lay`)
            for (pair, second) in &pairs {
                if *second + 1 == words.len() {
                    clauses.push((Occur::Must, prefix(pair)?));
                } else {
                    let q = tantivy::query::TermQuery::new(
                        Term::from_field_text(self.fields.text, pair),
                        IndexRecordOption::Basic,
                    );
                    clauses.push((Occur::Must, Box::new(q)));
                }
            }
        }
        if !kinds.is_empty() {
            let set = TermSetQuery::new(
                kinds
                    .iter()
                    .map(|k| Term::from_field_u64(self.fields.kind, kind_number(*k))),
            );
            clauses.push((Occur::Must, Box::new(set)));
        }
        let query = BooleanQuery::new(clauses);
        // the time of every match first: the rest is read for those a
        // search reaches, newest first (a common word matches most spans,
        // and a search shows the newest few hundred hits)
        let spans = searcher.search(&query, &Matches).map_err(err)?;
        let mut columns = HashMap::new();
        for (seg, reader) in searcher.segment_readers().iter().enumerate() {
            let ff = reader.fast_fields();
            columns.insert(
                seg as u32,
                (
                    ff.u64("file").map_err(err)?,
                    ff.u64("line").map_err(err)?,
                    ff.u64("offset").map_err(err)?,
                    ff.u64("len").map_err(err)?,
                ),
            );
        }
        Ok(Some(Ranked { spans, columns }))
    }

    /// Bytes the index takes on disk.
    pub fn disk_size(&self) -> u64 {
        fs::read_dir(&self.dir)
            .map(|rd| {
                rd.flatten()
                    .filter_map(|e| e.metadata().ok())
                    .map(|m| m.len())
                    .sum()
            })
            .unwrap_or(0)
    }
}

/// The spans a query matches, each with its time read as it is matched
/// (a set of every match, hashed twice, then looked up again was most of
/// a common word's query).
struct Matches;

/// A matched span: the time of its newest entry, and its place in the
/// index.
pub type Match = (Option<i64>, tantivy::DocAddress);

struct SegmentMatches {
    segment: u32,
    ts: Column<i64>,
    found: Vec<Match>,
}

impl Collector for Matches {
    type Fruit = Vec<Match>;
    type Child = SegmentMatches;

    fn for_segment(
        &self,
        segment: tantivy::SegmentOrdinal,
        reader: &tantivy::SegmentReader,
    ) -> tantivy::Result<SegmentMatches> {
        let ff = reader.fast_fields();
        Ok(SegmentMatches {
            segment,
            ts: ff.i64("ts")?,
            // room for every span of the segment, taken only as it is
            // written: a list grown for a common word's tens of thousands
            // of matches was copied into fresh pages at each doubling
            found: Vec::with_capacity(reader.max_doc() as usize),
        })
    }

    fn requires_scoring(&self) -> bool {
        false
    }

    fn merge_fruits(&self, parts: Vec<Vec<Match>>) -> tantivy::Result<Vec<Match>> {
        Ok(parts.concat())
    }
}

impl SegmentCollector for SegmentMatches {
    type Fruit = Vec<Match>;

    fn collect(&mut self, doc: tantivy::DocId, _score: tantivy::Score) {
        self.found.push((
            self.ts.first(doc),
            tantivy::DocAddress::new(self.segment, doc),
        ));
    }

    fn harvest(self) -> Vec<Match> {
        self.found
    }
}

/// A digest of a set of files (in any order): how many, and two sums of
/// a hash of each one's path, size and time, mixed apart. Two
/// lists with one digest are the same files in the same state, but for
/// a chance of 2^-128 (a stale index then answers until its next update).
#[derive(PartialEq, Eq, Debug, Clone, Copy)]
pub struct Digest(usize, u64, u64);

impl Digest {
    /// Of files given by their [`crate::catalog::files::path_hash`] (by
    /// their components, as paths compare: `a//b` is `a/b`), size and
    /// time.
    fn of(files: impl Iterator<Item = (u64, u64, i64)>) -> Digest {
        use std::hash::Hasher;
        let mut d = Digest(0, 0, 0);
        for (path, size, mtime) in files {
            let mut h = rustc_hash::FxHasher::default();
            h.write_u64(path);
            h.write_u64(size);
            h.write_i64(mtime);
            let x = h.finish();
            d.0 += 1;
            d.1 = d.1.wrapping_add(x);
            // a second, independent-looking mix (splitmix64's finaliser)
            let mut y = x ^ 0x9e37_79b9_7f4a_7c15;
            y = (y ^ (y >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            y = (y ^ (y >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            d.2 = d.2.wrapping_add(y ^ (y >> 31));
        }
        d
    }
}

pub fn kind_number(k: Kind) -> u64 {
    Kind::ALL.iter().position(|x| *x == k).unwrap_or(0) as u64
}

fn head_hash(path: &Path) -> io::Result<u64> {
    use std::hash::Hasher;
    let mut buf = vec![0u8; 4096];
    let mut f = crate::model::session::open_regular(path)?;
    let mut n = 0;
    while n < buf.len() {
        match f.read(&mut buf[n..])? {
            0 => break,
            k => n += k,
        }
    }
    let mut h = rustc_hash::FxHasher::default();
    h.write(&buf[..n]);
    Ok(h.finish())
}

/// Indexes the complete lines of `path` after `st.bytes`, piece by piece.
fn index_file(
    path: &Path,
    st: &mut FileState,
    fields: &Fields,
    writer: &IndexWriter,
) -> io::Result<()> {
    let len = st.size.saturating_sub(st.bytes);
    let mut pieces =
        crate::catalog::pieces::Pieces::open(path, st.bytes, st.lines + 1, len, PIECE, false)?;
    // a piece after the first of a file in another format is read after
    // the file's first line (see `extract::entries`)
    let header = crate::source::may_be_other_format(path)
        .then(|| crate::source::header_of(path))
        .flatten();
    let claude = header.is_none();
    while let Some(p) = pieces.next_piece()? {
        let header = header.as_deref().filter(|_| p.offset > 0);
        let piece = Piece {
            bytes: p.bytes,
            offset: p.offset,
            first: p.line,
        };
        if claude {
            index_claude_piece((&piece, path), st.id, fields, writer);
        } else {
            index_piece(&piece, header, st.id, fields, writer);
        }
    }
    let (bytes, next_line) = pieces.position();
    st.bytes = bytes;
    st.lines = next_line - 1;
    Ok(())
}

/// Whole lines of a file: their bytes, where they start in it and the
/// number of the first.
struct Piece<'a> {
    bytes: &'a [u8],
    offset: u64,
    first: u32,
}

impl Piece<'_> {
    fn place(&self, s: &PieceSpan) -> SpanPlace {
        SpanPlace {
            line: self.first + s.first_line as u32,
            offset: self.offset + s.bytes.start as u64,
            len: s.bytes.len() as u64,
        }
    }
}

/// A piece of a file in another format: its entries, as the model makes
/// them of the whole piece.
fn index_piece(
    piece: &Piece<'_>,
    header: Option<&[u8]>,
    id: u64,
    fields: &Fields,
    writer: &IndexWriter,
) {
    // one buffer a thread for the piece without its structured copies
    thread_local! {
        static SHOWN: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let (bytes, first) = (piece.bytes, piece.first);
    let found = SHOWN.with(|b| {
        let mut b = b.borrow_mut();
        let found = if super::extract::shown_piece_into(bytes, &mut b) {
            entries(&b, first, header)
        } else {
            entries(bytes, first, header)
        };
        // not one grown past a piece for an overlong line
        if b.capacity() > 2 * PIECE {
            *b = Vec::new();
        }
        found
    });
    let spans = spans_of(bytes);
    // the entries of each span together (an agent's come after the main
    // conversation's, a result with its call)
    let mut placed: Vec<(usize, &Entry)> = found
        .iter()
        .filter_map(|e| {
            let line = e.line.checked_sub(first)? as usize;
            let span = spans
                .partition_point(|s| s.first_line <= line)
                .checked_sub(1)?;
            Some((span, e))
        })
        .collect();
    placed.sort_by_key(|&(span, _)| span);
    for group in placed.chunk_by(|a, b| a.0 == b.0) {
        let Some(s) = group.first().and_then(|&(span, _)| spans.get(span)) else {
            continue;
        };
        add(writer, fields, id, piece.place(s), &mut |list, seen| {
            let mut facts = Facts::default();
            for (_, e) in group {
                facts.entry(e, list, seen);
            }
            facts
        });
    }
}

/// A piece of a Claude Code file, span by span: each line's words read
/// off its bytes ([`crate::source::shown_texts`]), and the lines that
/// cannot be (escape sequences in a tool's output, other kinds of line)
/// decoded by the model, together. Decoding every line was two fifths of
/// a build. A line makes the same entries read alone as in its file, as
/// a query decodes it (see `search::span_hits`).
/// The whole outputs its results saved apart (beside the file `path`) are
/// indexed with the line that holds them (see
/// [`super::extract::add_saved_outputs`]).
fn index_claude_piece(
    (piece, path): (&Piece<'_>, &Path),
    id: u64,
    fields: &Fields,
    writer: &IndexWriter,
) {
    use memchr::memmem::Finder;
    use std::sync::LazyLock;
    static WRAPPER: LazyLock<Finder<'static>> =
        LazyLock::new(|| Finder::new(super::extract::WRAPPER));
    let saved_beside = super::extract::may_have_saved_outputs(path);
    thread_local! {
        static SCRATCH: std::cell::RefCell<(String, Vec<u8>)> = Default::default();
    }
    for s in spans_of(piece.bytes) {
        let place = piece.place(&s);
        let first = place.line;
        let lines = &piece.bytes[s.bytes.clone()];
        SCRATCH.with(|b| {
            let (scratch, slow) = &mut *b.borrow_mut();
            add(writer, fields, id, place, &mut |list, seen| {
                let mut facts = Facts::default();
                slow.clear();
                // the line the next one put in `slow` is (it starts at the
                // first such line)
                let mut slow_at: Option<(u32, u32)> = None;
                let mut at = 0;
                for n in first.. {
                    let Some(rest) = lines.get(at..).filter(|r| !r.is_empty()) else {
                        break;
                    };
                    let end = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
                    at += end + 1;
                    let line = &rest[..end];
                    let line = line.strip_suffix(b"\r").unwrap_or(line);
                    if line.iter().all(u8::is_ascii_whitespace) {
                        continue;
                    }
                    if saved_beside && WRAPPER.find(line).is_some() {
                        for call in super::extract::saved_calls_in(line) {
                            if let Some(text) = super::extract::saved_text(path, call) {
                                let text = crate::model::text::sanitize(&text);
                                super::words::list_more_words(&text, list, seen);
                            }
                        }
                    }
                    let each = &mut |t: crate::source::ShownText<'_>| match t {
                        crate::source::ShownText::Plain(t) => {
                            super::words::list_more_words(t, list, seen)
                        }
                        crate::source::ShownText::Escaped(t) => {
                            super::words::list_more_json_words(t, list, seen)
                        }
                    };
                    match crate::source::shown_texts(line, scratch, each) {
                        Some(shape) => {
                            for k in shape.kinds() {
                                facts.kinds |= kind_bit(k);
                            }
                            facts.newest = facts.newest.max(shape.time);
                        }
                        None if crate::source::makes_no_entry(line) => {}
                        None => {
                            let (_, next) = slow_at.get_or_insert((n, n));
                            slow.resize(slow.len() + (n - *next) as usize, b'\n');
                            slow.extend_from_slice(&super::extract::Unshown::new(line).shown());
                            slow.push(b'\n');
                            *next = n + 1;
                        }
                    }
                }
                if let Some((from, _)) = slow_at {
                    for e in entries(slow, from, None) {
                        facts.entry(&e, list, seen);
                    }
                }
                facts
            });
            if scratch.capacity() > 1 << 20 {
                *scratch = String::new();
            }
            if slow.capacity() > 2 * SPAN {
                *slow = Vec::new();
            }
        });
    }
}

/// A span's kinds of entry (a bit each) and the time of its newest.
#[derive(Default)]
struct Facts {
    kinds: u64,
    newest: Option<i64>,
}

impl Facts {
    fn entry(&mut self, e: &Entry, list: &mut String, seen: &mut Seen) {
        super::words::list_more_words(&e.text, list, seen);
        self.kinds |= kind_bit(e.kind);
        self.newest = self.newest.max(e.timestamp);
    }
}

fn kind_bit(k: Kind) -> u64 {
    1 << (kind_number(k) % 64)
}

/// A span of a piece: its first line (counted from the piece's first)
/// and its bytes in the piece.
struct PieceSpan {
    first_line: usize,
    bytes: std::ops::Range<usize>,
}

/// The piece's lines cut into spans of about [`SPAN`] bytes.
fn spans_of(piece: &[u8]) -> Vec<PieceSpan> {
    let mut spans = Vec::new();
    let (mut start, mut first_line, mut line) = (0, 0, 0);
    let mut at = 0;
    while at < piece.len() {
        let end = memchr::memchr(b'\n', &piece[at..]).map_or(piece.len(), |i| at + i + 1);
        line += 1;
        if end - start >= SPAN || end == piece.len() {
            spans.push(PieceSpan {
                first_line,
                bytes: start..end,
            });
            (start, first_line) = (end, line);
        }
        at = end;
    }
    spans
}

/// Where a span is in its file.
struct SpanPlace {
    line: u32,
    offset: u64,
    len: u64,
}

/// A span's document: the words `fill` lists (with the kinds and time it
/// tells), where the span is.
fn add(
    writer: &IndexWriter,
    fields: &Fields,
    id: u64,
    place: SpanPlace,
    fill: &mut dyn FnMut(&mut String, &mut Seen) -> Facts,
) {
    // the span's words listed on this thread, not found by the writer
    thread_local! {
        static LIST: std::cell::RefCell<(String, Seen)> = Default::default();
    }
    let mut doc = TantivyDocument::default();
    let facts = LIST.with(|l| {
        let (list, seen) = &mut *l.borrow_mut();
        super::words::start_list(list, seen);
        let facts = fill(list, seen);
        doc.add_text(fields.text, list.as_str());
        // not one grown for an overlong span
        if list.capacity() > 1 << 20 {
            (*list, *seen) = Default::default();
        }
        facts
    });
    doc.add_u64(fields.file, id);
    doc.add_u64(fields.line, u64::from(place.line));
    doc.add_u64(fields.offset, place.offset);
    doc.add_u64(fields.len, place.len);
    for k in 0..64 {
        if facts.kinds & (1 << k) != 0 {
            doc.add_u64(fields.kind, k);
        }
    }
    if let Some(ts) = facts.newest {
        doc.add_i64(fields.ts, ts);
    }
    let _ = writer.add_document(doc);
}

#[cfg(test)]
mod tests {
    use super::Digest;
    use std::path::Path;

    /// A piece's lines are cut into spans of whole lines, each ended at
    /// the first line that takes it to `SPAN` bytes or more, with the
    /// piece's last line (ended or not) in the last.
    #[test]
    fn spans_are_runs_of_whole_lines_of_about_a_span() {
        let line = |n: usize| "y".repeat(n - 1) + "\n";
        let mut piece = String::new();
        // lines of 1,000 bytes: this many reach a span, 4 more begin the next
        let reach = super::SPAN.div_ceil(1000);
        let mut lens = vec![1000; reach + 4];
        lens.push(3 * super::SPAN);
        lens.extend([10, 20]);
        for &n in &lens {
            piece.push_str(&line(n));
        }
        piece.push_str("tail without newline");
        let spans = super::spans_of(piece.as_bytes());
        let mut at = 0;
        let mut first = 0;
        for s in &spans {
            assert_eq!(s.bytes.start, at, "no gap, no overlap");
            assert_eq!(s.first_line, first);
            assert_eq!(
                piece.as_bytes()[s.bytes.start..s.bytes.end].last(),
                Some(&if s.bytes.end == piece.len() {
                    b'e'
                } else {
                    b'\n'
                })
            );
            first += piece[s.bytes.clone()].matches('\n').count();
            at = s.bytes.end;
        }
        assert_eq!(at, piece.len());
        // the long line ends the second
        assert_eq!(spans[0].bytes.len(), reach * 1000);
        assert_eq!(spans[1].bytes.len(), 4 * 1000 + 3 * super::SPAN);
        assert_eq!(spans.len(), 3);
        assert!(super::spans_of(b"").is_empty());
    }

    /// One digest for the same files in any order; another for a file
    /// grown, touched, renamed, added or gone.
    #[test]
    fn a_digest_tells_every_change_of_a_list_of_files() {
        type Files = Vec<(String, u64, i64)>;
        let files: Files = (0..500)
            .map(|i| (format!("/p/{i}.jsonl"), i * 7, i as i64 * 1000))
            .collect();
        let d = |v: &Files| {
            Digest::of(v.iter().map(|(p, s, m)| {
                (
                    crate::catalog::files::path_hash(Path::new(p.as_str())),
                    *s,
                    *m,
                )
            }))
        };
        let base = d(&files);
        let mut shuffled = files.clone();
        shuffled.reverse();
        shuffled.swap(3, 200);
        assert_eq!(d(&shuffled), base);
        let change = |f: &dyn Fn(&mut Files)| {
            let mut v = files.clone();
            f(&mut v);
            d(&v)
        };
        assert_ne!(change(&|v| v[10].1 += 1), base, "grown");
        assert_ne!(change(&|v| v[10].2 += 1), base, "touched");
        assert_ne!(change(&|v| v[10].0.push('x')), base, "renamed");
        assert_ne!(change(&|v| v.push(("/p/new".into(), 1, 1))), base, "added");
        assert_ne!(change(&|v| drop(v.pop())), base, "gone");
        // two changes that cancel in a plain sum do not cancel in both
        assert_ne!(
            change(&|v| {
                v[1].1 += 1;
                v[2].1 -= 1;
            }),
            base
        );
    }
}
