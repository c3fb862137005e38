//! Random playouts: finish a game at random and see who won.
//!
//! Hex needs no move-by-move win test here: a full board always has exactly
//! one winner, and stones added after a win cannot take it away, so a
//! playout fills every empty cell at once and checks the winner once
//! ("fill then check"). The uniform playout is the speed benchmark; the
//! bridge-aware one is what the search uses.

use super::bits::{Bits, Masks};
use super::cell::{Cell, NEIGHBOUR_OFFSETS};
use super::color::Color;
use super::patterns::answers::Answers;
use super::patterns::playout::{self as weights, Acceptance};
use super::rng::Rng;
use super::stones::Stones;
use super::weighted_cells::WeightedCells;

// The browser's worker does without learned answers (off by default, and
// its bundle is near its budget).
#[cfg(not(target_arch = "wasm32"))]
mod answers;
pub mod balance;
mod near;

#[cfg(not(target_arch = "wasm32"))]
use answers::AnswerDraw;
use near::NearDraw;
pub use near::NearFactors;

/// Uniform random playouts on one board size.
#[derive(Clone, Debug)]
pub struct UniformPlayouts<B: Bits> {
    masks: Masks<B>,
    scratch: Vec<u16>,
}

impl<B: Bits> UniformPlayouts<B> {
    /// Playouts for an `n`×`n` board.
    pub fn new(n: u8) -> UniformPlayouts<B> {
        UniformPlayouts { masks: Masks::new(n), scratch: Vec::with_capacity(n as usize * n as usize) }
    }

    /// Fills the empty cells at random, the side to move getting the extra
    /// stone of an odd count, and returns the winner.
    pub fn run(&mut self, from: &Stones<B>, empties: &[u16], rng: &mut Rng) -> Color {
        self.scratch.clear();
        self.scratch.extend_from_slice(empties);
        let k = self.scratch.len();
        let mover_share = k.div_ceil(2);
        let mut mover = B::zero();
        // A partial Fisher–Yates shuffle: the first half drawn is the mover's.
        for i in 0..mover_share {
            let j = i + rng.below(k - i);
            self.scratch.swap(i, j);
            mover = mover | B::single(self.scratch[i] as usize);
        }
        let rest = from.empty_cells(&self.masks) & !mover;
        let red = match from.to_move {
            Color::Red => from.red | mover,
            Color::Blue => from.red | rest,
        };
        if self.masks.red_connects(red) { Color::Red } else { Color::Blue }
    }
}

/// Marks a neighbour of a bridge pattern that lies off the board on one
/// side's edge: an edge acts as a stone of its owner.
const RED_EDGE: u16 = u16::MAX - 2;
const BLUE_EDGE: u16 = u16::MAX - 1;
const OFF_BOARD: u16 = u16::MAX;

/// Playouts that save bridges: when a stone lands on one of the two cells
/// that join a pair of the opponent's stones (or a stone and its edge), the
/// opponent answers on the other cell. Otherwise moves are drawn at random,
/// uniformly or, with pattern weights, in proportion to the weight the
/// mover's pattern of the cell's six neighbours has (see [`weights`]).
#[derive(Clone, Debug)]
pub struct BridgePlayouts<B: Bits> {
    masks: Masks<B>,
    /// For each cell, the six (stone, stone, other carrier) triples of the
    /// bridges it is a carrier of, in ring order, as indices into `owner`
    /// (whose last three entries stand for the two edges and off the
    /// board), so that a test reads three bytes and never branches on
    /// where a cell lies.
    bridges: Vec<[[u16; 3]; 6]>,
    /// For each cell, its six neighbours in ring order, as indices into
    /// `owner` like `bridges`.
    adjacent: Vec<[u16; 6]>,
    acceptance: Option<Acceptance>,
    /// Who holds each cell, then the red edge, the blue edge and a cell
    /// off the board (see `bridges`).
    owner: Vec<u8>,
    order: Vec<u16>,
    /// With weights: the empty cells' neighbour codes, kept up to date
    /// move by move, and the cells to draw from.
    codes: Vec<u16>,
    weighted: WeightedCells,
    /// Answers near the opponent's last stone, when asked for.
    near: Option<NearDraw>,
    /// Learned answers to the opponent's last stone, when asked for.
    #[cfg(not(target_arch = "wasm32"))]
    answers: Option<AnswerDraw>,
}

