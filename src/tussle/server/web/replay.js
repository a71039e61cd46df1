// The replay page: a finished game's boards, stepped forward and back with the buttons or the arrow keys.
"use strict";

const gameId = location.pathname.split("/").filter(Boolean).pop();
let steps = [];
let at = 0;

function $(id) { return document.getElementById(id); }

function show() {
  const step = steps[at];
  $("board").textContent = step.text;
  $("where").textContent = `step ${at} of ${steps.length - 1}`;
  $("event").textContent = step.action === null ? "The start." : `${step.player === "chance" ? "chance" : "seat " + step.player}: ${step.action}`;
}

function go(to) {
  at = Math.max(0, Math.min(steps.length - 1, to));
  show();
}

async function load() {
  const answer = await fetch(`/api/games/${gameId}/replay`);
  const data = await answer.json();
  if (!answer.ok) {
    $("title").textContent = data.error;
    return;
  }
  steps = data.steps;
  $("title").textContent = `${data.game}: a replay`;
  $("result").textContent = data.result ? `Result: ${data.result.reason}` : "";
  $("record").href = `/api/games/${gameId}/record`;
  $("record").download = `${data.game}-${gameId}.json`;
  show();
}

$("first").addEventListener("click", () => go(0));
$("back").addEventListener("click", () => go(at - 1));
$("forward").addEventListener("click", () => go(at + 1));
$("last").addEventListener("click", () => go(steps.length - 1));
document.addEventListener("keydown", (event) => {
  if (event.key === "ArrowRight") go(at + 1);
  else if (event.key === "ArrowLeft") go(at - 1);
  else if (event.key === "Home") go(0);
  else if (event.key === "End") go(steps.length - 1);
});
load();
