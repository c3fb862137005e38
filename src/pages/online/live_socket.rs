//! A WebSocket to the server from the page. The server build gets an inert
//! twin so components compile for both targets; sockets only open in
//! effects and handlers, which run in the browser.

#[cfg(feature = "hydrate")]
mod imp {
    use wasm_bindgen::JsCast;
    use wasm_bindgen::closure::Closure;

    /// An open (or opening) socket and its handlers.
    pub struct LiveSocket {
        ws: web_sys::WebSocket,
        _on_open: Closure<dyn FnMut()>,
        _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
        _on_close: Closure<dyn FnMut(web_sys::CloseEvent)>,
    }

    impl LiveSocket {
        /// Opens `path` (with its query) on this page's host; `first` is
        /// sent as soon as the socket is open (the credentials frame).
        pub fn open(
            path: &str,
            first: Option<String>,
            mut on_text: impl FnMut(String) + 'static,
            mut on_close: impl FnMut() + 'static,
        ) -> Option<LiveSocket> {
            let location = web_sys::window()?.location();
            let scheme = if location.protocol().ok()? == "https:" { "wss" } else { "ws" };
            let url = format!("{scheme}://{}{path}", location.host().ok()?);
            let ws = web_sys::WebSocket::new(&url).ok()?;
            let opened = ws.clone();
            let on_open = Closure::<dyn FnMut()>::new(move || {
                if let Some(text) = &first {
                    let _ = opened.send_with_str(text);
                }
            });
            let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
                if let Some(text) = e.data().as_string() {
                    on_text(text);
                }
            });
            let on_close = Closure::<dyn FnMut(web_sys::CloseEvent)>::new(move |_e: web_sys::CloseEvent| on_close());
            ws.set_onopen(Some(on_open.as_ref().unchecked_ref()));
            ws.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
            ws.set_onclose(Some(on_close.as_ref().unchecked_ref()));
            Some(LiveSocket { ws, _on_open: on_open, _on_message: on_message, _on_close: on_close })
        }

        /// Sends a text frame if the socket is open.
        pub fn send(&self, text: &str) -> bool {
            self.ws.ready_state() == web_sys::WebSocket::OPEN && self.ws.send_with_str(text).is_ok()
        }
    }

    impl Drop for LiveSocket {
        fn drop(&mut self) {
            self.ws.set_onopen(None);
            self.ws.set_onmessage(None);
            self.ws.set_onclose(None);
            let _ = self.ws.close();
        }
    }
}

#[cfg(not(feature = "hydrate"))]
mod imp {
    /// The server's inert stand-in.
    pub struct LiveSocket;

    impl LiveSocket {
        pub fn open(
            _path: &str,
            _first: Option<String>,
            _on_text: impl FnMut(String) + 'static,
            _on_close: impl FnMut() + 'static,
        ) -> Option<LiveSocket> {
            None
        }

        pub fn send(&self, _text: &str) -> bool {
            false
        }
    }
}

pub use imp::LiveSocket;

pub use crate::pages::analysis::encode_query_value as encode;

/// A page's handle on its socket. The socket itself (not `Send`) lives in a
/// per-thread table in the browser; the handle is a plain number, so
/// components keep it anywhere, and the server, which never opens sockets,
/// can drop it from any thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SocketSlot(u64);

thread_local! {
    static SOCKETS: std::cell::RefCell<std::collections::HashMap<u64, LiveSocket>> = Default::default();
    static NEXT_SLOT: std::cell::Cell<u64> = const { std::cell::Cell::new(1) };
}

impl SocketSlot {
    /// A new, empty slot.
    pub fn new() -> SocketSlot {
        SocketSlot(NEXT_SLOT.with(|n| {
            let id = n.get();
            n.set(id + 1);
            id
        }))
    }

    /// Puts a socket in the slot (closing the one before), or empties it.
    pub fn set(self, socket: Option<LiveSocket>) {
        // The old socket is dropped (and closed) after the table's borrow ends.
        let _old = SOCKETS.with(|s| match socket {
            Some(socket) => s.borrow_mut().insert(self.0, socket),
            None => s.borrow_mut().remove(&self.0),
        });
    }

    /// Sends a text frame on the slot's socket, if open.
    pub fn send(self, text: &str) -> bool {
        SOCKETS.with(|s| s.borrow().get(&self.0).is_some_and(|socket| socket.send(text)))
    }
}

impl Default for SocketSlot {
    fn default() -> Self {
        SocketSlot::new()
    }
}