const EMPTY: u8 = 0;
const RED: u8 = 1;
const BLUE: u8 = 2;
/// Off the board: neither empty nor anyone's, and `RED & BLUE` is 0, so a
/// pair of owners ANDed reads as a colour only when both hold it.
const OFF: u8 = 3;

fn code(colour: Color) -> u8 {
    match colour {
        Color::Red => RED,
        Color::Blue => BLUE,
    }
}

/// The code of the empty cell in ring direction `k` from a cell `colour`
/// just took: seen from that neighbour, the stone lies the opposite way.
#[inline]
fn with_stone(code: u16, k: usize, colour: u8) -> u16 {
    let bits = if colour == RED { weights::RED } else { weights::BLUE };
    code | (bits << (2 * ((k + 3) % 6))) as u16
}

/// The neighbour offsets in ring order: each is adjacent to the next.
const RING: [(i8, i8); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

impl<B: Bits> BridgePlayouts<B> {
    /// Playouts for an `n`×`n` board.
    pub fn new(n: u8) -> BridgePlayouts<B> {
        debug_assert!(RING.iter().all(|o| NEIGHBOUR_OFFSETS.contains(o)));
        let cells = n as usize * n as usize;
        let at = |q: i16, r: i16| -> u16 {
            let n = n as i16;
            if q < 0 || q >= n {
                RED_EDGE
            } else if r < 0 || r >= n {
                BLUE_EDGE
            } else {
                (r * n + q) as u16
            }
        };
        // Where the edges and the outside sit at the end of `owner`.
        let slot = |at: u16| match at {
            RED_EDGE => cells as u16,
            BLUE_EDGE => cells as u16 + 1,
            OFF_BOARD => cells as u16 + 2,
            i => i,
        };
        let adjacent = (0..cells)
            .map(|i| {
                let c = Cell::from_index(i, n);
                std::array::from_fn(|k| slot(at(c.q as i16 + RING[k].0 as i16, c.r as i16 + RING[k].1 as i16)))
            })
            .collect();
        let bridges = (0..cells)
            .map(|i| {
                let c = Cell::from_index(i, n);
                let (q, r) = (c.q as i16, c.r as i16);
                // Seen from a carrier, a bridge's two stones and its other
                // carrier are three consecutive neighbours, the carrier in
                // the middle.
                std::array::from_fn(|k| {
                    let (a, d, b) = (RING[k], RING[(k + 1) % 6], RING[(k + 2) % 6]);
                    let d = at(q + d.0 as i16, r + d.1 as i16);
                    let d = if d >= RED_EDGE { OFF_BOARD } else { d };
                    [at(q + a.0 as i16, r + a.1 as i16), at(q + b.0 as i16, r + b.1 as i16), d].map(slot)
                })
            })
            .collect();
        let mut owner = vec![EMPTY; cells + 3];
        owner[cells..].copy_from_slice(&[RED, BLUE, OFF]);
        BridgePlayouts {
            masks: Masks::new(n),
            bridges,
            adjacent,
            acceptance: None,
            owner,
            order: Vec::with_capacity(cells),
            codes: Vec::new(),
            weighted: WeightedCells::new(0, 1),
            near: None,
            #[cfg(not(target_arch = "wasm32"))]
            answers: None,
        }
    }

    /// The same playouts, favouring answers near the opponent's last
    /// stone by `factors`.
    pub fn near_replies(mut self, factors: NearFactors) -> BridgePlayouts<B> {
        self.near = Some(NearDraw::new(self.masks.size, factors));
        self
    }

    /// A cell near `last` for the next move, or none (see [`NearDraw`]).
    #[inline]
    fn draw_near(&self, last: Option<usize>, left: usize, rng: &mut Rng) -> Option<usize> {
        let (near, last) = (self.near.as_ref()?, last?);
        near.draw(last, left, |c| self.owner[c] == EMPTY, rng)
    }

    /// The same playouts, answering the opponent's last stone by the
    /// learned `answers`, if any, their weights counted `scale` times (see
    /// [`AnswerDraw`], [`AnswerDraw::scaled`]).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn answer_replies(self, answers: Option<&'static Answers>, scale: f32) -> BridgePlayouts<B> {
        let answers = answers.map(|a| AnswerDraw::new(self.masks.size, a).scaled(scale));
        BridgePlayouts { answers, ..self }
    }

    #[cfg(target_arch = "wasm32")]
    pub fn answer_replies(self, _: Option<&'static Answers>, _: f32) -> BridgePlayouts<B> {
        self
    }

    /// A learned answer to `last` for `mover`, or none.
    #[cfg(not(target_arch = "wasm32"))]
    #[inline]
    fn draw_answer(&mut self, last: Option<usize>, mover: Color, left: usize, rng: &mut Rng) -> Option<usize> {
        let (answers, last) = (self.answers.as_mut()?, last?);
        answers.draw(last, mover, left, &self.owner, rng)
    }

    #[cfg(target_arch = "wasm32")]
    #[inline]
    fn draw_answer(&mut self, _: Option<usize>, _: Color, _: usize, _: &mut Rng) -> Option<usize> {
        None
    }

    /// Reads the answers' codes at a playout's start.
    #[inline]
    fn start_answers(&mut self) {
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(answers) = &mut self.answers {
            answers.start(&self.owner);
        }
    }

    /// Sets the tree's root, `from`, whose answer codes each playout below
    /// it starts from (see [`AnswerDraw::start`]).
    pub fn set_root(&mut self, from: &Stones<B>) {
        #[cfg(not(target_arch = "wasm32"))]
        if self.answers.is_some() {
            self.set_board(from);
            if let Some(answers) = &mut self.answers {
                answers.set_root(&self.owner);
            }
        }
        #[cfg(target_arch = "wasm32")]
        let _ = from;
    }

    /// Updates the answers' codes after `colour` took `cell`.
    #[inline]
    fn play_answers(&mut self, cell: usize, colour: u8) {
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(answers) = &mut self.answers {
            answers.play(cell, colour);
        }
        #[cfg(target_arch = "wasm32")]
        let _ = (cell, colour);
    }

    /// The same playouts, drawing cells by `acceptance`.
    pub fn weighted(mut self, acceptance: Acceptance) -> BridgePlayouts<B> {
        let cells = self.cells();
        self.acceptance = Some(acceptance);
        self.codes = vec![0; cells];
        self.weighted = WeightedCells::new(cells, self.masks.size as usize);
        self
    }

    /// The code of the colours around `cell` (see [`weights::CODES`]).
    #[inline]
    fn code(&self, cell: usize) -> usize {
        let mut code = 0;
        for (k, &at) in self.adjacent[cell].iter().enumerate() {
            let bits = match self.owner[at as usize] {
                RED => weights::RED,
                BLUE => weights::BLUE,
                _ => weights::EMPTY,
            };
            code |= bits << (2 * k);
        }
        code
    }

    /// The next cell drawn uniformly among `order[next..]`, moved to
    /// `order[next]`; cells already taken (by replies) are skipped (a lazy
    /// Fisher–Yates shuffle).
    #[inline]
    fn draw_uniform(&mut self, next: &mut usize, rng: &mut Rng) -> usize {
        loop {
            let j = *next + rng.below(self.order.len() - *next);
            let c = self.order[j] as usize;
            self.order.swap(*next, j);
            *next += 1;
            if self.owner[c] == EMPTY {
                return c;
            }
        }
    }

    /// The next cell for `mover`: by the weights when there are some.
    #[inline]
    fn draw(&mut self, next: &mut usize, mover: Color, rng: &mut Rng) -> usize {
        match self.acceptance.is_some().then(|| self.weighted.draw(mover, rng)).flatten() {
            Some(c) => c,
            None => self.draw_uniform(next, rng),
        }
    }

    /// Both sides' weights of an empty cell whose neighbours read `code`.
    #[inline]
    fn weights_of(acceptance: &Acceptance, code: usize) -> [u32; 2] {
        [u32::from(acceptance.of(Color::Red, code)), u32::from(acceptance.of(Color::Blue, code))]
    }

    /// Puts every empty cell in the weighted set with its weights.
    fn start_weighted(&mut self, empties: &[u16]) {
        let Some(acceptance) = &self.acceptance else { return };
        self.weighted.clear();
        for &c in empties {
            let c = c as usize;
            let code = self.code(c);
            self.codes[c] = code as u16;
            self.weighted.set(c, Self::weights_of(acceptance, code));
        }
    }

    /// Takes `cell`, just played by `colour`, out of the weighted set and
    /// reweighs its empty neighbours, whose patterns it changed.
    #[inline]
    fn update_weighted(&mut self, cell: usize, colour: u8) {
        let Some(acceptance) = &self.acceptance else { return };
        self.weighted.set(cell, [0, 0]);
        for (k, &at) in self.adjacent[cell].iter().enumerate() {
            // An edge's entry holds its owner, so it is never empty.
            if self.owner[at as usize] != EMPTY {
                continue;
            }
            let code = with_stone(self.codes[at as usize], k, colour) as usize;
            self.codes[at as usize] = code as u16;
            self.weighted.set(at as usize, Self::weights_of(acceptance, code));
        }
    }

    /// The board's cell count (`owner` holds three more entries).
    #[inline]
    fn cells(&self) -> usize {
        self.owner.len() - 3
    }

    /// The cell that saves `colour`'s bridge broken by a stone on `played`.
    #[inline]
    fn bridge_reply(&self, played: usize, colour: u8) -> Option<usize> {
        for &[a, b, d] in &self.bridges[played] {
            if self.owner[d as usize] == EMPTY && self.owner[a as usize] & self.owner[b as usize] == colour {
                return Some(d as usize);
            }
        }
        None
    }

    /// Sets `owner` to the stones of `from`.
    fn set_board(&mut self, from: &Stones<B>) {
        let cells = self.cells();
        self.owner[..cells].fill(EMPTY);
        for i in from.red.ones() {
            self.owner[i] = RED;
        }
        for i in from.blue.ones() {
            self.owner[i] = BLUE;
        }
    }

    /// Plays the game out from `from`, whose last stone is on `last` when
    /// known, and returns the final board: every cell taken, so exactly one
    /// side has won. The first move answers `last` as any later one answers
    /// the move before it: a tree's move into a bridge is saved at once,
    /// not left to chance.
    pub fn run(&mut self, from: &Stones<B>, empties: &[u16], last: Option<usize>, rng: &mut Rng) -> Stones<B> {
        self.set_board(from);
        self.order.clear();
        self.order.extend_from_slice(empties);
        self.start_weighted(empties);
        self.start_answers();
        let mut out = *from;
        let mut mover = from.to_move;
        let mut next = 0;
        let mut reply = last.and_then(|cell| self.bridge_reply(cell, code(mover)));
        let mut last = last;
        let mut left = empties.len();
        while left > 0 {
            let cell = match reply.take().filter(|&c| self.owner[c] == EMPTY) {
                Some(c) => c,
                None => match self.draw_answer(last, mover, left, rng).or_else(|| self.draw_near(last, left, rng)) {
                    Some(c) => c,
                    None => self.draw(&mut next, mover, rng),
                },
            };
            last = Some(cell);
            self.owner[cell] = code(mover);
            self.update_weighted(cell, code(mover));
            self.play_answers(cell, code(mover));
            out.to_move = mover;
            out.play(cell);
            left -= 1;
            mover = mover.opponent();
            reply = self.bridge_reply(cell, code(mover));
        }
        out
    }

    /// Whether `colour` holds `cell` on the board the last
    /// [`BridgePlayouts::run`] filled.
    #[inline]
    pub fn took(&self, cell: usize, colour: Color) -> bool {
        self.owner[cell] == code(colour)
    }

    /// The winner of a full board from [`BridgePlayouts::run`].
    #[inline]
    pub fn winner(&self, full: &Stones<B>) -> Color {
        if self.masks.red_connects(full.red) { Color::Red } else { Color::Blue }
    }
}

