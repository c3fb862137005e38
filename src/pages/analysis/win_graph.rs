//! The win-probability graph of a whole game, computed one position after
//! another in a worker of its own, and the game's biggest mistakes.

use leptos::prelude::*;

use super::review::replay;
use crate::engine::{Color, Game, Move};
use crate::engine_worker::client::EngineClient;
use crate::engine_worker::protocol::{EngineRequest, EngineUpdate, GameSpec};

/// Playouts per position for the graph.
const GRAPH_PLAYOUTS: u64 = 4_000;

/// Red's chance of winning after each ply (index 0: the start), where known.
pub type Curve = Vec<Option<f32>>;

/// A move that cost its player a lot of winning chances.
#[derive(Clone, Debug, PartialEq)]
pub struct Mistake {
    /// Move number, from 1.
    pub number: usize,
    pub mover: Color,
    pub played: Move,
    /// How much the mover's win probability fell, 0 to 1.
    pub drop: f32,
}

/// The up to three moves whose drop for their player is largest and at
/// least 0.15.
pub fn mistakes(curve: &Curve, moves: &[Move]) -> Vec<Mistake> {
    let mut found: Vec<Mistake> = (1..curve.len().min(moves.len() + 1))
        .filter_map(|i| {
            let (before, after) = (curve[i - 1]?, curve[i]?);
            let mover = Game::mover_of(i - 1);
            let drop = match mover {
                Color::Red => before - after,
                Color::Blue => after - before,
            };
            (drop >= 0.15).then(|| Mistake { number: i, mover, played: moves[i - 1], drop })
        })
        .collect();
    found.sort_by(|a, b| b.drop.total_cmp(&a.drop));
    found.truncate(3);
    found
}

/// Starts a worker that fills in Red's winning chances after every move of
/// `main`, again whenever the game changes.
pub fn graph_of(main: RwSignal<Game>) -> RwSignal<Curve> {
    let grapher = EngineClient::start();
    let curve = RwSignal::new(Curve::new());
    // The job in flight and the ply it is for.
    let in_flight = RwSignal::new((0u64, 0usize));
    let request = move |index: usize| {
        let (size, swap, moves) = main.with_untracked(|g| (g.size(), g.swap_allowed(), g.moves().to_vec()));
        let Some(prefix) = moves.get(..index) else { return };
        let game = replay(size, swap, prefix);
        if let Some(w) = game.winner() {
            curve.update(|c| c[index] = Some(if w == Color::Red { 1.0 } else { 0.0 }));
            return;
        }
        let job = grapher.new_job();
        in_flight.set((job, index));
        grapher.send(EngineRequest::Analyze { job, game: GameSpec::of(&game), max_playouts: Some(GRAPH_PLAYOUTS) });
    };
    Effect::new(move |_| {
        let len = main.with(|g| g.moves().len());
        if !grapher.ready.get() {
            return;
        }
        curve.set(vec![None; len + 1]);
        // Finished positions are known at once; the rest are searched from
        // the end backwards (which makes each result arrive quickly).
        for i in (0..=len).rev() {
            request(i);
            if curve.with_untracked(|c| c[i].is_none()) {
                break;
            }
        }
    });
    Effect::new(move |_| {
        let Some(EngineUpdate::Analysis { job, analysis, done: true, .. }) = grapher.update.get() else { return };
        let (current, index) = in_flight.get_untracked();
        if job != current {
            return;
        }
        let red = if analysis.to_move == Color::Red { analysis.win_rate } else { 1.0 - analysis.win_rate };
        curve.update(|c| {
            if let Some(slot) = c.get_mut(index) {
                *slot = Some(red);
            }
        });
        let next = curve.with_untracked(|c| (0..c.len()).rev().find(|&i| c[i].is_none()));
        if let Some(i) = next {
            request(i);
        }
    });
    curve
}

const WIDTH: f64 = 300.0;
const HEIGHT: f64 = 100.0;

