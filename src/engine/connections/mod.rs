//! Virtual connections by H-search (Anshelevich): which of a side's groups
//! are joined whatever the opponent does.
//!
//! A *full* connection between two ends holds even with the opponent to
//! move; a *semi* connection needs one more move, its key. Ends are the
//! side's groups (its two edges are groups too) and empty cells. From
//! adjacency, two rules build the rest: AND joins two connections through
//! a middle end, OR turns semis between the same ends with no cell common
//! to all their carriers into a full one. Each connection also counts the
//! stones that complete it at most (AND adds, a key costs one, OR takes
//! the most of its semis), which bounds how long a proved win takes.
//!
//! Two searches apply the rules: [`AllEnds`], the default, pairs every end
//! with every other; [`GroupOnly`] chains empty cells through groups alone,
//! with short lists, and is cheaper. [`ListLimits`] picks one.

mod all_ends;
mod edge_frame;
mod escapes;
mod group_only;
mod ladders;
#[cfg(test)]
mod playout;

pub use self::all_ends::AllEnds;
pub use self::group_only::GroupOnly;
use super::bits::Bits;
use super::color::Color;

/// How a side's two edges are joined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeLink<B> {
    /// Joined whatever the opponent does, within the empty cells of
    /// `carrier`, by at most `need` more stones of the side.
    Full { carrier: B, need: u32 },
    /// Joined once the side plays `key`, by at most `need` stones (the key
    /// included) within `carrier`; the opponent, to move, must play in
    /// `must` (the cells every such connection needs) or lose, and then
    /// loses within `neediest` stones of the side. `every` holds the empty
    /// cells of enough of those connections to cut down to `must`: the cut
    /// stands as long as the opponent has no stone there.
    Semi { must: B, every: B, key: u16, carrier: B, need: u32, neediest: u32 },
    /// No connection found.
    None,
}

/// A connection between the side's two edges, as a search keeps it.
#[derive(Clone, Copy, Debug)]
struct EdgeConnection<B> {
    carrier: B,
    /// The key of a semi connection (unused for a full one).
    key: u16,
    need: u32,
}

impl<B: Bits> EdgeLink<B> {
    /// What a search's connections between the edges come to on `board`:
    /// the full one needing fewest stones, else the semis' summary.
    fn from_lists(
        board: B,
        fulls: impl Iterator<Item = EdgeConnection<B>>,
        semis: impl Iterator<Item = EdgeConnection<B>>,
    ) -> EdgeLink<B> {
        if let Some(f) = fulls.min_by_key(|f| f.need) {
            return EdgeLink::Full { carrier: f.carrier, need: f.need };
        }
        let semis: Vec<EdgeConnection<B>> = semis.collect();
        let Some(best) = semis.iter().min_by_key(|s| s.need) else { return EdgeLink::None };
        let must = semis.iter().fold(board, |acc, s| acc & s.carrier);
        // Often a few carriers already cut down to `must`: those alone are
        // what the cut depends on (smallest first, each kept only if it
        // narrows the cut).
        let mut carriers: Vec<B> = semis.iter().map(|s| s.carrier).collect();
        carriers.sort_by_key(|c| c.count());
        let (mut cut, mut every) = (board, B::zero());
        for c in carriers {
            if cut == must {
                break;
            }
            if cut & c != cut {
                cut = cut & c;
                every = every | c;
            }
        }
        let neediest = semis.iter().map(|s| s.need).max().unwrap_or(0);
        EdgeLink::Semi { must, every, key: best.key, carrier: best.carrier, need: best.need, neediest }
    }
}

