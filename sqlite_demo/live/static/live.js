// The live page: pick or create a session, chat with the scripted agent, and watch the log.
//
// What the page shows comes from the event stream (stream.js), never from the replies the
// POSTs return: the chat is a view of the log, as it would be rebuilt after a crash.
//
// The page is let in by a cookie that the server set when it was opened with ?token=...;
// the token is taken out of the address bar at once, so it is not left on the screen or in
// a bookmark (the cookie is HttpOnly: this script never sees the token).

import { api, logIdsAfter, path, Refusal } from "./api.js";
import { language, onLanguageChange, setLanguage, t, translatePage } from "./i18n.js";
import * as log from "./log_view.js";
import { compareWithLog, followSession } from "./stream.js";
import * as views from "./views.js";

const WIDE = window.matchMedia("(min-width: 1400px)");
const ROWS_SHOWN = 200;
const $ = (selector) => document.querySelector(selector);

const state = {
  sessions: [],
  sessionId: null,
  stream: null,
  receivedIds: [],   // every event id shown for this session, duplicates included
  lastId: 0,
  pending: null,     // {what, key}: the message being sent, and its Idempotency-Key
  refreshTimer: null,
  refreshing: null,  // the refresh in flight, if any
  loadFailures: 0,
  connection: ["idle", "page.not_connected", {}],  // the badge: its state, sentence, fields
  sendStatus: ["", {}, ""],                         // under the message box: sentence, fields, kind
  logged: [],        // the connection log's lines: [sentence, fields, kind], newest last
  notes: [],         // the chat's notes (a reconnect, a drop): [element, sentence, fields]
};

/** The sentence `key` in the page's language; a field may be a function: words of its own
 * (a session's label, a verdict), worded anew each time. */
function word(key, fields = {}) {
  const worded = Object.entries(fields)
    .map(([name, value]) => [name, typeof value === "function" ? value() : value]);
  return t(key, Object.fromEntries(worded));
}

/** Mark a moment in the chat, remembered so that a language switch rewords it. */
function chatNote(key, fields = {}, kind = "") {
  state.notes.push([views.chatNote(word(key, fields), kind), key, fields]);
}

/** Write a line to the connection log, remembered so that a language switch rewords it. */
function logLine(key, fields = {}, kind = "") {
  state.logged.push([key, fields, kind]);
  if (state.logged.length > views.LOG_LINES) state.logged.shift();
  views.logLine(word(key, fields), kind);
}

/** Set the connection badge, remembering what it says so a language switch can redraw it.
 * A field may be a function: words of its own (a session's label), worded anew each time. */
function showConnection(badgeState, key, fields = {}) {
  state.connection = [badgeState, key, fields];
  views.showConnection(badgeState, word(key, fields));
}

/** Say how the last send went ("" clears it), remembered for a language switch too. */
function showSendStatus(key, fields = {}, kind = "") {
  state.sendStatus = [key, fields, kind];
  views.showSendStatus(key ? t(key, fields) : "", kind);
}

function redrawInLanguage() {
  showConnection(...state.connection);
  views.showLog(state.logged.map(([key, fields, kind]) => [word(key, fields), kind]));
  for (const [note, key, fields] of state.notes) note.textContent = views.visible(word(key, fields));
  showSendStatus(...state.sendStatus);
  views.showSessions(state.sessions, state.sessionId);
  log.redrawChat();
}

/** The session the address names, or null: a malformed #hash is no selection at all. */
function sessionInAddress() {
  try {
    return decodeURIComponent(location.hash.slice(1)) || null;
  } catch {
    return null;
  }
}

async function loadSessions(wantedId) {
  state.sessions = await api("GET", "sessions");
  const wanted = wantedId ?? sessionInAddress();
  const chosen = state.sessions.find((s) => s.id === wanted) ?? state.sessions.at(-1);
  views.showSessions(state.sessions, chosen ? chosen.id : null);
  return chosen ? chosen.id : null;
}

