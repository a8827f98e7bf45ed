// The session's log on the page: the events table and the chat, drawn as a window.
//
// A session can hold 20,000 events. Drawing each one as it arrives cost two forced layouts
// per event (append, then scroll to the end), so catching up took minutes. Here events are
// queued and drawn once per animation frame, a batch at a time: one append of the batch,
// one read of the size, one scroll. Only the newest WINDOW events are drawn while the view
// follows the end; scrolling to the top (or the "earlier" button) draws STEP more, older
// ones. Every event stays in memory, so nothing is asked of the server to go back.

import { t } from "./i18n.js";
import { element, row, visible } from "./views.js";

const WINDOW = 200;
const CORRECTIONS = ["item_removed", "session_cleared"];
const STEP = 200;
const $ = (selector) => document.querySelector(selector);

const view = {
  log: [],        // [{event, problem}] in arrival order
  takenOut: new Set(),  // ids of events an item_removed supersedes
  clearedThrough: 0,    // a session_cleared supersedes every event up to this id
  shownFrom: 0,   // log[shownFrom .. drawnTo) is drawn
  drawnTo: 0,
  frame: null,    // the animation frame that will draw what is queued
};

/** Forget the session shown: a newly chosen one starts from nothing. */
export function clearLog() {
  if (view.frame !== null) cancelAnimationFrame(view.frame);
  Object.assign(view, {
    log: [], takenOut: new Set(), clearedThrough: 0, shownFrom: 0, drawnTo: 0, frame: null,
  });
  $("#events tbody").replaceChildren();
  $("#chat").replaceChildren(earlierItem());
  showEarlierCount();
}

/**
 * Queue one event: a row of the events table and, for the chat, a bubble or a tool line.
 * `problem` is "doubled" or "other-session" when the event should not be here at all; it
 * is shown, marked, rather than hidden, so that a fault can be seen.
 */
export function queueEvent(event, problem) {
  view.log.push({ event, problem });
  // A correction deletes nothing (the chapter's pitfall 2): the chat keeps the line it takes
  // out, struck through, as the log keeps the event; the replay and projections leave it out.
  if (event.type === "item_removed") view.takenOut.add(event.payload.supersedes);
  if (event.type === "session_cleared") {
    view.clearedThrough = Math.max(view.clearedThrough, event.payload.supersedes_through);
  }
  if (view.frame === null) view.frame = requestAnimationFrame(drawQueued);
}

/** Draw what is queued now, rather than at the next frame (before saying "live"). */
export function drawNow() {
  if (view.frame !== null) cancelAnimationFrame(view.frame);
  drawQueued();
}

/** Re-word what the chat draws in words of its own (tool lines, the "earlier" button), after
 * a language switch; messages are the log's own words and stay as they are. */
export function redrawChat() {
  const held = new Map(view.log.map(({ event }) => [String(event.event_id), event]));
  for (const line of document.querySelectorAll("#chat li.tool[data-event-id]")) {
    const event = held.get(line.dataset.eventId);
    if (event) line.textContent = visible(chatElement(event).textContent);
  }
  showEarlierCount();
}

/** Every event held for the session, in arrival order, drawn or not. */
export function heldEvents() {
  return view.log.map((entry) => entry.event);
}

function drawQueued() {
  view.frame = null;
  const pane = $("#events-pane");
  const chat = $("#chat");
  const follow = { pane: atEnd(pane), chat: atEnd(chat) };  // read before any change
  let from = view.drawnTo;
  if (follow.pane && view.log.length - from > WINDOW) {
    // Far behind the end: start the window afresh instead of drawing what would be trimmed.
    $("#events tbody").replaceChildren();
    chat.replaceChildren(earlierItem());
    from = view.shownFrom = view.log.length - WINDOW;
  }
  append(view.log.slice(from));
  view.drawnTo = view.log.length;
  markTakenOut();
  if (follow.pane) trimTo(WINDOW);
  showEarlierCount();
  if (follow.pane) pane.scrollTop = pane.scrollHeight;  // the one forced layout of the batch
  if (follow.chat) chat.scrollTop = chat.scrollHeight;
}

