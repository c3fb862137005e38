//! The Hex board as SVG: a rhombus of hexagons with Red's edges tinted red
//! and Blue's blue, coordinates along the edges, shaded stones, the last
//! move ringed, a ghost stone under the pointer, a keyboard cursor, and the
//! winning chain outlined.
//!
//! DOM hooks (stable for tests): each cell carries `data-cell="c3"`, an
//! `aria-label`, `data-stone="red|blue"` when taken and
//! `data-winning="true"` when on the winning chain.

use leptos::ev::KeyboardEvent;
use leptos::prelude::*;

use super::board_geometry::{centre, edge_bands, hexagon_points, labels, view_box};
use super::board_view::BoardView;
use crate::engine::{Cell, Color};

/// Radius of a stone, in cell radii.
const STONE: f64 = 0.62;

/// An interactive (or read-only) Hex board.
///
/// `on_play` is called with a cell the side to move may take: an empty cell,
/// while `view.to_move` is set. Arrow keys move a cursor, Enter or Space
/// plays on it.
#[component]
pub fn HexBoard(
    /// What to draw.
    #[prop(into)]
    view: Signal<BoardView>,
    /// Called when the player picks an empty cell.
    #[prop(into)]
    on_play: Callback<Cell>,
    /// Accessible name of the board.
    #[prop(into, optional)]
    label: Option<String>,
) -> impl IntoView {
    let size = Memo::new(move |_| view.with(|v| v.size));
    let cursor = RwSignal::new(None::<Cell>);
    let playable = move |cell: Cell| view.with(|v| v.to_move.is_some() && v.stone(cell).is_none());
    let try_play = move |cell: Cell| {
        if playable(cell) {
            on_play.run(cell);
        }
    };

    let on_key = move |ev: KeyboardEvent| {
        let n = size.get();
        let current = cursor.get().filter(|c| c.is_on(n)).unwrap_or(Cell::new(n / 2, n / 2));
        let next = match ev.key().as_str() {
            "ArrowLeft" => Cell::new(current.q.saturating_sub(1), current.r),
            "ArrowRight" => Cell::new((current.q + 1).min(n - 1), current.r),
            "ArrowUp" => Cell::new(current.q, current.r.saturating_sub(1)),
            "ArrowDown" => Cell::new(current.q, (current.r + 1).min(n - 1)),
            "Home" => Cell::new(0, current.r),
            "End" => Cell::new(n - 1, current.r),
            "Enter" | " " => {
                ev.prevent_default();
                try_play(current);
                return;
            }
            _ => return,
        };
        ev.prevent_default();
        cursor.set(Some(next));
    };
    let on_focus = move |_| {
        let n = size.get_untracked();
        if cursor.get_untracked().is_none_or(|c| !c.is_on(n)) {
            cursor.set(Some(Cell::new(n / 2, n / 2)));
        }
    };

    let board_class = move || {
        let turn = match view.with(|v| v.to_move) {
            Some(Color::Red) => "turn-red",
            Some(Color::Blue) => "turn-blue",
            None => "turn-none",
        };
        format!("hex-board {turn}")
    };
    let aria = label.unwrap_or_else(|| "Hex board".to_string());
    let aria = move || {
        let n = size.get();
        format!("{aria}, {n} by {n}. Arrow keys move the cursor, Enter plays.")
    };

    let cells = move || {
        let n = size.get();
        (0..n as usize * n as usize)
            .map(|i| {
                let cell = Cell::from_index(i, n);
                view! { <BoardCell cell view cursor on_pick=Callback::new(move |c| { cursor.set(Some(c)); try_play(c) }) /> }
            })
            .collect_view()
    };

    view! {
        <svg
            class=board_class
            viewBox=move || view_box(size.get())
            role="application"
            aria-label=aria
            tabindex="0"
            on:keydown=on_key
            on:focus=on_focus
        >
            <defs inner_html=GRADIENTS></defs>
            {move || {
                let [top, right, bottom, left] = edge_bands(size.get());
                view! {
                    <polygon class="band band-blue" points=top></polygon>
                    <polygon class="band band-red" points=right></polygon>
                    <polygon class="band band-blue" points=bottom></polygon>
                    <polygon class="band band-red" points=left></polygon>
                }
            }}
            {cells}
            {move || {
                labels(size.get())
                    .into_iter()
                    .map(|l| {
                        view! {
                            <text class="coord" x=format!("{:.3}", l.at.x) y=format!("{:.3}", l.at.y) aria-hidden="true">
                                {l.text}
                            </text>
                        }
                    })
                    .collect_view()
            }}
        </svg>
    }
}

