// Drawing the session on the page. Text from the log is only ever set as textContent, never
// as HTML: a message that holds "<script>" is shown as those characters, not run.

const $ = (selector) => document.querySelector(selector);

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function row(cells, className) {
  const tr = element("tr", className);
  for (const cell of cells) tr.append(element("td", "", cell === null ? "null" : String(cell)));
  return tr;
}

function scrollToEnd(node) {
  node.scrollTop = node.scrollHeight;
}

/** Empty every view: a newly chosen session starts from nothing. */
export function clearSession() {
  for (const selector of ["#chat", "#events tbody", "#messages tbody", "#tool-calls tbody"]) {
    $(selector).replaceChildren();
  }
  $("#replay").textContent = "";
}

/**
 * Show one event: a row of the events table and, for the chat, a bubble or a tool line.
 * `problem` is "doubled" or "other-session" when the event should not be here at all;
 * it is shown, marked, rather than hidden, so that a fault can be seen.
 */
export function showEvent(event, problem) {
  const tr = row([event.event_id, event.type, JSON.stringify(event.payload)], problem || "");
  tr.dataset.eventId = event.event_id;
  tr.dataset.type = event.type;
  $("#events tbody").append(tr);
  scrollToEnd($("#events-pane"));
  const line = chatLine(event);
  line.dataset.eventId = event.event_id;
  if (problem) line.classList.add(problem);
  $("#chat").append(line);
  scrollToEnd($("#chat"));
}

function chatLine(event) {
  const payload = event.payload;
  switch (event.type) {
    case "user_message":
      return element("li", "bubble user", payload.content);
    case "assistant_message":
      return element("li", "bubble assistant", payload.content);
    case "tool_call":
      return element("li", "tool", `tool call ${payload.call_id}: ${payload.name}(${payload.arguments})`);
    case "tool_result":
      return element("li", "tool", `tool result ${payload.call_id}: ${payload.content}`);
    default:
      return element("li", "tool", `${event.type}: ${JSON.stringify(payload)}`);
  }
}

/** Show what the server derives from the log: the replay and the two projections. */
export function showDerived({ replay, messages, toolCalls }) {
  $("#replay").textContent = JSON.stringify(replay, null, 2);
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
    const option = element("option", "", `${session.title} (${session.id.slice(0, 13)}…)`);
    option.value = session.id;
    option.selected = session.id === selectedId;
    return option;
  });
  if (sessions.length === 0) options.push(element("option", "", "no sessions yet: create one"));
  $("#session-picker").replaceChildren(...options);
}

/** Set the connection badge: "live", "lost", "retrying", "closing" or "idle". */
export function showConnection(state, text) {
  const badge = $("#connection");
  badge.dataset.state = state;
  badge.textContent = text;
}

/** Mark a moment in the chat that is not in the log (a reconnect), styled apart from it. */
export function chatNote(text, kind) {
  $("#chat").append(element("li", `note ${kind || ""}`, text));
  scrollToEnd($("#chat"));
}

/** Add a line to the connection log (kept short: the newest 50). */
export function logLine(text, kind) {
  const log = $("#connection-log");
  log.append(element("li", kind || "", text));
  while (log.children.length > 50) log.firstElementChild.remove();
  scrollToEnd(log);
}

/** Show the result of the last send under the message box. */
export function showSendStatus(text, kind) {
  const status = $("#send-status");
  status.textContent = text;
  status.className = `send-status ${kind || ""}`;
}

/** Select a tab of the right-hand panel. */
export function selectTab(name) {
  $("#log-panel").dataset.tab = name;
  for (const tab of document.querySelectorAll("[role=tab]")) {
    tab.setAttribute("aria-selected", String(tab.dataset.tab === name));
  }
}
