//! Where things go on the SVG board: hexagon centres and outlines, the
//! coloured edge bands, the coordinate labels and the view box.
//!
//! Pointy-top hexagons of circumradius 1 laid out as a rhombus: moving one
//! column right is `(√3, 0)`, one row down is `(√3/2, 1.5)`, so the six
//! neighbours of the rules (including `(+1, −1)` and `(−1, +1)`) are the six
//! hexagons that share a side.

use std::fmt::Write;

const SQRT3: f64 = 1.732_050_807_568_877_2;

/// How far outside the outermost cell centres the edge bands reach, in cells.
const BAND: f64 = 0.85;
/// How far the labels sit from the outermost cell centres, in cell radii.
const LABEL: f64 = 1.9;

/// A point in board units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

/// The centre of the (possibly fractional) cell `(q, r)`.
pub fn centre(q: f64, r: f64) -> Point {
    Point { x: SQRT3 * (q + r / 2.0), y: 1.5 * r }
}

/// The six corners of the hexagon at `(q, r)`, scaled by `scale`, as an
/// SVG `points` list.
pub fn hexagon_points(q: u8, r: u8, scale: f64) -> String {
    let c = centre(q as f64, r as f64);
    let mut out = String::with_capacity(80);
    for k in 0..6 {
        let angle = std::f64::consts::PI / 180.0 * (60.0 * k as f64 - 90.0);
        let _ = write!(out, "{:.3},{:.3} ", c.x + scale * angle.cos(), c.y + scale * angle.sin());
    }
    out.pop();
    out
}

/// The rhombus around the board, cut into the four triangles that tint
/// each edge: `[top, right, bottom, left]` as SVG `points`. Top and bottom
/// belong to Blue, left and right to Red.
pub fn edge_bands(size: u8) -> [String; 4] {
    let lo = -BAND;
    let hi = size as f64 - 1.0 + BAND;
    let mid = (size as f64 - 1.0) / 2.0;
    let (tl, tr, br, bl, c) = (centre(lo, lo), centre(hi, lo), centre(hi, hi), centre(lo, hi), centre(mid, mid));
    let tri = |a: Point, b: Point| format!("{:.3},{:.3} {:.3},{:.3} {:.3},{:.3}", a.x, a.y, b.x, b.y, c.x, c.y);
    [tri(tl, tr), tri(tr, br), tri(br, bl), tri(bl, tl)]
}

/// A coordinate label: its text and where its centre goes.
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    pub text: String,
    pub at: Point,
}

/// Column letters straight above and below their columns' end cells, row
/// numbers level with their rows, outside the edge bands.
pub fn labels(size: u8) -> Vec<Label> {
    let last = size as f64 - 1.0;
    let above = |p: Point, dy: f64| Point { x: p.x, y: p.y + dy };
    let beside = |p: Point, dx: f64| Point { x: p.x + dx, y: p.y };
    let mut out = Vec::with_capacity(4 * size as usize);
    for i in 0..size {
        let letter = crate::engine::cell::column_letter(i).to_string();
        let number = (i + 1).to_string();
        let f = i as f64;
        out.push(Label { text: letter.clone(), at: above(centre(f, 0.0), -LABEL) });
        out.push(Label { text: letter, at: above(centre(f, last), LABEL) });
        out.push(Label { text: number.clone(), at: beside(centre(0.0, f), -LABEL * SQRT3 * 0.8) });
        out.push(Label { text: number, at: beside(centre(last, f), LABEL * SQRT3 * 0.8) });
    }
    out
}

/// The SVG `viewBox` that holds the board, its bands and its labels.
pub fn view_box(size: u8) -> String {
    const MARGIN: f64 = 0.7;
    let lo = -BAND;
    let hi = size as f64 - 1.0 + BAND;
    let corners = [centre(lo, lo), centre(hi, lo), centre(hi, hi), centre(lo, hi)];
    let points = corners.into_iter().chain(labels(size).into_iter().map(|l| l.at));
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for p in points {
        x0 = x0.min(p.x);
        y0 = y0.min(p.y);
        x1 = x1.max(p.x);
        y1 = y1.max(p.y);
    }
    let (x0, y0) = (x0 - MARGIN, y0 - MARGIN);
    format!("{:.3} {:.3} {:.3} {:.3}", x0, y0, x1 + MARGIN - x0, y1 + MARGIN - y0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Cell;

    fn distance(a: Point, b: Point) -> f64 {
        ((a.x - b.x).powi(2) + (a.y - b.y).powi(2)).sqrt()
    }

    #[test]
    fn rule_neighbours_are_exactly_the_touching_hexagons() {
        let n = 7;
        for q in 0..n {
            for r in 0..n {
                let a = Cell::new(q, r);
                for b in (0..n).flat_map(|q2| (0..n).map(move |r2| Cell::new(q2, r2))) {
                    let d = distance(centre(a.q as f64, a.r as f64), centre(b.q as f64, b.r as f64));
                    let touching = a != b && (d - SQRT3).abs() < 1e-9;
                    assert_eq!(touching, a.neighbours(n).any(|x| x == b), "{a} {b}");
                }
            }
        }
    }

    #[test]
    fn every_label_lies_inside_the_view_box() {
        for size in [3, 11, 19] {
            let vb: Vec<f64> = view_box(size).split(' ').map(|v| v.parse().unwrap()).collect();
            for l in labels(size) {
                assert!(l.at.x > vb[0] && l.at.x < vb[0] + vb[2], "{} at {:?}", l.text, l.at);
                assert!(l.at.y > vb[1] && l.at.y < vb[1] + vb[3], "{} at {:?}", l.text, l.at);
            }
        }
    }

    #[test]
    fn a_hexagon_has_six_corners() {
        assert_eq!(hexagon_points(0, 0, 1.0).split(' ').count(), 6);
        assert_eq!(edge_bands(5).len(), 4);
    }
}
