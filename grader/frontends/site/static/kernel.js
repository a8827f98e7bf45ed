// The kernel's worker: one Pyodide for the learner's code, started fresh for every task.
//
// Its first message says how to start. {make: true}: load Python, post a snapshot of its
// memory as it is before any code has run, and wait to be ended (the engine makes one such
// snapshot per page). {snapshot}: start Python from that snapshot (a quarter of a second,
// where loading takes one and a half), or load it when the snapshot is null or does not
// restore. Once started it says "loaded", runs the boot code the engine sends
// (grader/transport/worker.py BOOT) and answers each request through the function that boot
// returns. Everything it posts after that is a string: "answer <MAC> <JSON>" or
// "progress <step> <call>". The engine ends it with terminate(): a `while True:` never needs
// its cooperation.
import { loadPyodide } from "./pyodide/pyodide.mjs";

const indexURL = new URL("./pyodide/", import.meta.url).href;
const post = (line) => self.postMessage(line);
const options = {
  indexURL,
  packageBaseUrl: indexURL,
  // The command line's child runs with PYTHONHASHSEED=0: sets iterate in the same order
  // every time (wasm32's hash differs from a 64-bit CPython's, see the README). A snapshot
  // keeps the seed it was made with, the same one.
  env: { PYTHONHASHSEED: "0" },
  stdout: () => {},
  stderr: () => {},
};
let answer = null;

async function started(snapshot) {
  if (snapshot) {
    try {
      return await loadPyodide({ ...options, _loadSnapshot: snapshot });
    } catch (error) {
      console.warn("the snapshot did not restore: " + String(error && error.message));
    }
  }
  return await loadPyodide(options);
}

async function makeSnapshot() {
  const pyodide = await loadPyodide({ ...options, _makeSnapshot: true });
  const snapshot = pyodide.makeMemorySnapshot();
  self.postMessage(snapshot, [snapshot.buffer]);
}

async function begin(first) {
  if (first.make) return makeSnapshot();
  const pyodide = await started(first.snapshot);
  self.onmessage = (event) => {
    const message = event.data;
    if (message.boot !== undefined) {
      const boot = pyodide.runPython(message.code);
      answer = boot(message.boot, message.files, post);
      boot.destroy();
    } else if (answer !== null) {
      answer(message.request);
    }
  };
  post("loaded");
}

self.onmessage = (event) => {
  self.onmessage = null;
  begin(event.data ?? {}).catch((error) => post("failed " + String(error && error.message)));
};
