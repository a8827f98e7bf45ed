// The live page: pick or create a session, chat with the scripted agent, and watch the log.
//
// What the page shows comes from the event stream (stream.js), never from the replies the
// POSTs return: the chat is a view of the log, as it would be rebuilt after a crash.

import { compareWithLog, followSession } from "./stream.js";
import * as views from "./views.js";

const WIDE = window.matchMedia("(min-width: 1400px)");
const $ = (selector) => document.querySelector(selector);
const path = (sessionId, tail) => `sessions/${encodeURIComponent(sessionId)}/${tail}`;

const state = {
  sessions: [],
  sessionId: null,
  stream: null,
  receivedIds: [],   // every event id shown for this session, duplicates included
  lastId: 0,
  pending: null,     // {what, key}: the message being sent, and its Idempotency-Key
  refreshTicket: 0,
  refreshTimer: null,
};

/** The server said no: its JSON error, as opposed to a server that could not be reached. */
class Refusal extends Error {}

async function api(method, url, body, headers = {}) {
  const options = { method, headers: { ...headers } };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(url, options);  // throws TypeError when unreachable
  const data = await response.json();
  if (!response.ok) throw new Refusal(data.error ? data.error.message : response.statusText);
  return data;
}

async function loadSessions(wantedId) {
  state.sessions = await api("GET", "sessions");
  const wanted = wantedId ?? decodeURIComponent(location.hash.slice(1));
  const chosen = state.sessions.find((s) => s.id === wanted) ?? state.sessions.at(-1);
  views.showSessions(state.sessions, chosen ? chosen.id : null);
  return chosen ? chosen.id : null;
}

function follow(sessionId) {
  if (state.stream) state.stream.stop();
  views.clearSession();
  Object.assign(state, { sessionId, stream: null, receivedIds: [], lastId: 0 });
  if (!sessionId) {
    views.showConnection("idle", "no session: create one");
    return;
  }
  history.replaceState(null, "", `#${encodeURIComponent(sessionId)}`);
  views.logLine(`following ${titleOf(sessionId)}`);
  views.showConnection("retrying", "connecting…");
  state.stream = followSession(sessionId, { event: onEvent, caughtUp: onCaughtUp, state: onState });
}

function titleOf(sessionId) {
  const session = state.sessions.find((s) => s.id === sessionId);
  return session ? `"${session.title}" (${sessionId})` : sessionId;
}

function shortTitleOf(sessionId) {
  const session = state.sessions.find((s) => s.id === sessionId);
  return `${session ? session.title : "session"} (${sessionId.slice(0, 13)}…)`;
}

function onEvent(event) {
  let problem = null;
  if (event.session_id !== state.sessionId) problem = "other-session";
  else if (event.event_id <= state.lastId) problem = "doubled";
  state.receivedIds.push(event.event_id);
  state.lastId = Math.max(state.lastId, event.event_id);
  views.showEvent(event, problem);
  if (problem) views.logLine(`event ${event.event_id} should not be here: ${problem}`, "bad");
  scheduleRefresh();
}

async function onCaughtUp(info, resumedAfter) {
  views.showConnection("live", `live: ${shortTitleOf(state.sessionId)}`);
  scheduleRefresh();
  if (resumedAfter === null) return;
  const sessionId = state.sessionId;
  let verdict;
  try {
    const log = await api("GET", path(sessionId, "events"));
    const ids = log.map((event) => event.event_id);
    const { missing, doubled } = compareWithLog(state.receivedIds, ids, info.last_event_id);
    verdict = missing.length || doubled.length
      ? `but missing [${missing}] and doubled [${doubled}]`
      : "nothing missing, nothing doubled";
  } catch (error) {
    verdict = `not compared with the log (${error.message})`;
  }
  if (sessionId !== state.sessionId) return;
  const good = verdict.startsWith("nothing");
  const line = `reconnected: resumed after event ${resumedAfter}, ${verdict}`;
  views.logLine(line, good ? "good" : "bad");
  views.chatNote(line);
  loadSessions(sessionId).catch(() => {});
}

function onState(name, detail) {
  if (name === "lost") {
    views.showConnection("lost", "connection lost: reconnecting…");
    views.logLine(`connection lost after event ${detail}; reconnecting…`, "bad");
    views.chatNote(`connection lost after event ${detail}`, "lost");
  } else if (name === "retrying") {
    views.showConnection("retrying", `reconnecting (attempt ${detail + 1})…`);
  } else if (name === "closing") {
    views.logLine("the server is shutting down");
  }
}

function scheduleRefresh() {
  clearTimeout(state.refreshTimer);
  state.refreshTimer = setTimeout(refreshDerived, 100);
}

async function refreshDerived() {
  const sessionId = state.sessionId;
  const ticket = ++state.refreshTicket;
  try {
    const [replay, messages, toolCalls] = await Promise.all([
      api("GET", path(sessionId, "replay")),
      api("GET", path(sessionId, "messages")),
      api("GET", path(sessionId, "tool_calls")),
    ]);
    // Only the newest refresh of the session still shown may draw.
    if (ticket === state.refreshTicket && sessionId === state.sessionId) {
      views.showDerived({ replay, messages, toolCalls });
    }
  } catch {
    // The server is away; the reconnect's caught-up frame schedules the next refresh.
  }
}

async function send(submit) {
  submit.preventDefault();
  const text = $("#message").value;
  if (!text.trim()) return;
  if (!state.sessionId) {
    views.showSendStatus("create a session first", "bad");
    return;
  }
  // A retry of the same message to the same session reuses its key, so that a request the
  // server committed before it died is finished, not repeated.
  const what = `${state.sessionId}\n${text}`;
  if (!state.pending || state.pending.what !== what) state.pending = { what, key: newKey() };
  $("#send").disabled = true;
  views.showSendStatus("sending…");
  try {
    const headers = { "Idempotency-Key": state.pending.key };
    await api("POST", path(state.sessionId, "messages"), { content: text }, headers);
    state.pending = null;
    $("#message").value = "";
    views.showSendStatus("");
  } catch (error) {
    const why = error instanceof Refusal
      ? `refused: ${error.message}`
      : "not sent: the server is unreachable. Press Send again to retry (same Idempotency-Key).";
    views.showSendStatus(why, "bad");
  } finally {
    $("#send").disabled = false;
  }
}

function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `page-${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

async function newSession() {
  const title = $("#new-title").value.trim() || `session ${state.sessions.length + 1}`;
  try {
    const session = await api("POST", "sessions", { title });
    $("#new-title").value = "";
    follow(await loadSessions(session.id));
  } catch (error) {
    views.showSendStatus(`could not create a session: ${error.message}`, "bad");
  }
}

function defaultTab() {
  // Wide windows show the events beside the other tabs, so the replay is the one to pick.
  const tab = $("#log-panel").dataset.tab;
  if (WIDE.matches && tab === "events") views.selectTab("replay");
}

async function load() {
  try {
    follow(await loadSessions());
  } catch {
    views.showConnection("lost", "the server is unreachable: retrying…");
    setTimeout(load, 1000);
  }
}

function start() {
  $("#composer").addEventListener("submit", send);
  $("#new-session").addEventListener("click", newSession);
  $("#session-picker").addEventListener("change", (e) => follow(e.target.value || null));
  for (const tab of document.querySelectorAll("[role=tab]")) {
    tab.addEventListener("click", () => views.selectTab(tab.dataset.tab));
  }
  views.selectTab("events");
  defaultTab();
  WIDE.addEventListener("change", defaultTab);
  load();
}

start();
