-- Finished games the archive has not committed yet: written with the
-- table's next state, before anyone hears of the result, and deleted once
-- the archive has the game. A restart archives what is left here first.
CREATE TABLE live_finished (
    series_id BIGINT NOT NULL,
    number INTEGER NOT NULL,
    -- JSON: the whole finished game as the archive writes it.
    game TEXT NOT NULL,
    PRIMARY KEY (series_id, number)
);
