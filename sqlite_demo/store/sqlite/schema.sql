-- The event store's schema: one append-only log of events, and two projections derived from it.
--
-- The events table is the only source of truth. messages and tool_calls are projections: fast
-- read paths that SqliteEventStore.rebuild_projections can throw away and refold from events.
-- Every statement is IF NOT EXISTS, so opening an existing database applies nothing twice.
-- Pragmas are per connection, not per file, so they live in connection.py, not here. So does
-- the schema's version number (PRAGMA user_version), which connection.py writes with it.
-- Non-empty checks use <> '', not length(x) > 0: length() stops at the first NUL character.

CREATE TABLE IF NOT EXISTS sessions (
    id         TEXT    PRIMARY KEY CHECK (id <> ''),  -- 'sess_' + 128 random bits, as hex
    title      TEXT    NOT NULL,
    created_at INTEGER NOT NULL                              -- unix time, milliseconds
);

CREATE TABLE IF NOT EXISTS events (
    -- INTEGER PRIMARY KEY is the rowid; AUTOINCREMENT adds the promise that an id is never
    -- reused, even after the highest row is gone. A rolled-back insert also rolls back the
    -- counter (sqlite_sequence is written in the same transaction), so ids have no gaps.
    event_id        INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id      TEXT    NOT NULL REFERENCES sessions (id),
    -- The chapter's four, an item of an agent framework kept whole, and the two corrections
    -- (eventlog.STORE_EVENT_TYPES).
    type            TEXT    NOT NULL
        CHECK (type IN ('user_message', 'assistant_message', 'tool_call', 'tool_result',
                        'agent_item', 'item_removed', 'session_cleared')),
    payload         TEXT    NOT NULL                         -- a JSON object, as text
        CHECK (json_valid(payload) AND json_type(payload) = 'object'),
    created_at      INTEGER NOT NULL,
    -- Set when the writer passed one: a retry with the same key finds this row instead of
    -- appending twice. It lives in the event's own row, so it is written in the same INSERT.
    idempotency_key TEXT    CHECK (idempotency_key IS NULL OR idempotency_key <> ''),
    -- The payload's call_id, for tool_call and tool_result events only: the call-id rule looks
    -- calls up through the index below. A bound parameter compares byte for byte, so the
    -- lookup is exact even for an id holding a NUL, where json_extract(payload) is not.
    call_id         TEXT    CHECK ((call_id IS NOT NULL) = (type IN ('tool_call', 'tool_result'))),
    -- A correction's pointer, for the two corrections only: the event an item_removed takes
    -- out, the last event a session_cleared takes out. "Is event N still in force?" is then two
    -- seeks in the indexes below, never a scan of the session.
    supersedes      INTEGER
        CHECK ((supersedes IS NOT NULL) = (type IN ('item_removed', 'session_cleared')))
);

-- Every read filters by session first, then walks the ids in order: this index serves both.
CREATE INDEX IF NOT EXISTS idx_events_session ON events (session_id, event_id);

-- A key means "this request" only within its session; NULL keys are left out of the index.
CREATE UNIQUE INDEX IF NOT EXISTS idx_events_idempotency_key
    ON events (session_id, idempotency_key) WHERE idempotency_key IS NOT NULL;

-- "Is this call id unused, open or answered in this session?" is one seek, whatever the
-- session's length: the call-id rule reads at most the call and its result.
CREATE INDEX IF NOT EXISTS idx_events_call_id
    ON events (session_id, call_id) WHERE call_id IS NOT NULL;

-- The corrections of a session, each kind in its own small index: only correction rows are in
-- them. "Was event N removed?" is one seek; "up to where was the session cleared?" is max().
CREATE INDEX IF NOT EXISTS idx_events_removed
    ON events (session_id, supersedes) WHERE type = 'item_removed';
CREATE INDEX IF NOT EXISTS idx_events_cleared
    ON events (session_id, supersedes) WHERE type = 'session_cleared';

-- The log is a ledger: a correction is a new event, never an edited or erased one.
CREATE TRIGGER IF NOT EXISTS events_refuse_update BEFORE UPDATE ON events
BEGIN
    SELECT RAISE(ABORT, 'events are append-only: append a correcting event instead of updating');
END;

CREATE TRIGGER IF NOT EXISTS events_refuse_delete BEFORE DELETE ON events
BEGIN
    SELECT RAISE(ABORT, 'events are append-only: events are never deleted');
END;

-- The projections are keyed by the event they come from: event_id is their INTEGER PRIMARY
-- KEY, so "one projection row per event, at most" is the key itself. (The chapter gives
-- each projection its own AUTOINCREMENT id plus a UNIQUE event_id: two B-trees and a second
-- counter to update at every append, for an id nobody reads.) A session's rows are read by
-- joining from idx_events_session, so the projections need no session index of their own.

-- Projection of user_message and assistant_message events: the chat as a screen shows it.
CREATE TABLE IF NOT EXISTS messages (
    event_id   INTEGER PRIMARY KEY REFERENCES events (event_id),
    session_id TEXT    NOT NULL REFERENCES sessions (id),
    role       TEXT    NOT NULL CHECK (role IN ('user', 'assistant')),
    content    TEXT    NOT NULL,
    created_at INTEGER NOT NULL
);

-- Projection of tool_call events; the matching tool_result event fills in result.
-- Unlike events, a projection may be updated: it is derived data, refoldable at any time.
-- It shows what is in force: a correction deletes the rows of the items it takes out (their
-- events stay in the log), or empties the result of a tool_result it takes out.
CREATE TABLE IF NOT EXISTS tool_calls (
    event_id   INTEGER PRIMARY KEY REFERENCES events (event_id),
    session_id TEXT    NOT NULL REFERENCES sessions (id),
    call_id    TEXT    NOT NULL,
    name       TEXT    NOT NULL,
    arguments  TEXT    NOT NULL,
    result     TEXT,                                                   -- NULL until answered
    created_at INTEGER NOT NULL,
    -- Call ids are scoped per session; the store checks this first, this is the backstop.
    UNIQUE (session_id, call_id)
);

