// The game page: one seat's view (or a spectator's), its legal actions as buttons, an input for notation.
// The seat's token comes after '#' in the link, so it never reaches a server log; it is sent in the
// WebSocket's first message only. The page reconnects by itself and the server sends the whole view again.
"use strict";

const gameId = location.pathname.split("/").filter(Boolean).pop();
const token = decodeURIComponent(location.hash.slice(1)) || null;
let socket = null;
let tries = 0;

function $(id) { return document.getElementById(id); }

function show(view) {
  $("title").textContent = `${view.game_id}: ${view.seat === null ? "watching" : "seat " + view.seat}`;
  $("board").textContent = view.text;
  const status = view.result
    ? `Game over: ${view.result.reason || (view.result.winner === null ? "a draw" : "seat " + view.result.winner + " wins")}`
    : view.status === "waiting" ? "Waiting for a player to take the open seat."
    : view.your_turn ? "Your move." : "Waiting for the others.";
  $("status").textContent = status;
  $("clocks").textContent = (view.clocks || []).map(c => `seat ${c.seat}: ${Math.floor(c.remaining / 60)}:${String(Math.floor(c.remaining % 60)).padStart(2, "0")}${c.running ? " \u25b6" : ""}`).join("   ");
  const last = $("last");
  last.replaceChildren();
  for (const event of view.last) {
    const item = document.createElement("li");
    item.textContent = `${event.player === "chance" ? "chance" : "seat " + event.player}: ${event.action}`;
    last.append(item);
  }
  const move = $("move");
  move.hidden = !view.your_turn;
  const legal = $("legal");
  legal.replaceChildren();
  if (view.your_turn) {
    if (view.legal.actions) {
      for (const action of view.legal.actions.slice(0, 300)) {
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = action;
        button.addEventListener("click", () => act(action));
        legal.append(button);
      }
    } else {
      legal.textContent = `${view.legal.count} legal actions: write yours in the game's notation.`;
    }
  }
}

function act(action) {
  $("error").textContent = "";
  socket.send(JSON.stringify({ type: "action", action: action }));
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/games/${gameId}`);
  socket.addEventListener("open", () => {
    tries = 0;
    socket.send(JSON.stringify(token ? { type: "hello", token: token } : { type: "hello" }));
  });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "view") show(message);
    else if (message.type === "error") $("error").textContent = message.error;
    else if (message.type === "rematch") $("status").textContent = "A rematch was asked for.";
  });
  socket.addEventListener("close", () => {
    if (tries++ < 30) setTimeout(connect, 1000);
    else $("status").textContent = "The connection is lost; reload the page to try again.";
  });
}

$("act").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = $("action");
  if (input.value.trim()) act(input.value.trim());
  input.value = "";
});
if (new URLSearchParams(location.search).has("invite")) {
  // The creator of a game with an open seat sends this link: the lobby join gives the friend their token.
  $("share").hidden = false;
  $("invite").value = `${location.origin}/?join=${gameId}`;
}
connect();
