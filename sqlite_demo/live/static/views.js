// Drawing on the page. Text from the log is only ever set as textContent, never as HTML: a
// message that holds "<script>" is shown as those characters, not run. Bidirectional
// control characters are shown too, not obeyed: a right-to-left override in a message
// would otherwise display the rest of the line reversed, and could make text read as
// something it is not.

import { t } from "./i18n.js";

const $ = (selector) => document.querySelector(selector);

// LRM, RLM, ALM; the embeddings and overrides LRE..RLO; the isolates LRI..PDI.
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;
const REPLIES_SHOWN = 200;

/** `text` with each bidirectional control character replaced by a visible [U+XXXX]. */
export function visible(text) {
  return String(text).replace(
    BIDI_CONTROLS,
    (char) => `[U+${char.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}]`,
  );
}

/** A new element; `text` (from anywhere, the log included) is set as visible text. */
export function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = visible(text);
  return node;
}

/** A table row of `cells` (null is shown as "null"). */
export function row(cells, className) {
  const tr = element("tr", className);
  for (const cell of cells) tr.append(element("td", "", cell === null ? "null" : String(cell)));
  return tr;
}

function scrollToEnd(node) {
  node.scrollTop = node.scrollHeight;
}

/** Empty what the server derives from the log: a newly chosen session starts from nothing. */
export function clearDerived() {
  for (const selector of ["#messages tbody", "#tool-calls tbody"]) $(selector).replaceChildren();
  $("#replay").textContent = "";
}

/**
 * Show what the server derives from the log: the replay and the two projections, each its
 * newest rows only (what a reader looks at), with a line saying how much came before.
 */
export function showDerived({ replay, messages, toolCalls }) {
  const shown = replay.slice(-REPLIES_SHOWN);
  const before = replay.length - shown.length;
  const note = before ? `${t("page.earlier_messages", { count: before })}\n` : "";
  $("#replay").textContent = visible(note + JSON.stringify(shown, null, 2));
  $("#messages tbody").replaceChildren(
    ...messages.map((m) => row([m.event_id, m.role, m.content])),
  );
  $("#tool-calls tbody").replaceChildren(
    ...toolCalls.map((c) => row([c.event_id, c.call_id, c.name, c.arguments, c.result])),
  );
}

/** Fill the session picker, selecting `selectedId`. */
export function showSessions(sessions, selectedId) {
  const options = sessions.map((session) => {
    const label = t("page.session_label", { title: session.title, id: session.id.slice(0, 13) });
    const option = element("option", "", label);
    option.value = session.id;
    option.selected = session.id === selectedId;
    return option;
  });
  if (sessions.length === 0) options.push(element("option", "", t("page.no_sessions")));
  $("#session-picker").replaceChildren(...options);
}

/**
 * Set the connection badge: "live", "lost", "retrying", "waiting", "refused", "closing" or
 * "idle", with words that say why.
 */
export function showConnection(state, text) {
  const badge = $("#connection");
  badge.dataset.state = state;
  badge.textContent = visible(text);
}

/** Mark a moment in the chat that is not in the log (a reconnect), styled apart from it. */
export function chatNote(text, kind) {
  const note = element("li", `note ${kind || ""}`, text);
  $("#chat").append(note);
  scrollToEnd($("#chat"));
  return note;
}

/** How many lines the connection log keeps: the newest. */
export const LOG_LINES = 50;

/** Add a line to the connection log. */
export function logLine(text, kind) {
  const log = $("#connection-log");
  log.append(element("li", kind || "", text));
  while (log.children.length > LOG_LINES) log.firstElementChild.remove();
  scrollToEnd(log);
}

/** Write the connection log anew: `lines` are [text, kind] pairs, oldest first. */
export function showLog(lines) {
  const log = $("#connection-log");
  log.replaceChildren(...lines.map(([text, kind]) => element("li", kind || "", text)));
  scrollToEnd(log);
}

/** Show the result of the last send under the message box. */
export function showSendStatus(text, kind) {
  const status = $("#send-status");
  status.textContent = visible(text);
  status.className = `send-status ${kind || ""}`;
}

/** Select a tab of the right-hand panel. */
export function selectTab(name) {
  $("#log-panel").dataset.tab = name;
  for (const tab of document.querySelectorAll("[role=tab]")) {
    tab.setAttribute("aria-selected", String(tab.dataset.tab === name));
  }
}
