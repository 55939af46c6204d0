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

/**
 * The game on the board: its start position string, the moves from it,
 * `pos[k]` the position after k plies (filled as they become known) and
 * `by[k]` who made ply k (a person, or the engine with its settings).
 */
let game = null;
/** The engine's view of the position shown (`state` reply). */
let st = null;
let flipped = false;
let busy = 0;
/** The games of a loaded record file (the picker's entries). */
let records = null;
/** A record game being walked through: {games, gi, ply}. */
let rec = null;
/** The ply of the live game shown while walking back through it; null at its end. */
let view = null;
/** Move entry by clicks or keys: the prefix entered so far and the moves it allows. */
let entry = null;
let choiceSpot = null;
let autoplayTimer = null;
/** The hole the keyboard is on ({row, col}); the board's one tab stop besides the playable holes. */
let cursor = null;
/** Put the focus back on the board after the next drawing (a choice was made by key). */
let refocusBoard = false;

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
    // Each racer's holds (0..8): sent as typed, a whole number or the text,
    // so that the server's refusal of anything else is what is shown.
    holds: $('holds').disabled ? 0 : /^\s*\d+\s*$/.test($('holds').value) ? +$('holds').value : $('holds').value,
    a: $('player-a').value,
    b: $('player-b').value,
    algorithm: $('algorithm').value,
    movetime: Math.max(10, +$('movetime').value || 1000),
    autoplay: $('autoplay').checked,
  };
}

/** Who plays side `s` now, as a record names him. */
function playerName(s) {
  const o = settings();
  if (o[s] !== 'engine') return 'human';
  return `choro ${o.algorithm} ${o.movetime} ms`;
}

function newGameObject(start, moves = [], by = [], holds = 0) {
  return { start, moves, pos: [start], by, holds };
}

/** The holds of game `g` (RaceHolds, RULES.md 8.10): the engine is told them with every request. */
function holdsOf(g) {
  return (g && g.holds) || 0;
}

function saveGame() {
  if (!game) return;
  const g = { start: game.start, moves: game.moves, by: game.by, holds: holdsOf(game), settings: settings(), flipped };
  req('save_game', { game: g }).catch(() => {});
}

/** What is shown: the game (or record game), the ply shown, whether it is the live end of the game. */
function cur() {
  if (rec) return { g: rec.games[rec.gi], ply: rec.ply, live: false };
  if (!game) return null;
  return { g: game, ply: view === null ? game.moves.length : view, live: view === null };
}

/** The moves of what is shown up to the ply shown (for tests and the history). */
function shownMoves() {
  const c = cur();
  return c ? c.g.moves.slice(0, c.ply) : [];
}

// ---------------------------------------------------------------- position strings

