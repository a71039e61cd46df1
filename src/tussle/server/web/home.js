// The home page: make a game (against the computer, a friend online, or anyone from the lobby) and list the lobby.
"use strict";

const GAMES = {
  "fight": "Fight!", "fightopia": "Fightopia", "fite": "FITE", "robo-pigs": "Robo Battle Pigs", "tank-chess": "Tank Chess",
};

function keep(gameId, seat, token) {
  // A browser keeps the seat tokens it holds: the link to go back to each game.
  const seats = JSON.parse(localStorage.getItem("tussle-seats") || "[]");
  seats.push({ game: gameId, seat: seat, token: token });
  localStorage.setItem("tussle-seats", JSON.stringify(seats.slice(-200)));
}

async function post(path, body) {
  const answer = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const data = await answer.json();
  if (!answer.ok) throw new Error(data.error || answer.statusText);
  return data;
}

async function create(event) {
  event.preventDefault();
  const form = new FormData(event.target);
  const opponent = form.get("opponent");
  const other = opponent === "computer" ? { kind: "computer", agent: form.get("level") } : { kind: "open" };
  const status = document.getElementById("created");
  try {
    const made = await post("/api/games", { game: form.get("game"), seats: [{ kind: "person", name: "you" }, other] });
    keep(made.id, 0, made.seats[0].token);
    const invite = opponent === "friend" ? "?invite=1" : "";
    location.href = `/play/${made.id}${invite}#${made.seats[0].token}`;
  } catch (error) {
    status.textContent = error.message;
  }
}

async function join(gameId) {
  try {
    const joined = await post(`/api/games/${gameId}/join`, { name: "guest" });
    keep(joined.id, joined.seat, joined.token);
    location.href = joined.link;
  } catch (error) {
    document.getElementById("created").textContent = error.message;
  }
}

async function lobby() {
  const list = document.getElementById("lobby");
  const answer = await fetch("/api/lobby");
  const data = await answer.json();
  list.replaceChildren();
  if (!data.games.length) {
    const item = document.createElement("li");
    item.textContent = "No game is waiting. Make one above and pick \u201canyone, from the lobby\u201d.";
    list.append(item);
  }
  for (const game of data.games) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.textContent = `Join ${GAMES[game.game] || game.game}`;
    button.addEventListener("click", () => join(game.id));
    item.append(button);
    list.append(item);
  }
}

const select = document.getElementById("game");
for (const [id, name] of Object.entries(GAMES)) {
  const option = document.createElement("option");
  option.value = id;
  option.textContent = name;
  select.append(option);
}
document.getElementById("create").addEventListener("submit", create);
const invited = new URLSearchParams(location.search).get("join");
if (invited) join(invited);  // a friend's invite link: take the open seat at once
else lobby();
