// The page: the exercise text, an editor for the three files, Check, Hint and the report.
//
// Grading happens in engine.js (a Web Worker); this file only shows things and keeps the
// learner's code in localStorage. window.kit.grade(files, options) is the scripted way in:
// it resolves to the object `python -m grader --format gradescope --json` writes.
//
// Everything shown is kept as data (a sentence's id and fields, a report, a hint's level)
// and worded by render() in the page's language, so a language switch redraws all of it.
// The language: the reader's last choice in this browser, else the kit's (chosen when the
// site was built), else the browser's.
import { createEditor } from "./editor.js";

const FILES = ["event_log.py", "sessions.py", "replay.py"];
const STORE = "agent-persistence-kit:";
const $ = (id) => document.getElementById(id);

const site = await (await fetch("exercises.json")).json();
const state = {
  language: firstLanguage(),
  file: FILES[0],
  task: site.tasks[0].id,
  files: {},
  graded: false,
  busy: true,
  stage: "python",
  status: null,      // [sentence, fields] the status line says once the stage has its own
  hint: null,        // {task, shown}: the hint on show, worded again on a switch
};
state.files = loadFiles();

function firstLanguage() {
  const browser = navigator.language.startsWith("zh") ? "zh" : "en";
  const chosen = [localStorage.getItem(STORE + "language"), site.language, browser];
  return chosen.find((code) => code && site.languages.includes(code)) || "en";
}

/** The stubs in the page's language (a copy built in one language has only those). */
function stubs(language = state.language) {
  return site.files[language] ?? site.files.en ?? Object.values(site.files)[0];
}

function loadFiles() {
  const files = {};
  for (const name of FILES) {
    const kept = localStorage.getItem(STORE + "file:" + name);
    files[name] = kept === null ? stubs()[name] : kept;
  }
  return files;
}

function words(id, fields = {}) {
  const sentence = site.texts[state.language][id] ?? site.texts.en[id] ?? id;
  return sentence.replace(/\{(\w+)\}/g, (_, name) => String(fields[name] ?? ""));
}

// --- the engine worker ---------------------------------------------------------------------
const engine = new Worker(new URL("./engine.js", import.meta.url), { type: "module" });
const pending = new Map();
let nextId = 1;
let ready;
const started = new Promise((resolve, reject) => { ready = { resolve, reject }; });

engine.onmessage = (event) => {
  const message = event.data;
  if (message.stage !== undefined) return onStage(message.stage, message.detail);
  const waiting = pending.get(message.id);
  pending.delete(message.id);
  if (waiting === undefined) return;
  if ("error" in message) waiting.reject(new Error(message.error));
  else waiting.resolve(message.value);
};

function ask(op, payload) {
  return started.then(() => new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    engine.postMessage({ id, op, payload });
  }));
}

function onStage(stage, detail) {
  state.stage = stage;
  state.status = stage === "failed" ? ["failed", { detail: detail || "" }] : null;
  if (stage === "ready") {
    state.busy = false;
    ready.resolve();
  } else if (stage === "failed" || stage === "unsupported") {
    ready.reject(new Error(stage === "unsupported" ? words("unsupported") : detail));
  }
  render();
}

// --- grading -------------------------------------------------------------------------------
async function grade(task) {
  try {
    await gradeFiles(state.files, { task, lang: state.language });
  } catch {
    // gradeFiles has shown why on the status line.
  }
}

// Every grading, the page's buttons' and window.kit.grade's: the status line and the report
// always show the last one.
async function gradeFiles(files, options) {
  state.busy = true;
  state.stage = "grading";
  render();
  try {
    const answer = await ask("grade", { files, options });
    state.graded = true;
    showReport(answer);
    dropHintOfAPassingTask(answer.tasks);
    state.stage = "graded";
    const possible = answer.tasks.reduce((sum, t) => sum + t.points, 0);
    state.status = ["graded", { earned: answer.results.score, possible }];
    return answer;
  } catch (error) {
    state.stage = "error";
    state.status = ["error", { detail: error.message }];
    throw error;
  } finally {
    state.busy = false;
    render();
  }
}

function showReport(answer) {
  const report = $("report");
  report.replaceChildren(...answer.lines.map(([line, style]) => {
    const span = document.createElement("span");
    span.textContent = line + "\n";
    if (style) span.className = "line-" + style.replace(/ /g, "-");
    return span;
  }));
  report.removeAttribute("data-text");
  report.dataset.score = String(answer.results.score);
}

async function hint() {
  if (!state.graded) await grade(null);
  if (!state.graded) return;
  const shown = JSON.parse(localStorage.getItem(STORE + "hints") || "{}");
  const answer = await ask("hint", { shown, lang: state.language });
  localStorage.setItem(STORE + "hints", JSON.stringify(answer.shown));
  state.hint = answer.task === null ? null : { task: answer.task, shown: answer.shown };
  showHint(answer.text);
}

function showHint(text) {
  $("hint-text").hidden = text === null;
  $("hint-text").textContent = text ?? "";
}

/** A hint helps with a task until it passes: then it goes. */
function dropHintOfAPassingTask(tasks) {
  if (state.hint === null) return;
  const task = tasks.find((each) => each.id === state.hint.task);
  if (task && task.status === "passed") {
    state.hint = null;
    showHint(null);
  }
}

/** The hint on show, worded again in the page's language (not one more hint). */
async function rewordHint() {
  if (state.hint === null) return;
  const answer = await ask("hint", { shown: state.hint.shown, lang: state.language, again: true });
  if (state.hint !== null) showHint(answer.text);
}