function append(entries) {
  const rows = document.createDocumentFragment();
  const lines = document.createDocumentFragment();
  for (const { event, problem } of entries) {
    rows.append(tableRow(event, problem));
    lines.append(chatLine(event, problem));
  }
  $("#events tbody").append(rows);
  $("#chat").append(lines);
}

function trimTo(count) {
  const drawn = view.drawnTo - view.shownFrom;
  if (drawn <= count) return;
  const extra = drawn - count;
  const tbody = $("#events tbody");
  for (let i = 0; i < extra; i += 1) tbody.firstElementChild.remove();
  const chat = $("#chat");
  let removed = 0;
  while (removed < extra && chat.children.length > 1) {
    const first = chat.children[1];  // children[0] is the "earlier" item
    if (first.dataset.eventId) removed += 1;
    first.remove();
  }
  view.shownFrom += extra;
}

/** Draw STEP older events above the window, keeping what is on screen where it was. */
export function showEarlier() {
  if (view.shownFrom === 0) return;
  const from = Math.max(0, view.shownFrom - STEP);
  const entries = view.log.slice(from, view.shownFrom);
  const pane = $("#events-pane");
  const chat = $("#chat");
  const heights = [pane.scrollHeight, chat.scrollHeight];
  const rows = document.createDocumentFragment();
  const lines = document.createDocumentFragment();
  for (const { event, problem } of entries) {
    rows.append(tableRow(event, problem));
    lines.append(chatLine(event, problem));
  }
  $("#events tbody").prepend(rows);
  chat.children[0].after(lines);
  view.shownFrom = from;
  markTakenOut();
  showEarlierCount();
  pane.scrollTop += pane.scrollHeight - heights[0];
  chat.scrollTop += chat.scrollHeight - heights[1];
}

/** Draw older events when a reader scrolls to the top of either view. */
export function watchScrolling() {
  for (const node of [$("#events-pane"), $("#chat")]) {
    let before = node.scrollTop;
    node.addEventListener("scroll", () => {
      // Only a reader moving up, at the top: not the page's own scrolling to the end.
      const upward = node.scrollTop < before;
      before = node.scrollTop;
      if (upward && node.scrollTop < 40 && view.shownFrom > 0) showEarlier();
    }, { passive: true });
  }
  $("#events-earlier").addEventListener("click", showEarlier);
}

function showEarlierCount() {
  for (const button of document.querySelectorAll(".show-earlier")) {
    button.hidden = view.shownFrom === 0;
    button.textContent = t("page.earlier_events", { count: view.shownFrom });
  }
}

function earlierItem() {
  const item = element("li", "earlier");
  const button = element("button", "show-earlier", "");
  button.type = "button";
  button.hidden = true;
  button.addEventListener("click", showEarlier);
  item.append(button);
  return item;
}

/** Strike through the chat lines of the events a correction has taken out. */
function markTakenOut() {
  for (const line of $("#chat").children) {
    const id = Number(line.dataset.eventId);
    if (!id || CORRECTIONS.includes(line.dataset.type)) continue;
    line.classList.toggle("taken-out", id <= view.clearedThrough || view.takenOut.has(id));
  }
}

function atEnd(node) {
  return node.scrollHeight - node.scrollTop - node.clientHeight < 40;
}

function tableRow(event, problem) {
  const tr = row([event.event_id, event.type, JSON.stringify(event.payload)], problem || "");
  tr.dataset.eventId = event.event_id;
  tr.dataset.type = event.type;
  return tr;
}

function chatLine(event, problem) {
  const line = chatElement(event);
  line.dataset.eventId = event.event_id;
  line.dataset.type = event.type;
  if (problem) line.classList.add(problem);
  return line;
}

function chatElement(event) {
  const payload = event.payload;
  switch (event.type) {
    case "user_message":
      return element("li", "bubble user", payload.content);
    case "assistant_message":
      return element("li", "bubble assistant", payload.content);
    case "tool_call":
      return element("li", "tool", t("page.tool_call", payload));
    case "tool_result":
      return element("li", "tool", t("page.tool_result", payload));
    case "item_removed":
      return element("li", "tool", t("page.item_removed", payload));
    case "session_cleared":
      return element("li", "tool", t("page.session_cleared", payload));
    default:
      return element("li", "tool", `${event.type}: ${JSON.stringify(payload)}`);
  }
}
