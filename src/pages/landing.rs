//! `/`: what hexarena is, with a finished game on show and a way to play.

use leptos::prelude::*;
use leptos_meta::Title;

use crate::components::board::HexBoard;
use crate::components::board_view::BoardView;
use crate::engine::{Game, Record};

/// A short 7×7 game won by Blue, shown on the landing page with its
/// winning chain.
const SHOWCASE: &str = "7x7 d4 c5 e3 d2 b4 c3 e5 c4 d6 b6 a2 d1 f6 b7";

fn showcase() -> Option<Game> {
    Record::from_text(SHOWCASE, 7).ok()?.to_game(false).ok()
}

/// The landing page.
#[component]
pub fn LandingPage() -> impl IntoView {
    let board = showcase().map(|g| BoardView::of(&g, false));
    view! {
        <Title text="hexarena — play Hex in your browser" />
        <div class="landing">
            <section class="hero">
                <div class="hero-text">
                    <h1>"Hex, the connection game."</h1>
                    <p class="lead">
                        "Two players, one rhombus of hexagons. Red joins the left and right edges, "
                        "Blue joins the top and bottom. Nobody can block both ways at once, so every "
                        "game has a winner — and no draws."
                    </p>
                    <div class="button-row">
                        <a class="button primary big" href="/play">"Play now"</a>
                        <a class="button big" href="/analysis">"Analyse a game"</a>
                        <a class="button big" href="/docs" rel="external">"How to play"</a>
                    </div>
                    <LiveCount />
                </div>
                <div class="hero-board">
                    {board.map(|b| {
                        view! {
                            <HexBoard
                                view=Signal::stored(b)
                                on_play=Callback::new(|_| {})
                                label="A finished 7 by 7 game won by Blue"
                            />
                        }
                    })}
                </div>
            </section>
            <section class="features">
                <article>
                    <h2>"Hot-seat, anywhere"</h2>
                    <p>
                        "Play a friend on one screen, on any board from 3×3 to 19×19, with or without "
                        "the swap rule. The game runs entirely in your browser: it keeps working "
                        "offline and survives a reload."
                    </p>
                </article>
                <article>
                    <h2>"An engine in your browser"</h2>
                    <p>
                        "Play the engine at four levels, or let it review your games: its best moves, "
                        "winning chances and lines, live, and a graph of the whole game with the mistakes "
                        "marked. It runs in a background worker on your own machine."
                    </p>
                </article>
                <article>
                    <h2>"Records that travel"</h2>
                    <p>
                        "Export a game as a plain move list, as SGF for HexGui, or as a trmph link, "
                        "and import any of them back. Colours and edges are mapped so the winner stays "
                        "the winner in every tool."
                    </p>
                </article>
                <article>
                    <h2>"Built to be played"</h2>
                    <p>
                        "A board sized to your screen, coordinates on every edge, the last move ringed, "
                        "the winning chain outlined. Play with mouse, touch or keyboard; screen readers "
                        "announce every move."
                    </p>
                </article>
            </section>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Color;

    #[test]
    fn the_showcase_game_is_finished() {
        let game = showcase().expect("the showcase record is valid");
        assert_eq!(game.winner(), Some(Color::Blue));
    }
}

/// "N games being played now", linking to the overview. Asked for by the
/// browser once the page runs: the page itself is the same for everyone
/// (server::assets::pages::BUILD_PAGES), so that a return visit or an offline start costs
/// no rendering, and the count is never a stale copy.
#[component]
fn LiveCount() -> impl IntoView {
    let counts = LocalResource::new(crate::pages::online::lobby::live_count);
    view! {
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                counts.await.ok().map(|count| {
                    let games = match count.playing {
                        0 => "No game is being played right now".to_string(),
                        1 => "1 game is being played right now".to_string(),
                        n => format!("{n} games are being played right now"),
                    };
                    let waiting = match count.waiting {
                        0 => String::new(),
                        1 => ", 1 player is waiting for an opponent".to_string(),
                        n => format!(", {n} players are waiting for an opponent"),
                    };
                    view! {
                        <p class="hint live-count" data-testid="live-count">
                            {games} {waiting} " — " <a href="/overview">"watch live games"</a>
                        </p>
                    }
                })
            })}
        </Suspense>
    }
}
