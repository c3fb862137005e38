//! `/docs`: how to play, the notation and record formats, the controls, and
//! how to run hexarena yourself. The prose is plain HTML in `docs.html`,
//! compiled in so that the server renders it and the browser hydrates it
//! without fetching anything.

use leptos::prelude::*;
use leptos_meta::Title;

/// The page's prose, kept as HTML beside this file.
const CONTENT: &str = include_str!("docs.html");

/// The documentation page.
#[component]
pub fn DocsPage() -> impl IntoView {
    view! {
        <Title text="Docs — hexarena" />
        <div class="page docs" inner_html=CONTENT></div>
    }
}
