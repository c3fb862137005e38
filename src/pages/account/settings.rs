//! `/account`: the logged-in person's settings: their password, their
//! sessions (log out here or everywhere) and their bots with their tokens.

use leptos::prelude::*;
use leptos_meta::Title;

use super::api::{
    AccountSummary, ChangePassword, CreateBot, LogOut, LogOutEverywhere, RevokeBotToken, RotateBotToken, ShownToken,
    account_overview,
};
use super::refusal;
use crate::app_error::{Answer, AppError};
use crate::online::account::BotInfo;
use crate::pages::online::live_socket::encode;

fn when(ms: i64) -> String {
    crate::online::records::iso_time(ms).replace('T', " ").chars().take(16).collect()
}

/// The settings page; a link to log in when nobody is.
#[component]
pub fn AccountPage() -> impl IntoView {
    let change = ServerAction::<ChangePassword>::new();
    let create = ServerAction::<CreateBot>::new();
    let rotate = ServerAction::<RotateBotToken>::new();
    let revoke = ServerAction::<RevokeBotToken>::new();
    let overview = Resource::new(
        move || (change.version().get(), create.version().get(), rotate.version().get(), revoke.version().get()),
        |_| account_overview(),
    );
    view! {
        <Title text="Your account — hexarena" />
        <div class="page account">
            <Suspense fallback=|| view! { <p>"Loading…"</p> }>
                {move || Suspend::new(async move {
                    match overview.await {
                        Ok(Some(o)) => view! { <Settings o change create rotate revoke /> }.into_any(),
                        Ok(None) => view! {
                            <h1>"Your account"</h1>
                            <p data-testid="account-logged-out">"You are not logged in. "
                                <a href="/login?next=/account">"Log in or sign up"</a></p>
                        }.into_any(),
                        Err(e) => view! { <p class="error">{e.to_string()}</p> }.into_any(),
                    }
                })}
            </Suspense>
        </div>
    }
}

