//! The `parentUuid` tree of one transcript, and which of its lines lie on
//! a branch the user left (rewind, edited prompt, retry).
//!
//! The conversation as the user experienced it is the chain from the
//! newest leaf back to the root. Forks are normal (progress, hook and
//! parallel tool-result lines share a parent), so a line off that chain is
//! only "abandoned" when its sibling subtree holds a user prompt or an
//! assistant message that is not on the chain.
//!
//! Appending is cheap: a new line whose parent is the leaf (or a side line
//! below it) extends the chain. Only a real fork triggers a full pass.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::sync::Arc;

/// A uuid as kept: one allocation per line, shared by its node, the
/// index, its children's `parent_uuid` and the line's items (a line's
/// uuid used to be copied five times, a tenth of a session's memory).
pub type Uuid = Arc<str>;

/// What a line is, for choosing the leaf and judging a fork.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// system, progress, attachment: never the leaf, never a reason to fold.
    Side,
    /// A user line that only carries tool results.
    ToolResults,
    /// A user line with a prompt, command, meta text or compaction summary.
    User,
    /// An assistant line; the hash of its `message.id` (lines of one
    /// message belong together even when they fork).
    Assistant(u64),
}

impl Role {
    fn candidate(self) -> bool {
        matches!(self, Role::User | Role::Assistant(_))
    }
}

/// A threaded line, in 24 bytes: there is one per line of a session (a
/// 100 MB one has 50,000), and at 48 (its uuid, an optional parent, a
/// role) they were a twentieth of the viewer's memory.
#[derive(Debug)]
pub struct Node {
    /// An assistant line's message key (see [`Role::Assistant`]).
    message: u64,
    /// Its uuid's [`Slot`] (see [`Threads::uuid_of`]).
    slot: u32,
    /// [`NO_NODE`] or the node of `parentUuid` (see [`Node::parent`]).
    parent: u32,
    pub line: u32,
    pub source: u16,
    kind: u8,
}

/// `Node::parent` of a node whose parent is not read.
const NO_NODE: u32 = u32::MAX;

impl Node {
    /// The node of `parentUuid` (or `logicalParentUuid` across a compact
    /// boundary), when read; else [`Threads::parent_uuid`] has the uuid.
    pub fn parent(&self) -> Option<u32> {
        (self.parent != NO_NODE).then_some(self.parent)
    }

    pub fn role(&self) -> Role {
        match self.kind {
            0 => Role::Side,
            1 => Role::ToolResults,
            2 => Role::User,
            _ => Role::Assistant(self.message),
        }
    }

    fn new(slot: u32, parent: Option<u32>, role: Role, source: u16, line: u32) -> Node {
        let (kind, message) = match role {
            Role::Side => (0, 0),
            Role::ToolResults => (1, 0),
            Role::User => (2, 0),
            Role::Assistant(m) => (3, m),
        };
        Node {
            message,
            slot,
            // a node is never its own parent, nor the 4 billionth line
            parent: parent.unwrap_or(NO_NODE),
            line,
            source,
            kind,
        }
    }
}

/// A uuid written again by a later line.
#[derive(Debug, Clone)]
pub struct Repeat {
    pub uuid: Uuid,
    pub source: u16,
    pub line: u32,
    pub first_line: u32,
}

#[derive(Debug, Default)]
pub struct Threads {
    pub nodes: Vec<Node>,
    /// Every uuid seen: where its [`Slot`] is in `slots`, by the uuid's
    /// hash. Four bytes a uuid: a table of the uuids themselves and their
    /// slots (40 bytes each) outgrew the caches in a big session, and
    /// each line's lookups were misses to memory.
    index: hashbrown::HashTable<u32>,
    slots: Vec<Slot>,
    /// Children that arrived before their parent: parent uuid -> children.
    waiting: HashMap<Uuid, Vec<u32>>,
    /// The parent uuid of each node whose parent is not read (yet): most
    /// nodes have their parent's, and a field of each node cost 16 bytes.
    unread_parent: HashMap<u32, Uuid>,
    pub repeats: Vec<Repeat>,
    on_chain: Vec<bool>,
    off: Vec<bool>,
    leaf: Option<u32>,
    /// `last-prompt.leafUuid` and how many nodes existed when it was read:
    /// a candidate line written after it is newer information.
    hint: Option<(Box<str>, usize)>,
    /// Lines of each assistant message (by the hash of its id), counted
    /// from the first time a line needs them ([`Self::own_message`]; most
    /// sessions never do): an entry updated for every line was a cache
    /// miss each.
    messages: Option<HashMap<u64, u32>>,
    /// Within a batch of lines (a chunk read at once): a full pass is owed
    /// (`dirty`) instead of made at each line, and made once at its end.
    defer: bool,
    dirty: bool,
    /// [`Self::try_extend`]'s path, kept: a list made for each line was an
    /// allocation per line of a load.
    path: Vec<u32>,
}

