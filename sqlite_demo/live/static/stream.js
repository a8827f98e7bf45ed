// Follows one session's event stream, and reconnects after a drop exactly where it left off.
//
// The stream is read with fetch() rather than EventSource: an EventSource hides why it
// failed, and a page that cannot tell "the server is down" from "every stream slot is
// taken, retry in 1 s" or "your token is wrong" can only retry blindly. Here each refusal is
// read (its status, its JSON error, its Retry-After), reported, and answered: a wait of at
// least Retry-After, growing with each failure, or no retry at all when only a new token
// could help. Every reconnect asks for ?after=<the last event id received>, and the server
// sends exactly the events after it, then a "caught-up" frame.

import { language } from "./i18n.js";

const FIRST_RETRY_MS = 250;
const LONGEST_RETRY_MS = 2000;       // the server is away: try again soon, it may be back
const LONGEST_WAIT_MS = 16000;       // the server said "not now": back off further

/**
 * Follow `sessionId` until `stop()` is called.
 *
 * handlers:
 *   event(event)                  one log event, in the order the server sent it
 *   caughtUp(info, resumedAfter)  the backlog is in; resumedAfter is null on the first
 *                                 connection, else the event id this reconnect resumed after
 *   state(name, detail)           "lost" (detail: the last event id held), "retrying" and
 *                                 "waiting" (detail: {attempt, seconds, reason}),
 *                                 "refused" (detail: {status, reason}; no retry), "closing"
 */
export function followSession(sessionId, handlers) {
  let lastEventId = 0;
  let failures = 0;
  let retryTimer = null;
  let stopped = false;
  let droppedAfter = null;  // the last event id held when the connection dropped
  let controller = null;

  async function open() {
    controller = new AbortController();
    const url = `sessions/${encodeURIComponent(sessionId)}/events/stream?after=${lastEventId}`;
    let response;
    try {
      const headers = { "Accept-Language": language() };  // the server words refusals in it
      response = await fetch(url, { signal: controller.signal, cache: "no-store", headers });
    } catch {
      return retry(null);
    }
    if (!response.ok) return refused(response);
    try {
      await readFrames(response.body, onFrame);
    } catch {
      // The connection broke mid-stream (a kill, a network drop) or stop() aborted it.
    }
    retry(null);
  }

  function onFrame(frame) {
    if (frame.event === "message" && frame.data !== null) {
      const event = JSON.parse(frame.data);
      lastEventId = event.event_id;
      handlers.event(event);
    } else if (frame.event === "caught-up") {
      failures = 0;
      const resumedAfter = droppedAfter;
      droppedAfter = null;
      handlers.caughtUp(JSON.parse(frame.data), resumedAfter);
    } else if (frame.event === "closing") {
      handlers.state("closing");
    }
  }

  async function refused(response) {
    const reason = await errorMessage(response);
    if (response.status === 401 || response.status === 403 || response.status === 404) {
      handlers.state("refused", { status: response.status, reason });  // a retry cannot help
      return;
    }
    const retryAfter = Number(response.headers.get("Retry-After"));
    retry({ reason, atLeastMs: Number.isFinite(retryAfter) ? retryAfter * 1000 : 0 });
  }

  function retry(refusal) {
    if (stopped) return;
    failures += 1;
    const longest = refusal ? LONGEST_WAIT_MS : LONGEST_RETRY_MS;
    const backoff = Math.min(FIRST_RETRY_MS * 2 ** (failures - 1), longest);
    const delay = Math.max(backoff, refusal ? refusal.atLeastMs : 0);
    if (droppedAfter === null) droppedAfter = lastEventId;
    const detail = {
      attempt: failures,
      seconds: delay / 1000,
      reason: refusal ? refusal.reason : "page.unreachable",  // a sentence id: live.js words it
    };
    if (refusal) handlers.state("waiting", detail);
    else if (failures === 1) handlers.state("lost", lastEventId);
    else handlers.state("retrying", detail);
    retryTimer = setTimeout(open, delay);
  }

  open();
  return {
    stop() {
      stopped = true;
      clearTimeout(retryTimer);
      if (controller) controller.abort();
    },
  };
}

/** The `message` of the kit's JSON error, or the status line when there is none. */
async function errorMessage(response) {
  try {
    const body = await response.json();
    return body.error.message;
  } catch {
    return `${response.status} ${response.statusText}`;
  }
}

/**
 * Read Server-Sent Events from `body` until it ends, calling `onFrame({event, id, data})`
 * for each frame; comments (the heartbeat) are skipped. The server ends lines with "\n".
 */
export async function readFrames(body, onFrame) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const frame = parseFrame(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      if (frame) onFrame(frame);
    }
  }
}

function parseFrame(text) {
  const frame = { event: "message", id: null, data: null };
  let fields = 0;
  for (const line of text.split("\n")) {
    if (line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const name = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (name === "data") frame.data = frame.data === null ? value : `${frame.data}\n${value}`;
    else if (name === "event" || name === "id") frame[name] = value;
    else continue;
    fields += 1;
  }
  return fields ? frame : null;
}

/**
 * Compare the ids the page received after `after` with the log's own, up to `lastEventId`.
 * Returns {missing: [...], doubled: [...]}: both empty means the page holds that stretch of
 * the log exactly once.
 */
export function compareWithLog(receivedIds, logIds, after, lastEventId) {
  const within = (id) => id > after && id <= lastEventId;
  const expected = logIds.filter(within);
  const seen = new Set();
  const doubled = [];
  for (const id of receivedIds.filter(within)) {
    if (seen.has(id)) doubled.push(id);
    seen.add(id);
  }
  const missing = expected.filter((id) => !seen.has(id));
  return { missing, doubled };
}
