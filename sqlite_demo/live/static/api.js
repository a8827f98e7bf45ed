// The service's HTTP API, as the page uses it. Every request carries the page's cookie (the
// browser adds it: same origin), which the server set when the page was opened with ?token=,
// and the page's language (Accept-Language), in which the server words its refusals.

import { language } from "./i18n.js";

/** The path of one of a session's resources, relative to the page. */
export const path = (sessionId, tail) => `sessions/${encodeURIComponent(sessionId)}/${tail}`;

/** The server said no: its JSON error, as opposed to a server that could not be reached. */
export class Refusal extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** Send a request; return {data, response}. Throws Refusal, or TypeError when unreachable. */
export async function fetchJson(method, url, body, headers = {}) {
  const options = { method, headers: { "Accept-Language": language(), ...headers } };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(url, options);
  const data = await response.json();
  if (!response.ok) {
    throw new Refusal(response.status, data.error ? data.error.message : response.statusText);
  }
  return { data, response };
}

/** Send a request; return its JSON body. */
export async function api(method, url, body, headers) {
  return (await fetchJson(method, url, body, headers)).data;
}

/** The log's event ids in (after, upTo], read page by page as the server hands them out. */
export async function logIdsAfter(sessionId, after, upTo) {
  const ids = [];
  let url = `${path(sessionId, "events")}?after=${after}`;
  while (url) {
    const { data, response } = await fetchJson("GET", url);
    ids.push(...data.map((event) => event.event_id));
    const next = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get("Link") || "");
    url = next && ids.at(-1) < upTo ? next[1].replace(/^\//, "") : null;
  }
  return ids;
}
