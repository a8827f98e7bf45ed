// Follows one session's event stream, and reconnects after a drop exactly where it left off.
//
// The browser's EventSource can reconnect by itself, but after a refused connection it may
// give up for good, and it would do so silently. So every drop is handled here: close the
// source, wait a moment, and open a new one with ?after=<the last event id received>. The
// server then sends exactly the events after that id, then a "caught-up" frame.

const FIRST_RETRY_MS = 250;
const LONGEST_RETRY_MS = 2000;

/**
 * Follow `sessionId` until `stop()` is called.
 *
 * handlers:
 *   event(event)                  one log event, in the order the server sent it
 *   caughtUp(info, resumedAfter)  the backlog is in; resumedAfter is null on the first
 *                                 connection, else the event id this reconnect resumed after
 *   state(name, detail)           "live", "lost", "retrying", "closing"
 */
export function followSession(sessionId, handlers) {
  let source = null;
  let lastEventId = 0;
  let failures = 0;
  let retryTimer = null;
  let stopped = false;
  let droppedAfter = null;  // the last event id held when the connection dropped

  function open() {
    const after = lastEventId;
    const url = `sessions/${encodeURIComponent(sessionId)}/events/stream?after=${after}`;
    source = new EventSource(url);
    source.onmessage = (message) => {
      const event = JSON.parse(message.data);
      lastEventId = event.event_id;
      handlers.event(event);
    };
    source.addEventListener("caught-up", (message) => {
      failures = 0;
      const resumedAfter = droppedAfter;
      droppedAfter = null;
      handlers.state("live");
      handlers.caughtUp(JSON.parse(message.data), resumedAfter);
    });
    source.addEventListener("closing", () => handlers.state("closing"));
    source.onerror = () => drop();
  }

  function drop() {
    source.close();  // stop the browser's own retries: ours resume with ?after
    if (stopped) return;
    if (droppedAfter === null) {
      droppedAfter = lastEventId;
      handlers.state("lost", lastEventId);
    } else {
      handlers.state("retrying", failures);
    }
    failures += 1;
    const delay = Math.min(FIRST_RETRY_MS * 2 ** (failures - 1), LONGEST_RETRY_MS);
    retryTimer = setTimeout(open, delay);
  }

  open();
  return {
    stop() {
      stopped = true;
      clearTimeout(retryTimer);
      source.close();
    },
  };
}

/**
 * Compare the ids the page received with the log's own, up to `lastEventId`.
 * Returns {missing: [...], doubled: [...]}: both empty means the page holds the log exactly.
 */
export function compareWithLog(receivedIds, logIds, lastEventId) {
  const expected = logIds.filter((id) => id <= lastEventId);
  const received = receivedIds.filter((id) => id <= lastEventId);
  const seen = new Set();
  const doubled = [];
  for (const id of received) {
    if (seen.has(id)) doubled.push(id);
    seen.add(id);
  }
  const missing = expected.filter((id) => !seen.has(id));
  return { missing, doubled };
}