#[component]
fn Settings(
    o: AccountSummary,
    change: ServerAction<ChangePassword>,
    create: ServerAction<CreateBot>,
    rotate: ServerAction<RotateBotToken>,
    revoke: ServerAction<RevokeBotToken>,
) -> impl IntoView {
    let logout = ServerAction::<LogOut>::new();
    let everywhere = ServerAction::<LogOutEverywhere>::new();
    let change_problem = move || refusal(change.value().get());
    let changed = move || matches!(change.value().get(), Some(Ok(Answer::Done(()))));
    let create_problem = move || refusal(create.value().get());
    let rotate_problem = move || refusal(rotate.value().get()).or_else(|| refusal(revoke.value().get()));
    let shown = move || {
        let made = |v: Option<Result<Answer<ShownToken>, AppError>>| match v {
            Some(Ok(Answer::Done(t))) => Some(t),
            _ => None,
        };
        made(rotate.value().get()).or_else(|| made(create.value().get()))
    };
    let profile = format!("/players/{}", encode(&o.me.name));
    view! {
        <h1 data-testid="account-name">{o.me.name.clone()}</h1>
        <p><a href=profile data-testid="account-profile">"Your profile, ratings and games"</a></p>
        <section class="card">
            <h2>"Password"</h2>
            <ActionForm action=change attr:class="account-form" attr:data-testid="password-form">
                <label class="field"><span>"Current password"</span>
                    <input type="password" name="current" autocomplete="current-password" data-testid="password-current" />
                </label>
                <label class="field"><span>"New password"</span>
                    <input type="password" name="password" required=true autocomplete="new-password" data-testid="password-new" />
                </label>
                <button type="submit" data-testid="password-submit">"Change the password"</button>
                <Show when=changed>
                    <p role="status" data-testid="password-changed">"Changed. Your other sessions were logged out."</p>
                </Show>
                <Show when=move || change_problem().is_some()>
                    <p class="error" role="alert" data-testid="password-error">{change_problem}</p>
                </Show>
            </ActionForm>
        </section>
        <section class="card">
            <h2>"Sessions"</h2>
            <ul class="sessions" data-testid="sessions">
                {o.sessions.into_iter().map(|s| view! {
                    <li>
                        {s.user_agent.unwrap_or_else(|| "Unknown browser".into())}
                        " — since " {when(s.created_at_ms)} ", last used " {when(s.last_used_ms)}
                        {s.current.then_some(" (this browser)")}
                    </li>
                }).collect_view()}
            </ul>
            <div class="button-row">
                <ActionForm action=logout>
                    <button type="submit" data-testid="logout">"Log out"</button>
                </ActionForm>
                <ActionForm action=everywhere>
                    <button type="submit" data-testid="logout-everywhere">"Log out everywhere"</button>
                </ActionForm>
            </div>
        </section>
        <section class="card">
            <h2>"Bots"</h2>
            <p class="hint">
                "A bot plays under your account with its own name and rating. Give it a token: hexgame's clients "
                "take it in the server address, as in "
                <code>"hexgame play --server ws://HOST/bot/TOKEN --board-size 11 random"</code>
                "; other clients may send " <code>"Authorization: Bearer TOKEN"</code> ". A token is shown once."
            </p>
            <Show when=move || shown().is_some()>
                <div class="card token-shown" role="status">
                    <p>"The new token (copy it now, it is not shown again):"</p>
                    <pre data-testid="token-shown">{move || shown().map(|t| t.token)}</pre>
                </div>
            </Show>
            <ul class="bots" data-testid="bots">
                {o.bots.into_iter().map(|bot| view! { <BotRow bot rotate revoke /> }).collect_view()}
            </ul>
            <Show when=move || rotate_problem().is_some()>
                <p class="error" role="alert">{rotate_problem}</p>
            </Show>
            <ActionForm action=create attr:class="account-form" attr:data-testid="bot-form">
                <h3>"New bot"</h3>
                <label class="field"><span>"Name"</span>
                    <input type="text" name="name" required=true maxlength="24" data-testid="bot-name" />
                </label>
                <label class="field"><span>"Description"</span>
                    <input type="text" name="description" maxlength="300" data-testid="bot-description" />
                </label>
                <button type="submit" data-testid="bot-create">"Create the bot"</button>
                <Show when=move || create_problem().is_some()>
                    <p class="error" role="alert" data-testid="bot-error">{create_problem}</p>
                </Show>
            </ActionForm>
        </section>
    }
}

#[component]
fn BotRow(bot: BotInfo, rotate: ServerAction<RotateBotToken>, revoke: ServerAction<RevokeBotToken>) -> impl IntoView {
    let href = format!("/players/{}", encode(&bot.name));
    let id = bot.id.clone();
    view! {
        <li data-testid="bot">
            <a href=href><strong>{bot.name.clone()}</strong></a>
            {(!bot.description.is_empty()).then(|| format!(" — {}", bot.description))}
            <ul class="tokens">
                {bot.tokens.into_iter().map(|t| {
                    let token = t.id.clone();
                    let state = if t.revoked { "revoked".to_string() } else {
                        t.last_used_ms.map_or("never used".into(), |u| format!("last used {}", when(u)))
                    };
                    view! {
                        <li>
                            <code>{t.prefix}</code> " made " {when(t.created_at_ms)} " — " {state}
                            {(!t.revoked).then(|| view! {
                                <ActionForm action=revoke attr:class="inline-form">
                                    <input type="hidden" name="token" value=token.clone() />
                                    <button type="submit" data-testid="token-revoke">"Revoke"</button>
                                </ActionForm>
                            })}
                        </li>
                    }
                }).collect_view()}
            </ul>
            <ActionForm action=rotate attr:class="inline-form">
                <input type="hidden" name="bot" value=id />
                <button type="submit" data-testid="token-rotate">"New token (revokes the others)"</button>
            </ActionForm>
        </li>
    }
}
