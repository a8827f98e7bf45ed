// The engine's worker: Pyodide with the grader and hypothesis, grading through kernels.js.
//
// The page sends {id, op, payload}; the answer is {id, value} or {id, error}. Operations
// run one at a time, in order. Start-up is reported as {stage} messages.
import { loadPyodide } from "./pyodide/pyodide.mjs";
import { Kernels, PYTHON_OPTIONS } from "./kernels.js";

const stage = (name, detail) => self.postMessage({ stage: name, detail });
let queue = Promise.resolve();

async function start() {
  if (typeof WebAssembly.Suspending !== "function") {
    stage("unsupported", "JSPI");
    return;
  }
  stage("python");
  const pyodide = await loadPyodide({ ...PYTHON_OPTIONS, _makeSnapshot: true });
  const kernels = new Kernels(new URL("./kernel.js", import.meta.url), snapshotOf(pyodide));
  stage("grader");
  const manifest = await (await fetch(new URL("./manifest.json", import.meta.url))).json();
  const bundle = await fetch(new URL("./" + manifest.engine, import.meta.url));
  pyodide.unpackArchive(await bundle.arrayBuffer(), "zip", {
    extractDir: "/lib/python3.14/site-packages",
  });
  const page = pyodide.pyimport("grader.frontends.site.page");
  const transport = pyodide.pyimport("grader.transport.worker");
  const bridge = transport.JsBridge(kernels);
  self.onmessage = (event) => {
    const { id, op, payload } = event.data;
    queue = queue.then(async () => {
      const answer = await page.run.callPromising(bridge, op, JSON.stringify(payload ?? {}));
      self.postMessage({ id, ...JSON.parse(answer) });
    });
  };
  stage("ready");
}

// A snapshot of the engine's Python as loaded, before the grader is unpacked into it: the
// fresh Python every kernel starts from. Nothing of the grader, and no key, is in it yet.
function snapshotOf(pyodide) {
  try {
    return pyodide.makeMemorySnapshot();
  } catch (error) {
    console.warn("no snapshot of a fresh Python: " + String(error && error.message));
    return null;
  }
}

start().catch((error) => stage("failed", String(error && error.message)));
