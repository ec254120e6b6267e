// The page's side of the gateway protocol (docs/WEB.md): one WebSocket to the page's own
// origin, subscriptions that resume from the version held after a reconnect, dispatches
// answered by id. Knows nothing of the app.

import { applyPatch } from "./patch.js";

export class Gateway {
  constructor({ onModel, onState }) {
    this.onModel = onModel;
    this.onState = onState;
    this.subscriptions = new Map(); // key -> { viewModel, params, version, model }
    this.pending = new Map(); // request id -> { resolve, reject }
    this.nextId = 1;
    this.socket = null;
    this.socketOpen = false;
    this.daemonLive = false;
    this.version = null;
    this.retryDelay = 250;
  }

  start() {
    this.connect();
  }

  get state() {
    return this.socketOpen && this.daemonLive ? "live" : "reconnecting";
  }

  connect() {
    const socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/`);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.socketOpen = true;
      this.retryDelay = 250;
      for (const [key, s] of this.subscriptions) this.sendSubscribe(key, s);
    });
    socket.addEventListener("message", (event) => this.receive(JSON.parse(event.data)));
    socket.addEventListener("close", () => {
      this.socketOpen = false;
      this.daemonLive = false;
      for (const { reject } of this.pending.values()) reject(new Error("the connection to the gateway was lost"));
      this.pending.clear();
      this.onState(this.state, this.version);
      setTimeout(() => this.connect(), this.retryDelay);
      this.retryDelay = Math.min(this.retryDelay * 2, 2000);
    });
  }

  subscribe(key, viewModel, params) {
    const subscription = { viewModel, params, version: null, model: null };
    this.subscriptions.set(key, subscription);
    if (this.socketOpen) this.sendSubscribe(key, subscription);
  }

  sendSubscribe(key, s) {
    const message = { type: "subscribe", key, viewModel: s.viewModel, params: s.params };
    if (s.version !== null) message.have = s.version;
    this.socket.send(JSON.stringify(message));
  }

  dispatch(action, payload) {
    if (!this.socketOpen) return Promise.reject(new Error("not connected; try again once live"));
    const id = this.nextId++;
    this.socket.send(JSON.stringify({ type: "dispatch", id, action, payload }));
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }

  receive(message) {
    switch (message.type) {
      case "hello":
        this.daemonLive = message.daemon === "live";
        this.noteVersion(message.version);
        break;
      case "daemon":
        this.daemonLive = message.state === "live";
        if (message.version !== undefined) this.noteVersion(message.version);
        break;
      case "update":
        this.update(message);
        break;
      case "ack":
        this.settle(message.id, (p) => p.resolve(message.version));
        break;
      case "error":
        if (message.id === null) console.warn(message.message);
        else this.settle(message.id, (p) => p.reject(new Error(message.message)));
        break;
    }
    this.onState(this.state, this.version);
  }

  update(message) {
    const s = this.subscriptions.get(message.key);
    if (!s) return;
    if (message.patch !== undefined) {
      if (s.version !== message.base) return this.resubscribe(message.key, s);
      try {
        s.model = applyPatch(s.model, message.patch);
      } catch {
        return this.resubscribe(message.key, s);
      }
    } else {
      s.model = message.model;
    }
    s.version = message.version;
    this.noteVersion(message.version);
    this.onModel(message.key, s.model, s.version);
  }

  resubscribe(key, s) {
    s.version = null;
    s.model = null;
    this.socket.send(JSON.stringify({ type: "unsubscribe", key }));
    this.sendSubscribe(key, s);
  }

  noteVersion(version) {
    if (this.version === null || version > this.version) this.version = version;
  }

  settle(id, action) {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    action(pending);
  }
}