/// One hexagon with its stone, ghost stone, last-move ring and cursor.
#[component]
fn BoardCell(
    cell: Cell,
    view: Signal<BoardView>,
    cursor: RwSignal<Option<Cell>>,
    on_pick: Callback<Cell>,
) -> impl IntoView {
    let c = centre(cell.q as f64, cell.r as f64);
    let (x, y) = (format!("{:.3}", c.x), format!("{:.3}", c.y));
    let stone = move || view.with(|v| v.stone(cell));
    let class = move || {
        let mut class = String::from("cell");
        class.push_str(if stone().is_some() { " taken" } else { " empty" });
        if view.with(|v| v.is_winning(cell)) {
            class.push_str(" winning");
        }
        if cursor.get() == Some(cell) {
            class.push_str(" cursor");
        }
        class
    };
    let stone_view = {
        let (x, y) = (x.clone(), y.clone());
        move || {
            stone().map(|colour| {
                // A marker besides the colour: a bar along the direction the
                // player connects, so the stones differ without colour vision.
                let (dx, dy) = match colour {
                    Color::Red => (0.26, 0.0),
                    Color::Blue => (0.13, 0.225),
                };
                view! {
                    <circle class=format!("stone stone-{}", colour.as_str()) cx=x.clone() cy=y.clone() r=STONE></circle>
                    <line
                        class="stone-mark"
                        x1=format!("{:.3}", c.x - dx)
                        y1=format!("{:.3}", c.y - dy)
                        x2=format!("{:.3}", c.x + dx)
                        y2=format!("{:.3}", c.y + dy)
                    ></line>
                }
            })
        }
    };
    let ring = {
        let (x, y) = (x.clone(), y.clone());
        move || {
            (view.with(|v| v.last) == Some(cell))
                .then(|| view! { <circle class="last-ring" cx=x.clone() cy=y.clone() r="0.3"></circle> })
        }
    };
    let hint = {
        let (x, y) = (x.clone(), y.clone());
        move || {
            view.with(|v| if v.stone(cell).is_none() { v.hint_rank(cell) } else { None }).map(|rank| {
                view! {
                    <g class=format!("engine-hint hint-{rank}") aria-hidden="true">
                        <circle cx=x.clone() cy=y.clone() r="0.5"></circle>
                        <text x=x.clone() y=y.clone()>{rank + 1}</text>
                    </g>
                }
            })
        }
    };
    view! {
        <g
            class=class
            data-cell=cell.to_string()
            role="button"
            aria-label=move || view.with(|v| v.describe(cell))
            aria-disabled=move || view.with(|v| v.to_move.is_none() || v.stone(cell).is_some()).then_some("true")
            data-stone=move || stone().map(Color::as_str)
            data-winning=move || view.with(|v| v.is_winning(cell)).then_some("true")
            on:click=move |_| on_pick.run(cell)
        >
            <polygon class="hex" points=hexagon_points(cell.q, cell.r, 1.0)></polygon>
            <circle class="ghost" cx=x.clone() cy=y.clone() r=STONE></circle>
            {stone_view}
            {ring}
            {hint}
        </g>
    }
}

/// Shading of the stones, shared by every board on a page.
const GRADIENTS: &str = r##"<radialGradient id="hx-stone-red" cx="35%" cy="30%" r="75%"><stop offset="0%" stop-color="#ff8a80"/><stop offset="55%" stop-color="#e53935"/><stop offset="100%" stop-color="#9a1b18"/></radialGradient><radialGradient id="hx-stone-blue" cx="35%" cy="30%" r="75%"><stop offset="0%" stop-color="#90caf9"/><stop offset="55%" stop-color="#1e6fd9"/><stop offset="100%" stop-color="#0d3f86"/></radialGradient>"##;
