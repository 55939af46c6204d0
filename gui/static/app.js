// choro-gui page. Everything about the game comes from the engine through the
// server: the position strings, the legal moves, the traces of moves, the
// evaluation. This script only draws them and turns clicks into moves from
// the engine's own list of legal moves, so it never sends an illegal move.
'use strict';

const $ = (id) => document.getElementById(id);
const SVGNS = 'http://www.w3.org/2000/svg';
const CELL = 64;

// ---------------------------------------------------------------- connection

let ws = null;
let nextId = 1;
const pending = new Map();
let infoSink = null;

function connect() {
  return new Promise((resolve) => {
    ws = new WebSocket(`ws://${location.host}/ws`);
    ws.onopen = () => resolve();
    ws.onmessage = (e) => {
      const m = JSON.parse(e.data);
      if (m.type === 'info') {
        if (infoSink) infoSink(m.line);
        return;
      }
      const p = pending.get(m.id);
      if (p) {
        pending.delete(m.id);
        p(m);
      }
    };
    ws.onclose = () => {
      for (const p of pending.values()) p({ error: 'the connection to the server was lost' });
      pending.clear();
      message('error', 'The connection to the server was lost; reconnecting...');
      setTimeout(() => connect().then(() => message('note', 'Reconnected; the game is kept.')), 1000);
      resolve();
    };
  });
}

/** One request to the server; throws the server's error message. */
async function req(op, data = {}) {
  if (!ws || ws.readyState !== WebSocket.OPEN) throw new Error('not connected to the server');
  const id = nextId++;
  const reply = await new Promise((resolve) => {
    pending.set(id, resolve);
    ws.send(JSON.stringify({ id, op, ...data }));
  });
  if (reply.note) message('note', 'Engine: ' + reply.note);
  if (reply.engine_pid) document.body.dataset.enginePid = reply.engine_pid;
  if (reply.restarts !== undefined) document.body.dataset.restarts = reply.restarts;
  if (reply.error) throw new Error(reply.error);
  return reply;
}

// ---------------------------------------------------------------- state

/** The game on the board: start position string and the moves from it. */
let game = null;
/** The engine's view of the current position (`state` reply). */
let st = null;
let flipped = false;
let busy = 0;
/** A record being stepped through: {games, gi, ply}. */
let rec = null;
/** Move entry by clicks: the prefix typed so far and the moves it allows. */
let entry = null;
let choiceSpot = null;
let autoplayTimer = null;

function setBusy(d) {
  busy += d;
  document.body.dataset.busy = busy > 0 ? '1' : '0';
}

/** Run `fn` with the page marked busy; its error becomes the page's message. */
async function busyDo(fn, wrap = (m) => m) {
  setBusy(1);
  try {
    await fn();
  } catch (e) {
    message('error', wrap(e.message));
  } finally {
    setBusy(-1);
  }
}

function message(kind, text) {
  const m = $('message');
  m.className = kind;
  m.textContent = text;
}

function settings() {
  return {
    variant: $('variant').value,
    columns: +$('columns').value,
    opening: $('opening').value,
    a: $('player-a').value,
    b: $('player-b').value,
    algorithm: $('algorithm').value,
    movetime: Math.max(10, +$('movetime').value || 1000),
  };
}

function saveGame() {
  if (game) req('save_game', { game: { ...game, settings: settings(), flipped } }).catch(() => {});
}

// ---------------------------------------------------------------- position strings

/** The fields of a position string, as drawn: grid[row][col], stores, hands. */
function parsePos(s) {
  const f = s.trim().split(/\s+/);
  if (f[0] === 'adjiboto') {
    const [north, south] = f[1].split('/').map((r) => r.split(',').map(Number));
    // Row 0 is A's (south, west to east); row 1 is B's, drawn west to east too.
    return {
      adj: true, w: 5, side: f[2], phase: 'm',
      grid: [south, north], stores: f[4].split('/').map(Number), hands: [0, 0], racers: null,
    };
  }
  const [code, ws_] = f[0].split(':');
  const w = +(ws_ || 8);
  const rows = f[1].split('/').map((r) => r.split(',').map(Number));
  const grid = [rows[3], rows[2], rows[1], rows[0]];
  const phase = f[3];
  let racers = null;
  const hands = [0, 0];
  if (phase === 'r' || phase === 'rx') {
    racers = [f[5], f[6]].map((r) => {
      if (r === 'done') return { done: true };
      const o = {};
      for (const kv of r.split(',')) {
        const [k, v] = kv.split('=');
        o[k] = v;
      }
      return o;
    });
    racers.forEach((r, i) => { hands[i] = +(r.hand || 0); });
  }
  return { adj: false, code, w, side: f[2], phase, grid, stores: [0, 0], hands, racers };
}

