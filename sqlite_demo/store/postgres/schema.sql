-- The chapter's four tables on PostgreSQL: the same design as ../sqlite/schema.sql, translated.
--
-- The events table is the only source of truth; messages and tool_calls are projections,
-- written in the same transaction as their event and refoldable from the events at any time.
-- Everything is IF NOT EXISTS or OR REPLACE, and connection.py runs this file in one
-- transaction under an advisory lock, so two servers starting at once create it once.
-- Times are unix milliseconds (BIGINT), as on SQLite, so both backends hand out equal values.

CREATE TABLE IF NOT EXISTS sessions (
    id         TEXT   PRIMARY KEY CHECK (id <> ''),     -- 'sess_' + 128 random bits, as hex
    title      TEXT   NOT NULL,
    created_at BIGINT NOT NULL,                          -- unix time, milliseconds
    -- The order of creation, which SQLite's rowid gives for free. Sessions may be created
    -- concurrently from many servers and nobody tails them, so a sequence is right here.
    position   BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE
);

-- The head of the log: the last event id handed out, in one row. It plays the part of
-- SQLite's AUTOINCREMENT counter (sqlite_sequence), and of its write lock:
--
-- * Every append starts by incrementing it, which locks the row until COMMIT or ROLLBACK.
--   So appends take turns, each one reads the log as the previous append left it, and
--   they commit in the order of their ids: no reader tailing "events after N" can see id
--   N+1 before id N (a plain sequence or IDENTITY column breaks exactly this, see
--   tests/store/postgres/test_reader_never_skips.py).
-- * It is a row like any other: an append that is refused or rolls back puts it back, so
--   ids have no gaps (a sequence never gives a number back).
CREATE TABLE IF NOT EXISTS log_head (
    only_row      BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (only_row),
    last_event_id BIGINT  NOT NULL CHECK (last_event_id >= 0)
);
INSERT INTO log_head (only_row, last_event_id) VALUES (TRUE, 0) ON CONFLICT DO NOTHING;

CREATE TABLE IF NOT EXISTS events (
    -- Taken from log_head by the append, inside its transaction (see above).
    event_id        BIGINT PRIMARY KEY CHECK (event_id > 0),
    session_id      TEXT   NOT NULL REFERENCES sessions (id),
    -- The chapter's four, an item of an agent framework kept whole, and the two corrections
    -- (eventlog.STORE_EVENT_TYPES).
    type            TEXT   NOT NULL
        CHECK (type IN ('user_message', 'assistant_message', 'tool_call', 'tool_result',
                        'agent_item', 'item_removed', 'session_cleared')),
    -- A JSON object, as text: the exact text the store encoded, read back as it was written
    -- (jsonb would reorder keys, and refuses the \u0000 escape that JSON allows).
    payload         TEXT   NOT NULL CHECK (json_typeof(payload::json) = 'object'),
    created_at      BIGINT NOT NULL,
    -- Set when the writer passed one: a retry with the same key finds this row instead of
    -- appending twice.
    idempotency_key TEXT   CHECK (idempotency_key IS NULL OR idempotency_key <> ''),
    -- The payload's call_id, for tool_call and tool_result events only: the call-id rule
    -- looks calls up through the index below.
    call_id         TEXT   CHECK ((call_id IS NOT NULL) = (type IN ('tool_call', 'tool_result'))),
    -- A correction's pointer, for the two corrections only: the event an item_removed takes
    -- out, the last event a session_cleared takes out. "Is event N still in force?" is then two
    -- seeks in the indexes below, never a scan of the session.
    supersedes      BIGINT
        CHECK ((supersedes IS NOT NULL) = (type IN ('item_removed', 'session_cleared')))
);

-- Every read filters by session first, then walks the ids in order: this index serves both.
CREATE INDEX IF NOT EXISTS idx_events_session ON events (session_id, event_id);

-- A key means "this request" only within its session; NULL keys are left out of the index.
CREATE UNIQUE INDEX IF NOT EXISTS idx_events_idempotency_key
    ON events (session_id, idempotency_key) WHERE idempotency_key IS NOT NULL;

-- "Is this call id unused, open or answered in this session?" is one index scan.
CREATE INDEX IF NOT EXISTS idx_events_call_id
    ON events (session_id, call_id) WHERE call_id IS NOT NULL;

-- The corrections of a session, each kind in its own small index: only correction rows are in
-- them. "Was event N removed?" is one seek; "up to where was the session cleared?" is max().
CREATE INDEX IF NOT EXISTS idx_events_removed
    ON events (session_id, supersedes) WHERE type = 'item_removed';
CREATE INDEX IF NOT EXISTS idx_events_cleared
    ON events (session_id, supersedes) WHERE type = 'session_cleared';

-- The log is a ledger: a correction is a new event, never an edited or erased one. The
-- error code is integrity_constraint_violation, so the store reports it as the database
-- refusing the write, as it does SQLite's RAISE(ABORT).
CREATE OR REPLACE FUNCTION events_are_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        RAISE EXCEPTION 'events are append-only: append a correcting event instead of updating'
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RAISE EXCEPTION 'events are append-only: events are never deleted (%)', TG_OP
        USING ERRCODE = 'integrity_constraint_violation';
END
$$;

CREATE OR REPLACE TRIGGER events_refuse_update BEFORE UPDATE ON events
    FOR EACH ROW EXECUTE FUNCTION events_are_append_only();
CREATE OR REPLACE TRIGGER events_refuse_delete BEFORE DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION events_are_append_only();
-- TRUNCATE fires no row trigger: it needs a statement trigger of its own.
CREATE OR REPLACE TRIGGER events_refuse_truncate BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION events_are_append_only();

-- The projections, keyed by the event they come from, as on SQLite.

-- Projection of user_message and assistant_message events: the chat as a screen shows it.
CREATE TABLE IF NOT EXISTS messages (
    event_id   BIGINT PRIMARY KEY REFERENCES events (event_id),
    session_id TEXT   NOT NULL REFERENCES sessions (id),
    role       TEXT   NOT NULL CHECK (role IN ('user', 'assistant')),
    content    TEXT   NOT NULL,
    created_at BIGINT NOT NULL
);

-- Projection of tool_call events; the matching tool_result event fills in result.
-- Unlike events, a projection may be updated: it is derived data, refoldable at any time.
-- It shows what is in force: a correction deletes the rows of the items it takes out (their
-- events stay in the log), or empties the result of a tool_result it takes out.
CREATE TABLE IF NOT EXISTS tool_calls (
    event_id   BIGINT PRIMARY KEY REFERENCES events (event_id),
    session_id TEXT   NOT NULL REFERENCES sessions (id),
    call_id    TEXT   NOT NULL,
    name       TEXT   NOT NULL,
    arguments  TEXT   NOT NULL,
    result     TEXT,                                                   -- NULL until answered
    created_at BIGINT NOT NULL,
    -- Call ids are scoped per session; the store checks this first, this is the backstop.
    UNIQUE (session_id, call_id)
);
