// The kernels, as the engine worker sees them: two warm spares, one running, and requests
// with a deadline. Every kernel starts from one snapshot of a fresh Python's memory, which
// the engine takes of its own Python the moment it is loaded, before any grader code is in
// it (the browser's zygote: a kernel is ready in about 0.3 s instead of 1.5 s, and the page
// loads Python once instead of twice at the same time); without a snapshot each loads Python.
// Two spares, because a task that ends at once (a stub's) would otherwise wait for the
// next kernel to start: two start at the same time on two cores.
// This is the JavaScript half of grader/transport/worker.py (its Bridge).
//
// start() and request() return promises that the engine's Python waits on with JSPI
// (pyodide.ffi.run_sync); while it waits, this worker's event loop delivers the kernel's
// messages and fires the timers. A request has two: its whole deadline, and a stall timer
// that each progress message (a new example, step or call) starts again, so one call that
// takes too long is stopped without waiting for the request's end. A kernel that misses
// either is terminated, which stops any loop, and the next start() takes the spare.

//: How long a fresh kernel worker may take to load Python before it counts as dead.
const LOAD_SECONDS = 300;
//: Fresh workers tried before a start reports the kernel dead. A worker that fails to load
//: Python has run none of the learner's code (it gets the code only once loaded): its failure
//: is the page's (a file it could not fetch, a browser short of memory for one more
//: WebAssembly instance), and must not cost the submission its remaining tasks.
const LOAD_ATTEMPTS = 3;

export class Kernels {
  // `snapshot`: the bytes every kernel starts from (each gets its own copy), or null.
  constructor(url, snapshot) {
    this.url = url;
    this.snapshot = snapshot;
    this.spares = [this.spawn(), this.spawn()];
    this.current = null;
    this.progress = [0, 0, 0, 0];
  }

  // A worker starting Python; `ready` resolves to null once loaded, else to why it is not.
  spawn() {
    const worker = new Worker(this.url, { type: "module" });
    worker.postMessage({ snapshot: this.snapshot });
    const ready = new Promise((resolve) => {
      const timer = setTimeout(() => resolve(`not loaded in ${LOAD_SECONDS} s`), LOAD_SECONDS * 1000);
      worker.onmessage = (event) => {
        clearTimeout(timer);
        resolve(event.data === "loaded" ? null : String(event.data));
      };
      worker.onerror = (event) => {
        clearTimeout(timer);
        resolve(`worker error: ${event.message ?? "the script did not load"}`);
      };
    });
    return { worker, ready };
  }

  async start(code, boot, files, seconds) {
    this.stop();
    const kernel = await this.loadedWorker();
    if (kernel === null) return { lines: [], stopped: "died", progress: [0, 0, 0, 0] };
    this.current = kernel;
    return this.exchange(kernel, { code, boot, files }, seconds, seconds, (body) =>
      "ready" in body || "load_error" in body,
    );
  }

  // The spare once it has loaded Python (a fresh spare is started at once), or, when it did
  // not load, another fresh worker, up to LOAD_ATTEMPTS in all; null when none loaded.
  async loadedWorker() {
    for (let attempt = 1; attempt <= LOAD_ATTEMPTS; attempt++) {
      const kernel = this.spares.shift();
      this.spares.push(this.spawn());
      const failure = await kernel.ready;
      if (failure === null) return kernel;
      kernel.worker.terminate();
      console.warn(`kernel worker ${attempt} of ${LOAD_ATTEMPTS} did not load: ${failure}`);
    }
    return null;
  }

  request(data, seconds, stall) {
    const kernel = this.current;
    if (kernel === null) {
      return Promise.resolve({ lines: [], stopped: "died", progress: [0, 0, 0, 0] });
    }
    return this.exchange(kernel, { request: data }, seconds, stall, (body) => "done" in body);
  }

  // Send one message; collect answer lines until the closing one, a timer or a death.
  exchange(kernel, message, seconds, stall, closes) {
    this.progress = [0, 0, 0, 0];
    return new Promise((resolve) => {
      const lines = [];
      let stalled = null;
      const finish = (stopped) => {
        clearTimeout(timer);
        clearTimeout(stalled);
        kernel.worker.onmessage = null;
        kernel.worker.onerror = null;
        if (stopped !== null) this.stop();
        resolve({ lines, stopped, progress: this.progress });
      };
      const restall = () => {
        clearTimeout(stalled);
        stalled = setTimeout(() => finish("stalled"), Math.max(0, stall) * 1000);
      };
      const timer = setTimeout(() => finish("timed_out"), Math.max(0, seconds) * 1000);
      restall();
      kernel.worker.onerror = (event) => {
        event.preventDefault();
        finish("died");
      };
      kernel.worker.onmessage = (event) => {
        const text = event.data;
        if (typeof text !== "string") return finish("broken");
        if (text.startsWith("progress ")) {
          this.progress = text.split(" ").slice(1, 5).map(Number);
          restall();
        } else if (text.startsWith("answer ")) {
          const line = text.slice(7);
          lines.push(line);
          // Only to know when to stop listening: the engine checks every line's MAC.
          if (closes(parsed(line.slice(line.indexOf(" ") + 1)))) finish(null);
        } else {
          finish("broken");
        }
      };
      kernel.worker.postMessage(message);
    });
  }

  stop() {
    if (this.current !== null) {
      this.current.worker.terminate();
      this.current = null;
    }
  }
}

function parsed(body) {
  try {
    const value = JSON.parse(body);
    return value !== null && typeof value === "object" ? value : {};
  } catch {
    return {};
  }
}

const indexURL = new URL("./pyodide/", import.meta.url).href;
//: How the engine and every kernel load Pyodide: one place, since a kernel restores the
//: engine's snapshot, which keeps the options it was made with. The command line's child
//: runs with PYTHONHASHSEED=0: sets iterate in the same order every time (wasm32's hash
//: differs from a 64-bit CPython's, see docs/learner.md).
export const PYTHON_OPTIONS = {
  indexURL,
  packageBaseUrl: indexURL,
  env: { PYTHONHASHSEED: "0" },
  stdout: () => {},
  stderr: () => {},
};