/** A trace step's board: `<rows> <storeA>/<storeB>`. */
function frameGrid(rowsTok, storesTok, adj) {
  const rows = rowsTok.split('/').map((r) => r.split(',').map(Number));
  const grid = adj ? [rows[1], rows[0]] : [rows[3], rows[2], rows[1], rows[0]];
  return { grid, stores: storesTok.split('/').map(Number) };
}

// ---------------------------------------------------------------- geometry of the drawing

/** Owner ('a'/'b') of board row `r`. */
function owner(p, r) {
  if (p.adj) return r === 0 ? 'a' : 'b';
  return r <= 1 ? 'a' : 'b';
}

/** The hole's name in move notation (lower case) and its label on the board. */
function holeName(p, r, c) {
  if (p.adj) {
    const n = r === 0 ? c + 1 : 5 - c;
    return { name: String(n), label: String(n) };
  }
  const w = p.w;
  let lp;
  if (r === 0) lp = c;
  else if (r === 1) lp = 2 * w - 1 - c;
  else if (r === 2) lp = w + c;
  else lp = w - 1 - c;
  const n = ((lp + w + 2) % (2 * w)) + 1;
  if (w === 8) {
    const ch = String.fromCharCode(96 + n);
    return { name: ch, label: r <= 1 ? ch.toUpperCase() : ch };
  }
  return { name: String(n), label: String(n) };
}

/** The turning base of each player: i, j, k, l, his four left-hand holes. */
function isBase(p, r, c) {
  if (p.adj) return false;
  const w = p.w;
  return (r <= 1 && c <= 1) || (r >= 2 && c >= w - 2);
}

function holeXY(p, r, c) {
  const nrows = p.adj ? 2 : 4;
  const yi = flipped ? r : nrows - 1 - r;
  const xi = flipped ? p.w - 1 - c : c;
  const x0 = p.adj ? 40 + 90 : 40;
  const gap = !p.adj && yi >= 2 ? 18 : 0;
  return { x: x0 + xi * CELL + CELL / 2, y: 34 + yi * CELL + CELL / 2 + gap };
}

