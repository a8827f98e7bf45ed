"""The exercises in the browser: ``python -m grader site OUT/`` builds a static site.

The page grades the three exercise files with the same engine, properties, seeds and report
as ``python -m grader``; only the transport differs (:mod:`grader.transport.worker`: the
learner's code in a Web Worker of its own, Pyodide, asked synchronously through JSPI).

* :mod:`.build` puts the site together (Pyodide and the editor from npm, hypothesis from
  this environment, the grader, the stubs);
* :mod:`.texts` takes the page's words from the grader's catalogs;
* :mod:`.page` is what runs in the engine's worker: grade, render, hint;
* :mod:`.serve` serves a built site on 127.0.0.1 (``--serve``);
* ``static/``: the page (``app.js``), the engine's worker (``engine.js``, ``kernels.js``) and
  the kernel's (``kernel.js``).
"""
