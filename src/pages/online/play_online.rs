//! The online part of `/play`: quick match, a private room, or joining a
//! room by its code. The forms work as plain HTML too: quick match is a GET
//! to `/play/online`, the room forms post to server functions that redirect.

use leptos::prelude::*;

use super::lobby::{CreateRoom, JoinRoom};
use crate::app_error::{Answer, AppError};
use crate::online::account::Me;
use crate::online::identity::Identity;
use crate::pages::account::api::{claim_name, who_am_i};

/// Where a browser kept the name it registered before accounts.
pub const IDENTITY_KEY: &str = "hexarena.identity";

/// The identity this browser keeps, if any.
pub fn stored_identity() -> Option<Identity> {
    serde_json::from_str(&crate::browser::load(IDENTITY_KEY)?).ok()
}

/// Who plays from this browser: the logged-in account (rated), or a guest
/// (not rated) with links to log in; a name registered before accounts is
/// offered to become one by setting a password.
#[component]
fn IdentityBox() -> impl IntoView {
    let me = RwSignal::new(None::<Me>);
    let legacy = RwSignal::new(None::<Identity>);
    let password = RwSignal::new(String::new());
    let problem = RwSignal::new(None::<String>);
    Effect::new(move |_| {
        legacy.set(stored_identity());
        leptos::task::spawn_local(async move {
            if let Ok(Some(who)) = who_am_i().await {
                me.set(Some(who));
            }
        });
    });
    let claim = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let Some(id) = legacy.get_untracked() else { return };
        let new = password.get_untracked();
        leptos::task::spawn_local(async move {
            match claim_name(id.id, id.secret, new).await {
                Ok(Answer::Done(who)) => {
                    crate::browser::save(IDENTITY_KEY, "");
                    legacy.set(None);
                    problem.set(None);
                    me.set(Some(who));
                }
                Ok(Answer::Refused(why)) => problem.set(Some(why)),
                Err(e) => problem.set(Some(e.to_string())),
            }
        });
    };
    let name_of = move || me.get().map(|m| m.name).unwrap_or_default();
    let legacy_name = move || legacy.get().map(|i| i.name).unwrap_or_default();
    view! {
        <div class="identity" data-testid="identity">
            <Show when=move || me.get().is_some()>
                <p data-testid="identity-name-shown">
                    "You play as " <strong>{name_of}</strong> "; your games against other accounts are rated. "
                    <a href="/account">"Your account"</a>
                </p>
            </Show>
            <Show when=move || me.get().is_none() && legacy.get().is_some()>
                <form class="identity-form" on:submit=claim data-testid="claim-form">
                    <p>
                        "This browser holds the name " <strong>{legacy_name}</strong>
                        ". Set a password to keep it as an account, with its rating and games, and log in anywhere."
                    </p>
                    <label class="field">
                        <span>"New password (at least 8 characters)"</span>
                        <input type="password" autocomplete="new-password" data-testid="claim-password"
                            prop:value=move || password.get() on:input=move |ev| password.set(event_target_value(&ev)) />
                    </label>
                    <button type="submit" data-testid="claim-save">"Set the password"</button>
                    <Show when=move || problem.get().is_some()>
                        <p class="error" role="alert" data-testid="claim-error">{move || problem.get()}</p>
                    </Show>
                </form>
            </Show>
            <Show when=move || me.get().is_none() && legacy.get().is_none()>
                <p data-testid="identity-guest">
                    "You play as a guest: your games are not rated and your name is marked as a guest's. "
                    <a href="/login?next=/play" data-testid="identity-login">"Log in or sign up"</a>
                    " to be rated and listed."
                </p>
            </Show>
        </div>
    }
}
use crate::online::TableOptions;

/// Board sizes offered online (hexgame's bots play 7, 9, 11, 13 and 19).
const ONLINE_SIZES: [u8; 7] = [5, 7, 9, 11, 13, 15, 19];
/// Clocks offered, as `minutes+seconds`; "none" for an untimed game.
const CLOCKS: [(&str, &str); 6] = [
    ("none", "No clock"),
    ("1+0", "1 min"),
    ("3+2", "3 min + 2 s"),
    ("5+3", "5 min + 3 s"),
    ("10+5", "10 min + 5 s"),
    ("30+20", "30 min + 20 s"),
];

