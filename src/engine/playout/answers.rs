//! Learned answers to the opponent's last stone in a playout
//! ([`crate::engine::patterns::answers`]).
//!
//! After each move the twelve cells around it are read, each by its own
//! twelve-cell shape as the side to move sees it, and weighed by the
//! learned answer weights. A far cell weighs 1 and an answer its learned
//! weight, so an answer is drawn here with its weight above 1, and
//! otherwise the caller draws from the whole board, where an answer
//! weighs 1 like any cell: an answer weighing less than a far cell is not
//! drawn less often than one, which only such a shape can notice.

use super::{BLUE, EMPTY, RED, Rng};
use crate::engine::cell::Cell;
use crate::engine::color::Color;
use crate::engine::patterns::answers::{self, Answers, READ};
use crate::engine::patterns::shape::{MINE_EDGE, Shapes, THEIRS_EDGE};

/// Draws answers to the last stone for one board size.
#[derive(Clone, Debug)]
pub(super) struct AnswerDraw {
    answers: &'static Answers,
    /// For each cell and mover (Red, Blue), where the twelve cells of its
    /// answer pattern are, as indices into the playout's `owner` (whose
    /// entries past the cells hold the red edge, then the blue edge).
    read: Vec<[[u16; READ]; 2]>,
    /// For each cell, the twelve cells around it, with the place value (a
    /// power of 3) it has in each one's code for a Red and a Blue mover.
    /// Places off the board name the entry just past the cells (the red
    /// edge's in `owner`, never empty): every cell has twelve, and the
    /// loops over them have no exit to predict.
    around: Vec<[Around; READ]>,
    /// Each cell's code ([`Answers::extra`]) for a Red and a Blue mover,
    /// kept up to date move by move rather than read afresh for each
    /// answer weighed; then the spare entry's, which stays 0.
    codes: Vec<[u32; 2]>,
    /// The tree's root, whose codes a playout starts from: its owner
    /// entries and codes (empty until [`AnswerDraw::set_root`]).
    root_owner: Vec<u8>,
    root_codes: Vec<[u32; 2]>,
    /// A far cell's weight in the draw, in sixteenths of the fit's far
    /// cell (see [`AnswerDraw::scaled`]).
    far: u32,
}

/// A cell around another and the place value the other has in its codes.
#[derive(Clone, Copy, Debug)]
struct Around {
    cell: u16,
    place: [u32; 2],
}

/// What an owner entry reads as in a code, for a Red mover and a Blue
/// one: 0 empty, 1 the mover's, 2 the opponent's.
const POINT: [[u32; 4]; 2] = [[0, 1, 2, 0], [0, 2, 1, 0]];

/// A far cell's weight as fitted, in the sixteenths the answers' weights
/// are kept in ([`Answers::extra`]).
const FAR: u32 = 16;

const POWERS: [u32; READ] = {
    let mut p = [1u32; READ];
    let mut k = 1;
    while k < READ {
        p[k] = p[k - 1] * 3;
        k += 1;
    }
    p
};

impl AnswerDraw {
    pub fn new(n: u8, answers: &'static Answers) -> AnswerDraw {
        let cells = n as usize * n as usize;
        let shapes = Shapes::new(n);
        let (red_edge, blue_edge) = (cells as u16, cells as u16 + 1);
        let read: Vec<[[u16; READ]; 2]> = (0..cells)
            .map(|c| {
                std::array::from_fn(|blue| {
                    let (mine, theirs) = if blue == 1 { (blue_edge, red_edge) } else { (red_edge, blue_edge) };
                    std::array::from_fn(|k| match shapes.neighbour(c, blue == 1, k) {
                        MINE_EDGE => mine,
                        THEIRS_EDGE => theirs,
                        i => i,
                    })
                })
            })
            .collect();
        let place = |read: &[[u16; READ]; 2], blue: usize, of: usize| -> u32 {
            // `of` is always among them: being around is symmetric.
            read[blue].iter().position(|&at| at as usize == of).map_or(0, |k| POWERS[k])
        };
        let none = Around { cell: cells as u16, place: [0; 2] };
        let around = (0..cells)
            .map(|last| {
                let at = Cell::from_index(last, n);
                let mut twelve = [none; READ];
                let near = (0..cells).filter(|&c| answers::around(Cell::from_index(c, n), at));
                for (slot, c) in twelve.iter_mut().zip(near) {
                    *slot = Around { cell: c as u16, place: [place(&read[c], 0, last), place(&read[c], 1, last)] };
                }
                twelve
            })
            .collect();
        AnswerDraw {
            answers,
            read,
            around,
            codes: vec![[0; 2]; cells + 1],
            root_owner: Vec::new(),
            root_codes: Vec::new(),
            far: FAR,
        }
    }