/// What is known of a uuid: its node, once a line with it is threaded, and
/// the fingerprint of the first line noted with it ([`Threads::note`]). One
/// slot for both: in a big session each was a cache miss per line. Slots
/// are kept in the order their uuids were first seen, so those of the
/// lines just read (the parents looked up next) are in the cache.
#[derive(Debug)]
struct Slot {
    uuid: Uuid,
    /// `print` when `printed`: with `node`, two options took 24 bytes
    /// where these take 13.
    print: u64,
    /// [`NO_NODE`] or the uuid's node (see [`Slot::node`]).
    node: u32,
    printed: bool,
}

impl Slot {
    fn new(uuid: Uuid, node: Option<u32>, print: Option<u64>) -> Slot {
        Slot {
            uuid,
            print: print.unwrap_or(0),
            node: node.unwrap_or(NO_NODE),
            printed: print.is_some(),
        }
    }

    fn node(&self) -> Option<u32> {
        (self.node != NO_NODE).then_some(self.node)
    }

    fn print(&self) -> Option<u64> {
        self.printed.then_some(self.print)
    }
}

fn hash(uuid: &str) -> u64 {
    use std::hash::BuildHasher;
    rustc_hash::FxBuildHasher.hash_one(uuid)
}

/// The hash of the uuid of slot `i`, for the index to grow.
fn rehash(slots: &[Slot], i: u32) -> u64 {
    slots.get(i as usize).map_or(0, |s| hash(&s.uuid))
}

/// What an added line did to the branch structure.
#[derive(Debug, PartialEq, Eq)]
pub enum Added {
    /// Nothing changed for lines already read.
    Same,
    /// A full pass ran; flags of earlier lines may have changed.
    Recomputed,
}

impl Threads {
    /// See [`super::transcript::Transcript::reserve_lines`].
    pub fn reserve_lines(&mut self, lines: usize) {
        self.nodes.reserve(lines);
        let slots = &self.slots;
        self.index.reserve(lines, |&i| rehash(slots, i));
        self.slots.reserve(lines);
        self.on_chain.reserve(lines);
        self.off.reserve(lines);
    }

    pub fn node(&self, uuid: &str) -> Option<u32> {
        self.slot(uuid).and_then(|i| self.slots.get(i)?.node())
    }

    /// The fingerprint of the content first seen under `uuid` (see
    /// [`Self::note`]).
    pub fn print(&self, uuid: &str) -> Option<u64> {
        self.slot(uuid).and_then(|i| self.slots.get(i)?.print())
    }

    /// Where the slot of `uuid` is in `slots`.
    fn slot(&self, uuid: &str) -> Option<usize> {
        let slots = &self.slots;
        let same = |&i: &u32| slots.get(i as usize).is_some_and(|s| *s.uuid == *uuid);
        self.index.find(hash(uuid), same).map(|&i| i as usize)
    }

    /// Where `slot` is kept.
    fn new_slot(&mut self, slot: Slot) -> u32 {
        let i = self.slots.len() as u32;
        let slots = &self.slots;
        self.index
            .insert_unique(hash(&slot.uuid), i, |&j| rehash(slots, j));
        self.slots.push(slot);
        i
    }

