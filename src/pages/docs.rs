//! `/docs`: how to play, the notation and record formats, the controls, and
//! how to run hexarena yourself.

use leptos::prelude::*;
use leptos_meta::Title;

/// The documentation page.
#[component]
pub fn DocsPage() -> impl IntoView {
    view! {
        <Title text="Docs — hexarena" />
        <div class="page docs">
            <h1>"Documentation"</h1>
            <nav class="toc" aria-label="On this page">
                <ul>
                    <li><a href="#rules">"The rules"</a></li>
                    <li><a href="#swap">"The swap rule"</a></li>
                    <li><a href="#strategy">"First steps in strategy"</a></li>
                    <li><a href="#notation">"Notation"</a></li>
                    <li><a href="#records">"Game records"</a></li>
                    <li><a href="#controls">"Controls"</a></li>
                    <li><a href="#offline">"Offline play"</a></li>
                    <li><a href="#engine">"Playing the engine"</a></li>
                    <li><a href="#analysis">"The analysis board"</a></li>
                    <li><a href="#online">"Playing online"</a></li>
                    <li><a href="#bots">"Bots: hexgame protocol v1"</a></li>
                    <li><a href="#browser-protocol">"The browser protocol"</a></li>
                    <li><a href="#ratings">"Ratings and the archive"</a></li>
                    <li><a href="#gtp">"The engine over GTP"</a></li>
                    <li><a href="#self-hosting">"Running hexarena yourself"</a></li>
                    <li><a href="#configuration">"Configuration"</a></li>
                </ul>
            </nav>

            <section id="rules">
                <h2>"The rules"</h2>
                <p>
                    "Hex is played on a rhombus of hexagonal cells, usually 11×11, though anything from "
                    "3×3 to 19×19 can be played here. Each player owns two opposite edges: "
                    <strong class="red-text">"Red"</strong> " owns the left and right edges, "
                    <strong class="blue-text">"Blue"</strong> " the top and bottom ones. The edges are tinted "
                    "in their owner's colour on the board."
                </p>
                <ol>
                    <li>"The board starts empty. Red moves first."</li>
                    <li>"On your turn, put one stone of your colour on any empty cell. Stones never move and are never taken."</li>
                    <li>"The first player to link their two edges with an unbroken chain of their own stones wins."</li>
                </ol>
                <p>
                    "Each cell touches up to six others. A chain may wind any way it likes, as long as "
                    "each stone touches the next. When the board is full, exactly one player has a "
                    "chain: Hex can never end in a draw, because a wall that stops your opponent "
                    "is itself a connection for you."
                </p>
            </section>

            <section id="swap">
                <h2>"The swap rule"</h2>
                <p>
                    "Moving first is a real advantage — with perfect play the first player always wins. "
                    "The swap (or pie) rule evens things out: after Red's first stone, Blue may, instead "
                    "of playing a stone, take that first stone over. The stone is then reflected across "
                    "the board's short diagonal onto Blue's side (a stone on c2 becomes Blue's b3) and "
                    "Red moves again."
                </p>
                <p>
                    "So Red should open with a move that is neither too strong (Blue would take it) nor "
                    "too weak (Blue would let Red keep it). The rule is optional for every game and is "
                    "on by default from 9×9 upwards."
                </p>
            </section>

            <section id="strategy">
                <h2>"First steps in strategy"</h2>
                <ul>
                    <li>
                        <strong>"The bridge. "</strong>
                        "Two of your stones that share two empty neighbours cannot be cut apart: if the "
                        "opponent takes one of the shared cells, take the other. Bridges let you cross the "
                        "board twice as fast as stone-by-stone chains."
                    </li>
                    <li>
                        <strong>"The centre matters. "</strong>
                        "A stone near the middle reaches both of your edges in few moves and gets in the "
                        "way of both of your opponent's. That is why the swap rule exists."
                    </li>
                    <li>
                        <strong>"Block from a distance. "</strong>
                        "A stone placed right next to an opponent's stone is easy to go around; block a "
                        "few cells ahead of the threat instead."
                    </li>
                    <li>
                        <strong>"Edge templates. "</strong>
                        "A stone on the second row from your edge is already connected to it through its "
                        "two edge neighbours; on the third and fourth rows, larger known patterns do the same."
                    </li>
                </ul>
            </section>

            <section id="notation">
                <h2>"Notation"</h2>
                <p>
                    "Columns are letters from " <code>"a"</code> " on the left, rows are numbers from "
                    <code>"1"</code> " at the top: " <code>"a1"</code> " is the top-left corner, "
                    <code>"k11"</code> " the bottom-right one of an 11×11 board, " <code>"s19"</code>
                    " the largest cell of all. A swap is written " <code>"swap"</code> "."
                </p>
            </section>

            <section id="records">
                <h2>"Game records"</h2>
                <p>"Every game can be exported and imported in three formats; each reads back to exactly the same game."</p>
                <dl>
                    <dt>"Move list"</dt>
                    <dd>
                        "The board size then each move: " <code>"11x11 f6 swap e7 d8"</code>
                        ". Move numbers (" <code>"1. f6 2. swap"</code>
                        ") and commas are accepted. Without a size, the current board's size is used."
                    </dd>
                    <dt>"SGF"</dt>
                    <dd>
                        "The HexGui dialect of the Smart Game Format: "
                        <code>"(;FF[4]GM[11]SZ[11];B[f6];W[swap-pieces];B[g5])"</code>
                        ". In SGF, HexGui and most Hex programs, Black moves first and joins top and "
                        "bottom. hexarena's Red is written as Black and every cell is reflected across "
                        "the short diagonal (our " <code>"c2"</code> " is their " <code>"b3"</code>
                        "), so a game opened in HexGui shows the same shape and the same winner."
                    </dd>
                    <dt>"trmph"</dt>
                    <dd>
                        "A link such as " <code>"https://trmph.com/hex/board#11,f6e7"</code>
                        " (or just the part after " <code>"#"</code>
                        "). Cells are reflected as in SGF; a swap is written as the second player "
                        "repeating the first cell."
                    </dd>
                </dl>
                <p>"A record that cannot be read is refused with the place and the reason, and the current game stays as it was."</p>
            </section>

            <section id="controls">
                <h2>"Controls"</h2>
                <ul>
                    <li>"Click or tap an empty cell to play there. With a mouse, a faint stone shows where you would play."</li>
                    <li>"Keyboard: focus the board with Tab, move the cursor with the arrow keys (Home and End jump along the row), and press Enter or Space to play."</li>
                    <li>"Undo takes back the last move. Clicking a move in the move list shows the board as it was then; “Back to the game” returns."</li>
                    <li>"Moves are announced to screen readers, and stones carry a mark besides their colour: a bar along the direction their owner connects."</li>
                </ul>
            </section>

            <section id="offline">
                <h2>"Offline play"</h2>
                <p>
                    "Hot-seat games run entirely in your browser, compiled from the same Rust rules the "
                    "server uses. Once the page has loaded you can lose your connection — or the server "
                    "can go away — and the game goes on. Games are kept in your browser's storage, so a "
                    "reload brings back the game in progress."
                </p>
            </section>

            <section id="engine">
                <h2>"Playing the engine"</h2>
                <p>
                    "On " <a href="/play">"Play"</a> ", pick a board, the swap rule, a level and your colour, then "
                    "“Play the engine”. The engine runs in a Web Worker inside your browser, so the page stays "
                    "responsive while it thinks and the game needs no server. Its search is Monte-Carlo tree "
                    "search: it finishes the game at random many thousands of times from each candidate move, "
                    "learns which moves win most often (sharing what it learns between moves played in any "
                    "order, the RAVE technique), and answers intrusions into its bridges during those random "
                    "games. It never misses a win in one move and always blocks one."
                </p>
                <table>
                    <thead>
                        <tr><th>"Level"</th><th>"Search per move"</th><th>"Style"</th></tr>
                    </thead>
                    <tbody>
                        <tr><td>"beginner"</td><td>"300 playouts"</td><td>"picks among the moves it likes, often not the best"</td></tr>
                        <tr><td>"casual"</td><td>"3,000 playouts"</td><td>"usually a good move, sometimes a surprise"</td></tr>
                        <tr><td>"strong"</td><td>"30,000 playouts"</td><td>"always the best move it found"</td></tr>
                        <tr><td>"max"</td><td>"200,000 playouts"</td><td>"the same, searching longest"</td></tr>
                    </tbody>
                </table>
                <p>
                    "With the swap rule on, the engine as Blue takes over openings in the middle of the board "
                    "and leaves edge openings to Red. Undo takes back your move and the engine's answer."
                </p>
            </section>

            <section id="analysis">
                <h2>"The analysis board"</h2>
                <p>
                    <a href="/analysis">"Analysis"</a> " reviews any game: open it from “Review” after a game, "
                    "paste a record into Import, or link to " <code>"/analysis?record=9x9%20e5%20c3"</code>
                    ". Step through the moves with the slider, the buttons or the ← → keys; click an empty "
                    "cell to try a move of your own (a variation; “Back to the game” returns to the record)."
                </p>
                <p>
                    "The engine analyses the position on the board continuously. Its four best moves are "
                    "numbered on the board in four shades, and listed with the chance of winning for the side "
                    "to move, how often the search tried them and the line it expects. When the search "
                    "proves the result, it says so: “Red wins in 3” means Red can force a win with three more "
                    "stones whatever Blue does. In endgames a proof search runs beside it; it recognises connections that can no longer be cut (bridges, edge templates and chains of them) and cells that no longer matter: “Red wins in at most 4 (proved by the solver)” means its proof needs no more than four more Red stones (a bound: the shortest win may be shorter). A second worker computes the winning chances after every move "
                    "of the game for the graph below; the moves that lost the most are listed as mistakes."
                </p>
            </section>

            <section id="online">
                <h2>"Playing online"</h2>
                <p>
                    "On " <a href="/play">"/play"</a> ", " <strong>"Quick match"</strong>
                    " pairs you with the next player who picks the same board size, series length, clock and "
                    "swap rule; people and bots share these pools. " <strong>"Private room"</strong>
                    " gives you a link and a six-letter code for a friend. A series is best of 1 to 15 games; "
                    "the first move alternates from game to game while each player keeps their colour."
                </p>
                <p>
                    "Clocks are Fischer clocks kept by the server: a base time plus an increment after each "
                    "move (" <code>"5+3"</code> " is five minutes plus three seconds a move). Running out of time "
                    "loses the game. If your connection drops or you reload the page, your seat waits for you "
                    "(30 seconds by default) and the clocks stop meanwhile; after that the game is forfeited. "
                    "Every game can be watched at its address " <code>"/game/<number>"</code>
                    "; spectators see the board, the clocks and the chat, and are counted. "
                    <a href="/overview">"/overview"</a> " lists every live game as it changes."
                </p>
            </section>

            <section id="bots">
                <h2>"Bots: hexgame protocol v1"</h2>
                <p>
                    "hexarena speaks the protocol of hexgame-server 0.4, message for message, so its Python "
                    "clients and the bots written for them play here unchanged:"
                </p>
                <pre><code>"pip install hexgame
hexgame random --server ws://HOST:PORT --board-size 11
hexgame play --model-name my_agent --server ws://HOST:PORT --board-size 7 --series-length 3"</code></pre>
                <p>
                    "Endpoints: " <code>"/ws/matchmake?board_size=N&series_length=K&model_name=…&username=…"</code>
                    " (sizes 7, 9, 11, 13, 19; K odd from 1 to 15), " <code>"/ws/join-slot?slot_id=…"</code> ", "
                    <code>"/ws/reconnect?slot_id=…&token=…"</code> ", " <code>"GET /slots"</code> ", "
                    <code>"/ws/slots"</code> " and " <code>"GET /api/statistics"</code>
                    ". Every message is " <code>"{\"type\": …, \"payload\": {…}}"</code>
                    ". A bot sends " <code>"move"</code> " (" <code>"{\"q\": column, \"r\": row}"</code> ", from 0), "
                    <code>"chat"</code> ", " <code>"resign"</code> ", " <code>"ping"</code> ", " <code>"hello"</code>
                    " and " <code>"keep_slot"</code> "; it receives " <code>"joined"</code>
                    " (with its secret " <code>"reconnect_token"</code> "), " <code>"waiting_for_opponent"</code> ", "
                    <code>"game_start"</code> ", " <code>"move"</code> ", " <code>"move_rejected"</code> ", "
                    <code>"game_over"</code> ", " <code>"series_update"</code> ", " <code>"series_over"</code> ", "
                    <code>"opponent_disconnected"</code> ", " <code>"opponent_reconnected"</code> ", "
                    <code>"chat"</code> ", " <code>"pong"</code> " and " <code>"error"</code>
                    ". Player −1 is Red (left ↔ right), player 1 is Blue (top ↔ bottom); the board is "
                    <code>"board[r][q]"</code> ". Refused moves give hexgame's reasons (" <code>"Not your turn"</code>
                    ", " <code>"Cell already occupied"</code> ", " <code>"Move outside board"</code> ", "
                    <code>"Game paused for reconnect"</code> ", …); messages over 4096 characters get "
                    <code>"Message too large"</code> "."
                </p>
                <p>
                    "Differences from hexgame-server: there is no fixed number of slots (see "
                    <code>"HEXARENA_MAX_TABLES"</code> "); a reconnect token stays valid for the whole match "
                    "instead of being replaced on each reconnect; " <code>"resign"</code>
                    " gives up the current game (the series goes on) without closing the connection; and the "
                    "absent player forfeits the series when the reconnect window ends (the other player is told "
                    "with " <code>"opponent_disconnected"</code> ", then " <code>"game_over"</code> " and "
                    <code>"series_over"</code> "). " <code>"/ws/slots"</code>
                    " sends the whole list at most once a second instead of on every change."
                </p>
            </section>

            <section id="browser-protocol">
                <h2>"The browser protocol"</h2>
                <p>
                    "Our own pages use " <code>"/ws/play"</code> " (" <code>"mode=quick&size=…&series=…&swap=on|off&time=5+3"</code>
                    ", " <code>"mode=room&code=…"</code> " or " <code>"mode=resume&game=…&token=…"</code> "), "
                    <code>"/ws/watch?game=…"</code> " for spectators and " <code>"/ws/overview"</code>
                    " for the live list. They carry the v1 messages plus " <code>"swap"</code>
                    " from the player and a " <code>"state"</code>
                    " message with the whole table (moves, clocks, seats, score, spectators) after every change; "
                    "the overview sends the whole list once, then numbered changes: tables that opened, whole; "
                    "for each table that changed only its changed fields and stones (" <code>"[q, r, value]"</code>
                    "); the ids of tables that closed."
                </p>
            </section>

            <section id="ratings">
                <h2>"Ratings and the archive"</h2>
                <p>
                    "Every finished online game is kept with its moves, when each was played and the clocks. "
                    "Ratings use Glicko-2: each rated game moves both players, further when a rating is still "
                    "uncertain (new players start at 1500 ± 700). A game is rated when both seats are known "
                    "players: a person who picked a display name on /play (names are unique whatever their "
                    "case; the browser keeps a player id and a secret, no password needed), or a bot by its "
                    "model name and username (as hexgame's leaderboard counts them). A name only typed into "
                    "a game form is shown but not rated. "
                    <a href="/statistics">"/statistics"</a> " shows the leaderboard and " <a href="/games">"/games"</a>
                    " every game, to replay, download or review."
                </p>
                <p>
                    "Games in play are written down move by move before anyone is told of the move, so a "
                    "server that stops suddenly loses nothing: when it starts again, its games wait for their "
                    "players, who come back with their seats' tokens (a browser does it by itself on reload)."
                </p>
            </section>

            <section id="gtp">
                <h2>"The engine over GTP"</h2>
                <p>
                    "The server binary is also the engine's command line. " <code>"hexarena gtp"</code>
                    " speaks the Go Text Protocol as HexGui and MoHex do for Hex (" <code>"boardsize"</code> ", "
                    <code>"play"</code> ", " <code>"genmove"</code> ", " <code>"undo"</code> ", "
                    <code>"showboard"</code> ", " <code>"final_score"</code>
                    " and the usual others), so HexGui can use it as its program and other engines can play it:"
                </p>
                <pre><code>"hexarena gtp --level strong
    hexarena gtp --time-per-move 1.5
    hexarena gtp --time-per-move 1 --cpu-time"</code></pre>
                <p>
                    <code>"--cpu-time"</code>
                    " counts the time per move in CPU time of the thread that searches instead of on the wall "
                    "clock, so a match against another engine stays fair while the machine is busy with "
                    "something else (Linux)."
                </p>
                <p>
                    "Like those tools, GTP's black moves first and joins top and bottom: black is our Red and "
                    "cells are reflected across the short diagonal, as in SGF. " <code>"swap-pieces"</code>
                    " is accepted and played (" <code>"--no-swap"</code> " turns the rule off). Two "
                    "extensions: " <code>"hexarena-analyze [iterations]"</code> " lists the best moves with "
                    "their winning chances and visits, and " <code>"hexarena-sgf"</code>
                    " writes the game so far as HexGui SGF."
                </p>
                <p>"For one position, " <code>"hexarena analyze"</code> " prints the engine's best moves as JSON:"</p>
                <pre><code>"hexarena analyze --size 9 --moves \"e5 c3 d6\" --time 2s --top 4"</code></pre>
                <p>
                    <code>"hexarena bench"</code>
                    " measures the engine's speed on this machine: random playouts per second and search "
                    "iterations per second for board sizes 7 to 19."
                </p>
            </section>

            <section id="self-hosting">
                <h2>"Running hexarena yourself"</h2>
                <p>
                    "hexarena is one Rust program: an Axum server that renders the pages and serves the "
                    "WebAssembly client. From a checkout of the source:"
                </p>
                <pre><code>"scripts/start.sh"</code></pre>
                <p>
                    "installs what the build needs if it is missing (the WebAssembly target, cargo-leptos, "
                    "wasm-bindgen, wasm-opt), builds a release and serves it at http://127.0.0.1:3000. "
                    "To build by hand:"
                </p>
                <pre><code>"cargo leptos build --release\nLEPTOS_SITE_ADDR=127.0.0.1:3000 LEPTOS_SITE_ROOT=target/site target/release/hexarena"</code></pre>
                <p>
                    "The server answers " <code>"GET /health"</code> " with " <code>"{\"status\":\"ok\"}"</code>
                    " for load balancers and monitors. " <code>"scripts/test.sh"</code> " runs every test, "
                    "including the browser tests in headless Chromium."
                </p>
            </section>

            <section id="configuration">
                <h2>"Configuration"</h2>
                <p>"Settings are environment variables:"</p>
                <table>
                    <thead>
                        <tr><th>"Variable"</th><th>"Meaning"</th><th>"Default"</th></tr>
                    </thead>
                    <tbody>
                        <tr>
                            <td><code>"LEPTOS_SITE_ADDR"</code></td>
                            <td>"Address and port to listen on."</td>
                            <td><code>"127.0.0.1:3000"</code></td>
                        </tr>
                        <tr>
                            <td><code>"LEPTOS_SITE_ROOT"</code></td>
                            <td>"Folder with the built site (the WebAssembly client, styles, icons)."</td>
                            <td><code>"target/site"</code></td>
                        </tr>
                        <tr>
                            <td><code>"DATABASE_URL"</code></td>
                            <td>"Where games and players are kept: " <code>"sqlite://…"</code> " or " <code>"postgres://…"</code> ". Created if missing and migrated at start-up."</td>
                            <td>"a SQLite file " <code>"hexarena.db"</code> " in the working directory"</td>
                        </tr>
                        <tr>
                            <td><code>"HEXARENA_SKIP_MIGRATIONS"</code></td>
                            <td>"Set to " <code>"1"</code> " when the schema is managed outside hexarena."</td>
                            <td>"unset"</td>
                        </tr>
                        <tr>
                            <td><code>"HEXARENA_JOURNAL"</code></td>
                            <td>"Where games in play are kept move by move, so that a restart resumes them: a file path, or " <code>"database"</code> "."</td>
                            <td>"a file beside a SQLite database (" <code>"hexarena.db-live"</code> "), else the database"</td>
                        </tr>
                        <tr>
                            <td><code>"HEXARENA_WORKER_THREADS"</code></td>
                            <td>"Threads serving requests and games."</td>
                            <td>"one per core"</td>
                        </tr>
                        <tr>
                            <td><code>"HEXARENA_RECONNECT_SECS"</code></td>
                            <td>"How long a dropped player's seat waits before the game is forfeited."</td>
                            <td><code>"30"</code></td>
                        </tr>
                        <tr>
                            <td><code>"HEXARENA_MAX_TABLES"</code></td>
                            <td>"Most games (tables) open at once."</td>
                            <td><code>"20000"</code></td>
                        </tr>
                        <tr>
                            <td><code>"HEXARENA_LINGER_SECS"</code></td>
                            <td>"How long a finished game stays watchable once its players have left."</td>
                            <td><code>"600"</code></td>
                        </tr>
                        <tr>
                            <td><code>"HEXARENA_ROOM_WAIT_SECS"</code></td>
                            <td>"How long an empty private room waits for its players."</td>
                            <td><code>"900"</code></td>
                        </tr>
                        <tr>
                            <td><code>"HEXARENA_OVERVIEW_MS"</code></td>
                            <td>"How often " <code>"/overview"</code> " is sent changes (less often when over 500 tables change at once: at most 2,000 are read a second)."</td>
                            <td><code>"250"</code></td>
                        </tr>
                        <tr>
                            <td><code>"HEXARENA_SLOTS_FEED_MS"</code></td>
                            <td>"Least time between two whole lists on " <code>"/ws/slots"</code> " (longer for long lists: at most 256 KiB a second to each reader)."</td>
                            <td><code>"1000"</code></td>
                        </tr>
                    </tbody>
                </table>
            </section>
        </div>
    }
}