/// The indices of the set's members, in increasing order.
pub fn members<B: Bits>(set: B, cells: usize, out: &mut Vec<u16>) {
    out.clear();
    out.extend(set.ones().take_while(|&i| i < cells).map(|i| i as u16));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::bits::Wide;

    fn stones_from(text: &str, n: u8) -> Stones<u128> {
        let game = crate::engine::Record::from_text(text, n).unwrap().to_game(false).unwrap();
        Stones::from_position(game.position())
    }

    #[test]
    fn a_uniform_playout_fills_the_board_and_names_the_flood_fill_winner() {
        let mut p = UniformPlayouts::<u128>::new(7);
        let mut rng = Rng::new(3);
        let s = Stones::empty();
        let mut empties = Vec::new();
        members(s.empty_cells(&p.masks), 49, &mut empties);
        let mut red_wins = 0;
        for _ in 0..2000 {
            if p.run(&s, &empties, &mut rng) == Color::Red {
                red_wins += 1;
            }
        }
        // The first player wins well over half of random 7×7 games.
        assert!((1000..1500).contains(&red_wins), "{red_wins}");
    }

    #[test]
    fn a_bridge_playout_fills_every_cell_alternately() {
        let mut p = BridgePlayouts::<Wide<6>>::new(13);
        let mut rng = Rng::new(9);
        let s = Stones::<Wide<6>>::empty();
        let mut empties = Vec::new();
        members(s.empty_cells(&p.masks), 169, &mut empties);
        for _ in 0..50 {
            let full = p.run(&s, &empties, None, &mut rng);
            assert_eq!(full.red.count(), 85);
            assert_eq!(full.blue.count(), 84);
            let m = p.masks;
            assert_ne!(m.red_connects(full.red), m.blue_connects(full.blue));
        }
    }

    #[test]
    fn an_intrusion_into_a_bridge_is_answered() {
        // Red c2 and b4 form a bridge over b3 and c3.
        let mut p = BridgePlayouts::<u128>::new(5);
        for (i, o) in p.owner.iter_mut().take(25).enumerate() {
            *o = match Cell::from_index(i, 5) {
                Cell { q: 2, r: 1 } | Cell { q: 1, r: 3 } => RED,
                _ => EMPTY,
            };
        }
        let intrusion = Cell::new(1, 2).index(5);
        p.owner[intrusion] = BLUE;
        assert_eq!(p.bridge_reply(intrusion, RED), Some(Cell::new(2, 2).index(5)));
        // Red b3 and the left edge form a bridge over a3 and a4.
        let mut p = BridgePlayouts::<u128>::new(5);
        p.owner[Cell::new(1, 2).index(5)] = RED;
        p.owner[Cell::new(0, 2).index(5)] = BLUE;
        assert_eq!(p.bridge_reply(Cell::new(0, 2).index(5), RED), Some(Cell::new(0, 3).index(5)));
    }

    #[test]
    fn a_playout_answers_the_stone_that_led_to_it_first() {
        // Blue's last stone b3 intrudes into Red's bridge c2–b4; Red, to
        // move, saves it on c3 as the playout's first move. Told nothing of
        // b3, it does so only when chance gets there first.
        let s = stones_from("5x5 c2 a1 b4 b3", 5);
        let (intrusion, save) = (Cell::new(1, 2).index(5), Cell::new(2, 2).index(5));
        let mut p = BridgePlayouts::<u128>::new(5);
        let mut empties = Vec::new();
        members(s.empty_cells(&p.masks), 25, &mut empties);
        let mut rng = Rng::new(5);
        let saved = |p: &mut BridgePlayouts<u128>, last: Option<usize>, rng: &mut Rng| {
            (0..400).filter(|_| p.run(&s, &empties, last, rng).red.has(save)).count()
        };
        assert_eq!(saved(&mut p, Some(intrusion), &mut rng), 400);
        let by_chance = saved(&mut p, None, &mut rng);
        assert!((100..300).contains(&by_chance), "{by_chance}");
    }

    /// Playout weights that keep only cells with no stone and no edge
    /// around them.
    fn open_cells_only() -> Acceptance {
        use crate::engine::patterns::{Patterns, playout::PlayoutPolicy, shape};
        let weights = (0..1u64 << 12)
            .filter(|&s| shape::is_valid(s) && shape::canonical(s) == s)
            .map(|s| (s, if s == 0 { 1.0 } else { 1e-4 }));
        let weights = Box::leak(Box::new(Patterns::new(weights, 1e-4)));
        Acceptance::new(PlayoutPolicy { weights, cap: 1.0 })
    }

    #[test]
    fn weighted_draws_favour_what_the_weights_favour() {
        // On the empty 7×7 board the 25 inner cells have no stone or edge
        // around them. Uniform draws take one about half the time; draws
        // that shun every other cell almost always do.
        let inner = |c: usize| {
            let cell = Cell::from_index(c, 7);
            (1..6).contains(&cell.q) && (1..6).contains(&cell.r)
        };
        let share = |p: &mut BridgePlayouts<u64>| {
            let mut rng = Rng::new(5);
            let mut hits = 0;
            let empties: Vec<u16> = (0..49).collect();
            for _ in 0..2000 {
                p.order.clear();
                p.order.extend_from_slice(&empties);
                p.start_weighted(&empties);
                let mut next = 0;
                hits += usize::from(inner(p.draw(&mut next, Color::Red, &mut rng)));
            }
            hits as f64 / 2000.0
        };
        let uniform = share(&mut BridgePlayouts::new(7));
        assert!((0.45..0.57).contains(&uniform), "{uniform}");
        let weighted = share(&mut BridgePlayouts::new(7).weighted(open_cells_only()));
        assert!(weighted > 0.97, "{weighted}");
    }

    #[test]
    fn the_weights_follow_the_board_move_by_move() {
        use crate::engine::patterns::playout::PlayoutPolicy;
        let acceptance = Acceptance::new(PlayoutPolicy::builtin(1.0));
        let mut p = BridgePlayouts::<u64>::new(6).weighted(acceptance.clone());
        let empties: Vec<u16> = (0..36).collect();
        p.order.extend_from_slice(&empties);
        p.start_weighted(&empties);
        let (mut rng, mut mover, mut next) = (Rng::new(4), Color::Red, 0);
        for _ in 0..30 {
            let played = p.draw(&mut next, mover, &mut rng);
            assert_eq!(p.owner[played], EMPTY);
            p.owner[played] = code(mover);
            p.update_weighted(played, code(mover));
            // Every cell reads as if its weights were worked out afresh.
            for c in 0..36 {
                let expected = match p.owner[c] {
                    EMPTY => {
                        [acceptance.of(Color::Red, p.code(c)), acceptance.of(Color::Blue, p.code(c))].map(u32::from)
                    }
                    _ => [0, 0],
                };
                assert_eq!([p.weighted.weight(Color::Red, c), p.weighted.weight(Color::Blue, c)], expected, "{c}");
            }
            mover = mover.opponent();
        }
    }

    #[test]
    fn a_weighted_playout_still_fills_every_cell_alternately() {
        let mut p = BridgePlayouts::<u128>::new(11).weighted(open_cells_only());
        let mut rng = Rng::new(2);
        let s = Stones::<u128>::empty();
        let mut empties = Vec::new();
        members(s.empty_cells(&p.masks), 121, &mut empties);
        for _ in 0..50 {
            let full = p.run(&s, &empties, None, &mut rng);
            assert_eq!((full.red.count(), full.blue.count()), (61, 60));
        }
    }

    #[test]
    fn a_playout_with_answers_answers_and_still_fills_every_cell_alternately() {
        // Every shape around the last stone weighs 40 far cells: most moves
        // answer it.
        let all = (0..1u64 << 12).map(|s| (crate::engine::patterns::answers::pattern(s), 40.0));
        let weights = Box::leak(Box::new(Answers::new(crate::engine::patterns::Patterns::new(all, 40.0))));
        let mut p = BridgePlayouts::<u128>::new(11).answer_replies(Some(weights), 1.0);
        let mut rng = Rng::new(6);
        let s = Stones::<u128>::empty();
        let mut empties = Vec::new();
        members(s.empty_cells(&p.masks), 121, &mut empties);
        let (mut answered, mut moves) = (0, 0);
        for _ in 0..50 {
            let full = p.run(&s, &empties, None, &mut rng);
            assert_eq!((full.red.count(), full.blue.count()), (61, 60));
            // Replayed: how many moves were among the twelve around the
            // one before (by the answers or by chance).
            let mut q = BridgePlayouts::<u128>::new(11).answer_replies(Some(weights), 1.0);
            q.set_board(&s);
            if let Some(a) = &mut q.answers {
                a.start(&q.owner);
            }
            let mut r = Rng::new(rng.next_u64());
            let mut last = None;
            for left in (1..=121).rev() {
                let mover = if left % 2 == 1 { Color::Red } else { Color::Blue };
                let cell = match q.draw_answer(last, mover, left, &mut r) {
                    Some(c) => c,
                    None => (0..121).find(|&c| q.owner[c] == EMPTY).unwrap(),
                };
                if let Some(l) = last {
                    let near = Cell::from_index(cell, 11).distance(Cell::from_index(l, 11)) <= 2;
                    answered += usize::from(near);
                }
                moves += 1;
                q.owner[cell] = code(mover);
                if let Some(a) = &mut q.answers {
                    a.play(cell, code(mover));
                }
                last = Some(cell);
            }
        }
        assert!(answered * 2 > moves, "{answered} of {moves}");
    }

    #[test]
    fn winning_cells_are_exactly_the_one_move_wins() {
        // Red a3 b3 _ d3 e3 on 5×5: only c3 wins at once.
        let s = stones_from("5x5 a3 a1 b3 b1 d3 d1 e3 e1", 5);
        let m = Masks::<u128>::new(5);
        assert_eq!(s.winning_cells(&m, Color::Red), 1 << Cell::new(2, 2).index(5));
        assert_eq!(s.winning_cells(&m, Color::Blue), 0);
        // Cross-check against trying every empty cell.
        for i in 0..25 {
            if s.empty_cells(&m).has(i) {
                let mut t = s;
                t.to_move = Color::Red;
                t.play(i);
                assert_eq!(t.has_won(&m, Color::Red), s.winning_cells(&m, Color::Red).has(i));
            }
        }
    }
}
