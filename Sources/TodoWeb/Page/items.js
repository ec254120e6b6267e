// Renders the list's rows in place: a row per item, kept across renders (so focus and an edit
// in progress survive changes made elsewhere), updated only where the model changed.

export function renderItems(list, items, actions) {
  const existing = new Map([...list.children].map((row) => [row.dataset.itemNumber, row]));
  let previous = null;
  for (const item of items) {
    const key = String(item.number);
    let row = existing.get(key);
    existing.delete(key);
    if (!row) row = makeRow(item, actions);
    updateRow(row, item);
    const next = previous ? previous.nextSibling : list.firstChild;
    if (row !== next) list.insertBefore(row, next);
    previous = row;
  }
  for (const row of existing.values()) row.remove();
}

function makeRow(item, actions) {
  const row = document.createElement("li");
  row.dataset.itemNumber = String(item.number);
  row.tabIndex = 0;
  const box = document.createElement("input");
  box.type = "checkbox";
  box.id = `done-${item.number}`;
  box.addEventListener("change", () => actions.toggle(item.number, box.checked));
  const number = document.createElement("span");
  number.className = "number";
  number.textContent = String(item.number);
  const text = document.createElement("label");
  text.className = "text";
  text.htmlFor = box.id;
  const edit = button("Edit", `Edit item ${item.number}`, () => startEdit(row, item.number, actions));
  edit.dataset.edit = "";
  const remove = button("Delete", `Delete item ${item.number}`, () => actions.remove(item.number));
  remove.dataset.remove = "";
  row.append(box, number, text, edit, remove);
  return row;
}

function updateRow(row, item) {
  const box = row.querySelector("input[type=checkbox]");
  box.checked = item.completed;
  box.setAttribute("aria-label", `Item ${item.number} done`);
  row.querySelector(".text").textContent = item.text;
  row.classList.toggle("done", item.completed);
}

function button(label, description, onClick) {
  const element = document.createElement("button");
  element.type = "button";
  element.textContent = label;
  element.setAttribute("aria-label", description);
  element.addEventListener("click", onClick);
  return element;
}

function startEdit(row, number, actions) {
  const text = row.querySelector(".text");
  const field = document.createElement("input");
  field.type = "text";
  field.value = text.textContent;
  field.setAttribute("aria-label", `New text of item ${number}`);
  text.hidden = true;
  text.after(field);
  field.focus();
  const finish = () => { field.remove(); text.hidden = false; row.focus(); };
  field.addEventListener("keydown", (event) => {
    if (event.key === "Enter") { actions.edit(number, field.value); finish(); }
    else if (event.key === "Escape") finish();
  });
  field.addEventListener("blur", () => { if (field.isConnected) finish(); });
}