function el(name, attrs, parent) {
  const e = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// ---------------------------------------------------------------- drawing

/**
 * Draw position `p` (from parsePos) with the grid `g` (the position's own,
 * or an animation frame's), highlighting `hot` ({row, col}).
 */
function drawBoard(p, g, hot) {
  const svg = $('board');
  svg.innerHTML = '';
  const nrows = p.adj ? 2 : 4;
  const width = p.adj ? 40 + 90 + 5 * CELL + 110 : 40 + p.w * CELL + 30;
  const height = 34 + nrows * CELL + (p.adj ? 0 : 18) + 40;
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  const x0 = p.adj ? 40 + 90 : 40;
  el('rect', { class: 'wood', x: x0 - 10, y: 24, width: p.w * CELL + 20,
    height: nrows * CELL + (p.adj ? 0 : 18) + 20, rx: 18 }, svg);
  // Row names, Driberg's layout: B north, A south (turned when flipped).
  for (let r = 0; r < nrows; r++) {
    const { y } = holeXY(p, r, 0);
    const t = el('text', { class: 'rowname', x: 18, y: y + 4 }, svg);
    t.textContent = p.adj ? (r === 0 ? 'A' : 'B') : (r <= 1 ? 'A' : 'B') + r;
  }
  if (!p.adj) {
    // The turning bases: a dashed frame round each player's four left-hand holes.
    for (const [r0, c0] of [[0, 0], [2, p.w - 2]]) {
      const a = holeXY(p, r0, c0);
      const b = holeXY(p, r0 + 1, c0 + 1);
      const x = Math.min(a.x, b.x) - CELL / 2 + 3;
      const y = Math.min(a.y, b.y) - CELL / 2 + 3;
      el('rect', { class: 'base-mark', x, y, width: 2 * CELL - 6, height: 2 * CELL - 6, rx: 10 }, svg);
    }
  }
  const movable = new Set();
  if (humanToMove() && st && !rec) {
    for (const [mv] of st.moves) {
      const t = tokens(mv)[0];
      if (t && t.hole) movable.add(t.hole);
    }
  }
  for (let r = 0; r < nrows; r++) {
    for (let c = 0; c < p.w; c++) {
      const n = g.grid[r][c];
      const { x, y } = holeXY(p, r, c);
      const { name, label } = holeName(p, r, c);
      const side = owner(p, r);
      const cls = ['hole'];
      if (side === p.side && movable.has(name)) cls.push('movable', 'clickable');
      if (hot && hot.row === r && hot.col === c) cls.push('hot');
      if (choiceSpot && choiceSpot.row === r && choiceSpot.col === c) cls.push('target');
      if (isBase(p, r, c) && (p.code !== 'acholi' || ['i', 'k'].includes(name))) cls.push('base');
      const gEl = el('g', {
        class: cls.join(' '), 'data-row': r, 'data-col': c, 'data-count': n,
        'data-side': side, 'data-hole': name,
      }, svg);
      el('circle', { cx: x, cy: y, r: CELL / 2 - 5 }, gEl);
      drawCounters(gEl, x, y, n);
      const ct = el('text', { class: 'count', x, y }, gEl);
      ct.textContent = n;
      const lt = el('text', { class: 'label', x, y: y + CELL / 2 - 9 }, gEl);
      lt.textContent = label;
      gEl.addEventListener('click', () => holeClicked(r, c));
    }
  }
  if (p.adj) {
    // Stores: each player's to his right; B's west, A's east.
    for (const [i, west] of [[1, true], [0, false]]) {
      const ya = holeXY(p, 1, 0).y;
      const yb = holeXY(p, 0, 0).y;
      const top = Math.min(ya, yb) - CELL / 2 + 4;
      const left = (west !== flipped) ? 40 : 40 + 90 + 5 * CELL + 20;
      const gEl = el('g', { class: 'store', 'data-store': i === 0 ? 'a' : 'b', 'data-count': g.stores[i] }, svg);
      el('rect', { x: left, y: top, width: 70, height: 2 * CELL - 8, rx: 30 }, gEl);
      const t = el('text', { class: 'count', x: left + 35, y: top + CELL - 4 }, gEl);
      t.textContent = g.stores[i];
      const l = el('text', { class: 'label', x: left + 35, y: top + 2 * CELL - 22 }, gEl);
      l.textContent = (i === 0 ? 'A' : 'B') + ' store';
    }
  }
  if (p.racers) {
    // Hands of the racers in the simultaneous opening.
    for (const i of [0, 1]) {
      const south = (i === 0) !== flipped;
      const t = el('text', { class: 'hand', x: 40, y: south ? height - 10 : 16, 'data-hand': i ? 'b' : 'a' }, svg);
      const r = p.racers[i];
      t.textContent = `${i ? 'B' : 'A'}: ` + (r.done ? 'done' : `hand ${r.hand || 0}` + (r.decide ? `, to decide (${r.decide}) at ${r.at}` : `, next drop ${r.next}`));
    }
  }
  if (entry && entry.options) drawChoices(p, entry.options);
}

/** Up to 12 counters drawn as small discs, in rings. */
function drawCounters(parent, x, y, n) {
  const k = Math.min(n, 12);
  for (let i = 0; i < k; i++) {
    const ring = i < 5 ? 0 : 1;
    const m = ring === 0 ? Math.min(k, 5) : k - 5;
    const j = ring === 0 ? i : i - 5;
    const a = (2 * Math.PI * j) / m + (ring ? 0.3 : 0);
    const rad = ring === 0 ? 11 : 20;
    el('circle', { class: 'counter', cx: x + rad * Math.cos(a), cy: y + rad * Math.sin(a), r: 5 }, parent);
  }
}

function drawChoices(p, options) {
  const svg = $('board');
  const spot = choiceSpot || { row: p.side === 'a' ? 1 : 2, col: Math.floor(p.w / 2) };
  const { x, y } = holeXY(p, spot.row, spot.col);
  const wBtn = 118;
  const total = options.length * (wBtn + 6);
  let bx = Math.max(4, x - total / 2);
  const by = y + (spot.row <= 1 !== flipped ? -CELL - 6 : CELL / 2 + 8);
  for (const o of options) {
    const g = el('g', { class: 'choice', 'data-token': o.token }, svg);
    el('rect', { x: bx, y: by, width: wBtn, height: 30, rx: 8 }, g);
    const t = el('text', { x: bx + wBtn / 2, y: by + 15 }, g);
    t.textContent = o.text;
    g.addEventListener('click', (e) => { e.stopPropagation(); chooseToken(o.token); });
    bx += wBtn + 6;
  }
}

// ---------------------------------------------------------------- moves by clicks

/** The tokens of a move string: starts carry their hole name. */
function tokens(mv) {
  const out = [];
  const re = /([~x]?)([a-p]|\d+)|([+\-=])/g;
  let m;
  while ((m = re.exec(mv)) !== null) {
    if (m[3]) out.push({ text: m[3], kind: m[3] });
    else out.push({ text: m[1] + m[2], kind: m[1] || 'lift', hole: m[2] });
  }
  return out;
}

function humanToMove() {
  if (!st || !game || st.result !== 'none') return false;
  const p = parsePos(st.position);
  return settings()[p.side] === 'human';
}

const TOKEN_TEXT = {
  '+': '+ clockwise',
  '-': '- normal way',
  '=': '= leave it there',
};

/** Options for the next token after `prefix` among the legal moves `cands`. */
function nextOptions(prefix, cands) {
  const n = tokens(prefix).length;
  const seen = new Map();
  for (const mv of cands) {
    const t = tokens(mv)[n];
    if (t && !seen.has(t.text)) seen.set(t.text, t);
  }
  return [...seen.values()];
}

function startEntry() {
  entry = { prefix: '', cands: st.moves.map(([m]) => m), options: null };
  choiceSpot = null;
  const p = parsePos(st.position);
  // A race decision is a lone choice: offer it at once, at the racer's hole.
  if (p.racers) {
    const r = p.racers[p.side === 'a' ? 0 : 1];
    choiceSpot = r && r.at ? findHole(p, p.side, r.at) : null;
    offer(nextOptions('', entry.cands));
  }
}

function findHole(p, side, name) {
  const nrows = p.adj ? 2 : 4;
  for (let r = 0; r < nrows; r++) {
    for (let c = 0; c < p.w; c++) {
      if (owner(p, r) === side && holeName(p, r, c).name === name) return { row: r, col: c };
    }
  }
  return null;
}

function offer(opts) {
  const texts = {
    lift: (t) => `${t.hole}: sow`,
    '~': (t) => `~${t.hole}: clockwise`,
    x: (t) => `x${t.hole}: take`,
  };
  entry.options = opts.map((t) => ({ token: t.text, text: TOKEN_TEXT[t.kind] || texts[t.kind](t) }));
  redraw();
}

async function holeClicked(r, c) {
  if (rec) return message('error', 'Stepping a record: "Play on from here" to play.');
  if (busy > 0 || !st) return;
  if (!humanToMove()) return message('error', st.result !== 'none' ? 'The game is over.' : 'Not your turn: the engine is to move.');
  if (!entry) startEntry();
  const p = parsePos(st.position);
  const side = owner(p, r);
  const { name } = holeName(p, r, c);
  const n = tokens(entry.prefix).length;
  const opts = nextOptions(entry.prefix, entry.cands).filter((t) => t.hole);
  if (opts.length === 0) {
    return message('error', 'Choose one of the options offered on the board.');
  }
  if (side !== p.side) return message('error', `That hole is ${side.toUpperCase()}'s; ${p.side.toUpperCase()} is to move.`);
  const here = opts.filter((t) => t.hole === name);
  if (here.length === 0) {
    const cnt = st.position ? parsePos(st.position).grid[r][c] : 0;
    return message('error', cnt < 2 && n === 0
      ? `Hole ${name} holds ${cnt}: a move starts from a hole with 2 or more.`
      : `No legal move starts at hole ${name} here.`);
  }
  message('', '');
  choiceSpot = { row: r, col: c };
  if (here.length > 1) return offer(here);
  await chooseToken(here[0].text);
}

async function chooseToken(tok) {
  if (!entry) return;
  const prefix = entry.prefix + tok;
  const cands = entry.cands.filter((m) => tokenPrefix(m, prefix));
  entry = { prefix, cands, options: null };
  if (cands.includes(prefix)) {
    entry = null;
    choiceSpot = null;
    return humanMove(prefix);
  }
  const opts = nextOptions(prefix, cands);
  if (opts.every((t) => t.hole)) {
    message('note', 'Left there: click the hole to start from anew.');
    redraw();
    return;
  }
  // Show where the choice comes: the trace of two ways on, up to where they part.
  await busyDo(async () => {
    const ways = opts.map((o) => cands.find((m) => tokenPrefix(m, prefix + o.text)));
    const traces = await Promise.all(ways.map((m) => req('trace', { ...game, move: m })));
    const lines = traces.map((t) => t.trace);
    let k = 0;
    while (lines.every((l) => k < l.length && l[k] === lines[0][k])) k++;
    const common = lines[0].slice(0, k);
    const lastDrop = [...common].reverse().find((l) => l.startsWith('trace drop'));
    if (lastDrop) {
      const f = lastDrop.split(' ');
      choiceSpot = { row: +f[4], col: +f[5] };
    }
    anim.frames = framesOf(st.position, common, false);
    anim.i = anim.frames.length - 1;
    showFrame();
  });
  offer(opts);
}

/** `prefix` is a whole number of tokens at the start of `mv`. */
function tokenPrefix(mv, prefix) {
  const a = tokens(mv).map((t) => t.text);
  const b = tokens(prefix).map((t) => t.text);
  return b.length <= a.length && b.every((t, i) => t === a[i]);
}

async function humanMove(mv) {
  await playMove(mv);
}

// ---------------------------------------------------------------- animation

const anim = { frames: [], i: 0, playing: false, resolve: null, timer: null };

function framesOf(before, lines, withEnd = true) {
  const p = parsePos(before);
  const frames = [{ grid: p.grid, stores: p.stores, caption: 'before the move', hot: null }];
  let lap = '';
  for (const l of lines) {
    const f = l.split(' ');
    if (f[1] === 'lap') {
      lap = `lap ${f[2]} ${f[3] === 'cw' ? 'clockwise' : 'counter-clockwise'}, ${f[5]} counters`;
      continue;
    }
    if (f[1] === 'end') {
      if (withEnd) {
        const e = parsePos(f.slice(2).join(' '));
        frames.push({ grid: e.grid, stores: e.stores, caption: 'after the move', hot: null, end: true });
      }
      continue;
    }
    const [kind, side, hole, row, col, n, rows, stores] = f.slice(1);
    const g = frameGrid(rows, stores, p.adj);
    const what = {
      lift: `${side.toUpperCase()} lifts ${n} from ${hole}`,
      capture: `captures ${n} from ${side.toUpperCase()}'s ${hole}`,
      put: `puts ${n} into ${hole}`,
      drop: `${side.toUpperCase()} drops into ${hole} (now ${n})`,
    }[kind];
    frames.push({ ...g, caption: (lap && kind === 'drop' ? lap + ': ' : '') + what, hot: { row: +row, col: +col } });
  }
  return frames;
}

function frameDelay() {
  const v = +$('speed').value;
  if (v >= 100) return 0;
  return Math.round(900 * Math.pow(1 - v / 100, 2));
}

function showFrame() {
  if (!st) return;
  const f = anim.frames[anim.i];
  const p = parsePos(st.position);
  if (!f) return drawBoard(p, p, null);
  drawBoard(p, f, f.hot);
  $('anim-caption').textContent = `${anim.i}/${anim.frames.length - 1} ${f.caption}`;
}

/** Play the frames; resolves at the end (or when skipped to the end). */
function playFrames(frames) {
  anim.frames = frames;
  anim.i = 0;
  return new Promise((resolve) => {
    anim.resolve = resolve;
    if (frameDelay() === 0) {
      anim.i = frames.length - 1;
      finishAnim();
      return;
    }
    anim.playing = true;
    tick();
  });
}

function tick() {
  clearTimeout(anim.timer);
  showFrame();
  if (anim.i >= anim.frames.length - 1) return finishAnim();
  if (!anim.playing) return;
  anim.timer = setTimeout(() => {
    if (!anim.playing) return;
    anim.i++;
    tick();
  }, frameDelay());
}

function finishAnim() {
  anim.playing = false;
  showFrame();
  const r = anim.resolve;
  anim.resolve = null;
  if (r) r();
}

// ---------------------------------------------------------------- the game

async function playMove(mv) {
  await busyDo(async () => {
    const g = game, r0 = rec;
    const before = st.position;
    const tr = await req('trace', { ...g, move: mv });
    // A new game, a set-up or a record came while the trace was asked for:
    // the move was for the game they replaced.
    if (game !== g || rec !== r0) return;
    game.moves.push(mv);
    entry = null;
    choiceSpot = null;
    saveGame();
    await playFrames(framesOf(before, tr.trace));
    await refresh();
  });
  scheduleNext();
}

/** Refreshes asked for; a reply is shown only if it answers the last. */
let refreshes = 0;

async function refresh() {
  const mine = ++refreshes;
  await busyDo(async () => {
    const moves = rec ? rec.games[rec.gi].moves.slice(0, rec.ply) : game.moves;
    const start = rec ? rec.games[rec.gi].start : game.start;
    const s = await req('state', { start, moves });
    // A later refresh (a new game, a set-up, a record, a move) was asked
    // for while this one was answered: its reply is the board to show.
    if (mine !== refreshes) return;
    st = s;
    renderInfo();
    if (!anim.playing) {
      const p = parsePos(st.position);
      anim.frames = [{ grid: p.grid, stores: p.stores, caption: 'position', hot: null }];
      anim.i = 0;
      showFrame();
    }
  });
}

function redraw() {
  if (!st) return;
  showFrame();
}

function renderInfo() {
  const p = parsePos(st.position);
  const pos = $('position');
  // Two people at one board: B must not see A's blind start.
  const hide = p.phase && p.phase.startsWith('s1') && settings().b === 'human' && !rec;
  pos.value = hide ? '(A has chosen his start blind; hidden from B)' : st.position;
  pos.dataset.position = st.position;
  const phase = (st.d.find((l) => l.startsWith('phase ')) || '').slice(6);
  const over = st.d.find((l) => l.startsWith('game over'));
  let s;
  if (over) s = over.replace('game over: ', 'Game over: ');
  else s = `${p.side.toUpperCase()} to move (${settings()[p.side]}) - ${phase}`;
  if (rec) s = `Record game ${rec.gi + 1}, ply ${rec.ply}/${rec.games[rec.gi].moves.length} - ` + s;
  $('status').textContent = s;
  document.body.dataset.result = st.result;
  document.body.dataset.human = !rec && humanToMove() ? '1' : '0';
  document.body.dataset.mode = rec ? 'record' : 'game';
  document.body.dataset.start = rec ? rec.games[rec.gi].start : game.start;
  document.body.dataset.ply = game ? game.moves.length : 0;
  $('eval').innerHTML = '';
  for (const l of st.eval) {
    const f = l.split(' ');
    const tr = document.createElement('tr');
    const cells = f[0] === 'term' ? [f[1], f[3], f[5], f[7]] : ['total', '', '', f[1]];
    for (const c of cells) {
      const td = document.createElement('td');
      td.textContent = c;
      tr.appendChild(td);
    }
    $('eval').appendChild(tr);
  }
  $('moves-count').textContent = `(${st.moves.length})`;
  const ml = $('moves-list');
  ml.innerHTML = '';
  for (const [m, to] of st.moves.slice(0, 500)) {
    const sp = document.createElement('span');
    sp.textContent = m;
    sp.dataset.move = m;
    sp.dataset.to = to;
    sp.title = to;
    sp.addEventListener('click', () => {
      if (busy > 0 || rec) return;
      if (humanToMove()) { entry = null; playMove(m); }
    });
    ml.appendChild(sp);
  }
  $('diagram').textContent = st.d
    .filter((l) => !(hide && (l.startsWith("A's blind start") || l.startsWith('position '))))
    .join('\n');
  const h = $('history');
  h.innerHTML = '';
  const moves = rec ? rec.games[rec.gi].moves.slice(0, rec.ply) : game.moves;
  moves.forEach((m, i) => {
    const li = document.createElement('li');
    li.textContent = hide && i === moves.length - 1 ? '(blind)' : m;
    li.dataset.move = m;
    h.appendChild(li);
  });
  h.scrollTop = h.scrollHeight;
  if (!rec && humanToMove()) startEntry();
}

function scheduleNext() {
  clearTimeout(autoplayTimer);
  if (rec || !st || st.result !== 'none') return;
  const p = parsePos(st.position);
  if (settings()[p.side] === 'engine' && $('autoplay').checked) {
    autoplayTimer = setTimeout(() => { if (busy === 0) engineMove(); }, 50);
  }
}

async function engineMove(analyseOnly = false) {
  if (busy > 0 || !st || st.result !== 'none') return;
  setBusy(1);
  const g = game, r0 = rec;
  const s = settings();
  $('analysis').textContent = 'thinking...';
  $('pv').textContent = '';
  const blind = [];
  infoSink = (l) => showInfo(l, blind);
  let best = null;
  document.body.dataset.thinking = '1';
  try {
    const r = await req('go', { ...game, algorithm: s.algorithm, movetime: s.movetime });
    best = r.bestmove;
  } catch (e) {
    message('error', e.message);
  } finally {
    infoSink = null;
    document.body.dataset.thinking = '0';
    setBusy(-1);
  }
  // A new game, a set-up or a record replaced the game while the engine
  // thought (a new game stops the search, which still answers a move).
  if (game !== g || rec !== r0) return;
  if (blind.length) drawBlindChart(blind[blind.length - 1]);
  if (best && !analyseOnly) {
    if (best === '0000') return message('error', 'The engine found no move.');
    if (!st.moves.some(([m]) => m === best)) return message('error', `The engine answered ${best}, not a legal move here; not played.`);
    await playMove(best);
  } else if (best) {
    $('pv').textContent = `best ${best}; ` + $('pv').textContent;
  }
}

function showInfo(line, blind) {
  if (line.startsWith('info string blind choice')) {
    blind.push(line);
    return;
  }
  if (line.startsWith('info string')) return;
  const f = line.split(' ');
  const get = (k) => { const i = f.indexOf(k); return i < 0 ? null : f[i + 1]; };
  const depth = get('depth');
  if (!depth) return;
  const si = f.indexOf('score');
  let score = '';
  if (si >= 0) {
    const [kind, v] = [f[si + 1], f[si + 2]];
    if (kind === 'cp') score = `score ${(+v / 100).toFixed(2)} counters`;
    else if (kind === 'win') score = `solved: the mover wins in ${v} plies (exact)`;
    else if (kind === 'loss') score = `solved: the mover loses in ${v} plies (exact)`;
  }
  $('analysis').textContent = `depth ${depth} ${score} nodes ${get('nodes') || '-'} nps ${get('nps') || '-'}`;
  const pi = f.indexOf('pv');
  if (pi >= 0) $('pv').textContent = 'pv ' + f.slice(pi + 1).join(' ');
}

/** `info string blind choice X with probability P (strategy a:0.1 b:0.2 ...; value V for S)` */
function drawBlindChart(line) {
  const m = line.match(/choice (\S+) with probability (\S+) \(strategy ([^;]*); value (.*)\)/);
  const svg = $('blind-chart');
  svg.innerHTML = '';
  if (!m) return;
  const parts = m[3].trim().split(/\s+/).map((s) => s.split(':')).map(([k, v]) => [k, +v]);
  const W = 300, barH = 18;
  svg.setAttribute('viewBox', `0 0 ${W} ${parts.length * (barH + 4) + 40}`);
  const t = el('text', { x: 0, y: 14, class: 'chart-title' }, svg);
  t.textContent = `Blind start: equilibrium strategy; drew ${m[1]}`;
  svg.dataset.value = m[4];
  parts.forEach(([k, v], i) => {
    const y = 24 + i * (barH + 4);
    const lab = el('text', { x: 0, y: y + 13, class: 'bar-label' }, svg);
    lab.textContent = k;
    el('rect', { class: 'bar', x: 30, y, width: Math.max(1, v * (W - 90)), height: barH, 'data-start': k, 'data-p': v }, svg);
    const pv = el('text', { x: 36 + v * (W - 90), y: y + 13, class: 'bar-label' }, svg);
    pv.textContent = v.toFixed(3);
  });
}

async function newGame() {
  clearTimeout(autoplayTimer);
  if (busy > 0) await req('stop').catch(() => {});
  const s = settings();
  await busyDo(async () => {
    const r = await req('newgame', { variant: s.variant, columns: s.columns, opening: s.opening });
    rec = null;
    game = { start: r.start, moves: [] };
    entry = null;
    $('blind-chart').innerHTML = '';
    $('analysis').textContent = '';
    $('pv').textContent = '';
    message('', '');
    saveGame();
    await refresh();
  });
  scheduleNext();
}

async function setUp() {
  const s = $('fen-input').value;
  await busyDo(async () => {
    const r = await req('setup', { fen: s });
    rec = null;
    game = { start: r.start, moves: [] };
    entry = null;
    message('note', 'Position set up.');
    saveGame();
    await refresh();
  }, (m) => 'Position string refused: ' + m + ' (the game on the board is kept)');
  scheduleNext();
}

// ---------------------------------------------------------------- records

async function loadRecords(text) {
  await busyDo(async () => {
    const r = await req('records', { text });
    if (!r.games.length) throw new Error('no game in the file');
    rec = { games: r.games, gi: 0, ply: 0 };
    const sel = $('record-games');
    sel.innerHTML = '';
    r.games.forEach((g, i) => {
      const o = document.createElement('option');
      const tag = (k) => (g.tags.find(([n]) => n === k) || [null, '?'])[1];
      o.value = i;
      o.textContent = `${i + 1}: ${tag('A')} - ${tag('B')} ${g.result} (${tag('Variant')}, ${g.moves.length} plies)`;
      sel.appendChild(o);
    });
    message('note', `${r.games.length} games loaded; step through them with the arrows.`);
    await refresh();
  });
}

async function recStep(to) {
  if (!rec || busy > 0) return;
  const g = rec.games[rec.gi];
  to = Math.max(0, Math.min(g.moves.length, to));
  if (to === rec.ply + 1) {
    await busyDo(async () => {
      const before = st.position;
      const tr = await req('trace', { start: g.start, moves: g.moves.slice(0, rec.ply), move: g.moves[rec.ply] });
      rec.ply = to;
      await playFrames(framesOf(before, tr.trace));
    });
  }
  rec.ply = to;
  $('rec-ply').textContent = `${rec.ply}/${g.moves.length}`;
  await refresh();
}

async function saveRecord() {
  if (!game) return;
  await busyDo(async () => {
    const s = settings();
    const name = (side) => (s[side] === 'engine' ? `choro-${s.algorithm}` : 'human');
    const r = await req('record', { ...game, a: name('a'), b: name('b') });
    $('record-out').value = r.record;
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([r.record], { type: 'text/plain' }));
    a.download = 'choro-game.txt';
    a.click();
    message('note', 'Saved as choro-game.txt (choro replay checks it).');
  }, (m) => 'Not saved: ' + m);
}