function follow(sessionId) {
  if (state.stream) state.stream.stop();
  log.clearLog();
  views.clearDerived();
  Object.assign(state, { sessionId, stream: null, receivedIds: [], lastId: 0, notes: [] });
  if (!sessionId) {
    showConnection("idle", "page.no_session");
    return;
  }
  history.replaceState(null, "", `${location.pathname}#${encodeURIComponent(sessionId)}`);
  logLine("page.following", { title: () => titleOf(sessionId) });
  showConnection("retrying", "page.connecting");
  state.stream = followSession(sessionId, { event: onEvent, caughtUp: onCaughtUp, state: onState });
}

function titleOf(sessionId) {
  const session = state.sessions.find((s) => s.id === sessionId);
  return session ? t("page.session_named", { title: session.title, id: sessionId }) : sessionId;
}

function shortTitleOf(sessionId) {
  const session = state.sessions.find((s) => s.id === sessionId);
  const title = session ? session.title : t("page.unnamed_session");
  return t("page.session_label", { title, id: sessionId.slice(0, 13) });
}

function onEvent(event) {
  let problem = null;
  if (event.session_id !== state.sessionId) problem = "other-session";
  else if (event.event_id <= state.lastId) problem = "doubled";
  state.receivedIds.push(event.event_id);
  state.lastId = Math.max(state.lastId, event.event_id);
  log.queueEvent(event, problem);
  if (problem) {
    const why = problem === "doubled" ? "page.problem.doubled" : "page.problem.other_session";
    logLine("page.not_here", { id: event.event_id, problem: () => t(why) }, "bad");
  }
  scheduleRefresh();
}

async function onCaughtUp(info, resumedAfter) {
  log.drawNow();
  const followed = state.sessionId;
  showConnection("live", "page.live", { title: () => shortTitleOf(followed) });
  scheduleRefresh();
  if (resumedAfter === null) return;
  const sessionId = state.sessionId;
  let verdict;
  let good = false;
  try {
    const ids = await logIdsAfter(sessionId, resumedAfter, info.last_event_id);
    const { missing, doubled } = compareWithLog(
      state.receivedIds, ids, resumedAfter, info.last_event_id,
    );
    good = !missing.length && !doubled.length;
    verdict = good ? () => t("page.nothing_missing") : () => t("page.missing_doubled", { missing, doubled });
  } catch (error) {
    verdict = () => t("page.not_compared", { error: error.message });
  }
  if (sessionId !== state.sessionId) return;
  const fields = { id: resumedAfter, verdict };
  logLine("page.reconnected", fields, good ? "good" : "bad");
  chatNote("page.reconnected", fields);
  loadSessions(sessionId).catch(() => {});
}

function onState(name, detail) {
  // A reason the stream gives itself is a sentence id; the server's own reasons are its words.
  const reason = detail && detail.reason && detail.reason.startsWith("page.")
    ? t(detail.reason) : detail && detail.reason;
  const fields = { ...(typeof detail === "object" ? detail : {}), reason };
  if (name === "lost") {
    showConnection("lost", "page.lost");
    logLine("page.lost_after_reconnecting", { id: detail }, "bad");
    chatNote("page.lost_after", { id: detail }, "lost");
  } else if (name === "retrying") {
    showConnection("retrying", "page.retrying", fields);
  } else if (name === "waiting") {
    showConnection("waiting", "page.waiting", fields);
    logLine("page.refused_retrying", fields, "bad");
  } else if (name === "refused") {
    showConnection("refused", "page.not_following", fields);
    logLine("page.refused_stream", fields, "bad");
  } else if (name === "closing") {
    logLine("page.closing");
  }
}

function scheduleRefresh() {
  clearTimeout(state.refreshTimer);
  state.refreshTimer = setTimeout(refreshDerived, 100);
}

/** The event id after which the newest `count` events of `types` begin (0: all of them). */
function startOfNewest(types, count) {
  const events = log.heldEvents();
  let seen = 0;
  for (let i = events.length - 1; i >= 0; i -= 1) {
    if (types.includes(events[i].type) && (seen += 1) === count) return events[i].event_id - 1;
  }
  return 0;
}