    /// Records `print`, the fingerprint of a line's content, for its uuid
    /// unless one is recorded already; the one recorded before, if any.
    /// Lines are noted whether they are threaded or not (a subagent's line
    /// mirrored in a progress line is only noted).
    pub fn note(&mut self, uuid: &str, print: u64) -> Option<u64> {
        match self.slot(uuid).and_then(|i| self.slots.get_mut(i)) {
            Some(slot) => {
                let before = slot.print();
                if before.is_none() {
                    (slot.print, slot.printed) = (print, true);
                }
                before
            }
            None => {
                self.new_slot(Slot::new(Uuid::from(uuid), None, Some(print)));
                None
            }
        }
    }

    /// The kept uuid of node `n` and of its parent.
    pub fn uuids(&self, n: u32) -> Option<(&Uuid, Option<&Uuid>)> {
        let node = self.nodes.get(n as usize)?;
        Some((self.uuid_of(node)?, self.parent_uuid(n)))
    }

    /// The uuid of one of this transcript's nodes.
    pub fn uuid_of(&self, node: &Node) -> Option<&Uuid> {
        self.slots.get(node.slot as usize).map(|s| &s.uuid)
    }

    /// The parent uuid node `n` names, read or not.
    pub fn parent_uuid(&self, n: u32) -> Option<&Uuid> {
        match self.nodes.get(n as usize)?.parent() {
            Some(p) => self.uuid_of(self.nodes.get(p as usize)?),
            None => self.unread_parent.get(&n),
        }
    }

    pub fn leaf(&self) -> Option<u32> {
        self.leaf
    }

    /// [`Self::is_off`] of a uuid as kept here. The newest node's (a
    /// line's rows are added as it is threaded) is known without a lookup
    /// in the index, which in a big session was a cache miss per row.
    pub fn is_off_kept(&self, uuid: &Uuid) -> bool {
        match self.nodes.last().and_then(|last| self.uuid_of(last)) {
            Some(last) if Arc::ptr_eq(last, uuid) => self.off.last().copied().unwrap_or(false),
            _ => self.is_off(uuid),
        }
    }

    /// Whether the line with this uuid lies on a branch the user left.
    pub fn is_off(&self, uuid: &str) -> bool {
        self.node(uuid)
            .is_some_and(|n| self.off.get(n as usize).copied().unwrap_or(false))
    }

    pub fn on_chain(&self, n: u32) -> bool {
        self.on_chain.get(n as usize).copied().unwrap_or(false)
    }

    pub fn add(
        &mut self,
        uuid: &str,
        parent: Option<&str>,
        role: Role,
        source: u16,
        line: u32,
    ) -> Added {
        let slot = self.slot(uuid);
        if let Some(i) = slot
            && let Some(first) = self.slots.get(i).and_then(Slot::node)
        {
            let first_line = self.nodes[first as usize].line;
            self.repeats.push(Repeat {
                uuid: self.slots[i].uuid.clone(),
                source,
                line,
                first_line,
            });
            return Added::Same;
        }
        let n = self.nodes.len() as u32;
        if let (Role::Assistant(m), Some(counts)) = (role, &mut self.messages) {
            *counts.entry(m).or_default() += 1;
        }
        let parent = parent.filter(|p| *p != uuid);
        // a line's parent is mostly the line before it: the newest node
        let parent_idx = parent.and_then(|p| match self.nodes.last() {
            Some(last) if self.uuid_of(last).is_some_and(|u| **u == *p) => n.checked_sub(1),
            _ => self.node(p),
        });
        if let (Some(p), None) = (parent, parent_idx) {
            let p = match self.waiting.get_key_value(p) {
                Some((shared, _)) => shared.clone(),
                None => Uuid::from(p),
            };
            self.waiting.entry(p.clone()).or_default().push(n);
            self.unread_parent.insert(n, p);
        }
        // children waiting for their parent are rare: most lines skip the
        // lookups for them
        let waited = !self.waiting.is_empty();
        let at = match slot {
            // noted before: its slot keeps the uuid
            Some(i) => {
                self.slots[i].node = n;
                i as u32
            }
            None => {
                // the uuid as already kept, if its children wait for it
                let kept = waited
                    .then(|| self.waiting.get_key_value(uuid))
                    .flatten()
                    .map(|(shared, _)| shared.clone());
                let shared: Uuid = kept.unwrap_or_else(|| Uuid::from(uuid));
                self.new_slot(Slot::new(shared, Some(n), None))
            }
        };
        self.nodes
            .push(Node::new(at, parent_idx, role, source, line));
        let inherited = parent_idx.is_some_and(|p| self.off[p as usize]);
        self.off.push(inherited);
        self.on_chain.push(false);
        if let Some(kids) = waited.then(|| self.waiting.remove(uuid)).flatten() {
            // A parent written after its children: rare, re-derive.
            for k in kids {
                self.nodes[k as usize].parent = n;
                self.unread_parent.remove(&k);
            }
            return self.recompute_if_changed();
        }
        if !role.candidate() {
            return Added::Same;
        }
        if self.try_extend(n) {
            return Added::Same;
        }
        // A line with no parent here (none, or not read) starts a tree of
        // its own: it is the newest candidate, so the leaf, and nothing else
        // moves (every tree keeps its chain), unless it shares its message
        // with another line. Re-deriving everything for each such line made
        // a file of 50,000 of them take 30 s.
        if parent_idx.is_none() && self.own_message(role) {
            self.on_chain[n as usize] = true;
            self.leaf = Some(n);
            return Added::Same;
        }
        self.recompute_if_changed()
    }

