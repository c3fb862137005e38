//! `/play`: start a game in the browser — hot-seat (two people at one
//! device) or against the engine — with board size, swap rule, and the
//! engine's level and colour chosen here.

use leptos::prelude::*;
use leptos_meta::Title;

use super::local_game::settings::{DEFAULT_SIZE, SWAP_DEFAULT_FROM};
use crate::engine::search::level::LEVELS;
use crate::engine::{MAX_SIZE, MIN_SIZE};

/// Sizes offered as quick picks; any size from 3 to 19 can be typed.
const COMMON_SIZES: [u8; 6] = [5, 7, 9, 11, 13, 19];

/// The new-game page.
#[component]
pub fn PlayPage() -> impl IntoView {
    let size = RwSignal::new(DEFAULT_SIZE);
    // Follows the size (on from 9×9) until the player picks it themselves.
    let swap_choice = RwSignal::new(None::<bool>);
    let swap_on = move || swap_choice.get().unwrap_or(size.get() >= SWAP_DEFAULT_FROM);
    let navigate = leptos_router::hooks::use_navigate();
    let start = move |ev: leptos::ev::SubmitEvent| start_in_page(ev, &navigate);
    view! {
        <Title text="Play — hexarena" />
        <div class="page narrow">
            <h1>"New game"</h1>
            <section class="card">
                <p>
                    "Play a friend on this device, or the engine. Everything runs in your browser: the game "
                    "keeps going without a connection and is still here after a reload."
                </p>
                <form
                    class="new-game-form"
                    method="get"
                    action="/play/local"
                    data-testid="local-form"
                    on:submit=start
                >
                    <input type="hidden" name="new" value="1" />
                    <fieldset>
                        <legend>"Board size"</legend>
                        <div class="size-picks">
                            {COMMON_SIZES
                                .into_iter()
                                .map(|n| {
                                    view! {
                                        <label class="size-pick">
                                            <input
                                                type="radio"
                                                name="size-pick"
                                                value=n.to_string()
                                                prop:checked=move || size.get() == n
                                                checked=n == DEFAULT_SIZE
                                                on:change=move |_| size.set(n)
                                            />
                                            <span>{format!("{n}×{n}")}</span>
                                        </label>
                                    }
                                })
                                .collect_view()}
                        </div>
                        <label class="field">
                            <span>{format!("Or any size from {MIN_SIZE} to {MAX_SIZE}")}</span>
                            <input
                                type="number"
                                name="size"
                                value=DEFAULT_SIZE.to_string()
                                min=MIN_SIZE.to_string()
                                max=MAX_SIZE.to_string()
                                data-testid="size-input"
                                prop:value=move || size.get().to_string()
                                on:input=move |ev| {
                                    if let Ok(n) = event_target_value(&ev).parse::<u8>()
                                        && (MIN_SIZE..=MAX_SIZE).contains(&n)
                                    {
                                        size.set(n);
                                    }
                                }
                            />
                        </label>
                    </fieldset>
                    <fieldset>
                        <legend>"Swap rule"</legend>
                        <p class="hint">
                            "After Red's first stone, Blue may take it over instead of moving. "
                            "It keeps Red from simply opening in the centre."
                        </p>
                        <label class="radio">
                            <input
                                type="radio"
                                name="swap"
                                value="on"
                                checked={ DEFAULT_SIZE >= SWAP_DEFAULT_FROM }
                                prop:checked=swap_on
                                on:change=move |_| swap_choice.set(Some(true))
                            />
                            " On"
                        </label>
                        <label class="radio">
                            <input
                                type="radio"
                                name="swap"
                                value="off"
                                checked={ DEFAULT_SIZE < SWAP_DEFAULT_FROM }
                                prop:checked=move || !swap_on()
                                on:change=move |_| swap_choice.set(Some(false))
                            />
                            " Off"
                        </label>
                    </fieldset>
                    <fieldset>
                        <legend>"Against the engine"</legend>
                        <label class="field">
                            <span>"Level"</span>
                            <select name="level" data-testid="level">
                                {LEVELS
                                    .into_iter()
                                    .map(|l| {
                                        let label = match l.as_str() {
                                            "beginner" => "Beginner — learning the game",
                                            "casual" => "Casual — a relaxed opponent",
                                            "strong" => "Strong — plays its best, quickly",
                                            _ => "Max — thinks longest",
                                        };
                                        view! {
                                            <option value=l.as_str() selected=l.as_str() == "casual">
                                                {label}
                                            </option>
                                        }
                                    })
                                    .collect_view()}
                            </select>
                        </label>
                        <span class="field-label">"You play"</span>
                        <label class="radio">
                            <input type="radio" name="colour" value="red" checked=true />
                            " Red (moves first, joins left ↔ right)"
                        </label>
                        <label class="radio">
                            <input type="radio" name="colour" value="blue" />
                            " Blue (joins top ↔ bottom)"
                        </label>
                    </fieldset>
                    <div class="button-row">
                        <button type="submit" class="primary big" data-testid="start-local">
                            "Start hot-seat game"
                        </button>
                        <button type="submit" class="big" formaction="/play/engine" data-testid="start-engine">
                            "Play the engine"
                        </button>
                    </div>
                </form>
                <p class="hint">
                    "A game in progress? Continue the " <a href="/play/local">"hot-seat game"</a> " or the "
                    <a href="/play/engine">"game against the engine"</a> "."
                </p>
            </section>
            <crate::pages::online::play_online::PlayOnline />
        </div>
    }
}

/// Opens the chosen game inside the running app rather than by loading a
/// page: the same address, but it works offline, where the server cannot
/// render a page for every board size. Without the app the form still
/// submits as a plain GET.
#[cfg(feature = "hydrate")]
fn start_in_page(ev: leptos::ev::SubmitEvent, navigate: &impl Fn(&str, leptos_router::NavigateOptions)) {
    use wasm_bindgen::JsCast;
    let Some(form) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlFormElement>().ok()) else { return };
    let action = ev
        .submitter()
        .and_then(|b| b.get_attribute("formaction"))
        .or_else(|| form.get_attribute("action"))
        .unwrap_or_else(|| "/play/local".into());
    let Ok(data) = web_sys::FormData::new_with_form(&form) else { return };
    let Ok(query) = web_sys::UrlSearchParams::new_with_str_sequence_sequence(&data) else { return };
    ev.prevent_default();
    navigate(&format!("{action}?{}", String::from(query.to_string())), Default::default());
}

#[cfg(not(feature = "hydrate"))]
fn start_in_page(_ev: leptos::ev::SubmitEvent, _navigate: &impl Fn(&str, leptos_router::NavigateOptions)) {}
