// The board page: the live columns and cards, the connection state and the version, and the
// changes a person makes from it (add, move left or right, archive, undo). Each card is an
// element with data-card-id holding its title, inside the section with data-column of its
// column.

import { Gateway } from "./gateway.js";

const boardElement = document.querySelector("[data-board]");
const connection = document.querySelector("[data-connection]");
const versionField = document.querySelector("[data-version]");
const messageLine = document.querySelector("[data-message]");
const addForm = document.querySelector('form[data-action="add-card"]');
const undoButton = document.querySelector("[data-undo]");
let undoTarget = null;

function report(promise) {
  promise.then(() => { messageLine.textContent = ""; }, (error) => { messageLine.textContent = error.message; });
  return promise;
}

function button(text, label, onClick) {
  const element = document.createElement("button");
  element.type = "button";
  element.textContent = text;
  element.setAttribute("aria-label", label);
  element.addEventListener("click", onClick);
  return element;
}

function renderBoard(model) {
  const names = model.columns.map((column) => column.name);
  boardElement.replaceChildren(...model.columns.map((column, index) => {
    const section = document.createElement("section");
    section.dataset.column = column.name;
    const heading = document.createElement("h2");
    heading.textContent = column.limit == null
      ? `${column.name} (${column.cards.length})` : `${column.name} (${column.cards.length}/${column.limit})`;
    const cards = document.createElement("ol");
    cards.replaceChildren(...column.cards.map((card) => {
      const item = document.createElement("li");
      item.dataset.cardId = card.id;
      const title = document.createElement("span");
      title.textContent = card.title;
      const controls = document.createElement("div");
      if (index > 0) {
        controls.append(button("←", `Move ${card.title} to ${names[index - 1]}`,
          () => report(gateway.dispatch("moveCard", { card: card.id, column: names[index - 1] }))));
      }
      if (index < names.length - 1) {
        controls.append(button("→", `Move ${card.title} to ${names[index + 1]}`,
          () => report(gateway.dispatch("moveCard", { card: card.id, column: names[index + 1] }))));
      }
      controls.append(button("Archive", `Archive ${card.title}`,
        () => report(gateway.dispatch("archiveCard", { card: card.id }))));
      item.append(title, controls);
      return item;
    }));
    section.append(heading, cards);
    return section;
  }));
}

const gateway = new Gateway({
  onModel(key, model) {
    if (key === "board" && model) {
      renderBoard(model);
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

addForm.addEventListener("submit", (event) => {
  event.preventDefault();
  const field = addForm.elements.title;
  const title = field.value.trim();
  if (title === "") return;
  report(gateway.dispatch("addCard", { title })).then(() => { field.value = ""; });
});

undoButton.addEventListener("click", () => {
  if (undoTarget) report(gateway.dispatch("undo", { reverts: undoTarget.change, undoing: undoTarget.summary }));
});

gateway.subscribe("board", "board", {});
gateway.subscribe("undo", "undo", {});
gateway.start();
