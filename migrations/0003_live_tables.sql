-- Tables in play, written as play goes (every seat change and every move,
-- before anyone is told of it), so a restarted server resumes them: the
-- players come back with their seat tokens. Rows go when the series ends.

CREATE TABLE live_tables (
    id BIGINT PRIMARY KEY,
    -- JSON: board size, series length, swap, time control.
    options TEXT NOT NULL,
    room_code TEXT,
    -- JSON: each seat's name, model and secret token (never shown).
    seats TEXT NOT NULL,
    game_number INTEGER NOT NULL,
    red_wins INTEGER NOT NULL,
    blue_wins INTEGER NOT NULL,
    -- JSON: the series' earlier games.
    finished TEXT NOT NULL,
    updated_at_ms BIGINT NOT NULL
);

CREATE TABLE live_moves (
    table_id BIGINT NOT NULL,
    game_number INTEGER NOT NULL,
    ply INTEGER NOT NULL,
    move TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    -- The mover's clock after the move (timed games).
    clock_ms BIGINT,
    PRIMARY KEY (table_id, game_number, ply)
);