/// How many connections H-search keeps for each pair of ends: longer lists
/// find more (a full connection needs its semis, an OR needs them all at
/// once) and cost more time on every search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ListLimits {
    /// Full connections per pair.
    pub full: usize,
    /// Semi connections per pair.
    pub semi: usize,
    /// Semi connections between the two edges, whose list decides what
    /// the opponent must play.
    pub edge_semi: usize,
    /// Pair every end with every other, empty cells included
    /// ([`AllEnds`], the default), instead of these lists: it decides
    /// far more positions, at a higher cost a search (docs/benchmarks.md
    /// has both).
    pub all_ends: bool,
    /// With [`AllEnds`], let AND and OR combine connections that share
    /// cells of an end's captured set (a second-row cell's two first-row
    /// cells, for one): more positions decided, at about three times the
    /// cost a search, so not yet the default (docs/benchmarks.md).
    pub captured: bool,
    /// With [`AllEnds`], start two second-row cells along an edge,
    /// as far apart as the reach allows, linked as "joined, or both
    /// joined to the edge", which AND keeps and which holds between the
    /// edges (MoHex's second-row ladder patterns; docs/benchmarks.md,
    /// 2026-12-04). None: no links.
    pub edge_links: Option<LinkReach>,
    /// With [`AllEnds`], also link, in the same sense, a second-row cell
    /// with one free first-row cell (or a third-row cell over two free
    /// second-row cells) to a second-row cell with both free however far
    /// along the edge, across the free cells between (a ladder: MoHex's
    /// `row2end2b`). They decide more only with `captured`: the far
    /// cell's way to the edge shares its first-row cells with the link
    /// (docs/benchmarks.md, 2026-12-06).
    pub ladder_links: bool,
}

/// How far apart along their edge two second-row cells may be and
/// still start linked: at least two cells (neighbours are joined
/// already), at most [`LinkReach::ANY`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinkReach(u8);

impl LinkReach {
    /// Every two cells along the edge, however far apart.
    pub const ANY: LinkReach = LinkReach(u8::MAX);

    /// Cells at most `apart` apart, from 2 to 254 (255 is [`Self::ANY`]).
    pub fn within(apart: u8) -> Option<LinkReach> {
        (2..u8::MAX).contains(&apart).then_some(LinkReach(apart))
    }

    /// The most cells the two may lie apart.
    pub fn apart(self) -> u8 {
        self.0
    }
}

impl Default for ListLimits {
    fn default() -> Self {
        ListLimits {
            full: 6,
            semi: 10,
            edge_semi: 24,
            all_ends: true,
            captured: false,
            edge_links: None,
            ladder_links: false,
        }
    }
}

impl ListLimits {
    /// Reads `FULL:SEMI:EDGE_SEMI`, three counts from 1 to 1000 for the
    /// group-only search with those lists, `all` for [`AllEnds`],
    /// `all+captured` for it with captured sets, either with `+links`
    /// for the second-row links along the edges (`+linksN`: only cells
    /// at most N apart, N from 2 to 254), and any of those with
    /// `+ladders` last for the ladder links.
    pub fn parse(text: &str) -> Option<ListLimits> {
        if let Some(rest) = text.strip_prefix("all") {
            return Self::parse_all_ends(rest);
        }
        let mut parts = text.split(':').map(|v| v.parse::<usize>().ok().filter(|n| (1..=1000).contains(n)));
        let limits = ListLimits {
            full: parts.next()??,
            semi: parts.next()??,
            edge_semi: parts.next()??,
            all_ends: false,
            captured: false,
            edge_links: None,
            ladder_links: false,
        };
        parts.next().is_none().then_some(limits)
    }

    /// What follows `all`: `[+captured][+links[N]][+ladders]`.
    fn parse_all_ends(rest: &str) -> Option<ListLimits> {
        let (rest, ladder_links) = rest.strip_suffix("+ladders").map_or((rest, false), |r| (r, true));
        let (rest, captured) = rest.strip_prefix("+captured").map_or((rest, false), |r| (r, true));
        let edge_links = match rest {
            "" => None,
            "+links" => Some(LinkReach::ANY),
            _ => {
                let apart = rest.strip_prefix("+links")?;
                // Digits only: `u8`'s parser would also take "+3".
                let digits = apart.bytes().all(|b| b.is_ascii_digit());
                Some(LinkReach::within(apart.parse::<u8>().ok().filter(|_| digits)?)?)
            }
        };
        Some(ListLimits { all_ends: true, captured, edge_links, ladder_links, ..ListLimits::default() })
    }
}

/// Two groups whose every full connection runs through `common`.
#[derive(Clone, Copy, Debug)]
pub struct Exposed<B> {
    pub common: B,
    /// The pair's index in the search's connection lists.
    pair: usize,
}

