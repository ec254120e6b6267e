// The todo page: the live list, its counts, the connection state and the version, and the
// changes a person makes from it. Each item is an element with data-item-number holding its
// text and a checkbox for its done state (the testing contract in docs/WEB.md).

import { Gateway } from "./gateway.js";
import { renderItems } from "./items.js";

const list = document.querySelector("[data-items]");
const connection = document.querySelector("[data-connection]");
const versionField = document.querySelector("[data-version]");
const counts = document.querySelector("[data-counts]");
const messageLine = document.querySelector("[data-message]");
const addForm = document.querySelector('form[data-action="add"]');
const filterField = document.querySelector("[data-filter]");
const undoButton = document.querySelector("[data-undo]");
let undoTarget = null;

const gateway = new Gateway({
  onModel(key, model) {
    if (key === "list" && model) {
      renderItems(list, model.items, actions);
      counts.textContent = `${model.openCount} open, ${model.doneCount} done`;
    } else if (key === "undo") {
      undoTarget = model?.next ?? null;
      undoButton.disabled = undoTarget === null;
      undoButton.title = undoTarget ? `Undo ${undoTarget.summary}` : "Nothing to undo";
    }
  },
  onState(state, version) {
    connection.dataset.connection = state;
    connection.textContent = state;
    versionField.textContent = version ?? "–";
  },
});

function report(promise) {
  promise.then(() => { messageLine.textContent = ""; }, (error) => { messageLine.textContent = error.message; });
  return promise;
}

const actions = {
  toggle: (number, done) => report(gateway.dispatch(done ? "complete" : "reopen", { number })),
  edit: (number, text) => report(gateway.dispatch("edit", { number, text })),
  remove: (number) => report(gateway.dispatch("remove", { number })),
};

addForm.addEventListener("submit", (event) => {
  event.preventDefault();
  const field = addForm.elements.text;
  const text = field.value;
  report(gateway.dispatch("add", { text })).then(() => { field.value = ""; }, () => {});
});

filterField.addEventListener("change", () => {
  gateway.subscribe("list", "list", { filter: filterField.value });
});

function undo() {
  if (!undoTarget) return;
  const payload = { undoing: undoTarget.summary };
  if (undoTarget.change !== undefined) payload.reverts = undoTarget.change;
  report(gateway.dispatch("undo", payload));
}
undoButton.addEventListener("click", undo);

// The TUI's keys, where they make sense in a page: only when no text field has the focus.
document.addEventListener("keydown", (event) => {
  if (event.target instanceof HTMLInputElement && event.target.type === "text") return;
  if (event.target instanceof HTMLSelectElement || event.ctrlKey || event.metaKey || event.altKey) return;
  const rows = [...list.querySelectorAll("[data-item-number]")];
  const current = rows.indexOf(document.activeElement?.closest("[data-item-number]"));
  const focusRow = (i) => rows[Math.max(0, Math.min(rows.length - 1, i))]?.focus();
  const row = rows[current];
  switch (event.key) {
    case "j": case "ArrowDown": focusRow(current + 1); break;
    case "k": case "ArrowUp": focusRow(current < 0 ? 0 : current - 1); break;
    case " ": if (row && event.target === row) row.querySelector("input[type=checkbox]").click(); else return; break;
    case "a": addForm.elements.text.focus(); break;
    case "e": row?.querySelector("[data-edit]").click(); break;
    case "d": row?.querySelector("[data-remove]").click(); break;
    case "f": filterField.selectedIndex = (filterField.selectedIndex + 1) % filterField.options.length;
      filterField.dispatchEvent(new Event("change")); break;
    case "u": undo(); break;
    default: return;
  }
  event.preventDefault();
});

gateway.subscribe("list", "list", { filter: "all" });
gateway.subscribe("undo", "undo", {});
gateway.start();
