// The kernel's worker: one Pyodide for the learner's code, started fresh for every task.
//
// Its first message, {snapshot}, says how to start: from that snapshot of a fresh Python's
// memory (a quarter of a second, where loading takes one and a half), or by loading Python
// when the snapshot is null or does not restore. Once started it says "loaded", runs the
// boot code the engine sends (grader/transport/worker.py BOOT) and answers each request
// through the function that boot returns. Everything it posts after that is a string:
// "answer <MAC> <JSON>" or "progress <step> <call>". The engine ends it with terminate(): a
// `while True:` never needs its cooperation.
import { loadPyodide } from "./pyodide/pyodide.mjs";
import { PYTHON_OPTIONS as options } from "./kernels.js";

const post = (line) => self.postMessage(line);
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

async function begin(first) {
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