// --- files -----------------------------------------------------------------------------------
const editor = createEditor($("editor"), (text) => {
  state.files[state.file] = text;
  localStorage.setItem(STORE + "file:" + state.file, text);
});

function openFile(name) {
  state.file = name;
  editor.load(state.files[name]);
  render();
}

function download() {
  for (const name of FILES) {
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([state.files[name]], { type: "text/x-python" }));
    link.download = name;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  }
}

async function upload(list) {
  const taken = [];
  for (const file of list) {
    if (!FILES.includes(file.name)) {
      state.stage = "error";
      state.status = ["upload_refused", { name: file.name }];
      render();
      return;
    }
  }
  for (const file of list) {
    state.files[file.name] = await file.text();
    localStorage.setItem(STORE + "file:" + file.name, state.files[file.name]);
    taken.push(file.name);
  }
  state.stage = "uploaded";
  state.status = ["uploaded", { names: taken.join(", ") }];
  openFile(taken.includes(state.file) ? state.file : taken[0] ?? state.file);
}

function reset() {
  if (!confirm(words("reset_confirm"))) return;
  for (const name of FILES) {
    state.files[name] = stubs()[name];
    localStorage.removeItem(STORE + "file:" + name);
  }
  openFile(state.file);
}

/** A file nobody has edited is the stub of its language: it follows the page's language. */
function followLanguage(before) {
  for (const name of FILES) {
    if (state.files[name] === stubs(before)[name]) {
      state.files[name] = stubs()[name];
      localStorage.removeItem(STORE + "file:" + name);
    }
  }
  openFile(state.file);
}

// --- showing ---------------------------------------------------------------------------------
function render() {
  document.documentElement.lang = state.language === "zh" ? "zh-CN" : "en";
  document.title = words("title");
  for (const element of document.querySelectorAll("[data-text]")) {
    element.textContent = words(element.dataset.text);
  }
  $("language").value = state.language;
  const status = $("status");
  const messages = { python: "loading_python", grader: "loading_grader", ready: "ready", grading: "grading" };
  status.dataset.state = state.stage;
  status.textContent = messages[state.stage] ? words(messages[state.stage]) :
    state.stage === "unsupported" ? words("unsupported") :
    state.status ? words(...state.status) : "";
  const blocked = state.busy || !["ready", "graded", "error", "uploaded"].includes(state.stage);
  for (const id of ["check-all", "check-task", "hint"]) $(id).disabled = blocked;
  $("tasks").replaceChildren(...site.tasks.map((task) => button(
    `${task.number}. ${task.names[state.language]}`, task.id === state.task,
    () => { state.task = task.id; render(); }, "aria-pressed")));
  $("files").replaceChildren(...FILES.map((name) => button(
    name, name === state.file, () => openFile(name), "aria-selected")));
  const task = site.tasks.find((each) => each.id === state.task);
  const docs = site.docs[state.language] ?? Object.values(site.docs)[0];
  $("docs").replaceChildren(...task.functions.flatMap((name) => {
    const heading = document.createElement("h3");
    heading.append(code(name), ` (${docs[name].file})`);
    return [heading, ...docs[name].blocks.map(block)];
  }));
}

// The docstring, read into blocks at build time (grader/frontends/site/docstrings.py):
// built here as elements and text, never as HTML.
function block(each) {
  if (each.kind === "heading") return make("h4", each.text);
  if (each.kind === "code") return make("pre", each.text);
  if (each.kind === "paragraph") return make("p", ...pieces(each.text));
  if (each.kind === "list") {
    return make(each.ordered ? "ol" : "ul", ...each.items.map((item) => make("li", ...pieces(item))));
  }
  const terms = make("dl");
  for (const item of each.items) terms.append(make("dt", code(item.term)), make("dd", ...pieces(item.text)));
  return terms;
}

function pieces(inline) {
  return inline.map((piece) =>
    "code" in piece ? code(piece.code) :
    "em" in piece ? make("em", piece.em) :
    "strong" in piece ? make("strong", piece.strong) : document.createTextNode(piece.text));
}

function code(text) {
  return make("code", text);
}

function make(tag, ...children) {
  const element = document.createElement(tag);
  element.append(...children);
  return element;
}

function button(label, selected, onClick, attribute) {
  const element = document.createElement("button");
  element.textContent = label;
  element.setAttribute(attribute, String(selected));
  element.addEventListener("click", onClick);
  return element;
}

$("check-all").addEventListener("click", () => grade(null));
$("check-task").addEventListener("click", () => grade(state.task));
$("hint").addEventListener("click", hint);
$("download").addEventListener("click", download);
$("upload").addEventListener("change", (event) => upload([...event.target.files]));
$("reset").addEventListener("click", reset);
$("language").addEventListener("change", async (event) => {
  const before = state.language;
  state.language = event.target.value;
  localStorage.setItem(STORE + "language", state.language);
  followLanguage(before);
  if (state.graded) showReport(await ask("render", { lang: state.language }));
  await rewordHint();
});

openFile(state.file);

// The scripted way in: the same object `python -m grader --format gradescope --json` writes.
// The page shows the last grading, whoever asked for it.
window.kit = {
  async grade(files, options = {}) {
    return (await gradeFiles(files, { lang: state.language, ...options })).results;
  },
  files: () => ({ ...state.files }),
  ready: started,
};
