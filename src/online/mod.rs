//! Live play over WebSockets: the message types and public views that the
//! server, the browser client and bots share. hexgame protocol v1 is the
//! compatibility contract; our browser protocol extends it.

pub mod account;
pub mod client_message;
pub mod credentials;
pub mod error_code;
pub mod game_end;
pub mod identity;
pub mod messages;
pub mod options;
pub mod player;
pub mod profile;
pub mod records;
pub mod slot_patch;
pub mod view;

pub use client_message::{ClientMessage, Dialect, ProtocolError, parse_client_message};
pub use credentials::Credentials;
pub use error_code::{ErrorCode, Refusal};
pub use game_end::GameEnd;
pub use messages::ServerMessage;
pub use options::TableOptions;
pub use player::PlayerId;
pub use view::{Phase, SeatView, SlotSnapshot, SlotState, TableView, TimeControl};

/// The protocol version in `joined` and `hello` answers.
pub const PROTOCOL_VERSION: u32 = 1;
