// The page's words, in English or Chinese. The sentences come from sqlite_demo/texts.py,
// which the server hands over as texts.js (with the language it speaks by default); this
// module picks the language and fills the placeholders.
//
// The language: ?lang= in the address, else the reader's last choice (kept in this
// browser), else the server's. Switching re-labels the page at once, the lines already
// written to the connection log included (a refusal the server worded stays in its words).

import { DEFAULT_LANGUAGE, TEXTS } from "./texts.js";

const STORAGE_KEY = "sqlite_demo.language";
const listeners = [];
let current = chooseLanguage();

function chooseLanguage() {
  const asked = new URL(location.href).searchParams.get("lang");
  let stored = null;
  try {
    stored = localStorage.getItem(STORAGE_KEY);
  } catch {
    // Storage may be refused (a private window); the server's language will do.
  }
  return [asked, stored, DEFAULT_LANGUAGE].find((code) => code in TEXTS) || "en";
}

/** The language in use: "en" or "zh". */
export function language() {
  return current;
}

/** The sentence `key` in the language in use, each {name} replaced by `fields[name]`. */
export function t(key, fields = {}) {
  const sentence = TEXTS[current][key] ?? TEXTS.en[key] ?? key;
  return sentence.replace(/\{(\w+)\}/g, (whole, name) => (name in fields ? String(fields[name]) : whole));
}

/** Put `sentence` into `node` as text, each `code` span as a <code> element (never HTML). */
export function fill(node, sentence) {
  node.replaceChildren(...sentence.split("`").map((part, index) => {
    if (index % 2 === 0) return document.createTextNode(part);
    const code = document.createElement("code");
    code.textContent = part;
    return code;
  }));
}

/** Label every element that names its sentence: data-i18n (its text), data-i18n-placeholder
 * and data-i18n-label (its aria-label). */
export function translatePage() {
  document.documentElement.lang = current === "zh" ? "zh-CN" : "en";
  document.title = t("page.title");
  for (const node of document.querySelectorAll("[data-i18n]")) fill(node, t(node.dataset.i18n));
  for (const node of document.querySelectorAll("[data-i18n-placeholder]")) {
    node.placeholder = t(node.dataset.i18nPlaceholder);
  }
  for (const node of document.querySelectorAll("[data-i18n-label]")) {
    node.setAttribute("aria-label", t(node.dataset.i18nLabel));
  }
}

/** Speak `code` from now on, remember the choice, re-label the page and tell the listeners. */
export function setLanguage(code) {
  if (!(code in TEXTS)) return;
  current = code;
  try {
    localStorage.setItem(STORAGE_KEY, code);
  } catch {
    // Not remembered; the page still switches.
  }
  translatePage();
  for (const listener of listeners) listener(code);
}

/** Call `listener(code)` after every switch (to redraw what was drawn in the old language). */
export function onLanguageChange(listener) {
  listeners.push(listener);
}
