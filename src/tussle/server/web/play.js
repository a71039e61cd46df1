// The game page: one seat's view (or a spectator's), drawn by the game's own module, played by
// pointing or by typing notation. The seat's token comes after '#' in the link, so it never reaches a
// server log; it is sent in the WebSocket's first message only. The page reconnects by itself and
// the server sends the whole view again.
//
// Hot seat (?hotseat=1, every seat's token after '#', comma separated): the page shows one seat at a
// time. When another seat is to act in a game with secrets, the page is loaded afresh with a
// pass-the-device screen, so nothing of the previous player's view stays in the DOM or in memory.
import { closeMenu, drawInto, html } from "/web/board.js";

const gameId = location.pathname.split("/").filter(Boolean).pop();
const query = new URLSearchParams(location.search);
const hotSeat = query.has("hotseat");
const tokens = decodeURIComponent(location.hash.slice(1)).split(",").filter(Boolean);
const shown = hotSeat ? Number(query.get("seat") || 0) : 0;
const token = hotSeat ? tokens[shown] : tokens[0] || null;

let socket = null;
let tries = 0;
let drawing = null;
let info = null;
let lastView = null;
let previous = null;
let leaving = false;
const moves = new Map();

function $(id) { return document.getElementById(id); }

function seatName(view, seat) {
  if (seat === "chance") return "chance";
  const row = view.seats.find((s) => s.seat === seat);
  const name = row && row.name ? row.name : `seat ${seat}`;
  return seat === view.seat ? `${name} (you)` : name;
}

function clock(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function statusLine(view) {
  if (view.result) {
    const winner = view.result.winner;
    const who = winner === null || winner === undefined ? "a draw" : `${seatName(view, winner)} wins`;
    return `Game over: ${view.result.reason ? view.result.reason + "; " : ""}${who}.`;
  }
  if (view.status === "waiting") return "Waiting for a player to take the open seat.";
  if (view.your_turn) return "Your move.";
  const acting = view.to_act.filter((p) => p !== "chance").map((p) => seatName(view, p));
  return acting.length ? `Waiting for ${acting.join(" and ")}.` : "Waiting for the others.";
}

function showPlayers(view) {
  const list = $("players");
  list.replaceChildren();
  for (const seat of view.seats) {
    const row = (view.clocks || []).find((c) => c.seat === seat.seat);
    const acting = view.to_act.includes(seat.seat);
    const here = seat.kind === "open" ? "open seat" : seat.connected ? "connected" : "not connected";
    list.append(html("li", { class: acting ? "acting" : "" },
      html("span", { class: `dot ${seat.connected ? "on" : "off"}`, "aria-hidden": "true" }),
      `${seatName(view, seat.seat)}${seat.kind === "computer" ? " (computer)" : ""}: ${here}`,
      row ? html("span", { class: `clock${row.running ? " running" : ""}`, text: ` ${clock(row.remaining)}` }) : null,
      acting && !view.result ? html("span", { class: "to-act", text: " \u2014 to act" }) : null));
  }
}

function showMoves(view) {
  for (const event of view.last) moves.set(event.number, event);
  const list = $("moves");
  list.replaceChildren();
  for (const number of [...moves.keys()].sort((a, b) => a - b)) {
    const event = moves.get(number);
    list.append(html("li", { text: `${seatName(view, event.player)}: ${event.action}` }));
  }
  list.scrollTop = list.scrollHeight;
}

async function draw(view) {
  const legal = view.your_turn && view.legal.actions ? view.legal.actions : null;
  const board = $("board");
  const context = {
    observation: view.observation, text: view.text, seat: view.seat, legal, your_turn: !!view.your_turn,
    legal_count: view.your_turn ? view.legal.count : 0,
    previous, result: view.result, seats: view.seats, replay: false,
  };
  closeMenu();
  drawInto(board, drawing, context, { act });
  previous = view.observation;
}

function show(view) {
  lastView = view;
  $("title").textContent = `${info ? info.name : view.game_id}: ${view.seat === null ? "watching" : seatName(view, view.seat)}`;
  document.title = `tussle: ${info ? info.name : view.game_id}`;
  $("status").textContent = statusLine(view);
  $("board-text").textContent = view.text;
  showPlayers(view);
  showMoves(view);
  draw(view);
  const move = $("move");
  move.hidden = !view.your_turn;
  const legal = $("legal");
  const options = $("legal-list");
  legal.replaceChildren();
  options.replaceChildren();
  if (view.your_turn) {
    if (view.legal.actions) {
      for (const action of view.legal.actions.slice(0, 300)) {
        legal.append(html("button", { type: "button", text: action, onclick: () => act(action) }));
        options.append(html("option", { value: action }));
      }
    } else {
      legal.textContent = `${view.legal.count} legal actions: write yours in the game's notation.`;
    }
  }
  $("after").hidden = !view.result || view.seat === null;
  if (view.result) {
    $("replay-link").href = `/replay/${gameId}`;
    $("record-link").href = `/api/games/${gameId}/record`;
  }
  if (hotSeat) handOver(view);
}

// Hot seat: when the seat shown is done and another seat of this screen is to act, hand over.
function handOver(view) {
  if (view.result || view.your_turn || leaving) return;
  const next = view.to_act.find((p) => p !== "chance" && p !== shown && tokens[p]);
  if (next === undefined) return;
  leaving = true;
  const secret = info && info.information !== "perfect";
  if (socket) socket.close();
  location.replace(`/play/${gameId}?hotseat=1&seat=${next}${secret ? "&pass=1" : ""}#${tokens.join(",")}`);
}

function act(action) {
  $("error").textContent = "";
  closeMenu();
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "action", action }));
  else $("error").textContent = "Not connected: reconnecting, try again in a moment.";
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/games/${gameId}`);
  socket.addEventListener("open", () => {
    tries = 0;
    socket.send(JSON.stringify(token ? { type: "hello", token } : { type: "hello" }));
  });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "view") show(message);
    else if (message.type === "error") $("error").textContent = message.error;
    else if (message.type === "rematch") offerRematch();
  });
  socket.addEventListener("close", () => {
    if (leaving) return;
    $("status").textContent = "Connection lost: reconnecting…";
    for (const dot of document.querySelectorAll("#players .dot")) dot.className = "dot off";
    if (tries++ < 60) setTimeout(connect, Math.min(5000, 500 * tries));
    else $("status").textContent = "The connection is lost; reload the page to try again.";
  });
}

function offerRematch() {
  $("after").hidden = false;
  $("rematch").textContent = "Accept the rematch";
}

async function rematch() {
  const made = [];
  for (const seatToken of hotSeat ? tokens : [token]) {
    const answer = await fetch(`/api/games/${gameId}/rematch`, {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token: seatToken }),
    });
    const data = await answer.json();
    if (!answer.ok) { $("error").textContent = data.error; $("after").append(html("p", { class: "error", text: data.error })); return; }
    made.push(data);
  }
  leaving = true;
  if (socket) socket.close();
  if (hotSeat) {
    const next = made.map((m) => [m.seat, m.token]).sort((a, b) => a[0] - b[0]).map((m) => m[1]);
    location.href = `/play/${made[0].id}?hotseat=1&seat=0#${next.join(",")}`;
  } else {
    location.href = made[0].link;
  }
}