    /// The same draw with every answer's weight above a far cell's
    /// counted `scale` times: below 1 the playouts answer less often,
    /// above 1 more, keeping the fit's preferences among the answers. A
    /// fit predicts a player's next move, which need not be how often a
    /// playout that judges a position should answer; this lets that share
    /// be played apart from the fit.
    pub fn scaled(self, scale: f32) -> AnswerDraw {
        let scale = scale.clamp(*answers::SCALES.start(), *answers::SCALES.end());
        let far = (FAR as f32 / scale).round() as u32;
        AnswerDraw { far, ..self }
    }

    /// Reads every cell's codes from `owner`: the taken cells' too, so that
    /// every code stays a valid index however the playout goes on (a taken
    /// cell's code is read, and weighs nothing, in [`AnswerDraw::draw`],
    /// which thereby needs no branch).
    fn read_all(&mut self, owner: &[u8]) {
        for c in 0..self.read.len() {
            let read = &self.read[c];
            let mut code = [0u32; 2];
            for (blue, code) in code.iter_mut().enumerate() {
                for (k, &at) in read[blue].iter().enumerate() {
                    *code += POINT[blue][owner[at as usize] as usize & 3] * POWERS[k];
                }
            }
            self.codes[c] = code;
        }
    }

    /// Keeps the codes of the tree's root, whose `owner` entries every
    /// playout's start then extends.
    pub fn set_root(&mut self, owner: &[u8]) {
        self.read_all(owner);
        self.root_owner.clear();
        self.root_owner.extend_from_slice(&owner[..self.read.len()]);
        self.root_codes.clone_from(&self.codes);
    }

    /// Sets the codes for `owner` at a playout's start: the root's codes
    /// with the stones played since, when the root's stones are all still
    /// there (a playout below the root), otherwise read afresh. The tree's
    /// few moves cost far less than reading the whole board.
    pub fn start(&mut self, owner: &[u8]) {
        let cells = self.read.len();
        let below = self.root_owner.len() == cells
            && self.root_owner.iter().zip(owner).all(|(&root, &now)| root == EMPTY || root == now);
        if !below {
            return self.read_all(owner);
        }
        self.codes.copy_from_slice(&self.root_codes);
        for (c, &now) in owner[..cells].iter().enumerate() {
            if self.root_owner[c] != now {
                self.play(c, now);
            }
        }
    }

    /// Updates the codes around `cell`, just taken by `colour` (an owner
    /// code).
    #[inline]
    pub fn play(&mut self, cell: usize, colour: u8) {
        let points = [POINT[0][colour as usize & 3], POINT[1][colour as usize & 3]];
        // Each place of a code is set once, when its cell is taken, so a
        // code stays below 3¹² whether its own cell is empty or not.
        // The spare entry's codes gain nothing: its places are 0.
        for a in &self.around[cell] {
            let code = &mut self.codes[a.cell as usize];
            code[0] += points[0] * a.place[0];
            code[1] += points[1] * a.place[1];
        }
    }

