//! The engine's live analysis of the position on the board, in a Web
//! Worker, and the panel that shows it.

use leptos::prelude::*;

use crate::engine::search::Analysis;
use crate::engine::{Cell, Game};
use crate::engine_worker::client::EngineClient;
use crate::engine_worker::protocol::{EngineRequest, EngineUpdate, GameSpec};

/// The worker's latest report on the shown position.
#[derive(Clone, Debug, PartialEq)]
pub struct Latest {
    pub analysis: Analysis,
    pub playouts_per_second: f64,
}

/// The live analysis: it follows the shown position, and can measure the
/// engine's speed in between.
#[derive(Clone, Copy)]
pub struct LiveAnalysis {
    client: EngineClient,
    job: RwSignal<u64>,
    pub latest: RwSignal<Option<Latest>>,
    /// The last speed measurement, for people.
    pub speed: RwSignal<Option<String>>,
}

impl LiveAnalysis {
    /// Starts a worker that analyses `shown` whenever it changes.
    pub fn start(shown: Memo<Game>) -> LiveAnalysis {
        let live = LiveAnalysis {
            client: EngineClient::start(),
            job: RwSignal::new(0),
            latest: RwSignal::new(None),
            speed: RwSignal::new(None),
        };
        Effect::new(move |_| {
            let game = shown.get();
            if !live.client.ready.get() {
                return;
            }
            live.latest.set(None);
            if game.winner().is_some() {
                live.client.send(EngineRequest::Stop);
                return;
            }
            live.analyse(&game);
        });
        Effect::new(move |_| match live.client.update.get() {
            Some(EngineUpdate::Analysis { job, analysis, playouts_per_second, .. })
                if job == live.job.get_untracked() =>
            {
                live.latest.set(Some(Latest { analysis, playouts_per_second }));
            }
            Some(EngineUpdate::Bench { job, size, playouts, millis, per_second })
                if job == live.job.get_untracked() =>
            {
                live.speed.set(Some(format!(
                    "{per_second:.0} random playouts per second on {size}×{size} ({playouts} in {:.1} s)",
                    millis / 1000.0
                )));
                // Back to analysing the shown position.
                let game = shown.get_untracked();
                if game.winner().is_none() {
                    live.analyse(&game);
                }
            }
            _ => {}
        });
        live
    }

    /// Whether the worker has loaded and answered.
    pub fn running(self) -> RwSignal<bool> {
        self.client.running
    }

    /// Measures random playouts per second on 11×11 for two seconds.
    pub fn measure_speed(self) {
        let job = self.client.new_job();
        self.job.set(job);
        self.speed.set(Some("Measuring…".into()));
        self.client.send(EngineRequest::Bench { job, size: 11, millis: 2000 });
    }

    fn analyse(self, game: &Game) {
        let job = self.client.new_job();
        self.job.set(job);
        self.client.send(EngineRequest::Analyze { job, game: GameSpec::of(game), max_playouts: Some(50_000_000) });
    }
}

/// The engine's view of the shown position.
#[component]
pub fn EnginePanel(live: LiveAnalysis, shown: Memo<Game>) -> impl IntoView {
    let LiveAnalysis { latest, .. } = live;
    let running = live.running();
    let size = move || shown.with(|g| g.size());
    view! {
        <section
            class="engine-panel"
            aria-label="Engine"
            data-testid="engine-panel"
            data-engine=move || if running.get() { "running" } else { "starting" }
        >
            <h2 class="box-title">"Engine"</h2>
            <Show when=move || !running.get()>
                <p class="thinking engine-starting" role="status">
                    <span class="spinner" aria-hidden="true"></span>
                    " Starting the engine…"
                </p>
            </Show>
            <p class="engine-summary">
                <span data-testid="engine-playouts">
                    {move || latest.get().map(|l| l.analysis.playouts.to_string()).unwrap_or_else(|| "0".into())}
                </span>
                " playouts · "
                <span data-testid="engine-speed">
                    {move || latest.get().map(|l| format!("{:.0}", l.playouts_per_second)).unwrap_or_else(|| "—".into())}
                </span>
                " per second"
            </p>
            {move || {
                latest
                    .get()
                    .and_then(|l| match (l.analysis.proven, l.analysis.solved, l.analysis.solved_within) {
                        (Some(p), _, _) => Some(format!("{p} (proved)")),
                        (None, Some(w), Some(k)) => Some(format!("{w} wins in at most {k} (proved by the solver)")),
                        (None, Some(w), None) => Some(format!("{w} wins (proved by the solver)")),
                        (None, None, _) => None,
                    })
                    .map(|text| view! { <p class="proof" data-testid="engine-proof">{text}</p> })
            }}
            <ol class="engine-moves" data-testid="engine-moves">
                {move || {
                    let n = size();
                    latest
                        .get()
                        .map(|l| l.analysis.moves)
                        .unwrap_or_default()
                        .into_iter()
                        .filter(|m| m.cell.is_on(n))
                        .enumerate()
                        .map(|(rank, m)| {
                            let pv = m.pv.iter().map(Cell::to_string).collect::<Vec<_>>().join(" ");
                            let chance = match m.proven {
                                Some(p) => p.to_string(),
                                None => format!("{:.0}%", m.win_rate * 100.0),
                            };
                            view! {
                                <li class=format!("engine-move rank-{rank}") data-cell=m.cell.to_string()>
                                    <span class=format!("rank-chip hint-chip-{rank}")>{rank + 1}</span>
                                    <strong>{m.cell.to_string()}</strong>
                                    <span class="chance">{chance}</span>
                                    <span class="visits">{format!("{} visits", m.visits)}</span>
                                    <span class="pv">{pv}</span>
                                </li>
                            }
                        })
                        .collect_view()
                }}
            </ol>
        </section>
    }
}
