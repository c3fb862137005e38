-- Accounts. People log in with a password (an argon2id PHC string, never
-- the password); bots belong to a person and prove themselves with tokens
-- (only their SHA-256 kept); sessions are rows keyed by the SHA-256 of the
-- random id in the browser's cookie. Ratings are kept per board-size class
-- and counted only between accounts, so they are rebuilt from the archive
-- (at the next start) rather than carried over: bots rated by the names
-- they declared were not accounts. Written to run unchanged on SQLite and
-- PostgreSQL.

ALTER TABLE players ADD COLUMN password_hash TEXT;
-- The name reduced to what it looks like (see online::identity::skeleton):
-- two names that look alike have the same skeleton.
ALTER TABLE players ADD COLUMN name_skeleton TEXT;
-- A bot account's owner (a person); NULL for people and for the bots that
-- were counted by their declared names.
ALTER TABLE players ADD COLUMN owner_id TEXT REFERENCES players (id);
ALTER TABLE players ADD COLUMN description TEXT;
CREATE UNIQUE INDEX players_by_skeleton ON players (name_skeleton);
CREATE INDEX players_by_owner ON players (owner_id);

CREATE TABLE sessions (
    id_hash TEXT PRIMARY KEY,
    player_id TEXT NOT NULL REFERENCES players (id),
    created_at_ms BIGINT NOT NULL,
    last_used_ms BIGINT NOT NULL,
    expires_at_ms BIGINT NOT NULL,
    -- What the browser said it was, to tell sessions apart in the list.
    user_agent TEXT
);
CREATE INDEX sessions_by_player ON sessions (player_id);

CREATE TABLE bot_tokens (
    id TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    bot_id TEXT NOT NULL REFERENCES players (id),
    created_at_ms BIGINT NOT NULL,
    last_used_ms BIGINT,
    -- Set when revoked (or replaced); the row stays so the refusal can say so.
    revoked_at_ms BIGINT
);
CREATE INDEX bot_tokens_by_bot ON bot_tokens (bot_id);

CREATE TABLE ratings (
    player_id TEXT NOT NULL REFERENCES players (id),
    -- 'all', or a board-size class: 'small' (up to 9), 'medium' (10 to 12), 'large' (13 up).
    class TEXT NOT NULL CHECK (class IN ('all', 'small', 'medium', 'large')),
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (player_id, class)
);

CREATE TABLE rating_changes (
    player_id TEXT NOT NULL REFERENCES players (id),
    game_id TEXT NOT NULL REFERENCES games (id),
    class TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (player_id, game_id, class)
);
CREATE INDEX rating_changes_by_game ON rating_changes (game_id);

-- The order games reached the archive, which is the order ratings change
-- in; the rebuild replays them in it.
ALTER TABLE games ADD COLUMN archived_seq BIGINT;

-- Bots counted by their declared names are not accounts: their games were
-- never between two accounts.
UPDATE games SET rated = FALSE
 WHERE red_player IN (SELECT id FROM players WHERE kind = 'bot')
    OR blue_player IN (SELECT id FROM players WHERE kind = 'bot');

DROP TABLE rating_history;
ALTER TABLE players DROP COLUMN rating;
ALTER TABLE players DROP COLUMN rating_deviation;
ALTER TABLE players DROP COLUMN volatility;
