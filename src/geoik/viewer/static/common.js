// geoik viewer: the page state, the WebSocket connection and small shared helpers.
// The state object is exposed as window.geoikState so tests (and curious users) can read it.

export const $ = (id) => document.getElementById(id);

export const S = {
  connected: false,
  scene: "chain",
  methods: [],
  treeMethods: [],
  mapMetrics: [],
  mapMetricLabels: {},
  mapColours: null,
  caps: { links: 64, max_iter: 1000, coordinate: 1e6 }, // the server's, from its methods reply
  method: "fabrik",
  target: [8.33, 2.83],
  lastReply: null,
  lastError: null,
  endEffector: null,
  positions: null,
  angles: null,
  reach: null,
  limits: null,
  stale: null, // the 2-D panel's readouts are of an earlier chain: why (words), or null
  invalid: [], // the 2-D panel's fields refused as typed: [{id, label, message}]
  overlay: false,
  map: { state: "off", text: "", reply: null, progress: null },
  replaying: false,
  fps: 0,
  renderFps: 0,
  sceneReply: null,
  sceneFrames: 0,
  pending: 0, // requests sent and not answered yet (tests wait for 0)
  lastSent: 0, // the id of the last request sent (a reply's id tells when it was asked)
  errors: [],
  worldToClient: null,
  viewToClient: null,
  view3d: {}, // the 3-D views by panel (scene, robot, rig): for tests
  models: { robot: null, clip: null }, // what the server was started with
  preparation: null, // the server's preparation of its solvers: {state, done, total, step}
  waiting: null, // the oldest request unanswered for more than WAIT_NOTICE_MS: {type, ms}
  sent: {}, // messages sent, by type
  rafTicks: 0, // animation frames the browser has run
};
window.geoikState = S;

/** A request unanswered for this long is announced in the header. */
const WAIT_NOTICE_MS = 400;

// ------------------------------------------------------------------ connection

const conn = { ws: null, next: 1, pending: new Map(), listeners: [] };
Object.defineProperty(S, "pending", { get: () => conn.pending.size, enumerable: true }); // unanswered

/** Open the WebSocket (and reopen it a second after it closes). */
export function connect(onOpen) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws`);
  conn.ws = ws;
  ws.onopen = () => {
    S.connected = true;
    setConn(true);
    onOpen();
  };
  ws.onclose = () => {
    S.connected = false;
    S.preparation = null;
    setConn(false);
    for (const p of conn.pending.values()) p.reject({ message: "connection closed" });
    conn.pending.clear();
    for (const f of conn.listeners) f();
    setTimeout(() => connect(onOpen), 1000);
  };
  ws.onmessage = (ev) => {
    const reply = JSON.parse(ev.data);
    if (reply.type === "status") {
      setPreparation(reply.preparation);
      return;
    }
    const p = conn.pending.get(reply.id);
    if (!p) return;
    if (reply.type === "progress") {
      if (p.progress) p.progress(reply);
      return;
    }
    conn.pending.delete(reply.id);
    reply.rtt_ms = performance.now() - p.sent;
    if (reply.type === "error") {
      S.errors.push(reply);
      if (S.errors.length > 20) S.errors.shift();
      p.reject(reply);
    } else {
      p.resolve(reply);
    }
    showWaiting();
  };
}

/** Call ``f`` whenever the connection drops (to reset what was in flight). */
export function onDisconnect(f) {
  conn.listeners.push(f);
}

function setConn(on) {
  const el = $("conn");
  el.textContent = on ? "connected" : "disconnected: retrying…";
  el.className = "conn " + (on ? "on" : "off");
}

/** Send one message; resolves with the reply, rejects with the error reply. */
export function request(msg, progress = null) {
  return new Promise((resolve, reject) => {
    if (!conn.ws || conn.ws.readyState !== WebSocket.OPEN) {
      reject({ message: "not connected" });
      return;
    }
    const id = conn.next++;
    S.sent[msg.type] = (S.sent[msg.type] || 0) + 1;
    S.lastSent = id;
    conn.pending.set(id, { resolve, reject, progress, sent: performance.now(), type: msg.type });
    conn.ws.send(JSON.stringify(Object.assign({ id }, msg)));
  });
}

// ------------------------------------------------------------------ what the server is doing

/** The server's preparation of its solvers (it compiles them in the background at start);
 *  a status older than the one shown (replies and notes may cross) is passed over. */
export function setPreparation(p) {
  const now = S.preparation;
  if (p && now && (now.state === "ready" || p.done < now.done) && p.state !== "ready") return;
  S.preparation = p;
  showWaiting();
}

const WORDS = {
  solve: "solving",
  reach: "measuring the reach",
  map: "computing the map",
  scene: "solving the scene",
  robot: "loading the robot",
  robot_solve: "solving the robot",
  clip: "loading the clip",
  pose: "posing the frame",
  save: "posing and saving the clip",
};

/** The header's notice: "preparing solvers…" while the server compiles them, and any request
 *  unanswered for more than WAIT_NOTICE_MS, with what it waits for. Nothing waits unannounced. */
function showWaiting() {
  const now = performance.now();
  let oldest = null;
  for (const p of conn.pending.values()) if (!oldest || p.sent < oldest.sent) oldest = p;
  const waited = oldest ? now - oldest.sent : 0;
  S.waiting = oldest && waited >= WAIT_NOTICE_MS ? { type: oldest.type, ms: waited } : null;
  const prep = S.preparation;
  const preparing = prep && prep.state === "preparing";
  const el = $("busy");
  const parts = [];
  if (preparing) parts.push(`preparing solvers… ${prep.done} of ${prep.total}`);
  if (S.waiting) parts.push(`${WORDS[S.waiting.type] || "waiting"}: ${(waited / 1000).toFixed(1)} s`);
  const text = parts.join(" · ");
  if (el.textContent === text) return;
  el.hidden = parts.length === 0;
  el.textContent = text;
  el.title = preparing
    ? `The server compiles each solver once (first use only): now ${prep.step || "…"}. Meanwhile it answers in plain Python, more slowly.`
    : S.waiting ? "waiting for the server's answer" : "";
  el.classList.toggle("prep", Boolean(preparing));
}
setInterval(showWaiting, 200);

// ------------------------------------------------------------------ helpers

export function showError(e, where = "err") {
  S.lastError = e;
  $(where).textContent = e && e.message ? e.message : String(e);
}

/** A number for people: integers as such, tiny or huge ones in exponent form. */
export function fmt(v, digits = 4) {
  if (v === null || v === undefined || !isFinite(v)) return "–";
  if (Number.isInteger(v)) return String(v);
  const a = Math.abs(v);
  return a !== 0 && (a < 1e-3 || a >= 1e5) ? v.toExponential(3) : v.toFixed(digits);
}

/** Set the text of each element (id -> text); untouched when unchanged (no layout work). */
export function setTexts(texts) {
  for (const [id, text] of Object.entries(texts)) {
    const el = $(id);
    if (el.textContent !== text) el.textContent = text;
  }
}

/** Mark an element's readouts as being of an earlier state (greyed), or not. */
export function setStale(el, stale) {
  el.classList.toggle("stale", Boolean(stale));
}

/** A count of frames over the last second for people: "idle" when nothing happened in it. */
export function rateText(count) {
  return count ? `${count} frame${count === 1 ? "" : "s"}/s` : "idle (nothing to do)";
}