/// The graph: Red's win probability over the game, the shown ply marked,
/// mistakes circled; clicking picks a ply.
#[component]
pub fn WinGraph(
    #[prop(into)] curve: Signal<Curve>,
    #[prop(into)] moves: Signal<Vec<Move>>,
    #[prop(into)] ply: Signal<usize>,
    #[prop(into)] on_pick: Callback<usize>,
) -> impl IntoView {
    let x_of = move |i: usize, len: usize| if len == 0 { 0.0 } else { i as f64 / len as f64 * WIDTH };
    let y_of = |p: f32| (1.0 - p as f64) * HEIGHT;
    let points = move || {
        let c = curve.get();
        let len = c.len().saturating_sub(1);
        c.iter()
            .enumerate()
            .filter_map(|(i, p)| p.map(|p| format!("{:.1},{:.1}", x_of(i, len), y_of(p))))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let marks = move || {
        let c = curve.get();
        let len = c.len().saturating_sub(1);
        moves.with(|m| mistakes(&c, m))
            .into_iter()
            .filter_map(|m| {
                let p = c.get(m.number).copied().flatten()?;
                let class = format!("mistake mistake-{}", m.mover.as_str());
                Some(view! { <circle class=class cx=format!("{:.1}", x_of(m.number, len)) cy=format!("{:.1}", y_of(p)) r="3.5"></circle> })
            })
            .collect_view()
    };
    let cursor_x = move || {
        let len = curve.with(|c| c.len().saturating_sub(1));
        format!("{:.1}", x_of(ply.get().min(len), len))
    };
    let known = move || curve.with(|c| c.iter().filter(|p| p.is_some()).count());
    let pick = move |ev: leptos::ev::MouseEvent| {
        let len = curve.with(|c| c.len().saturating_sub(1));
        if len == 0 {
            return;
        }
        #[cfg(feature = "hydrate")]
        {
            use wasm_bindgen::JsCast;
            if let Some(el) = ev.current_target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) {
                let rect = el.get_bounding_client_rect();
                let fraction = ((ev.client_x() as f64 - rect.left()) / rect.width().max(1.0)).clamp(0.0, 1.0);
                on_pick.run((fraction * len as f64).round() as usize);
            }
        }
        #[cfg(not(feature = "hydrate"))]
        let _ = (ev, on_pick);
    };
    view! {
        <figure class="win-graph" data-testid="win-graph">
            <svg viewBox=format!("0 0 {WIDTH} {HEIGHT}") preserveAspectRatio="none" on:click=pick role="img" aria-label="Red's winning chances over the game">
                <rect class="graph-blue" x="0" y="0" width=WIDTH.to_string() height=(HEIGHT / 2.0).to_string()></rect>
                <rect class="graph-red" x="0" y=(HEIGHT / 2.0).to_string() width=WIDTH.to_string() height=(HEIGHT / 2.0).to_string()></rect>
                <line class="graph-mid" x1="0" y1="50" x2=WIDTH.to_string() y2="50"></line>
                <polyline class="graph-line" points=points></polyline>
                {marks}
                <line class="graph-cursor" x1=cursor_x y1="0" x2=cursor_x y2=HEIGHT.to_string()></line>
            </svg>
            <figcaption>
                {move || {
                    let total = curve.with(Vec::len);
                    let k = known();
                    if total > 0 && k < total {
                        format!("Red's winning chances, move by move (computing: {k} of {total})")
                    } else {
                        "Red's winning chances, move by move (top: Blue winning, bottom: Red winning)".to_string()
                    }
                }}
            </figcaption>
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Cell;

    #[test]
    fn the_largest_drops_are_the_mistakes() {
        let moves: Vec<Move> = (0..4).map(|i| Move::Place(Cell::new(i, 0))).collect();
        // Red: 0.6 → (Red plays) 0.3: a 0.3 drop for Red. Blue then to 0.35:
        // a small loss for Blue. Red to 0.9: fine. Blue to 0.95: small.
        let curve = vec![Some(0.6), Some(0.3), Some(0.35), Some(0.9), Some(0.95)];
        let found = mistakes(&curve, &moves);
        assert_eq!(found.len(), 1);
        assert_eq!((found[0].number, found[0].mover), (1, Color::Red));
        assert!((found[0].drop - 0.3).abs() < 1e-6);
        assert!(mistakes(&vec![None, Some(0.5)], &moves).is_empty());
    }
}