    /// Whether a line of `role` is the only line of its message (any
    /// line but an assistant's is), the newest node included.
    fn own_message(&mut self, role: Role) -> bool {
        let Role::Assistant(m) = role else {
            return true;
        };
        let nodes = &self.nodes;
        let counts = self.messages.get_or_insert_with(|| {
            let mut counts = HashMap::default();
            for n in nodes {
                if let Role::Assistant(m) = n.role() {
                    *counts.entry(m).or_default() += 1;
                }
            }
            counts
        });
        counts.get(&m) == Some(&1)
    }

    /// `last-prompt.leafUuid`: normally on the chain; after a rewind with
    /// nothing new written yet it names the point the user went back to.
    pub fn set_leaf_hint(&mut self, uuid: &str) -> Added {
        self.hint = Some((uuid.into(), self.nodes.len()));
        match self.node(uuid) {
            Some(k) if self.on_chain(k) => Added::Same,
            Some(k) if self.try_extend(k) => Added::Same,
            Some(_) => self.recompute_if_changed(),
            None => Added::Same,
        }
    }

    /// If `n` hangs below the leaf (through side lines only), it becomes
    /// the leaf and nothing else changes.
    fn try_extend(&mut self, n: u32) -> bool {
        let Some(leaf) = self.leaf else {
            // The first candidate: everything before it is a side line.
            self.leaf = Some(n);
            self.mark_chain_up(n);
            return true;
        };
        let mut path = std::mem::take(&mut self.path);
        path.clear();
        path.push(n);
        let mut cur = self.nodes[n as usize].parent();
        let mut extended = false;
        while let Some(c) = cur {
            if c == leaf {
                for &p in &path {
                    self.on_chain[p as usize] = true;
                }
                self.leaf = Some(n);
                extended = true;
                break;
            }
            if self.on_chain[c as usize]
                || self.nodes[c as usize].role().candidate()
                || path.len() > 10_000
            {
                break;
            }
            path.push(c);
            cur = self.nodes[c as usize].parent();
        }
        self.path = path;
        extended
    }

    fn mark_chain_up(&mut self, n: u32) {
        let mut cur = Some(n);
        let mut steps = 0;
        while let Some(c) = cur {
            if self.on_chain[c as usize] || steps > self.nodes.len() {
                break;
            }
            self.on_chain[c as usize] = true;
            cur = self.nodes[c as usize].parent();
            steps += 1;
        }
    }

    /// From now until [`Self::end_batch`], full passes wait for the end.
    pub fn begin_batch(&mut self) {
        self.defer = true;
    }

    /// Whether a batch is open (see [`Self::begin_batch`]).
    pub fn in_batch(&self) -> bool {
        self.defer
    }

    /// The full pass the batch owes, if any.
    pub fn end_batch(&mut self) -> Added {
        self.defer = false;
        if std::mem::take(&mut self.dirty) {
            self.recompute_if_changed()
        } else {
            Added::Same
        }
    }

    fn recompute_if_changed(&mut self) -> Added {
        if self.defer {
            // a file written out of order (children first, thousands of
            // siblings) would make each line a full pass: one at the end
            self.dirty = true;
            return Added::Same;
        }
        let before = self.off.clone();
        self.recompute();
        if before == self.off {
            Added::Same
        } else {
            Added::Recomputed
        }
    }

