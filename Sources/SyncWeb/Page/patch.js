// RFC 6902 JSON Patch, applied to a copy of a document: add, remove, replace, move, copy and
// test, with RFC 6901 pointers. Throws on a path that does not fit, so the caller can ask for
// the whole model again.

function tokens(pointer) {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) throw new Error(`not a JSON pointer: ${pointer}`);
  return pointer.slice(1).split("/").map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"));
}

function index(array, token, forAdd) {
  if (forAdd && token === "-") return array.length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new Error(`not an array index: ${token}`);
  const i = Number(token);
  if (i > array.length || (!forAdd && i === array.length)) throw new Error(`index out of range: ${token}`);
  return i;
}

function parentOf(document, path) {
  const parts = tokens(path);
  if (parts.length === 0) return { parent: null, key: null };
  let node = document;
  for (const token of parts.slice(0, -1)) {
    node = Array.isArray(node) ? node[index(node, token, false)] : node?.[token];
    if (node === undefined || node === null || typeof node !== "object") throw new Error(`no parent for ${path}`);
  }
  return { parent: node, key: parts[parts.length - 1] };
}

function get(document, path) {
  let node = document;
  for (const token of tokens(path)) {
    node = Array.isArray(node) ? node[index(node, token, false)] : node?.[token];
    if (node === undefined) throw new Error(`nothing at ${path}`);
  }
  return node;
}

function add(document, path, value) {
  const { parent, key } = parentOf(document, path);
  if (parent === null) return value;
  if (Array.isArray(parent)) parent.splice(index(parent, key, true), 0, value);
  else parent[key] = value;
  return document;
}

function remove(document, path) {
  const { parent, key } = parentOf(document, path);
  if (parent === null) throw new Error("cannot remove the whole document");
  if (Array.isArray(parent)) parent.splice(index(parent, key, false), 1);
  else if (Object.hasOwn(parent, key)) delete parent[key];
  else throw new Error(`nothing to remove at ${path}`);
  return document;
}

function equal(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function applyPatch(document, operations) {
  let result = structuredClone(document);
  for (const op of operations) {
    switch (op.op) {
      case "add": result = add(result, op.path, structuredClone(op.value)); break;
      case "remove": result = remove(result, op.path); break;
      case "replace":
        if (op.path === "") { result = structuredClone(op.value); break; }
        get(result, op.path);
        result = add(remove(result, op.path), op.path, structuredClone(op.value));
        break;
      case "move": { const value = get(result, op.from); result = add(remove(result, op.from), op.path, value); break; }
      case "copy": result = add(result, op.path, structuredClone(get(result, op.from))); break;
      case "test": if (!equal(get(result, op.path), op.value)) throw new Error(`test failed at ${op.path}`); break;
      default: throw new Error(`unknown operation ${op.op}`);
    }
  }
  return result;
}
