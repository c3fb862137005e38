//! `/login`: log in, or sign up, on one page. Both are plain forms posting
//! to `/api/login` and `/api/signup`, so they work before (or without) the
//! page's script; either then goes on to `?next=` (a path on this site).

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use super::api::{LogIn, SignUp};
use super::refusal;
use crate::online::account::{MAX_PASSWORD_CHARS, MIN_PASSWORD_CHARS};

/// The login and sign-up page.
#[component]
pub fn LoginPage() -> impl IntoView {
    let query = use_query_map();
    let next = move || query.with(|q| q.get("next")).unwrap_or_else(|| "/account".into());
    let login = ServerAction::<LogIn>::new();
    let signup = ServerAction::<SignUp>::new();
    let login_problem = move || refusal(login.value().get());
    let signup_problem = move || refusal(signup.value().get());
    view! {
        <Title text="Log in — hexarena" />
        <div class="page account-forms">
            <h1>"Your hexarena account"</h1>
            <p class="hint">
                "An account keeps your name, your rating and your games on every device, and lets you enter bots. "
                "You can also play without one, as a guest: guest games are not rated."
            </p>
            <div class="two-columns">
                <ActionForm action=login attr:class="card account-form" attr:data-testid="login-form">
                    <h2>"Log in"</h2>
                    <input type="hidden" name="next" prop:value=next />
                    <label class="field">
                        <span>"Name"</span>
                        <input type="text" name="name" required=true maxlength="24" autocomplete="username" data-testid="login-name" />
                    </label>
                    <label class="field">
                        <span>"Password"</span>
                        <input type="password" name="password" required=true maxlength=MAX_PASSWORD_CHARS.to_string()
                            autocomplete="current-password" data-testid="login-password" />
                    </label>
                    <div class="button-row">
                        <button type="submit" class="primary" data-testid="login-submit">"Log in"</button>
                    </div>
                    <Show when=move || login_problem().is_some()>
                        <p class="error" role="alert" data-testid="login-error">{login_problem}</p>
                    </Show>
                </ActionForm>
                <ActionForm action=signup attr:class="card account-form" attr:data-testid="signup-form">
                    <h2>"Sign up"</h2>
                    <input type="hidden" name="next" prop:value=next />
                    <label class="field">
                        <span>"Name (2 to 24 letters, digits, spaces, - _ or .)"</span>
                        <input type="text" name="name" required=true maxlength="24" autocomplete="username" data-testid="signup-name" />
                    </label>
                    <label class="field">
                        <span>{format!("Password (at least {MIN_PASSWORD_CHARS} characters, not a common one)")}</span>
                        <input type="password" name="password" required=true minlength=MIN_PASSWORD_CHARS.to_string()
                            maxlength=MAX_PASSWORD_CHARS.to_string() autocomplete="new-password" data-testid="signup-password" />
                    </label>
                    <div class="button-row">
                        <button type="submit" data-testid="signup-submit">"Create the account"</button>
                    </div>
                    <Show when=move || signup_problem().is_some()>
                        <p class="error" role="alert" data-testid="signup-error">{signup_problem}</p>
                    </Show>
                </ActionForm>
            </div>
        </div>
    }
}