    /// The full pass: cut cycles, find each tree's leaf, mark its chain, and
    /// fold sibling subtrees that hold a prompt or another message.
    pub fn recompute(&mut self) {
        let len = self.nodes.len();
        let parent = self.acyclic_parents();
        let mut children: Vec<Vec<u32>> = vec![Vec::new(); len];
        let mut roots = Vec::new();
        for (i, p) in parent.iter().enumerate() {
            match p {
                Some(p) => children[*p as usize].push(i as u32),
                None => roots.push(i as u32),
            }
        }
        // Pre-order from the roots: parents come before children.
        let mut order = Vec::with_capacity(len);
        let mut root_of = vec![u32::MAX; len];
        let mut stack: Vec<u32> = roots.iter().rev().copied().collect();
        while let Some(n) = stack.pop() {
            order.push(n);
            root_of[n as usize] = match parent[n as usize] {
                Some(p) => root_of[p as usize],
                None => n,
            };
            stack.extend(children[n as usize].iter().rev().copied());
        }
        let main_leaf = self.choose_leaf(&children);
        let mut leaf_of_root: HashMap<u32, u32> = HashMap::default();
        if let Some(l) = main_leaf {
            leaf_of_root.insert(root_of[l as usize], l);
        }
        for (i, node) in self.nodes.iter().enumerate().rev() {
            if node.role().candidate() && root_of[i] != u32::MAX {
                leaf_of_root.entry(root_of[i]).or_insert(i as u32);
            }
        }
        self.on_chain = vec![false; len];
        for &l in leaf_of_root.values() {
            let mut cur = Some(l);
            while let Some(c) = cur {
                if self.on_chain[c as usize] {
                    break;
                }
                self.on_chain[c as usize] = true;
                cur = parent[c as usize];
            }
        }
        self.leaf = main_leaf;
        let chain_msgs: HashSet<u64> = (0..len)
            .filter(|&i| self.on_chain[i])
            .filter_map(|i| match self.nodes[i].role() {
                Role::Assistant(m) => Some(m),
                _ => None,
            })
            .collect();
        let significant = |r: Role| match r {
            Role::User => true,
            Role::Assistant(m) => !chain_msgs.contains(&m),
            _ => false,
        };
        // Post-order: does a subtree hold a line that makes it a branch?
        let mut sig = vec![false; len];
        for &n in order.iter().rev() {
            let n = n as usize;
            sig[n] |= significant(self.nodes[n].role());
            if let Some(p) = parent[n]
                && sig[n]
            {
                sig[p as usize] = true;
            }
        }
        self.off = vec![false; len];
        for &n in &order {
            let n = n as usize;
            if let Some(p) = parent[n] {
                let p = p as usize;
                self.off[n] = self.off[p] || (!self.on_chain[n] && self.on_chain[p] && sig[n]);
            }
        }
    }

    /// The main tree's leaf: the last prompt or reply in file order, unless
    /// `last-prompt.leafUuid` (read after it) names a point off its chain;
    /// then the newest line below that point.
    fn choose_leaf(&self, children: &[Vec<u32>]) -> Option<u32> {
        let last = (0..self.nodes.len())
            .rev()
            .find(|&i| self.nodes[i].role().candidate())
            .map(|i| i as u32);
        let Some((hint, at)) = &self.hint else {
            return last;
        };
        let Some(k) = self.node(hint) else {
            return last;
        };
        if last.is_some_and(|l| l as usize >= *at) {
            return last;
        }
        // The newest candidate in k's subtree (k itself at least).
        let mut best = k;
        let mut stack = vec![k];
        let mut seen = 0usize;
        while let Some(n) = stack.pop() {
            seen += 1;
            if seen > self.nodes.len() {
                break;
            }
            if self.nodes[n as usize].role().candidate()
                && (n > best || !self.nodes[best as usize].role().candidate())
            {
                best = n;
            }
            stack.extend(children[n as usize].iter().copied());
        }
        Some(best)
    }

