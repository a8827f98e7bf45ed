-- One append on PostgreSQL, in one round trip: the functions the store calls.
--
-- kit_append takes its turn, checks the rules that need the log, inserts the events, writes
-- their projection rows and queues the notification, all inside the one statement that calls
-- it (in autocommit, that statement is its own transaction). The rules are the SQLite
-- store's, in the same order; a refusal raises one of the kit's own SQLSTATEs (class KT),
-- with what the store needs to word the refusal in DETAIL, and rolls everything back:
--
--   KT001  no such session                 DETAIL: the index of the event in the batch
--   KT002  expected version not met        DETAIL: "index,last event id"
--   KT003  the call id does not fit        DETAIL: "index,type of the call's newest event
--                                          in force" (empty: the call id is unused)
--   KT004  a correction that does not fit  DETAIL: "index,newest item in force,last event id"
--   KT005  the projection lost a call      DETAIL: the call id (see kit_project)
--
-- The texts a projection row holds come as arguments, decoded by the store: PostgreSQL's
-- json type refuses the \u0000 escape that a payload may hold, and the store writes every
-- text NUL-safe (text.py). Created by connection.py after schema.sql, all OR REPLACE.

-- The projection step: the rows of one event, or what a correction takes out of them. The
-- append calls it in the event's own transaction, and a rebuild calls it for every event in
-- order, so a rebuilt projection is the same as one maintained append by append.
CREATE OR REPLACE FUNCTION kit_project(
    p_session_id TEXT, p_event_id BIGINT, p_type TEXT, p_created_at BIGINT, p_call_id TEXT,
    p_supersedes BIGINT, p_content TEXT, p_name TEXT, p_arguments TEXT
) RETURNS VOID LANGUAGE plpgsql AS $$
DECLARE
    v_type    TEXT;
    v_call_id TEXT;
BEGIN
    IF p_type IN ('user_message', 'assistant_message') THEN
        INSERT INTO messages (session_id, event_id, role, content, created_at)
        VALUES (p_session_id, p_event_id, CASE p_type WHEN 'user_message' THEN 'user'
                ELSE 'assistant' END, p_content, p_created_at);
    ELSIF p_type = 'tool_call' THEN
        INSERT INTO tool_calls (session_id, event_id, call_id, name, arguments, created_at)
        VALUES (p_session_id, p_event_id, p_call_id, p_name, p_arguments, p_created_at);
    ELSIF p_type = 'tool_result' THEN
        -- The projection row is updated in place; the events it came from never are.
        UPDATE tool_calls SET result = p_content
        WHERE session_id = p_session_id AND call_id = p_call_id;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'tool_calls has no row for this call' USING ERRCODE = 'KT005',
                DETAIL = p_call_id;
        END IF;
    ELSIF p_type = 'item_removed' THEN
        -- The event taken out is read from the log: its type says which row it projected to.
        SELECT type, call_id INTO v_type, v_call_id FROM events
        WHERE session_id = p_session_id AND event_id = p_supersedes;
        IF v_type IN ('user_message', 'assistant_message') THEN
            DELETE FROM messages WHERE event_id = p_supersedes;
        ELSIF v_type = 'tool_call' THEN
            DELETE FROM tool_calls WHERE event_id = p_supersedes;
        ELSIF v_type = 'tool_result' THEN
            UPDATE tool_calls SET result = NULL
            WHERE session_id = p_session_id AND call_id = v_call_id;
        END IF;
    ELSIF p_type = 'session_cleared' THEN
        DELETE FROM messages WHERE session_id = p_session_id AND event_id <= p_supersedes;
        DELETE FROM tool_calls WHERE session_id = p_session_id AND event_id <= p_supersedes;
    END IF;
END
$$;

-- The rules that need the log, for event i of a batch (see kit_append): each is one index
-- lookup, and runs only for the events it concerns, as on SQLite.
CREATE OR REPLACE FUNCTION kit_check(
    p_session_id TEXT, p_index INTEGER, p_type TEXT, p_expected_version BIGINT,
    p_call_id TEXT, p_supersedes BIGINT
) RETURNS VOID LANGUAGE plpgsql AS $$
DECLARE
    v_last    BIGINT;
    v_cleared BIGINT;
    v_found   TEXT;
    v_newest  BIGINT;
