use super::shape::{canonical, half_turn};
use super::*;
use crate::engine::{Cell, Record};

fn error_of(text: &str) -> PatternsError {
    Patterns::parse(text).expect_err("a broken file")
}

#[test]
fn the_builtin_file_loads_and_lists_learned_patterns() {
    let parsed = Patterns::parse(BUILTIN).expect("the shipped pattern file reads");
    assert!(parsed.len() >= 1000, "only {} patterns", parsed.len());
    assert_eq!(&parsed, Patterns::builtin());
    // Learned weights differ from one another, or they would teach nothing.
    let mut weights: Vec<f32> = parsed.entries().into_iter().map(|(_, w)| w).collect();
    weights.sort_by(f32::total_cmp);
    assert!(weights[weights.len() - 1] > 20.0 * weights[0]);
}

#[test]
fn a_table_reads_back_from_its_text() {
    let table = Patterns::new([(canonical(0x15), 2.5), (canonical(0x2a << 12), 0.125)], 0.75);
    let text = table.to_text("two patterns\nfor a test");
    assert!(text.starts_with("# two patterns\n# for a test\nhexarena-patterns 1\ndefault -288\n"), "{text}");
    assert_eq!(Patterns::parse(&text), Ok(table.clone()));
    // Kept to a thousandth of the logarithm: within 0.05% of what was given.
    assert!((table.weight(canonical(0x15)) / 2.5 - 1.0).abs() < 5e-4);
    assert_eq!(table.weight(0x3f), table.weight(0x2a));
    assert!((table.weight(0x3f) / 0.75 - 1.0).abs() < 5e-4);
}

#[test]
fn broken_files_are_refused_with_the_line_at_fault() {
    let e = error_of("hexarena-patterns 2\ndefault 1\n");
    assert_eq!((e.line, e.problem), (1, PatternsProblem::Header));
    assert_eq!(error_of("").problem, PatternsProblem::Header);
    let e = error_of("# note\nhexarena-patterns 1\ndefault 1\n15\n");
    assert_eq!((e.line, e.problem), (4, PatternsProblem::Fields));
    // Weights are whole thousandths of their logarithm, within ±30,000.
    for bad in ["x", "2.5", "NaN", "30001", "-99999"] {
        let e = error_of(&format!("hexarena-patterns 1\ndefault 0\n15 {bad}\n"));
        assert_eq!((e.line, e.problem), (3, PatternsProblem::Weight), "{bad}");
    }
    // Not hexadecimal, a neighbour coded 3, past 36 bits, not canonical.
    for bad in ["zz", "3", "1000000000", &format!("{:x}", half_turn(1).max(1))] {
        let e = error_of(&format!("hexarena-patterns 1\ndefault 1\n{bad} 1\n"));
        assert_eq!((e.line, e.problem), (3, PatternsProblem::Pattern), "{bad}");
    }
    let e = error_of("hexarena-patterns 1\ndefault 1\n1 2\n4 0\n1 3\n");
    assert_eq!((e.line, e.problem), (5, PatternsProblem::Duplicate));
    let e = error_of("hexarena-patterns 1\ndefault 1\ndefault 2\n");
    assert_eq!((e.line, e.problem), (3, PatternsProblem::Duplicate));
    let e = error_of("hexarena-patterns 1\n1 2\n");
    assert_eq!((e.line, e.problem), (0, PatternsProblem::NoDefault));
    assert!(e.to_string().contains("no 'default' weight"));
}

#[test]
fn nearness_factors_read_back_and_bad_ones_are_refused() {
    let factors = [13.6, 2.75, 1.7, 1.0];
    let table = Patterns::new([(canonical(0x15), 2.5)], 1.0).with_proximity(Some(Proximity { factors }));
    let text = table.to_text("");
    assert!(text.contains("\nnear 2610 1012 531 0\n"), "{text}");
    let parsed = Patterns::parse(&text).expect("a file with a near line reads");
    assert_eq!(parsed, table);
    let read = parsed.proximity().expect("the factors are kept").factors;
    for (got, given) in read.iter().zip(factors) {
        assert!((got / given - 1.0).abs() < 5e-4, "{got} vs {given}");
    }
    // Without the line the shape alone counts, as in files fitted before it.
    assert_eq!(Patterns::parse("hexarena-patterns 1\ndefault 0\n").map(|p| p.proximity()), Ok(None));
    for bad in ["near 1 2 3", "near 1 2 3 4 5", "near 1 2 x 4", "near 1 2 3 30001"] {
        let e = error_of(&format!("hexarena-patterns 1\ndefault 0\n{bad}\n"));
        assert_eq!((e.line, e.problem), (3, PatternsProblem::Near), "{bad}");
    }
    let e = error_of("hexarena-patterns 1\ndefault 0\nnear 1 1 1 0\nnear 1 1 1 0\n");
    assert_eq!((e.line, e.problem), (4, PatternsProblem::Duplicate));
}

/// The prior weight of every empty cell of `text`'s position for its
/// mover, as the search weighs it: the cell's shape times its nearness to
/// the last stone.
fn weights_of(text: &str, n: u8) -> Vec<(Cell, f32)> {
    let game = Record::from_text(text, n).unwrap().to_game(false).unwrap();
    let mut shapes = Shapes::new(n);
    shapes.load_position(game.position());
    let builtin = Patterns::builtin();
    let last = game.last_stone().map(|c| c.index(n));
    let nearness = |c: Cell| builtin.proximity().map_or(1.0, |p| p.factor(near::class(c.index(n), last, n)));
    game.position()
        .empty_cells()
        .map(|c| (c, builtin.weight(canonical(shapes.loaded(c.index(n)))) * nearness(c)))
        .collect()
}

