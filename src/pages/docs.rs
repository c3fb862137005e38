//! `/docs`: how to play, the notation and record formats, the controls, and
//! how to run hexarena yourself. The prose is plain HTML in `docs.html`,
//! compiled into the server only: the browser hydrates the server's HTML
//! and never needs the text. Data cannot be split out of the first WASM
//! download, so the prose compiled into the browser build cost every
//! visitor of every page about 11 KB; a client-side visit to /docs loads
//! the page from the server instead.

use leptos::prelude::*;
use leptos_meta::Title;

/// The page's prose, kept as HTML beside this file.
#[cfg(feature = "ssr")]
const CONTENT: &str = include_str!("docs.html");
#[cfg(not(feature = "ssr"))]
const CONTENT: &str = "";

/// The documentation page.
#[component]
pub fn DocsPage() -> impl IntoView {
    let prose = NodeRef::<leptos::html::Div>::new();
    // Hydrated, the div holds the server's prose; rendered in the browser
    // (a link followed without a page load), it is empty: load the page.
    Effect::new(move |_| {
        if let Some(div) = prose.get()
            && div.child_element_count() == 0
        {
            crate::browser::reload();
        }
    });
    view! {
        <Title text="Docs — hexarena" />
        <div class="page docs" node_ref=prose inner_html=CONTENT></div>
    }
}