async function start() {
  const [catalog, module] = await Promise.all([
    fetch("/api/catalog").then((r) => r.json()),
    fetch(`/api/games/${gameId}`).then((r) => r.json()),
  ]);
  if (module.error) {
    $("title").textContent = module.error;
    return;
  }
  info = catalog.games.find((g) => g.id === module.game_id) || null;
  drawing = await import(`/draw/${module.game_id}.js`);
  $("rules-link").href = `/api/rules/${module.game_id}`;
  $("watch-link").href = `/play/${gameId}`;
  if (hotSeat && query.has("pass")) {
    const name = (module.seats.find((s) => s.seat === shown) || {}).name || `seat ${shown}`;
    $("game").hidden = true;
    $("pass").hidden = false;
    $("title").textContent = `${info ? info.name : module.game_id}: hot seat`;
    $("pass-text").textContent = `Pass the device to ${name}. Nothing of the other player's secrets is on this page.`;
    $("pass-go").textContent = `I am ${name}: show my view`;
    $("pass-go").focus();
    $("pass-go").addEventListener("click", () => {
      $("pass").hidden = true;
      $("game").hidden = false;
      connect();
    }, { once: true });
    return;
  }
  connect();
}

$("act").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = $("action");
  if (input.value.trim()) act(input.value.trim());
  input.value = "";
});
$("rematch").addEventListener("click", rematch);
document.addEventListener("click", (event) => { if (!event.target.closest(".menu")) closeMenu(); });
if (query.has("invite")) {
  // The creator of a game with an open seat sends this link: the lobby join gives the friend their token.
  $("share").hidden = false;
  $("invite").value = `${location.origin}/?join=${gameId}`;
}
start();