#[test]
fn a_position_and_its_half_turn_weigh_every_cell_alike() {
    let n = 9;
    let moves = ["e5", "d6", "c7", "f4", "g3", "b8", "e3"];
    let turned: Vec<String> = moves
        .iter()
        .map(|m| {
            let c = Cell::parse(m, n).unwrap();
            Cell::new(n - 1 - c.q, n - 1 - c.r).to_string()
        })
        .collect();
    let a = weights_of(&format!("9x9 {}", moves.join(" ")), n);
    let b = weights_of(&format!("9x9 {}", turned.join(" ")), n);
    for (cell, weight) in a {
        let t = Cell::new(n - 1 - cell.q, n - 1 - cell.r);
        let other = b.iter().find(|(c, _)| *c == t).map(|(_, w)| *w);
        assert_eq!(other, Some(weight), "{cell} and {t}");
    }
}

/// The rank (0: heaviest) of `cell` among the position's empty cells.
fn rank_of(text: &str, n: u8, cell: &str) -> usize {
    let weights = weights_of(text, n);
    let target = Cell::parse(cell, n).unwrap();
    let own = weights.iter().find(|(c, _)| *c == target).map(|(_, w)| *w).unwrap();
    weights.iter().filter(|(_, w)| *w > own).count()
}

#[test]
fn the_priors_of_a_fixed_position_rank_the_fight_first() {
    // Blue's answers to a centre stone: the four heaviest cells lie within
    // two steps of it, the heaviest beside it (d5, f5), then at a bridge's
    // distance (g4, c6), and Blue's own edge rows weigh almost nothing.
    let factors = Patterns::builtin().proximity().expect("the shipped file weighs nearness").factors;
    assert!(factors.windows(2).all(|f| f[0] > f[1]), "nearer weighs more: {factors:?}");
    let e5 = Cell::parse("e5", 9).unwrap();
    let mut w = weights_of("9x9 e5", 9);
    w.sort_by(|a, b| b.1.total_cmp(&a.1));
    assert!(w[..4].iter().all(|(c, _)| c.distance(e5) <= 2), "{w:?}");
    let heaviest = w[0].1;
    assert!(w.iter().filter(|(c, _)| c.r == 0 || c.r == 8).all(|(_, x)| *x < heaviest / 100.0));
    for (cell, rank) in [("d5", 0), ("f5", 0), ("g4", 2), ("c6", 2)] {
        assert_eq!(rank_of("9x9 e5", 9, cell), rank, "{cell}");
    }
    // Blue has blocked at d5: Red's d6, the cell touching both stones on
    // Blue's way, is the heaviest, far above a cell of open board.
    assert_eq!(rank_of("9x9 e5 d5", 9, "d6"), 0);
    let weight = |cell: &str| weights_of("9x9 e5 d5", 9).into_iter().find(|(c, _)| c.to_string() == cell).unwrap().1;
    assert!(weight("d6") > 10.0 * weight("b2"), "{} {}", weight("d6"), weight("b2"));
}

#[test]
fn a_layered_table_weighs_an_unlisted_shape_as_its_finest_listed_coarser_pattern() {
    let full = canonical(0b01 | (0b10 << 14) | (0b01 << 28));
    let inner = shape::coarser(full).next().unwrap();
    let adjacent = shape::coarser(full).nth(1).unwrap();
    let table = Patterns::new([(full, 4.0), (inner, 2.0), (adjacent, 0.5)], 1.5);
    let near = |w: f32, expected: f32| (w / expected - 1.0).abs() < 5e-4;
    assert!(near(table.weight(full), 4.0));
    // The same inner rings, another outer ring: the inner rings' weight.
    let other_outer = canonical(0b01 | (0b10 << 14) | (0b10 << 26));
    assert!(near(table.weight(other_outer), 2.0));
    // The same adjacent cells only: theirs.
    let other_inner = canonical(0b01 | (0b01 << 14));
    assert!(near(table.weight(other_inner), 0.5));
    // Nothing in common: the default.
    assert!(near(table.weight(canonical(0b10)), 1.5));
    // A table of whole shapes alone does not fall back, and the layers
    // read back from the file.
    let flat = Patterns::new([(full, 4.0), (inner, 2.0)].into_iter().filter(|(p, _)| *p == full), 1.5);
    assert!(near(flat.weight(other_outer), 1.5));
    let again = Patterns::parse(&table.to_text("")).expect("reads back");
    assert_eq!(again, table);
    assert!(near(again.weight(other_inner), 0.5));
}

#[test]
fn the_layered_table_reads_and_weighs_rare_shapes_by_their_inner_rings() {
    let layered = Patterns::parse(include_str!("layered.txt")).expect("layered.txt reads");
    assert!(layered.len() > 2 * Patterns::builtin().len(), "{}", layered.len());
    let entries = layered.entries();
    let inner = entries.iter().filter(|(p, _)| p & shape::ANY_OUTER == shape::ANY_OUTER).count();
    assert!(inner > 1000, "{inner} patterns of the inner rings");
    // A shape no fit lists (stones of both sides on every outer cell)
    // weighs as its inner rings, or its adjacent cells, are listed.
    let rare = canonical(0b01 | (0b10 << 12) | (0x999 << 24));
    let find = |p: u64| entries.iter().find(|(q, _)| *q == p).map(|(_, w)| *w);
    assert_eq!(find(rare), None);
    let coarser: Vec<u64> = shape::coarser(rare).collect();
    let expected = find(coarser[0]).or(find(coarser[1]));
    assert!(expected.is_some(), "neither {coarser:x?} is listed");
    assert_eq!(Some(layered.weight(rare)), expected);
}
