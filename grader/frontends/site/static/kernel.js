// The kernel's worker: one Pyodide for the learner's code, started fresh for every task.
//
// It loads Python as soon as it is created (the engine keeps one such worker warm), says
// "loaded", then runs the boot code the engine sends (grader/transport/worker.py BOOT)
// and answers each request through the function that boot returns. Everything it posts is
// a string: "answer <MAC> <JSON>" or "progress <step> <call>". The engine ends it with
// terminate(): a `while True:` never needs its cooperation.
import { loadPyodide } from "./pyodide/pyodide.mjs";

const indexURL = new URL("./pyodide/", import.meta.url).href;
const post = (line) => self.postMessage(line);
let answer = null;

try {
  const pyodide = await loadPyodide({
    indexURL,
    packageBaseUrl: indexURL,
    // The command line's child runs with PYTHONHASHSEED=0: sets iterate in the same order
    // every time (wasm32's hash differs from a 64-bit CPython's, see the README).
    env: { PYTHONHASHSEED: "0" },
    stdout: () => {},
    stderr: () => {},
  });
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
} catch (error) {
  post("failed " + String(error && error.message));
}