/** The fields of a position string, as drawn: grid[row][col], stores, hands. */
function parsePos(s) {
  const f = s.trim().split(/\s+/);
  if (f[0] === 'adjiboto') {
    const [north, south] = f[1].split('/').map((r) => r.split(',').map(Number));
    // Row 0 is A's (south, west to east); row 1 is B's, drawn west to east too.
    return {
      adj: true, w: 5, side: f[2], phase: 'm', code: 'adjiboto',
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
  // A tick's choice (RULES.md 8.10): stage 0 of a race tick, `<tick>.0`.
  const stage = phase === 'r' ? f[4] : null;
  const tick = !!stage && stage.endsWith('.0');
  // `s2,holds=N`, `s1:<start>,holds=N`: each racer's holds before the race.
  const hm = (phase || '').match(/,holds=(\d+)/);
  return { adj: false, code, w, side: f[2], phase, grid, stores: [0, 0], hands, racers, stage, tick,
    blindHolds: hm ? +hm[1] : 0 };
}

/** A trace step's board: `<rows> <storeA>/<storeB>`. */
function frameGrid(rowsTok, storesTok, adj) {
  const rows = rowsTok.split('/').map((r) => r.split(',').map(Number));
  const grid = adj ? [rows[1], rows[0]] : [rows[3], rows[2], rows[1], rows[0]];
  return { grid, stores: storesTok.split('/').map(Number) };
}

// ---------------------------------------------------------------- names of holes, moves and choices

/**
 * A hole's name on this board, the one naming used everywhere on the page:
 * on 8-wide Choro boards Driberg's letters, A's upper case and B's lower
 * case; on wider boards and in Adjiboto the side and the number (A12, b12).
 */
function holeLabel(p, side, name) {
  if (!p.adj && p.w === 8) return side === 'a' ? name.toUpperCase() : name.toLowerCase();
  return side === 'a' ? `A${name}` : `B${name}`;
}

/** A move in the board's naming: every hole in a move is the mover's own. */
function moveLabel(p, side, mv) {
  return tokens(mv).map((t) => (t.hole ? t.kind.replace('lift', '') + holeLabel(p, side, t.hole) : t.text)).join('');
}

/** What a choice token does, in words, at a decision of kind `kind`. */
function choiceWords(kind, tok, p, side) {
  const words = {
    again: { '+': 'sow the capture clockwise again', '-': 'sow on by the Lango rule (counter-clockwise)' },
    relay: { '+': 'relay clockwise', '-': 'relay counter-clockwise' },
    attack: {
      '+': 'attack again, clockwise',
      '-': 'sow the capture counter-clockwise (the move proper)',
      '=': 'leave the capture in the origin hole and start anew',
    },
    tick: { '.': 'drop in this tick', '_': 'hold: let this tick pass without dropping' },
  }[kind] || { '+': 'take the clockwise way', '-': 'decline it (counter-clockwise)', '=': 'leave it and start anew' };
  if (tok.startsWith('=') && tok.length > 1) {
    return `leave the capture in the origin hole and start anew from ${holeLabel(p, side, tok.slice(1))}`;
  }
  return words[tok] || tok;
}

/** The words for ply `i` of game `g` (its position before is `before`, if known). */
function plyWords(g, i, before) {
  const mv = g.moves[i];
  if (!before) return `${mv}`;
  const p = parsePos(before);
  const S = p.side.toUpperCase();
  if (p.tick) return `${S}: tick ${p.stage.split('.')[0]}: ${choiceWords('tick', mv)} (${mv})`;
  if (p.phase === 'r' && p.racers) {
    const r = p.racers[p.side === 'a' ? 0 : 1];
    const at = r && r.at ? ` at ${holeLabel(p, p.side, r.at)}` : '';
    return `${S}: race decision${at}: ${choiceWords(r && r.decide, mv, p, p.side)} (${mv})`;
  }
  const blind = p.phase === 's2' || (p.phase || '').startsWith('s1') ? ' (blind start)' : '';
  return `${S}: ${moveLabel(p, p.side, mv)}${blind}`;
}

/** The phase of a position in words, from the engine's `d` (its code left out). */
function phaseWords(d) {
  const line = (d.find((l) => l.startsWith('phase ')) || '').slice(6);
  const m = line.match(/^\S+ \((.*)\)$/);
  // Adjiboto's phases are words already: `opening (...)`, `main`.
  return m && !line.startsWith('opening') ? m[1] : line;
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
    const n = String(r === 0 ? c + 1 : 5 - c);
    return { name: n, label: holeLabel(p, owner(p, r), n) };
  }
  const w = p.w;
  let lp;
  if (r === 0) lp = c;
  else if (r === 1) lp = 2 * w - 1 - c;
  else if (r === 2) lp = w + c;
  else lp = w - 1 - c;
  const n = ((lp + w + 2) % (2 * w)) + 1;
  const name = w === 8 ? String.fromCharCode(96 + n) : String(n);
  return { name, label: holeLabel(p, owner(p, r), name) };
}

/** The turning base of each player: i, j, k, l, his four left-hand holes. */
function isBase(p, r, c) {
  if (p.adj) return false;
  const w = p.w;
  return (r <= 1 && c <= 1) || (r >= 2 && c >= w - 2);
}

const X0 = 30;
const HOLE_R = 30;

/** Column and row of a hole on the screen (0 = west, 0 = top). */
function screenXY(p, r, c) {
  const nrows = p.adj ? 2 : 4;
  return { xi: flipped ? p.w - 1 - c : c, yi: flipped ? r : nrows - 1 - r };
}

function holeXY(p, r, c) {
  const { xi, yi } = screenXY(p, r, c);
  const x0 = p.adj ? X0 + 90 : X0;
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
  const hadFocus = svg.contains(document.activeElement) || refocusBoard;
  refocusBoard = false;
  svg.innerHTML = '';
  const nrows = p.adj ? 2 : 4;
  const width = p.adj ? X0 + 90 + 5 * CELL + 100 : X0 + p.w * CELL + 12;
  const height = 34 + nrows * CELL + (p.adj ? 0 : 18) + 34;
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  const x0 = p.adj ? X0 + 90 : X0;
  el('rect', { class: 'wood', x: x0 - 8, y: 26, width: p.w * CELL + 16,
    height: nrows * CELL + (p.adj ? 0 : 18) + 16, rx: 18 }, svg);
  // Row names, Driberg's layout: B north, A south (turned when flipped).
  for (let r = 0; r < nrows; r++) {
    const { y } = holeXY(p, r, 0);
    const t = el('text', { class: 'rowname', x: p.adj ? X0 + 66 : 13, y: y + 4, 'aria-hidden': 'true' }, svg);
    t.textContent = p.adj ? (r === 0 ? 'A' : 'B') : (r <= 1 ? 'A' : 'B') + r;
  }
  if (!p.adj) {
    // The turning bases: a dashed frame round each player's four left-hand holes.
    for (const [r0, c0] of [[0, 0], [2, p.w - 2]]) {
      const a = holeXY(p, r0, c0);
      const b = holeXY(p, r0 + 1, c0 + 1);
      const x = Math.min(a.x, b.x) - CELL / 2 + 2;
      const y = Math.min(a.y, b.y) - CELL / 2 + 2;
      el('rect', { class: 'base-mark', x, y, width: 2 * CELL - 4, height: 2 * CELL - 4, rx: 10 }, svg);
    }
  }
  const movable = new Set();
  if (humanToMove() && st && !entryWaitsForChoice()) {
    const n = entry ? tokens(entry.prefix).length : 0;
    for (const mv of entry ? entry.cands : st.moves.map(([m]) => m)) {
      const t = tokens(mv)[n];
      if (t && t.hole) movable.add(t.hole);
    }
  }
  const cells = [];
  for (let r = 0; r < nrows; r++) {
    for (let c = 0; c < p.w; c++) {
      const n = g.grid[r][c];
      const { x, y } = holeXY(p, r, c);
      const { name, label } = holeName(p, r, c);
      const side = owner(p, r);
      const cls = ['hole'];
      const canPlay = side === p.side && movable.has(name);
      const words = [`${side.toUpperCase()}'s hole ${label}, ${n} counter${n === 1 ? '' : 's'}`];
      if (canPlay) { cls.push('movable', 'clickable'); words.push('playable'); }
      if (hot && hot.row === r && hot.col === c) { cls.push('hot'); words.push('the step shown'); }
      if (choiceSpot && choiceSpot.row === r && choiceSpot.col === c) { cls.push('target'); words.push('the choice comes here'); }
      const base = isBase(p, r, c) && (p.code !== 'acholi' || ['i', 'k'].includes(name));
      if (base) { cls.push('base'); words.push('turning base'); }
      const gEl = el('g', {
        class: cls.join(' '), 'data-row': r, 'data-col': c, 'data-count': n,
        'data-side': side, 'data-hole': name, role: 'button', 'aria-label': words.join(', '),
        'aria-disabled': canPlay ? 'false' : 'true', tabindex: canPlay ? '0' : '-1',
      }, svg);
      el('circle', { class: 'pit', cx: x, cy: y, r: HOLE_R }, gEl);
      drawCounters(gEl, x, y, n);
      const ct = el('text', { class: 'count', x, y, 'aria-hidden': 'true' }, gEl);
      ct.textContent = n;
      const lt = el('text', { class: 'label', x, y: y + HOLE_R - 8, 'aria-hidden': 'true' }, gEl);
      lt.textContent = label;
      el('circle', { class: 'focus-ring', cx: x, cy: y, r: HOLE_R + 3 }, gEl);
      if (hot && hot.row === r && hot.col === c) {
        // A pointer at the hole of the step shown, on the side away from the other rows.
        const up = (owner(p, r) === 'b') !== flipped;
        const ty = up ? y - HOLE_R - 1 : y + HOLE_R + 1;
        const d = up ? -9 : 9;
        el('path', { class: 'pointer', d: `M ${x - 7} ${ty + d} L ${x + 7} ${ty + d} L ${x} ${ty} Z` }, gEl);
      }
      gEl.addEventListener('click', () => { cursor = { row: r, col: c }; holeClicked(r, c); });
      gEl.addEventListener('focus', () => { cursor = { row: r, col: c }; });
      cells.push(gEl);
    }
  }
  // The keyboard's hole: the cursor if set, else the first playable hole, else A's first.
  if (!cursor || cursor.row >= nrows || cursor.col >= p.w) {
    const first = cells.find((e) => e.classList.contains('movable')) || cells[0];
    cursor = { row: +first.dataset.row, col: +first.dataset.col };
  }
  const ce = cells.find((e) => +e.dataset.row === cursor.row && +e.dataset.col === cursor.col);
  ce.setAttribute('tabindex', '0');
  if (p.adj) {
    // Stores: each player's to his right; B's west, A's east.
    for (const [i, west] of [[1, true], [0, false]]) {
      const ya = holeXY(p, 1, 0).y;
      const yb = holeXY(p, 0, 0).y;
      const top = Math.min(ya, yb) - CELL / 2 + 4;
      const left = (west !== flipped) ? X0 - 20 : X0 + 90 + 5 * CELL + 20;
      const gEl = el('g', { class: 'store', 'data-store': i === 0 ? 'a' : 'b', 'data-count': g.stores[i],
        role: 'img', 'aria-label': `${i === 0 ? 'A' : 'B'}'s store, ${g.stores[i]} counters` }, svg);
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
      const sd = i ? 'b' : 'a';
      const t = el('text', { class: 'hand', x: X0, y: south ? height - 8 : 18, 'data-hand': sd }, svg);
      const r = p.racers[i];
      const h = (k) => holeLabel(p, sd, r[k]);
      const hl = holdsLeft(p)[i];
      t.textContent = `${sd.toUpperCase()}: ` + (r.done ? 'done'
        : `hand ${r.hand || 0}` + (r.decide ? `, to decide at ${h('at')}` : `, next drop ${h('next')}`)
          + (hl !== null && holdsOf(cur() && cur().g) > 0 ? `, holds left ${hl}` : ''));
    }
  }
  if (hadFocus) ce.focus({ preventScroll: true });
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

/** The choices of a half-entered move, as buttons under the board (never over a hole). */
function drawChoices() {
  const box = $('choices');
  const hadFocus = box.contains(document.activeElement) || $('board').contains(document.activeElement);
  const focusedTok = box.contains(document.activeElement) ? document.activeElement.dataset.token : null;
  box.innerHTML = '';
  if (!entry || !entry.options) return;
  const armable = entry.kind === 'tick' && tickMs() !== null;
  for (const o of entry.options) {
    const b = document.createElement('button');
    b.dataset.token = o.token;
    b.textContent = o.text;
    // In a running race a tick's choice waits for the tick's start.
    if (armable) b.setAttribute('aria-pressed', String((o.token === '_') === tickState.armed));
    b.addEventListener('click', () => {
      if (entry && entry.kind === 'tick' && tickMs() !== null) return armTick(o.token === '_');
      refocusBoard = box.contains(document.activeElement);
      chooseToken(o.token);
    });
    box.appendChild(b);
  }
  if (hadFocus) ([...box.children].find((b) => b.dataset.token === focusedTok) || box.firstChild).focus();
}

// ---------------------------------------------------------------- moves by clicks and keys

/** The tokens of a move string: starts carry their hole name. */
function tokens(mv) {
  const out = [];
  const re = /([~x]?)([a-p]|\d+)|([+\-=._])/g;
  let m;
  while ((m = re.exec(mv)) !== null) {
    if (m[3]) out.push({ text: m[3], kind: m[3] });
    else out.push({ text: m[1] + m[2], kind: m[1] || 'lift', hole: m[2] });
  }
  return out;
}

function humanToMove() {
  if (!st || !game || rec || view !== null || st.result !== 'none') return false;
  const p = parsePos(st.position);
  return settings()[p.side] === 'human';
}

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

/** A choice (not a hole) is what the move waits for. */
function entryWaitsForChoice() {
  return entry && entry.options && entry.options.length > 0 && !entry.holesOnly;
}

function startEntry() {
  entry = { prefix: '', cands: st.moves.map(([m]) => m), options: null, kind: null };
  choiceSpot = null;
  const p = parsePos(st.position);
  // A race decision is a lone choice: offer it at once, at the racer's hole.
  if (p.racers && p.phase === 'r') {
    const r = p.racers[p.side === 'a' ? 0 : 1];
    choiceSpot = r && r.at ? findHole(p, p.side, r.at) : null;
    entry.kind = p.tick ? 'tick' : r && r.decide;
    offer(nextOptions('', entry.cands));
  }
}

function cancelEntry() {
  if (!entry || (!entry.prefix && !entry.holesOnly && !(entry.options && entry.options.some((o) => o.token.match(/^[~x]?[a-p0-9]/))))) return;
  if (!humanToMove()) return;
  entry = null;
  startEntry();
  refocusBoard = true;
  message('note', 'Move cancelled: choose its start again.');
  redraw();
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
  const p = parsePos(st.position);
  const L = (t) => holeLabel(p, p.side, t.hole);
  const texts = {
    lift: (t) => `${L(t)}: sow counter-clockwise`,
    '~': (t) => (p.code === 'acholi' ? `${L(t)}: attack clockwise` : `${L(t)}: sow clockwise`),
    x: (t) => `${L(t)}: capture at the front (start capture)`,
  };
  entry.options = opts.map((t) => ({
    token: t.text,
    text: t.hole ? texts[t.kind](t) : `${choiceWords(entry.kind, t.text, p, p.side)} (${t.text})`,
  }));
  entry.holesOnly = false;
  redraw();
}

async function holeClicked(r, c) {
  if (rec) return message('error', 'Walking a record: "Play on from here" to play from the ply shown.');
  if (view !== null) return message('error', 'An earlier ply is shown: End (or the last move in the list) returns to the game.');
  if (busy > 0 || !st) return;
  if (!humanToMove()) return message('error', st.result !== 'none' ? 'The game is over.' : 'Not your turn: the engine is to move.');
  if (!entry) startEntry();
  const p = parsePos(st.position);
  const side = owner(p, r);
  const { name, label } = holeName(p, r, c);
  const n = tokens(entry.prefix).length;
  const opts = nextOptions(entry.prefix, entry.cands).filter((t) => t.hole);
  if (opts.length === 0) {
    return message('error', 'Choose one of the options offered under the board.');
  }
  if (side !== p.side) return message('error', `That hole is ${side.toUpperCase()}'s; ${p.side.toUpperCase()} is to move.`);
  const here = opts.filter((t) => t.hole === name);
  if (here.length === 0) {
    const cnt = st.position ? parsePos(st.position).grid[r][c] : 0;
    return message('error', cnt < 2 && n === 0
      ? `Hole ${label} holds ${cnt}: a move starts from a hole with 2 or more.`
      : `No legal move starts at hole ${label} here.`);
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
  entry = { prefix, cands, options: null, kind: entry.kind };
  if (cands.includes(prefix)) {
    entry = null;
    choiceSpot = null;
    return playMove(prefix);
  }
  const opts = nextOptions(prefix, cands);
  if (opts.every((t) => t.hole)) {
    entry.holesOnly = true;
    const p = parsePos(st.position);
    message('note', `Left there: choose the hole to start anew from (${opts.map((t) => holeLabel(p, p.side, t.hole)).join(', ')}); Esc cancels.`);
    refocusBoard = true;
    redraw();
    return;
  }
  // Show where the choice comes: the trace of two ways on, up to where they part.
  await busyDo(async () => {
    const ways = opts.map((o) => cands.find((m) => tokenPrefix(m, prefix + o.text)));
    const traces = await Promise.all(ways.map((m) => req('trace', { start: game.start, moves: game.moves, holds: holdsOf(game), move: m })));
    const lines = traces.map((t) => t.trace);
    let k = 0;
    while (lines.every((l) => k < l.length && l[k] === lines[0][k])) k++;
    const common = lines[0].slice(0, k);
    const lastDrop = [...common].reverse().find((l) => l.startsWith('trace drop'));
    if (lastDrop) {
      const f = lastDrop.split(' ');
      choiceSpot = { row: +f[4], col: +f[5] };
    }
    // What the choice is: after a capture, whether to sow it clockwise
    // again; otherwise a relay's way; Acholi's attacks have a third way.
    const lastStep = [...common].reverse().find((l) => /^trace (capture|drop|put)/.test(l));
    if (opts.some((o) => o.text === '=')) entry.kind = 'attack';
    else entry.kind = lastStep && !lastStep.startsWith('trace drop') ? 'again' : 'relay';
    anim.frames = framesOf(st.position, common, false);
    anim.forPos = null;
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

/** Arrow keys across the board, Enter or Space to play a hole, Esc to cancel. */
function boardKey(e) {
  const g = e.target.closest && e.target.closest('g.hole');
  if (!g || !st) return;
  const p = parsePos(st.position);
  const r = +g.dataset.row, c = +g.dataset.col;
  const d = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
  if (d) {
    e.preventDefault();
    e.stopPropagation();
    const { xi, yi } = screenXY(p, r, c);
    const [nx, ny] = [xi + d[0], yi + d[1]];
    const t = [...$('board').querySelectorAll('g.hole')].find((h) => {
      const s = screenXY(p, +h.dataset.row, +h.dataset.col);
      return s.xi === nx && s.yi === ny;
    });
    if (t) {
      for (const h of $('board').querySelectorAll('g.hole')) {
        if (!h.classList.contains('movable')) h.setAttribute('tabindex', '-1');
      }
      t.setAttribute('tabindex', '0');
      cursor = { row: +t.dataset.row, col: +t.dataset.col };
      t.focus();
    }
  } else if (e.key === 'Enter' || e.key === ' ') {
    e.preventDefault();
    e.stopPropagation();
    refocusBoard = true;
    cursor = { row: r, col: c };
    holeClicked(r, c);
  }
}

// ---------------------------------------------------------------- animation

const anim = { frames: [], i: 0, playing: false, resolve: null, timer: null, forPos: null };

/** The position a trace ends in. */
function traceEnd(lines) {
  const l = lines.find((x) => x.startsWith('trace end '));
  return l ? l.slice(10) : null;
}

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
    const S = side.toUpperCase();
    const H = holeLabel(p, side, hole);
    const what = {
      lift: `${S} lifts ${n} from ${H}`,
      capture: `captures ${n} from ${S}'s ${H}`,
      put: `puts ${n} into ${H}`,
      drop: `${S} drops into ${H} (now ${n})`,
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
  if (!f) drawBoard(p, p, null);
  else drawBoard(p, f, f.hot);
  drawChoices();
  $('anim-caption').textContent = f ? `${anim.i}/${anim.frames.length - 1} ${f.caption}` : '';
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
    const g = game;
    const before = st.position;
    const side = parsePos(before).side;
    const tr = await req('trace', { start: g.start, moves: g.moves, holds: holdsOf(g), move: mv });
    // A new game, a set-up, a record or a take-back came while the trace
    // was asked for: the move was for the game they replaced.
    if (game !== g || rec || view !== null) return;
    game.pos.length = game.moves.length + 1;
    game.pos[game.moves.length] = before;
    game.moves.push(mv);
    game.by.push(playerName(side));
    entry = null;
    choiceSpot = null;
    saveGame();
    anim.forPos = traceEnd(tr.trace);
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
    const c = cur();
    const moves = c.g.moves.slice(0, c.ply);
    const s = await req('state', { start: c.g.start, moves, holds: holdsOf(c.g) });
    // A later refresh (a new game, a set-up, a record, a move) was asked
    // for while this one was answered: its reply is the board to show.
    if (mine !== refreshes) return;
    st = s;
    c.g.pos = c.g.pos || [c.g.start];
    c.g.pos[c.ply] = st.position;
    if (!anim.playing) {
      // The frames of the move that led here stay, to be stepped through again.
      if (anim.forPos !== st.position || !anim.frames.length) {
        const p = parsePos(st.position);
        anim.frames = [{ grid: p.grid, stores: p.stores, caption: 'position', hot: null }];
        anim.forPos = null;
      }
      anim.i = anim.frames.length - 1;
    }
    entry = null;
    choiceSpot = null;
    renderInfo();
    if (!anim.playing) showFrame();
  });
}

function redraw() {
  if (!st) return;
  showFrame();
}

/**
 * B (a person) to choose while A's choice of the same moment is made and
 * may not be shown: A's blind start, before B's (RULES.md 8.9), or A's
 * choice of a tick, before B's of that tick (8.10). Nothing may show A's.
 */
function secret() {
  if (!st || rec || !game || view !== null) return false;
  const p = parsePos(st.position);
  if (settings().b !== 'human') return false;
  return (p.phase || '').startsWith('s1') || aChoseThisTick(p);
}

/** B's tick choice, A having chosen in the same tick (he had a hold left before it). */
function aChoseThisTick(p) {
  if (!p.tick || p.side !== 'b' || !p.racers) return false;
  const a = p.racers[0];
  return !a.done && (+(a.holds || 0) > 0 || a.held === '1');
}

function hiddenWords() {
  const p = parsePos(st.position);
  return p.tick ? '(hidden: A has made his choice of this tick, B has not chosen yet)'
    : '(hidden: A has chosen his start blind, B has not chosen yet)';
}

/**
 * Each racer's holds left, as may be shown: at B's tick choice while A's
 * choice is secret, A's as they were before it (a hold spent shows
 * nothing). `null` for a racer with none to speak of (done, or no race).
 */
function holdsLeft(p) {
  if (!p.racers) return [null, null];
  return p.racers.map((r, i) => {
    if (r.done) return null;
    const held = r.held === '1' ? 1 : 0;
    return +(r.holds || 0) + (i === 0 && held && secret() ? 1 : 0);
  });
}

// ---------------------------------------------------------------- the race's holds

/**
 * A person's choice of a tick (RULES.md 8.10). At the slowest speed the
 * race waits for it; at any other speed the tick starts after `tickMs()`
 * and the choice made by then (Hold, H, the buttons) is played, a drop if
 * none: so the board's pace says nothing of it.
 */
const tickState = { armed: false, ply: -1 };

/** The time a person has for a tick's choice at the speed chosen; null when the race waits. */
function tickMs() {
  const v = +$('speed').value;
  if (v <= 0) return null;
  return Math.round(400 + 3600 * Math.pow(1 - v / 100, 2));
}

/** A person's tick choice is due on the live board. */
function tickDue() {
  return humanToMove() && parsePos(st.position).tick;
}

/** Start the time of the tick's choice now due (a new tick's: nothing chosen yet). */
function startTick() {
  if (tickState.ply !== game.moves.length) tickState.armed = false;
  tickState.ply = game.moves.length;
  renderRace();
  const ms = tickMs();
  if (ms === null) return;
  const g = game;
  const fire = () => {
    if (game !== g || !tickDue() || tickState.ply !== g.moves.length) return;
    if (busy > 0) { autoplayTimer = setTimeout(fire, 100); return; }
    const mv = tickState.armed ? '_' : '.';
    tickState.armed = false;
    playMove(mv);
  };
  autoplayTimer = setTimeout(fire, ms);
}

function armTick(hold) {
  tickState.armed = hold;
  refocusBoard = false;
  renderRace();
  drawChoices();
}

/** Hold (the button, key H): a hold in the coming tick, or why there is none to take. */
function hold() {
  const c = cur();
  const p = st ? parsePos(st.position) : null;
  if (!c || !p) return;
  if (holdsOf(c.g) === 0) return message('error', 'No hold: this game has none (Holds, at New game).');
  if (!tickDue()) {
    const me = p.racers && humanToMove() ? holdsLeft(p)[p.side === 'a' ? 0 : 1] : null;
    if (me === 0) return message('error', `No hold left: ${p.side.toUpperCase()} has used his.`);
    return message('error', 'No hold to take now: a hold is chosen at the start of a tick of the race, by a person to move.');
  }
  if (tickMs() === null) {
    if (busy > 0) return;
    clearTimeout(autoplayTimer);
    return playMove('_');
  }
  armTick(!tickState.armed);
}

/** The Hold button, the holds left and what is due, for eyes and for screen readers. */
function renderRace() {
  const box = $('race');
  const c = cur();
  const p = st ? parsePos(st.position) : null;
  const on = !!(c && p && !p.adj && holdsOf(c.g) > 0 && /^(s|r)/.test(p.phase || ''));
  box.hidden = !on;
  const b = $('hold');
  const due = on && tickDue();
  b.disabled = !due;
  b.setAttribute('aria-pressed', String(due && tickMs() !== null && tickState.armed));
  if (!on) { $('holds-left').textContent = ''; return; }
  let t;
  if (p.racers) {
    const [a, bh] = holdsLeft(p);
    t = `Holds left: A ${a === null ? '-' : a}, B ${bh === null ? '-' : bh}.`;
  } else t = `Holds: each racer ${p.blindHolds}.`;
  if (due) {
    t += tickMs() === null ? ' Your tick: drop, or Hold (H).'
      : tickState.armed ? ' You hold in this tick (Hold again to drop).' : ' Your tick: you drop unless you Hold (H) before it starts.';
  }
  $('holds-left').textContent = t;
}

/** What tick ply `k` of game `g` ended, in words: who held, who dropped. */
function tickOutcome(g, k) {
  if (!g.pos || k < 1 || !g.pos[k - 1]) return null;
  const before = parsePos(g.pos[k - 1]);
  if (!before.tick) return null;
  const after = g.pos[k] ? parsePos(g.pos[k]) : null;
  // A's choice with B still to choose: the tick has not run.
  if (after && after.tick && after.side === 'b' && after.stage === before.stage) return null;
  const mv = g.moves[k - 1];
  const aHeld = before.side === 'a' ? mv === '_' : before.racers[0].held === '1';
  const bHeld = before.side === 'b' && mv === '_';
  const w = (held) => (held ? 'held' : 'dropped');
  return `Tick ${before.stage.split('.')[0]}: A ${w(aHeld)}, B ${w(bHeld)}.`;
}

function renderInfo() {
  const p = parsePos(st.position);
  const c = cur();
  const pos = $('position');
  const hide = secret();
  pos.value = hide ? hiddenWords() : st.position;
  const over = st.d.find((l) => l.startsWith('game over'));
  let s;
  if (over) s = over.replace('game over: ', 'Game over: ');
  else {
    const who = settings()[p.side] === 'engine' ? 'the engine' : 'a person';
    s = `${p.side.toUpperCase()} to move (${who}) - ${phaseWords(st.d)}`;
    if (c.live && settings()[p.side] === 'engine' && !$('autoplay').checked) {
      s += ' - the engine is paused: "Engine, move now" or tick "engines play on"';
    }
  }
  if (holdsOf(c.g) > 0 && p.racers) {
    // Each tick's outcome and the holds left, said in the live status.
    const out = tickOutcome(c.g, c.ply);
    const [a, b] = holdsLeft(p);
    if (out) s = `${out} ${s}`;
    if (!over) s += ` - holds left: A ${a === null ? '-' : a}, B ${b === null ? '-' : b}`;
  }
  if (rec) s = `Record game ${rec.gi + 1}, ply ${rec.ply} of ${c.g.moves.length} - ` + s;
  else if (view !== null) s = `Ply ${view} of ${game.moves.length} shown (End returns to the game) - ` + s;
  $('status').textContent = s;
  document.body.dataset.result = st.result;
  document.body.dataset.human = humanToMove() ? '1' : '0';
  document.body.dataset.mode = rec ? 'record' : 'game';
  document.body.dataset.start = c.g.start;
  document.body.dataset.ply = c.ply;
  renderEval(p);
  $('moves-count').textContent = `(${st.moves.length})`;
  const ml = $('moves-list');
  ml.innerHTML = '';
  for (const [m, to] of st.moves.slice(0, 500)) {
    const b = document.createElement('button');
    b.textContent = moveLabel(p, p.side, m);
    b.dataset.move = m;
    // The position after B's blind start shows the race, which A's start
    // decides: not shown while it is secret.
    if (!hide) {
      b.dataset.to = to;
      b.title = `leads to ${to}`;
    }
    b.addEventListener('click', () => {
      if (busy > 0 || !humanToMove()) return;
      entry = null;
      playMove(m);
    });
    ml.appendChild(b);
  }
  $('diagram').textContent = st.d
    .filter((l) => !(hide && (l.startsWith("A's blind start") || l.startsWith('position ') || l.startsWith('racer A:'))))
    .join('\n');
  renderHistory(hide);
  $('nav-ply').textContent = `ply ${c.ply} of ${c.g.moves.length}`;
  if (humanToMove()) startEntry();
  renderRace();
}

function renderEval(p) {
  const t = $('eval');
  t.innerHTML = '';
  const S = p.side.toUpperCase(), O = p.side === 'a' ? 'B' : 'A';
  const cap = document.createElement('caption');
  cap.textContent = `Static evaluation for ${S}, the side to move; scores in counters.`;
  t.appendChild(cap);
  const head = document.createElement('tr');
  for (const h of ['term', `${S} (to move)`, O, 'score (counters)']) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = h;
    head.appendChild(th);
  }
  t.appendChild(head);
  for (const l of st.eval) {
    const f = l.split(' ');
    const cells = f[0] === 'term' ? [f[1], f[3], f[5], (+f[7] / 100).toFixed(2)] : ['total', '', '', (+f[1] / 100).toFixed(2)];
    const tr = document.createElement('tr');
    cells.forEach((x, i) => {
      const td = document.createElement(i === 0 ? 'th' : 'td');
      if (i === 0) td.scope = 'row';
      td.textContent = x;
      tr.appendChild(td);
    });
    t.appendChild(tr);
  }
}

function renderHistory(hide) {
  const c = cur();
  const h = $('history');
  h.innerHTML = '';
  const g = c.g;
  g.moves.forEach((m, i) => {
    const li = document.createElement('li');
    const b = document.createElement('button');
    const secretPly = hide && i === g.moves.length - 1;
    b.textContent = !secretPly ? plyWords(g, i, g.pos && g.pos[i])
      : parsePos(st.position).tick ? 'A: tick choice (hidden)' : 'A: (blind start, hidden)';
    if (!secretPly) li.dataset.move = m;
    li.dataset.ply = i + 1;
    if (i + 1 === c.ply) { li.classList.add('current'); b.setAttribute('aria-current', 'step'); }
    b.addEventListener('click', () => goTo(i + 1, true));
    li.appendChild(b);
    h.appendChild(li);
  });
  const curLi = h.querySelector('li.current');
  if (curLi) h.scrollTop = Math.max(0, curLi.offsetTop - h.offsetTop - h.clientHeight / 2);
  else if (c.ply === 0) h.scrollTop = 0;
}

/** The position after `k` plies of game `g` (asked of the engine if not known yet). */
async function positionAt(g, k) {
  g.pos = g.pos || [g.start];
  if (!g.pos[k]) {
    const s = await req('state', { start: g.start, moves: g.moves.slice(0, k), holds: holdsOf(g) });
    g.pos[k] = s.position;
  }
  return g.pos[k];
}

/** Every position of game `g`, so that the history can name the side of each ply. */
async function fillPositions(g) {
  for (let k = 0; k < g.moves.length; k++) await positionAt(g, k);
}

/**
 * Show ply `k` of what is shown (the game or the record game): the
 * position after it, with that move's steps to step through; `play` shows
 * them drop by drop.
 */
async function goTo(k, play) {
  const c = cur();
  if (!c || busy > 0) return;
  const g = c.g;
  k = Math.max(0, Math.min(g.moves.length, k));
  clearTimeout(autoplayTimer);
  await busyDo(async () => {
    if (rec) rec.ply = k;
    else view = k === g.moves.length ? null : k;
    entry = null;
    choiceSpot = null;
    if (k >= 1) {
      const before = await positionAt(g, k - 1);
      const tr = await req('trace', { start: g.start, moves: g.moves.slice(0, k - 1), holds: holdsOf(g), move: g.moves[k - 1] });
      const frames = framesOf(before, tr.trace);
      anim.forPos = traceEnd(tr.trace);
      if (play) await playFrames(frames);
      else { anim.frames = frames; anim.i = frames.length - 1; }
    } else {
      anim.frames = [];
      anim.forPos = null;
    }
    await refresh();
  });
  scheduleNext();
}

function scheduleNext() {
  clearTimeout(autoplayTimer);
  if (rec || view !== null || !st || st.result !== 'none') return;
  const p = parsePos(st.position);
  if (settings()[p.side] === 'engine' && $('autoplay').checked) {
    autoplayTimer = setTimeout(() => { if (busy === 0) engineMove(); }, 50);
  } else if (tickDue()) startTick();
}

async function engineMove(analyseOnly = false) {
  if (busy > 0 || !st || st.result !== 'none' || rec || view !== null) return;
  setBusy(1);
  const g = game;
  const s = settings();
  const pp = parsePos(st.position);
  const mover = pp.side.toUpperCase();
  // A's blind start or tick choice, B a person: what A's search says
  // would tell B what A chose.
  const unseen = pp.side === 'a' && s.b === 'human' && ((pp.phase || '').startsWith('s2') || pp.tick);
  $('analysis').textContent = unseen ? "A's search is not shown: B chooses without seeing A's choice" : 'thinking...';
  $('pv').textContent = '';
  const blind = [];
  infoSink = unseen ? null : (l) => showInfo(l, blind, mover);
  let best = null;
  document.body.dataset.thinking = '1';
  try {
    const r = await req('go', { start: game.start, moves: game.moves, holds: holdsOf(game), algorithm: s.algorithm, movetime: s.movetime });
    best = r.bestmove;
  } catch (e) {
    message('error', e.message);
  } finally {
    infoSink = null;
    document.body.dataset.thinking = '0';
    setBusy(-1);
  }
  // A new game, a set-up, a record or a take-back replaced the game while
  // the engine thought (they stop the search, which still answers a move).
  if (game !== g || rec || view !== null) return;
  if (blind.length) drawBlindChart(blind[blind.length - 1]);
  if (best && !analyseOnly) {
    if (best === '0000') return message('error', 'The engine found no move.');
    if (!st.moves.some(([m]) => m === best)) return message('error', `The engine answered ${best}, not a legal move here; not played.`);
    await playMove(best);
  } else if (best && !unseen) {
    const p = parsePos(st.position);
    $('pv').textContent = `best ${moveLabel(p, p.side, best)}; ` + $('pv').textContent;
  }
}

function showInfo(line, blind, mover) {
  if (line.startsWith('info string blind choice') || line.startsWith('info string tick choice')) {
    blind.push(line);
    return;
  }
  if (line.startsWith('info string')) return;
  const f = line.split(' ');
  const get = (k) => { const i = f.indexOf(k); return i < 0 ? null : f[i + 1]; };
  const depth = get('depth');
  if (!depth) return;
  const si = f.indexOf('score');
  const other = mover === 'A' ? 'B' : 'A';
  let score = '';
  if (si >= 0) {
    const [kind, v] = [f[si + 1], f[si + 2]];
    const plies = `${v} ${+v === 1 ? 'ply' : 'plies'}`;
    if (kind === 'cp') score = `, score ${(+v / 100).toFixed(2)} counters for ${mover}`;
    else if (kind === 'win') score = `, solved: ${mover} (to move) wins in ${plies}`;
    else if (kind === 'loss') score = `, solved: ${other} wins in ${plies} (${mover} to move loses)`;
  }
  $('analysis').textContent = `depth ${depth}${score}; nodes ${get('nodes') || '-'}, ${get('nps') || '-'} nodes a second`;
  const pi = f.indexOf('pv');
  if (pi >= 0) $('pv').textContent = 'principal variation (engine notation): ' + f.slice(pi + 1).join(' ');
}

/**
 * `info string blind choice X with probability P (strategy a:0.1 b:0.2 ...; value V for S)`,
 * or `info string tick choice ...`, a tick's drop or hold drawn the same way (RULES.md 8.10).
 */
function drawBlindChart(line) {
  const m = line.match(/choice (\S+) with probability (\S+) \(strategy ([^;]*); value (.*)\)/);
  const svg = $('blind-chart');
  svg.innerHTML = '';
  if (!m) return;
  const p = parsePos(st.position);
  const parts = m[3].trim().split(/\s+/).map((s) => s.split(':')).map(([k, v]) => [k, +v]);
  const W = 300, barH = 18;
  svg.setAttribute('viewBox', `0 0 ${W} ${parts.length * (barH + 4) + 40}`);
  const t = el('text', { x: 0, y: 14, class: 'chart-title' }, svg);
  const L = (k) => moveLabel(p, p.side, k);
  const what = line.startsWith('info string tick')
    ? `Tick ${p.stage ? p.stage.split('.')[0] : ''} choice of ${p.side.toUpperCase()} (. drop, _ hold)`
    : `Blind start of ${p.side.toUpperCase()}`;
  t.textContent = `${what}: equilibrium strategy (probabilities); drew ${L(m[1])}`;
  svg.setAttribute('aria-label', `The engine's strategy: ${t.textContent}`);
  svg.dataset.value = m[4];
  parts.forEach(([k, v], i) => {
    const y = 24 + i * (barH + 4);
    const lab = el('text', { x: 0, y: y + 13, class: 'bar-label' }, svg);
    lab.textContent = L(k);
    el('rect', { class: 'bar', x: 30, y, width: Math.max(1, v * (W - 90)), height: barH, 'data-start': k, 'data-p': v }, svg);
    const pv = el('text', { x: 36 + v * (W - 90), y: y + 13, class: 'bar-label' }, svg);
    pv.textContent = v.toFixed(3);
  });
}

/** Everything the previous game, record or position left on the page. */
function clearPanels() {
  clearTimeout(autoplayTimer);
  entry = null;
  choiceSpot = null;
  view = null;
  cursor = null;
  anim.frames = [];
  anim.forPos = null;
  $('blind-chart').innerHTML = '';
  $('blind-chart').setAttribute('aria-label', "The engine's strategy for its blind start or tick");
  $('analysis').textContent = '';
  $('pv').textContent = '';
  $('record-out').value = '';
  message('', '');
}

function clearRecords() {
  records = null;
  rec = null;
  $('record-games').innerHTML = '';
  $('record-file').value = '';
}

/** The header's code, width and opening set to what position string `s` is, and the holds to `holds`. */
function settingsFrom(s, holds) {
  if (holds !== undefined) $('holds').value = holds;
  const f = s.trim().split(/\s+/);
  const [code, w] = f[0].split(':');
  if (![...$('variant').options].some((o) => o.value === code)) return;
  $('variant').value = code;
  fillColumns();
  if (code !== 'adjiboto') {
    $('columns').value = w || '8';
    const ph = f[3] || '';
    if (ph.startsWith('s') || ph.startsWith('r')) $('opening').value = 'simultaneous';
    else if (ph.startsWith('o')) $('opening').value = 'sequential';
    fillColumns();
  }
  settingsNote(false);
}

function settingsNote(changed) {
  const n = $('settings-note');
  n.classList.toggle('changed', changed);
  n.textContent = changed
    ? 'Code, width, opening or holds changed: it takes effect at New game (the game on the board is kept until then).'
    : 'Code, width, opening and holds take effect at New game; players and engine at once.';
}

async function newGame() {
  clearTimeout(autoplayTimer);
  if (busy > 0) await req('stop').catch(() => {});
  const s = settings();
  await busyDo(async () => {
    const r = await req('newgame', { variant: s.variant, columns: s.columns, opening: s.opening, holds: s.holds });
    clearRecords();
    clearPanels();
    game = newGameObject(r.start, [], [], s.holds);
    $('autoplay').checked = true;
    settingsNote(false);
    saveGame();
    await refresh();
  });
  scheduleNext();
}

async function setUp() {
  const s = $('fen-input').value;
  await busyDo(async () => {
    const holds = settings().holds;
    const r = await req('setup', { fen: s, holds });
    clearRecords();
    clearPanels();
    game = newGameObject(r.start, [], [], holds);
    settingsFrom(r.start);
    message('note', 'Position set up.');
    saveGame();
    await refresh();
  }, (m) => 'Position string refused: ' + m + (/RaceHolds/.test(m) ? ' (set Holds to the position\'s)' : '') + ' (the game on the board is kept)');
  scheduleNext();
}

// ---------------------------------------------------------------- records

async function loadRecords(text) {
  await busyDo(async () => {
    const r = await req('records', { text });
    if (!r.games.length) throw new Error('no game in the file');
    clearPanels();
    records = r.games;
    rec = { games: records, gi: 0, ply: 0 };
    const sel = $('record-games');
    sel.innerHTML = '';
    r.games.forEach((g, i) => {
      const o = document.createElement('option');
      const tag = (k) => (g.tags.find(([n]) => n === k) || [null, '?'])[1];
      o.value = i;
      o.textContent = `${i + 1}: ${tag('A')} - ${tag('B')} ${g.result === '*' ? 'unfinished' : g.result} (${tag('Variant')}, ${g.moves.length} plies)`;
      sel.appendChild(o);
    });
    rec.ply = recordStart(records[0]);
    settingsFrom(records[0].start, records[0].holds);
    await fillPositions(records[0]);
    const n = r.games.length === 1 ? '1 game' : `${r.games.length} games`;
    message('note', `${n} loaded; walk through them with the move list or the arrow keys.` + unfinishedNote(records[0]));
    await refresh();
  });
}

/** Where a record game is first shown: an unfinished one (`*`) at its end, to play on. */
function recordStart(g) {
  return g.result === '*' ? g.moves.length : 0;
}

function unfinishedNote(g) {
  return g.result === '*' ? ' This game is unfinished: shown at its end; "Play on from here" continues it.' : '';
}

async function pickRecord(i) {
  if (!records || busy > 0) return;
  clearPanels();
  rec = { games: records, gi: i, ply: recordStart(records[i]) };
  await busyDo(async () => {
    settingsFrom(records[i].start, records[i].holds);
    await fillPositions(records[i]);
    await refresh();
  });
  if (records[i].result === '*' && $('message').className !== 'error') message('note', unfinishedNote(records[i]).trim());
}

/** The player names of side `s` in game `g`: whoever made its plies. */
function namesOf(g, s) {
  const seen = [];
  g.moves.forEach((_, i) => {
    const p = g.pos && g.pos[i] ? parsePos(g.pos[i]) : null;
    if (p && p.side === s && g.by[i] && !seen.includes(g.by[i])) seen.push(g.by[i]);
  });
  return seen.length ? seen.join(', then ') : playerName(s);
}

async function saveRecord() {
  if (!game) return;
  await busyDo(async () => {
    await fillPositions(game);
    const r = await req('record', { start: game.start, moves: game.moves, holds: holdsOf(game), a: namesOf(game, 'a'), b: namesOf(game, 'b') });
    $('record-out').value = r.record;
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([r.record], { type: 'text/plain' }));
    a.download = 'choro-game.txt';
    a.click();
    const open = /^\[Result "\*"\]$/m.test(r.record);
    message('note', open
      ? 'Saved as choro-game.txt, unfinished (result *): load it and "Play on from here" to continue (choro replay checks it).'
      : 'Saved as choro-game.txt (choro replay checks it).');
  }, (m) => 'Not saved: ' + m);
}

async function takeBack() {
  if (rec || !game || !game.moves.length) return;
  const s = settings();
  clearTimeout(autoplayTimer);
  // A search under way ends first (its move is then not played: see below).
  if (document.body.dataset.thinking === '1') await req('stop').catch(() => {});
  await busyDo(async () => { await fillPositions(game); });
  // Back to before the last ply a person made (against the engine, his
  // move and the engine's answers go together); engines alone: one ply.
  let k = game.moves.length;
  if (s.a === 'human' || s.b === 'human') {
    while (k > 0 && s[parsePos(game.pos[k - 1]).side] !== 'human') k--;
    if (k === 0) return message('error', 'No move of a person to take back.');
  }
  k--;
  clearTimeout(autoplayTimer);
  anim.playing = false;
  if (anim.resolve) finishAnim();
  // A new object: an engine answer or a trace still under way is for the old one.
  game = { start: game.start, moves: game.moves.slice(0, k), pos: game.pos.slice(0, k + 1), by: game.by.slice(0, k), holds: holdsOf(game) };
  entry = null;
  choiceSpot = null;
  view = null;
  anim.frames = [];
  anim.forPos = null;
  message('note', `Taken back to ply ${k}.`);
  saveGame();
  await refresh();
  scheduleNext();
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
  $('holds').disabled = v === 'adjiboto' || $('opening').value === 'sequential';
}

/** ← → Home End walk through the game where the keys have no other use. */
function pageKey(e) {
  const t = e.target;
  if (e.key === 'Escape') { cancelEntry(); return; }
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  if ((e.key === 'h' || e.key === 'H') && !(t && t.closest && t.closest('input, select, textarea'))) {
    e.preventDefault();
    hold();
    return;
  }
  if (t && t.closest && t.closest('input, select, textarea, #choices')) return;
  if (t && t.closest && t.closest('#board') && e.key.startsWith('Arrow')) return;
  const c = cur();
  if (!c) return;
  const to = { ArrowLeft: c.ply - 1, ArrowRight: c.ply + 1, Home: 0, End: c.g.moves.length }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  goTo(to, e.key === 'ArrowRight');
}

function wire() {
  $('variant').addEventListener('change', () => { fillColumns(); settingsNote(true); });
  for (const id of ['columns', 'opening']) $(id).addEventListener('change', () => { fillColumns(); settingsNote(true); });
  $('new-game').addEventListener('click', newGame);
  $('hold').addEventListener('click', hold);
  $('holds').addEventListener('change', () => settingsNote(true));
  // A tick's time follows the speed (the slowest waits): started again.
  $('speed').addEventListener('change', () => { if (tickDue()) { clearTimeout(autoplayTimer); startTick(); drawChoices(); } });
  $('flip').addEventListener('click', () => { flipped = !flipped; saveGame(); redraw(); });
  $('fen-set').addEventListener('click', setUp);
  $('fen-input').addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); setUp(); } });
  $('copy-position').addEventListener('click', async () => {
    if (secret()) {
      return message('error', 'Not copied: the position shows A\'s blind start, hidden until B has chosen his.');
    }
    const text = st ? st.position : '';
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
    saveGame();
    message('note', 'Stopped; the engine waits: "Engine, move now" or tick "engines play on".');
  });
  $('takeback').addEventListener('click', takeBack);
  $('autoplay').addEventListener('change', () => { saveGame(); if (st) renderInfo(); scheduleNext(); });
  for (const id of ['player-a', 'player-b']) {
    $(id).addEventListener('change', () => { saveGame(); if (st) { renderInfo(); redraw(); } scheduleNext(); });
  }
  for (const id of ['algorithm', 'movetime']) $(id).addEventListener('change', saveGame);
  $('anim-first').addEventListener('click', () => { anim.playing = false; anim.i = 0; showFrame(); });
  $('anim-last').addEventListener('click', () => { anim.i = Math.max(0, anim.frames.length - 1); finishAnim(); });
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
  $('nav-first').addEventListener('click', () => goTo(0, false));
  $('nav-prev').addEventListener('click', () => { const c = cur(); if (c) goTo(c.ply - 1, false); });
  $('nav-next').addEventListener('click', () => { const c = cur(); if (c) goTo(c.ply + 1, true); });
  $('nav-last').addEventListener('click', () => { const c = cur(); if (c) goTo(c.g.moves.length, false); });
  $('record-file').addEventListener('change', async (e) => {
    const f = e.target.files[0];
    if (f) loadRecords(await f.text());
  });
  $('record-games').addEventListener('change', () => pickRecord(+$('record-games').value));
  $('rec-play').addEventListener('click', async () => {
    if (!rec) return message('error', 'No record is being walked through: load a record file first.');
    const g = rec.games[rec.gi];
    clearPanels();
    game = { start: g.start, moves: g.moves.slice(0, rec.ply), pos: (g.pos || [g.start]).slice(0, rec.ply + 1), by: g.moves.slice(0, rec.ply).map(() => 'from a record'), holds: holdsOf(g) };
    rec = null;
    saveGame();
    await refresh();
    scheduleNext();
  });
  $('save-record').addEventListener('click', saveRecord);
  $('board').addEventListener('keydown', boardKey);
  document.addEventListener('keydown', pageKey);
}

async function main() {
  wire();
  fillColumns();
  await connect();
  await busyDo(async () => {
    const r = await req('load_game');
    if (r.game && r.game.start) {
      const s = r.game.settings || {};
      for (const [id, k] of [['variant', 'variant'], ['opening', 'opening'], ['holds', 'holds'], ['player-a', 'a'], ['player-b', 'b'], ['algorithm', 'algorithm'], ['movetime', 'movetime']]) {
        if (s[k] !== undefined) $(id).value = s[k];
      }
      fillColumns();
      if (s.columns) $('columns').value = s.columns;
      if (s.autoplay !== undefined) $('autoplay').checked = !!s.autoplay;
      flipped = !!r.game.flipped;
      const moves = r.game.moves || [];
      game = newGameObject(r.game.start, moves, r.game.by || moves.map(() => 'unknown'), r.game.holds || 0);
      await fillPositions(game);
      message('note', 'The game in progress was restored.');
      await refresh();
    } else {
      await newGame();
    }
  });
  scheduleNext();
}

main();