    /// The code of the empty `cell` for `mover`.
    #[cfg(test)]
    fn code(&self, cell: usize, mover: Color) -> u32 {
        self.codes[cell][usize::from(mover == Color::Blue)]
    }

    /// An answer to `last` for `mover`, or none (the caller then draws
    /// from the whole board), with `left` empty cells on `owner`.
    #[inline]
    pub fn draw(&mut self, last: usize, mover: Color, left: usize, owner: &[u8], rng: &mut Rng) -> Option<usize> {
        let blue = usize::from(mover == Color::Blue);
        let mut weighed = [0u32; READ];
        let mut extra = 0u32;
        // No branch on what a cell holds: those were mispredicted half the
        // time, and the table's loads overlap better without them.
        for (a, e) in self.around[last].iter().zip(&mut weighed) {
            let empty = u32::from(owner[a.cell as usize] == EMPTY);
            *e = empty * self.answers.extra(self.codes[a.cell as usize][blue]);
            extra += *e;
        }
        if extra == 0 {
            return None;
        }
        let mut x = rng.below(extra as usize + self.far as usize * left) as u32;
        for (a, &e) in self.around[last].iter().zip(&weighed) {
            if x < e {
                return Some(a.cell as usize);
            }
            x -= e;
        }
        None
    }
}