BEGIN
    SELECT max(event_id) INTO v_last FROM events WHERE session_id = p_session_id;
    -- The session must exist before its calls are asked about.
    IF v_last IS NULL AND NOT EXISTS (SELECT 1 FROM sessions WHERE id = p_session_id) THEN
        RAISE EXCEPTION 'no such session' USING ERRCODE = 'KT001', DETAIL = p_index::text;
    END IF;
    v_last := coalesce(v_last, 0);
    IF p_expected_version IS NOT NULL AND v_last <> p_expected_version THEN
        RAISE EXCEPTION 'version conflict' USING ERRCODE = 'KT002',
            DETAIL = format('%s,%s', p_index, v_last);
    END IF;
    -- What is in force: after the last clear, and not named by an item_removed.
    SELECT coalesce(max(supersedes), 0) INTO v_cleared FROM events
    WHERE session_id = p_session_id AND type = 'session_cleared';
    IF p_call_id IS NOT NULL THEN
        -- The call's newest event in force says where it stands: none (unused), its call
        -- (open) or its result (answered).
        SELECT e.type INTO v_found FROM events AS e
        WHERE e.session_id = p_session_id AND e.call_id = p_call_id AND e.event_id > v_cleared
          AND e.event_id NOT IN (SELECT supersedes FROM events
                                 WHERE session_id = p_session_id AND type = 'item_removed')
        ORDER BY e.event_id DESC LIMIT 1;
        IF (p_type = 'tool_call' AND v_found IS NOT NULL)
           OR (p_type = 'tool_result' AND v_found IS DISTINCT FROM 'tool_call') THEN
            RAISE EXCEPTION 'call id does not fit' USING ERRCODE = 'KT003',
                DETAIL = format('%s,%s', p_index, coalesce(v_found, ''));
        END IF;
    END IF;
    IF p_type = 'item_removed' THEN
        SELECT e.event_id INTO v_newest FROM events AS e
        WHERE e.session_id = p_session_id AND e.event_id > v_cleared
          AND e.type IN ('user_message', 'assistant_message', 'tool_call', 'tool_result',
                         'agent_item')
          AND e.event_id NOT IN (SELECT supersedes FROM events
                                 WHERE session_id = p_session_id AND type = 'item_removed')
        ORDER BY e.event_id DESC LIMIT 1;
    END IF;
    IF (p_type = 'item_removed' AND v_newest IS DISTINCT FROM p_supersedes)
       OR (p_type = 'session_cleared' AND v_last <> p_supersedes) THEN
        RAISE EXCEPTION 'correction does not fit' USING ERRCODE = 'KT004',
            DETAIL = format('%s,%s,%s', p_index, coalesce(v_newest::text, ''), v_last);
    END IF;
END
$$;

-- The append: events i = 1 .. n of one session, in one transaction (the statement's own, or
-- the caller's). Returns one row per event appended (its id); or, for a known idempotency
-- key, the event the key was first used for, with its type, payload and time, and nothing
-- appended: the store compares the two requests.
CREATE OR REPLACE FUNCTION kit_append(
    p_session_id TEXT, p_idempotency_key TEXT, p_expected_version BIGINT, p_created_at BIGINT,
    p_channel TEXT, p_notify_key TEXT, p_types TEXT[], p_payloads TEXT[], p_call_ids TEXT[],
    p_supersedes BIGINT[], p_contents TEXT[], p_names TEXT[], p_arguments TEXT[]
) RETURNS TABLE (r_event_id BIGINT, r_type TEXT, r_payload TEXT, r_created_at BIGINT)
LANGUAGE plpgsql AS $$
DECLARE
    v_count INTEGER := cardinality(p_types);
    v_id    BIGINT;
BEGIN
    -- The turn: the head row's lock, held to COMMIT, makes appends take turns, so each one
    -- reads the log as the previous one left it and ids commit in order; the ids of the whole
    -- batch are taken at once, and go back with everything else if anything is refused.
    UPDATE log_head SET last_event_id = last_event_id + v_count
    RETURNING last_event_id - v_count INTO v_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'log_head holds no row: the schema was changed by hand';
    END IF;
    IF p_idempotency_key IS NOT NULL THEN
        RETURN QUERY SELECT event_id, type, payload, created_at FROM events
        WHERE session_id = p_session_id AND idempotency_key = p_idempotency_key;
        IF FOUND THEN  -- a retry: answered with the original, nothing appended
            UPDATE log_head SET last_event_id = last_event_id - v_count;
            RETURN;
        END IF;
    END IF;
    FOR i IN 1 .. v_count LOOP
        v_id := v_id + 1;
        IF p_expected_version IS NOT NULL OR p_call_ids[i] IS NOT NULL
           OR p_supersedes[i] IS NOT NULL THEN
            PERFORM kit_check(p_session_id, i, p_types[i], p_expected_version, p_call_ids[i],
                              p_supersedes[i]);
        END IF;
        INSERT INTO events (event_id, session_id, type, payload, created_at, idempotency_key,
                            call_id, supersedes)
        VALUES (v_id, p_session_id, p_types[i], p_payloads[i], p_created_at,
                p_idempotency_key, p_call_ids[i], p_supersedes[i]);
        PERFORM kit_project(p_session_id, v_id, p_types[i], p_created_at, p_call_ids[i],
                            p_supersedes[i], p_contents[i], p_names[i], p_arguments[i]);
        p_expected_version := NULL;  -- checked once, before the first: the batch moves on
        r_event_id := v_id;
        RETURN NEXT;
    END LOOP;
    -- Delivered at COMMIT, to every server that listens: a hint to read, never the data.
    PERFORM pg_notify(p_channel, p_notify_key);
END
$$;