async function refreshDerived() {
  if (state.refreshing) return scheduleRefresh();  // one at a time; the next comes after
  const sessionId = state.sessionId;
  const messagesAfter = startOfNewest(["user_message", "assistant_message"], ROWS_SHOWN);
  const callsAfter = startOfNewest(["tool_call"], ROWS_SHOWN);
  state.refreshing = Promise.all([
    api("GET", path(sessionId, "replay")),
    api("GET", `${path(sessionId, "messages")}?after=${messagesAfter}&limit=${ROWS_SHOWN}`),
    api("GET", `${path(sessionId, "tool_calls")}?after=${callsAfter}&limit=${ROWS_SHOWN}`),
  ]);
  try {
    const [replay, messages, toolCalls] = await state.refreshing;
    if (sessionId === state.sessionId) views.showDerived({ replay, messages, toolCalls });
  } catch {
    // The server is away; the reconnect's caught-up frame schedules the next refresh.
  } finally {
    state.refreshing = null;
  }
}

async function send(submit) {
  submit.preventDefault();
  const text = $("#message").value;
  if (!text.trim()) return;
  if (!state.sessionId) {
    showSendStatus("page.create_first", {}, "bad");
    return;
  }
  // A retry of the same message to the same session reuses its key, so that a request the
  // server committed before it died is finished, not repeated.
  const what = `${state.sessionId}\n${text}`;
  if (!state.pending || state.pending.what !== what) state.pending = { what, key: newKey() };
  $("#send").disabled = true;
  showSendStatus("page.sending");
  try {
    const headers = { "Idempotency-Key": state.pending.key };
    await api("POST", path(state.sessionId, "messages"), { content: text }, headers);
    state.pending = null;
    $("#message").value = "";
    showSendStatus("");
  } catch (error) {
    if (error instanceof Refusal) showSendStatus("page.send_refused", { reason: error.message }, "bad");
    else showSendStatus("page.send_unreachable", {}, "bad");
  } finally {
    $("#send").disabled = false;
  }
}

function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `page-${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

async function newSession() {
  const title = $("#new-title").value.trim()
    || t("page.default_title", { number: state.sessions.length + 1 });
  try {
    const session = await api("POST", "sessions", { title });
    $("#new-title").value = "";
    follow(await loadSessions(session.id));
  } catch (error) {
    showSendStatus("page.create_failed", { reason: error.message }, "bad");
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
  } catch (error) {
    if (error instanceof Refusal) {
      // Only a new address (with its ?token=) can help: asking again would be refused again.
      showConnection("refused", "page.not_allowed", { reason: error.message });
      return;
    }
    state.loadFailures += 1;
    const seconds = Math.min(2 ** (state.loadFailures - 1), 16);
    showConnection("lost", "page.unreachable_retrying", { seconds });
    setTimeout(load, seconds * 1000);
  }
}

function forgetTokenInAddress() {
  const address = new URL(location.href);
  if (!address.searchParams.has("token")) return;
  address.searchParams.delete("token");
  history.replaceState(null, "", `${address.pathname}${address.search}${address.hash}`);
}

function start() {
  translatePage();
  $("#language").value = language();
  $("#language").addEventListener("change", (e) => setLanguage(e.target.value));
  onLanguageChange(redrawInLanguage);
  forgetTokenInAddress();
  $("#composer").addEventListener("submit", send);
  $("#new-session").addEventListener("click", newSession);
  $("#session-picker").addEventListener("change", (e) => follow(e.target.value || null));
  for (const tab of document.querySelectorAll("[role=tab]")) {
    tab.addEventListener("click", () => views.selectTab(tab.dataset.tab));
  }
  log.watchScrolling();
  views.selectTab("events");
  defaultTab();
  WIDE.addEventListener("change", defaultTab);
  load();
}

start();