/// The fields every online form shares.
#[component]
fn TableFields(prefix: &'static str) -> impl IntoView {
    let size = RwSignal::new(11u8);
    let swap_choice = RwSignal::new(None::<bool>);
    let swap_on = move || swap_choice.get().unwrap_or(TableOptions::default_swap(size.get()));
    view! {
        <label class="field">
            <span>"Board size"</span>
            <select name="size" data-testid=format!("{prefix}-size") on:change=move |ev| {
                if let Ok(n) = event_target_value(&ev).parse() { size.set(n) }
            }>
                {ONLINE_SIZES.into_iter().map(|n| view! {
                    <option value=n.to_string() selected=n == 11>{format!("{n}×{n}")}</option>
                }).collect_view()}
            </select>
        </label>
        <label class="field">
            <span>"Series"</span>
            <select name="series" data-testid=format!("{prefix}-series")>
                {[1u8, 3, 5, 7].into_iter().map(|n| view! {
                    <option value=n.to_string()>{if n == 1 { "One game".to_string() } else { format!("Best of {n}") }}</option>
                }).collect_view()}
            </select>
        </label>
        <label class="field">
            <span>"Clock"</span>
            <select name="time" data-testid=format!("{prefix}-time")>
                {CLOCKS.into_iter().map(|(v, label)| view! { <option value=v>{label}</option> }).collect_view()}
            </select>
        </label>
        <span class="field-label">"Swap rule"</span>
        <label class="radio">
            <input type="radio" name="swap" value="on" checked=true prop:checked=swap_on on:change=move |_| swap_choice.set(Some(true)) />
            " On"
        </label>
        <label class="radio">
            <input type="radio" name="swap" value="off" prop:checked=move || !swap_on() on:change=move |_| swap_choice.set(Some(false)) data-testid=format!("{prefix}-swap-off") />
            " Off"
        </label>
    }
}

/// A name field remembered in the browser.
#[component]
fn NameField(prefix: &'static str) -> impl IntoView {
    let name = RwSignal::new(String::new());
    Effect::new(move |_| {
        if let Some(saved) = crate::browser::load("hexarena.name") {
            name.set(saved);
        }
    });
    view! {
        <label class="field">
            <span>"Your name (shown to others)"</span>
            <input
                type="text"
                name="name"
                maxlength="40"
                autocomplete="nickname"
                data-testid=format!("{prefix}-name")
                prop:value=move || name.get()
                on:input=move |ev| {
                    let v = event_target_value(&ev);
                    crate::browser::save("hexarena.name", v.trim());
                    name.set(v);
                }
            />
        </label>
    }
}

/// Online play: matchmaking, private rooms, join by code.
#[component]
pub fn PlayOnline() -> impl IntoView {
    let create = ServerAction::<CreateRoom>::new();
    let join = ServerAction::<JoinRoom>::new();
    let problem = |r: Result<Answer<()>, AppError>| match r {
        Ok(answer) => answer.refusal().map(str::to_string),
        Err(e) => Some(e.to_string()),
    };
    let create_problem = move || create.value().get().and_then(problem);
    let join_problem = move || join.value().get().and_then(problem);
    view! {
        <section class="card online" aria-labelledby="online-title">
            <h2 id="online-title">"Play online"</h2>
            <p>
                "Play someone on the internet: people and bots meet in the same pools. "
                "You keep your seat if the connection drops or you reload the page."
            </p>
            <IdentityBox />
            <form class="new-game-form" method="get" action="/play/online" data-testid="quick-form">
                <h3>"Quick match"</h3>
                <p class="hint">"You are paired with the next player who picks the same size, series, clock and swap rule. "
                    "Bots speaking the hexgame protocol play 7, 9, 11, 13 and 19 with no clock and swap off."</p>
                <TableFields prefix="quick" />
                <NameField prefix="quick" />
                <div class="button-row">
                    <button type="submit" class="primary big" data-testid="start-quick">"Find an opponent"</button>
                </div>
            </form>
            <ActionForm action=create attr:class="new-game-form" attr:data-testid="room-form">
                <h3>"Private room"</h3>
                <p class="hint">"Get a link and a code to send to a friend."</p>
                <TableFields prefix="room" />
                <NameField prefix="room" />
                <div class="button-row">
                    <button type="submit" class="big" data-testid="create-room">"Create a room"</button>
                </div>
                <Show when=move || create_problem().is_some()>
                    <p class="error" role="alert">{create_problem}</p>
                </Show>
            </ActionForm>
            <ActionForm action=join attr:class="new-game-form" attr:data-testid="join-form">
                <h3>"Join a room"</h3>
                <label class="field">
                    <span>"Room code"</span>
                    <input type="text" name="code" required=true maxlength="12" autocapitalize="characters" data-testid="join-code" />
                </label>
                <NameField prefix="join" />
                <div class="button-row">
                    <button type="submit" class="big" data-testid="join-room">"Join"</button>
                </div>
                <Show when=move || join_problem().is_some()>
                    <p class="error" role="alert" data-testid="join-error">{join_problem}</p>
                </Show>
            </ActionForm>
            <p class="hint"><a href="/overview">"Watch the games being played now"</a></p>
        </section>
    }
}