// The owner codes this module reads.
const _: () = assert!(RED == 1 && BLUE == 2 && EMPTY == 0);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::bits::Bits;
    use crate::engine::patterns::Patterns;
    use crate::engine::{Record, stones::Stones};

    fn leaked(p: Patterns) -> &'static Answers {
        Box::leak(Box::new(Answers::new(p)))
    }

    /// The base-3 code of a shape's twelve cells.
    fn base3(shape: u64) -> u32 {
        (0..READ).map(|k| ((shape >> (2 * k)) & 3) as u32 * POWERS[k]).sum()
    }

    /// The playout's owner array for a position: cells, then the red edge,
    /// the blue edge and off the board.
    fn owner_of(s: &Stones<u128>, n: u8) -> Vec<u8> {
        let cells = n as usize * n as usize;
        let mut owner: Vec<u8> = (0..cells)
            .map(|i| {
                if s.red.has(i) {
                    RED
                } else if s.blue.has(i) {
                    BLUE
                } else {
                    EMPTY
                }
            })
            .collect();
        owner.extend([RED, BLUE, 3]);
        owner
    }

    #[test]
    fn a_cells_pattern_is_the_first_two_rings_of_its_shape() {
        let n = 7;
        let game = Record::from_text("7x7 d4 c5 e3 b2 f6 a7 g1 a1", n).unwrap().to_game(false).unwrap();
        let mut s = Stones::<u128>::from_position(game.position());
        let mut draw = AnswerDraw::new(n, leaked(Patterns::new([], 1.0)));
        let mut shapes = Shapes::new(n);
        // Read at the start, then kept up to date over the moves after it.
        draw.start(&owner_of(&s, n));
        for next in ["b6", "c4", "g7", "a2", "e5"] {
            for mover in [Color::Red, Color::Blue] {
                s.to_move = mover;
                let owner = owner_of(&s, n);
                for c in (0..49).filter(|&c| owner[c] == EMPTY) {
                    let shape = shapes.shape(&s, c) & answers::TWELVE;
                    assert_eq!(draw.code(c, mover), base3(shape), "{c} {mover:?}");
                }
            }
            let cell = Cell::parse(next, n).unwrap().index(n);
            s.blue |= 1 << cell;
            draw.play(cell, BLUE);
        }
    }

    /// Red has just played the centre (12) of the empty 5×5 board, Blue
    /// to move; Blue's answers on the six neighbours weigh 5, every other
    /// shape 1. The board's owner entries, the neighbours, the answers.
    struct CentreAnswered {
        owner: Vec<u8>,
        neighbours: Vec<usize>,
        answers: &'static Answers,
    }

    const CENTRE_N: u8 = 5;

    fn centre_answered() -> CentreAnswered {
        let n = CENTRE_N;
        let mut s = Stones::<u128>::empty();
        s.red |= 1 << 12;
        s.to_move = Color::Blue;
        let mut shapes = Shapes::new(n);
        let neighbours: Vec<usize> =
            (0..25).filter(|&c| Cell::from_index(c, n).distance(Cell::new(2, 2)) == 1).collect();
        let weights: Vec<(u64, f32)> =
            neighbours.iter().map(|&c| (answers::pattern(shapes.shape(&s, c)), 5.0)).collect();
        CentreAnswered { owner: owner_of(&s, n), neighbours, answers: leaked(Patterns::new(weights, 1.0)) }
    }

    #[test]
    fn answers_are_drawn_by_their_weight_above_a_far_cell() {
        let CentreAnswered { owner, neighbours, answers } = centre_answered();
        let mut draw = AnswerDraw::new(CENTRE_N, answers);
        draw.start(&owner);
        let mut rng = Rng::new(7);
        let trials = 100_000;
        let mut hits = 0;
        for _ in 0..trials {
            if let Some(c) = draw.draw(12, Color::Blue, 24, &owner, &mut rng) {
                assert!(neighbours.contains(&c), "{c}");
                hits += 1;
            }
        }
        // Six answers of extra 4 each against 24 cells of 1.
        let share = hits as f64 / trials as f64;
        assert!((share - 24.0 / 48.0).abs() < 0.01, "{share}");
        // Nothing around a stone in a full neighbourhood.
        let mut full = owner.clone();
        for a in &draw.around[12] {
            full[a.cell as usize] = RED;
        }
        assert_eq!(draw.draw(12, Color::Blue, 12, &full, &mut rng), None);
    }

    #[test]
    fn a_scale_counts_the_answers_weights_that_many_times() {
        // Six answers of extra 4 each against 24 far cells. Counted a
        // quarter, the answers weigh 6 against 24; four times, 96 against 24.
        let CentreAnswered { owner, answers, .. } = centre_answered();
        for (scale, expected) in [(0.25, 6.0 / 30.0), (1.0, 24.0 / 48.0), (4.0, 96.0 / 120.0)] {
            let mut draw = AnswerDraw::new(CENTRE_N, answers).scaled(scale);
            draw.start(&owner);
            let mut rng = Rng::new(11);
            let trials = 100_000;
            let hits = (0..trials).filter(|_| draw.draw(12, Color::Blue, 24, &owner, &mut rng).is_some()).count();
            let share = hits as f64 / trials as f64;
            assert!((share - expected).abs() < 0.01, "scale {scale}: {share} against {expected}");
        }
    }

    #[test]
    fn a_start_below_the_root_extends_the_roots_codes() {
        let n = 7;
        let stones = |text: &str| {
            let game = Record::from_text(text, n).unwrap().to_game(false).unwrap();
            Stones::<u128>::from_position(game.position())
        };
        let afresh = |owner: &[u8]| {
            let mut draw = AnswerDraw::new(n, leaked(Patterns::new([], 1.0)));
            draw.start(owner);
            draw.codes
        };
        let mut draw = AnswerDraw::new(n, leaked(Patterns::new([], 1.0)));
        draw.set_root(&owner_of(&stones("7x7 d4 c5 e3"), n));
        // Below the root (corners included), then off it: a root stone gone
        // or changed colour.
        for text in ["7x7 d4 c5 e3 a1 g7 b2", "7x7 d4 c5 e3", "7x7 d4 c5", "7x7 d4 e3 c5", "7x7 a7 g1 d4 c5 e3 f2"] {
            let owner = owner_of(&stones(text), n);
            draw.start(&owner);
            assert_eq!(draw.codes, afresh(&owner), "{text}");
            // A corner's places off the board name the spare entry, whose
            // codes stay 0.
            assert_eq!(draw.codes[49], [0, 0]);
        }
    }
}
