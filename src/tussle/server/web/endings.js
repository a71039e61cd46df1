// @ts-check
// Ending a game other than by its rules, from the game page: resign (or abort before every player
// has moved), offer a draw or answer the other player's offer, and claim a game the others left.
// The server decides what is allowed (each view says it); this module only shows it and asks.
import { byId as $, html } from "/web/board.js";

/** @typedef {import("/web/types.js").ViewMessage} ViewMessage */

/** @type {ReturnType<typeof setInterval> | null} */
let countdown = null;

/**
 * Show what the seat of `view` may do to end the game, with `send` to do it.
 * @param {ViewMessage} view
 * @param {(message: {type: string, [key: string]: unknown}) => void} send
 * @param {(seat: number) => string} nameOf  how the page names a seat
 */
export function showEndings(view, send, nameOf) {
  const box = $("ending");
  box.hidden = !!view.result || view.seat === null;
  $("end-game").textContent = view.abortable ? "Abort the game" : "Resign";
  const offers = $("draw-offer");
  offers.replaceChildren();
  const claims = $("claim");
  claims.replaceChildren();
  if (countdown !== null) clearInterval(countdown);
  countdown = null;
  if (box.hidden || view.seat === null) return;
  const seat = view.seat;
  const offer = view.draw_offer;
  if (offer !== null && offer !== undefined && offer !== seat) {
    offers.append(
      html("span", { text: `${nameOf(offer)} offers a draw. ` }),
      html("button", { type: "button", id: "accept-draw", text: "Accept the draw", onclick: () => send({ type: "draw" }) }),
      " ",
      html("button", { type: "button", id: "decline-draw", class: "quiet", text: "Decline", onclick: () => send({ type: "decline" }) }),
    );
  } else if (offer === seat) {
    offers.append(html("span", { text: "You offered a draw: it stands until it is answered or the other player moves." }));
  } else if (view.can_offer_draw) {
    offers.append(
      html("button", {
        type: "button",
        id: "offer-draw",
        class: "quiet",
        text: "Offer a draw",
        onclick: () => {
          if (confirm("Offer a draw? If it is accepted, the game ends with no winner.")) send({ type: "draw" });
        },
      }),
    );
  }
  const claim = view.claim;
  if (claim) {
    const gone = view.seats.filter((s) => s.seat !== seat && s.kind === "person" && !s.connected).map((s) => nameOf(s.seat));
    const until = Date.now() + claim.in * 1000;
    const line = html("span", { id: "claim-line" });
    const buttons = html("span", { id: "claim-buttons" });
    claims.append(line, buttons);
    const tick = () => {
      const left = Math.ceil((until - Date.now()) / 1000);
      const who = gone.join(" and ") || "The others";
      if (left > 0) {
        line.textContent = `${who} left the game. If they are not back in ${left} s, you may end it.`;
        return;
      }
      if (countdown !== null) clearInterval(countdown);
      countdown = null;
      line.textContent = `${who} left the game. `;
      if (claim.win) {
        buttons.append(html("button", { type: "button", id: "claim-win", text: "Claim the win", onclick: () => send({ type: "claim", result: "win" }) }), " ");
      }
      buttons.append(html("button", { type: "button", id: "claim-draw", class: "quiet", text: "End it as a draw", onclick: () => send({ type: "claim", result: "draw" }) }));
    };
    tick();
    if (!buttons.childElementCount) countdown = setInterval(tick, 500);
  }
}
