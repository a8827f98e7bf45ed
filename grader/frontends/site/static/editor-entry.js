// The editor, bundled into the site by esbuild at build time: CodeMirror 6 with Python.
import { EditorView, basicSetup } from "codemirror";
import { EditorState } from "@codemirror/state";
import { indentUnit } from "@codemirror/language";
import { python } from "@codemirror/lang-python";

// One editor; each file is a state of its own, so switching files keeps each one's undo.
export function createEditor(parent, onChange) {
  const view = new EditorView({ parent });
  const listener = EditorView.updateListener.of((update) => {
    if (update.docChanged) onChange(update.state.doc.toString());
  });
  const stateOf = (text) =>
    EditorState.create({
      doc: text,
      extensions: [basicSetup, python(), indentUnit.of("    "), listener],
    });
  return {
    view,
    load: (text) => view.setState(stateOf(text)),
    text: () => view.state.doc.toString(),
  };
}