    /// Parent links with every cycle cut (the first node found on a cycle
    /// becomes a root).
    fn acyclic_parents(&self) -> Vec<Option<u32>> {
        let mut parent: Vec<Option<u32>> = self.nodes.iter().map(Node::parent).collect();
        for (entry, _) in self.cycle_walk() {
            parent[entry as usize] = None;
        }
        parent
    }

    /// The cycle through `n`, if its parent links lead back to it: the
    /// cycle's first node in file order (as [`Self::cycles`] names it).
    pub fn cycle_through(&self, n: u32) -> Option<u32> {
        let mut first = n;
        let mut cur = self.nodes.get(n as usize)?.parent();
        let mut steps = 0;
        while let Some(c) = cur {
            if c == n {
                return Some(first);
            }
            steps += 1;
            if steps > self.nodes.len() {
                // a cycle above n that n is not on
                return None;
            }
            first = first.min(c);
            cur = self.nodes[c as usize].parent();
        }
        None
    }

    /// Nodes whose parent links form a cycle: one per cycle (its first line
    /// in file order).
    pub fn cycles(&self) -> Vec<u32> {
        let mut found: Vec<u32> = self
            .cycle_walk()
            .into_iter()
            .map(|(_, first)| first)
            .collect();
        found.sort_unstable();
        found.dedup();
        found
    }

    /// Each cycle once: the node where a walk up the parent links met it
    /// (cutting its link there makes the forest acyclic) and the cycle's
    /// first node in file order.
    fn cycle_walk(&self) -> Vec<(u32, u32)> {
        let len = self.nodes.len();
        // 0 = unvisited, 1 = on the current walk, 2 = done.
        let mut state = vec![0u8; len];
        let mut found = Vec::new();
        let mut path = Vec::new();
        for start in 0..len {
            let mut cur = Some(start as u32);
            path.clear();
            while let Some(c) = cur {
                match state[c as usize] {
                    2 => break,
                    1 => {
                        let from = path.iter().position(|&p| p == c).unwrap_or(0);
                        if let Some(&first) = path[from..].iter().min() {
                            found.push((c, first));
                        }
                        break;
                    }
                    _ => {
                        state[c as usize] = 1;
                        path.push(c);
                        cur = self.nodes[c as usize].parent();
                    }
                }
            }
            for &p in &path {
                state[p as usize] = 2;
            }
        }
        found
    }

    /// Nodes whose parent uuid is not in this transcript, with that uuid,
    /// in file order.
    pub fn dangling(&self) -> Vec<(&Node, &Uuid)> {
        let mut out: Vec<(u32, &Uuid)> = self.unread_parent.iter().map(|(&n, p)| (n, p)).collect();
        out.sort_unstable_by_key(|&(n, _)| n);
        out.into_iter()
            .filter_map(|(n, p)| Some((self.nodes.get(n as usize)?, p)))
            .collect()
    }
}

/// A stable hash for a message id (only compared within one run).
pub fn message_key(id: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    id.hash(&mut h);
    h.finish()
}

#[cfg(test)]
mod root_tests {
    use super::*;

    /// Lines without a parent, among chained ones and branches: what the
    /// shortcut leaves equals what the full pass derives.
    #[test]
    fn parentless_prompts_need_no_full_pass() {
        for seed in [7u64, 11, 12345] {
            parentless_lines_match_the_full_pass(seed);
        }
    }

    fn parentless_lines_match_the_full_pass(mut seed: u64) {
        let mut t = Threads::default();
        let mut rnd = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        for i in 0..1000u32 {
            let uuid = format!("n{i}");
            let parent = match rnd(5) {
                0 => None,
                1 => Some(format!("missing{i}")),
                _ if i > 0 => Some(format!("n{}", rnd(u64::from(i)))),
                _ => None,
            };
            let role = match rnd(3) {
                0 => Role::User,
                1 => Role::Assistant(rnd(50)),
                _ => Role::Side,
            };
            t.add(&uuid, parent.as_deref(), role, 0, i + 1);
            let (off, chain, leaf) = (t.off.clone(), t.on_chain.clone(), t.leaf);
            t.recompute();
            assert_eq!(
                (&off, &chain, leaf),
                (&t.off, &t.on_chain, t.leaf),
                "after line {i}"
            );
        }
    }
}

