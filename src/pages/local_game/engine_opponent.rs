//! The engine as a local game's opponent: it is asked for a move whenever
//! it is its turn, and its progress is shown while it thinks.

use leptos::prelude::*;

use super::session::Session;
use crate::engine_worker::client::EngineClient;
use crate::engine_worker::protocol::{EngineRequest, EngineUpdate, GameSpec};

/// The engine's search for its next move, as the page shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thinking {
    /// The worker's job number, so late answers to an old job are ignored.
    job: u64,
    playouts: u64,
    budget: u64,
}

/// Starts the engine's worker and lets it play the opponent's moves in
/// `session`; returns its progress while it searches.
pub fn play_against(session: Session) -> RwSignal<Option<Thinking>> {
    let client = EngineClient::start();
    let thinking = RwSignal::new(None::<Thinking>);
    let game = session.game;
    Effect::new(move |_| {
        let _ = game.with(|g| g.moves().len());
        let Some(o) = session.opponent.get() else { return };
        if session.engine_to_move() && client.ready.get() {
            let job = client.new_job();
            thinking.set(Some(Thinking { job, playouts: 0, budget: o.level.iterations() }));
            let spec = game.with_untracked(GameSpec::of);
            client.send(EngineRequest::Move { job, game: spec, level: o.level, seed: seed(job) });
        } else if thinking.get_untracked().is_some() {
            thinking.set(None);
            client.send(EngineRequest::Stop);
        }
    });
    Effect::new(move |_| {
        let Some(update) = client.update.get() else { return };
        let Some(current) = thinking.get_untracked() else { return };
        match update {
            EngineUpdate::Thinking { job, playouts, .. } if job == current.job => {
                thinking.set(Some(Thinking { playouts, ..current }));
            }
            EngineUpdate::Moved { job, chosen } if job == current.job => {
                thinking.set(None);
                session.play(chosen);
            }
            EngineUpdate::Failed { job, reason } if job == current.job => {
                thinking.set(None);
                session.announcement.set(format!("The engine could not move: {reason}."));
            }
            _ => {}
        }
    });
    thinking
}

/// A seed for the engine's move choice that differs between games.
fn seed(job: u64) -> u64 {
    #[cfg(feature = "hydrate")]
    let entropy = js_sys::Date::now() as u64 ^ (js_sys::Math::random() * u32::MAX as f64) as u64;
    #[cfg(not(feature = "hydrate"))]
    let entropy = 0u64;
    entropy.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ job
}

/// "Thinking… N of M playouts" while the engine searches: the count is the
/// progress shown. No endless spinner: one is repainted every frame beside
/// the search, and it slowed the engine's moves (docs/benchmarks.md).
#[component]
pub fn ThinkingLine(thinking: RwSignal<Option<Thinking>>) -> impl IntoView {
    view! {
        <Show when=move || thinking.get().is_some()>
            <p class="thinking" data-testid="engine-thinking">
                {move || {
                    thinking.get().map(|t| format!("Thinking… {} of {} playouts", t.playouts, t.budget)).unwrap_or_default()
                }}
            </p>
        </Show>
    }
}