impl<B: Bits> Exposed<B> {
    /// The pairs of the first `groups` ends (the side's groups) whose full
    /// connections all share an empty cell: `fulls(a, b)` gives a pair's
    /// slot and its full carriers, if the search keeps that pair.
    fn among<I: Iterator<Item = B>>(
        groups: usize,
        empty: B,
        fulls: impl Fn(usize, usize) -> Option<(usize, I)>,
    ) -> Vec<Exposed<B>> {
        let mut exposed = Vec::new();
        for a in 0..groups {
            for b in a + 1..groups {
                let Some((pair, carriers)) = fulls(a, b) else { continue };
                let Some(common) = carriers.reduce(|x, y| x & y) else { continue };
                if !(common & empty).is_zero() {
                    exposed.push(Exposed { common, pair });
                }
            }
        }
        exposed
    }

    /// What [`Connections::replies_among`] says, given each pair's semis
    /// by slot.
    fn replies<I: Iterator<Item = EdgeConnection<B>>>(
        exposed: &[Exposed<B>],
        probe: usize,
        empty: B,
        semis: impl Fn(usize) -> I,
    ) -> B {
        let mut replies = B::zero();
        for e in exposed.iter().filter(|e| e.common.has(probe)) {
            for s in semis(e.pair) {
                if !s.carrier.has(probe) {
                    replies = replies | B::single(s.key as usize);
                }
            }
        }
        replies & empty & !B::single(probe)
    }
}

/// H-search for one board size, with scratch space reused between calls:
/// the search [`ListLimits`] picked.
#[derive(Clone, Debug)]
pub enum Connections<B: Bits> {
    GroupOnly(Box<GroupOnly<B>>),
    AllEnds(Box<AllEnds<B>>),
}

impl<B: Bits> Connections<B> {
    /// The group-only search for an `n`×`n` board, with the default list
    /// limits.
    #[cfg(test)]
    pub fn new(n: u8) -> Connections<B> {
        Self::with_limits(n, ListLimits { all_ends: false, ..ListLimits::default() })
    }

    /// H-search for an `n`×`n` board, as `limits` asks.
    pub fn with_limits(n: u8, limits: ListLimits) -> Connections<B> {
        if limits.all_ends {
            Connections::AllEnds(Box::new(AllEnds::new(n, limits)))
        } else {
            Connections::GroupOnly(Box::new(GroupOnly::new(n, limits)))
        }
    }

    /// How `colour`, with stones `own` and empty cells `empty`, joins its
    /// edges. With `any_semi`, the search stops at the first semi
    /// connection (enough to know the side to move wins); otherwise it
    /// gathers all it can, to narrow the opponent's must-play cells.
    pub fn edge_link(&mut self, colour: Color, own: B, empty: B, any_semi: bool) -> EdgeLink<B> {
        match self {
            Connections::GroupOnly(g) => g.edge_link(colour, own, empty, any_semi),
            Connections::AllEnds(a) => a.edge_link(colour, own, empty, any_semi),
        }
    }

    /// After [`Connections::edge_link`]: the pairs of groups whose full
    /// connections all share cells, with those cells: the only places a
    /// single stone can break a connection. Worked out once for many
    /// probes (see [`Connections::replies_among`]).
    pub fn exposed(&self) -> Vec<Exposed<B>> {
        match self {
            Connections::GroupOnly(g) => g.exposed(),
            Connections::AllEnds(a) => a.exposed(),
        }
    }

    /// After [`Connections::edge_link`]: the side's answers to an opponent
    /// stone on `probe`. Where that stone lies in every full connection
    /// found between two of the side's groups (its edges included; the
    /// pairs [`Connections::exposed`] found), each semi connection between
    /// them that avoids it is restored by its key. A hint, not a proof:
    /// the lists are bounded, and a connection outside them may avoid the
    /// probe.
    pub fn replies_among(&self, exposed: &[Exposed<B>], probe: usize) -> B {
        match self {
            Connections::GroupOnly(g) => g.replies_among(exposed, probe),
            Connections::AllEnds(a) => a.replies_among(exposed, probe),
        }
    }
}