// ---------------------------------------------------------------- wiring

function fillColumns() {
  const sel = $('columns');
  const v = $('variant').value;
  const keep = sel.value || '8';
  sel.innerHTML = '';
  const max = v === 'didinga' ? 16 : 8;
  for (let w = 8; w <= max; w++) {
    const o = document.createElement('option');
    o.value = w;
    o.textContent = `4x${w}`;
    sel.appendChild(o);
  }
  sel.value = +keep <= max ? keep : '8';
  sel.disabled = v !== 'didinga';
  $('opening').disabled = v === 'adjiboto';
}

function wire() {
  $('variant').addEventListener('change', fillColumns);
  $('new-game').addEventListener('click', newGame);
  $('flip').addEventListener('click', () => { flipped = !flipped; saveGame(); redraw(); });
  $('fen-set').addEventListener('click', setUp);
  $('copy-position').addEventListener('click', async () => {
    const text = $('position').dataset.position || '';
    try {
      await navigator.clipboard.writeText(text);
    } catch (_) {
      const p = $('position');
      p.value = text;
      p.select();
      document.execCommand('copy');
    }
    message('note', 'Position string copied.');
  });
  $('engine-move').addEventListener('click', () => engineMove(false));
  $('analyse').addEventListener('click', () => engineMove(true));
  $('stop').addEventListener('click', () => {
    $('autoplay').checked = false;
    clearTimeout(autoplayTimer);
    req('stop').catch(() => {});
  });
  $('takeback').addEventListener('click', async () => {
    if (busy > 0 || !game || !game.moves.length) return;
    $('autoplay').checked = false;
    game.moves.pop();
    entry = null;
    saveGame();
    await refresh();
  });
  $('autoplay').addEventListener('change', scheduleNext);
  for (const id of ['player-a', 'player-b']) $(id).addEventListener('change', () => { saveGame(); if (st) { renderInfo(); redraw(); } scheduleNext(); });
  $('anim-first').addEventListener('click', () => { anim.playing = false; anim.i = 0; showFrame(); });
  $('anim-last').addEventListener('click', () => { anim.i = anim.frames.length - 1; finishAnim(); });
  $('anim-back').addEventListener('click', () => { anim.playing = false; anim.i = Math.max(0, anim.i - 1); showFrame(); });
  $('anim-fwd').addEventListener('click', () => {
    anim.playing = false;
    anim.i = Math.min(anim.frames.length - 1, anim.i + 1);
    if (anim.i === anim.frames.length - 1) finishAnim(); else showFrame();
  });
  $('anim-play').addEventListener('click', () => {
    if (anim.playing) { anim.playing = false; clearTimeout(anim.timer); return; }
    if (anim.i >= anim.frames.length - 1) anim.i = 0;
    anim.playing = true;
    tick();
  });
  $('record-file').addEventListener('change', async (e) => {
    const f = e.target.files[0];
    if (f) loadRecords(await f.text());
  });
  $('record-games').addEventListener('change', () => { if (rec) { rec.gi = +$('record-games').value; rec.ply = 0; recStep(0); } });
  $('rec-first').addEventListener('click', () => recStep(0));
  $('rec-prev').addEventListener('click', () => rec && recStep(rec.ply - 1));
  $('rec-next').addEventListener('click', () => rec && recStep(rec.ply + 1));
  $('rec-last').addEventListener('click', () => rec && recStep(1e9));
  $('rec-play').addEventListener('click', async () => {
    if (!rec) return;
    const g = rec.games[rec.gi];
    game = { start: g.start, moves: g.moves.slice(0, rec.ply) };
    rec = null;
    saveGame();
    await refresh();
    scheduleNext();
  });
  $('save-record').addEventListener('click', saveRecord);
}

async function main() {
  wire();
  fillColumns();
  await connect();
  await busyDo(async () => {
    const r = await req('load_game');
    if (r.game && r.game.start) {
      const s = r.game.settings || {};
      for (const [id, k] of [['variant', 'variant'], ['opening', 'opening'], ['player-a', 'a'], ['player-b', 'b'], ['algorithm', 'algorithm'], ['movetime', 'movetime']]) {
        if (s[k] !== undefined) $(id).value = s[k];
      }
      fillColumns();
      if (s.columns) $('columns').value = s.columns;
      flipped = !!r.game.flipped;
      game = { start: r.game.start, moves: r.game.moves || [] };
      message('note', 'The game in progress was restored.');
      await refresh();
      $('autoplay').checked = false;
    } else {
      await newGame();
    }
  });
}

main();