#[cfg(test)]
mod note_tests {
    use super::*;

    /// A uuid's node and its first line's fingerprint share one entry,
    /// whichever comes first: a line only noted (a mirrored subagent line)
    /// is no node, a line only threaded (progress) has no fingerprint.
    #[test]
    fn noting_and_threading_a_uuid_are_independent() {
        let mut t = Threads::default();
        // noted first, threaded later: the node is found, the print kept
        assert_eq!(t.note("a", 1), None);
        assert_eq!(t.node("a"), None);
        t.add("a", None, Role::User, 0, 1);
        assert_eq!(t.node("a"), Some(0));
        assert_eq!(t.note("a", 1), Some(1));
        assert_eq!(t.note("a", 2), Some(1));
        // threaded first (progress), noted later: new, then as noted
        t.add("b", Some("a"), Role::Side, 0, 2);
        assert_eq!(t.note("b", 7), None);
        assert_eq!(t.note("b", 8), Some(7));
        assert_eq!(t.node("b"), Some(1));
        // a child whose parent was only noted waits for a node
        t.add("c", Some("d"), Role::User, 0, 3);
        assert_eq!(t.note("d", 5), None);
        assert_eq!(t.nodes[2].parent(), None);
        t.add("d", None, Role::User, 0, 4);
        assert_eq!(t.nodes[2].parent(), Some(3));
        assert!(t.repeats.is_empty());
        // a repeated uuid is a repeat, not a node
        t.add("a", None, Role::User, 0, 5);
        assert_eq!(t.repeats.len(), 1);
        assert_eq!(t.nodes.len(), 4);
    }
}

#[cfg(test)]
mod index_tests {
    use super::*;

    /// The index grows (it is rehashed from the slots' uuids) and still
    /// finds every uuid; a noted uuid threaded later keeps the one copy of
    /// it, and a parent that is the newest node is the same node a lookup
    /// would find.
    #[test]
    fn the_index_finds_every_uuid_as_it_grows() {
        let mut t = Threads::default();
        let uuid = |i: u32| format!("{i:08x}-0000-4000-8000-{:012x}", i * 7919);
        for i in 0..20_000u32 {
            if i % 3 == 0 {
                assert_eq!(t.note(&uuid(i), u64::from(i)), None);
            }
            let parent = i.checked_sub(1 + i % 4).map(uuid);
            t.add(&uuid(i), parent.as_deref(), Role::Side, 0, i + 1);
        }
        for i in 0..20_000u32 {
            let n = t.node(&uuid(i)).expect("threaded");
            assert_eq!(n, i);
            let node = &t.nodes[n as usize];
            assert_eq!(node.parent(), i.checked_sub(1 + i % 4));
            let kept = t.uuid_of(node).expect("kept");
            assert_eq!(&**kept, uuid(i));
            // one copy of it, in the slot (a noted uuid's too)
            assert_eq!(Arc::strong_count(kept), 1);
            if i % 3 == 0 {
                assert_eq!(t.note(&uuid(i), 0), Some(u64::from(i)));
            }
        }
        assert_eq!(t.node("not-seen"), None);
        assert!(t.repeats.is_empty());
    }

    /// A node and a slot per line: they stay small, and a node gives back
    /// the role and parent it was made with.
    #[test]
    fn a_node_is_small_and_keeps_what_it_was_given() {
        assert!(size_of::<Node>() <= 24, "{}", size_of::<Node>());
        assert!(size_of::<Slot>() <= 32, "{}", size_of::<Slot>());
        for role in [
            Role::Side,
            Role::ToolResults,
            Role::User,
            Role::Assistant(0),
            Role::Assistant(u64::MAX),
        ] {
            for parent in [None, Some(0), Some(u32::MAX - 1)] {
                let n = Node::new(7, parent, role, 3, 9);
                assert_eq!(
                    (n.role(), n.parent(), n.source, n.line),
                    (role, parent, 3, 9)
                );
            }
        }
        let s = Slot::new("u".into(), None, Some(0));
        assert_eq!((s.node(), s.print()), (None, Some(0)));
        let s = Slot::new("u".into(), Some(4), None);
        assert_eq!((s.node(), s.print()), (Some(4), None));
    }
}
