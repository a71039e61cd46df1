// @ts-check
// The account corner of every page's header: "Sign in" and "Sign up" (one small dialog), or, once
// signed in, the account's name (a link to its profile) and "Sign out". Accounts are optional:
// nothing else on a page waits for this. The session itself is an HttpOnly cookie the page never
// sees; the password leaves the form the moment it is sent. On signing in, the guest seats this
// browser keeps (seats.js) are claimed for the account, and the page says how many games that was.
// Pages that show more to a signed-in player (a "Rated" box, the owner's tools on a profile) listen
// with onAccount().
import { html } from "/web/board.js";
import { getJson, post, postJson } from "/web/api.js";
import { held } from "/web/seats.js";

/** @typedef {import("/web/types.js").Me} Me */

/** @type {Me | null} */
let me = null;
let known = false;
/** @type {((account: Me | null) => void)[]} */
const listeners = [];

/**
 * Call `then` with the signed-in account (null: a guest) once it is known, and again whenever this
 * page signs in or out.
 * @param {(account: Me | null) => void} then
 */
export function onAccount(then) {
  listeners.push(then);
  if (known) then(me);
}

/** @param {Me | null} account */
function changed(account) {
  me = account;
  known = true;
  render();
  for (const then of listeners) then(me);
}

/** @returns {HTMLElement} the header's account corner, made on first use */
function corner() {
  let nav = document.getElementById("account");
  if (!nav) {
    nav = html("nav", { id: "account", "aria-label": "your account" });
    const header = document.querySelector("header") || document.body;
    header.append(nav);
  }
  return nav;
}

/** @param {string} text */
function say(text) {
  let said = document.getElementById("account-said");
  if (!said) {
    said = html("p", { id: "account-said", role: "status" });
    corner().after(said);
  }
  said.textContent = text;
}

function render() {
  const nav = corner();
  if (me) {
    nav.replaceChildren(
      html("a", { id: "account-name-link", href: `/players/${encodeURIComponent(me.name)}`, text: me.name,
        title: "your profile: ratings, games, password" }),
      ...(me.bot ? [" ", html("span", { class: "badge bot", text: "BOT" })] : []),
      " ", html("button", { type: "button", id: "sign-out", class: "link", text: "Sign out", onclick: signOut }));
  } else {
    nav.replaceChildren(
      html("button", { type: "button", id: "sign-in", class: "link", text: "Sign in", onclick: () => open("in") }),
      " ", html("button", { type: "button", id: "sign-up", class: "link", text: "Sign up", onclick: () => open("up") }));
  }
}

/** @type {HTMLDialogElement | null} */
let dialog = null;
/** @type {"in" | "up"} */
let mode = "in";

/**
 * A row of the form: a label and its input.
 * @param {string} id
 * @param {string} label
 * @param {import("/web/board.js").Attributes} attrs
 * @param {string} [hint]
 * @returns {HTMLParagraphElement}
 */
function field(id, label, attrs, hint) {
  return html("p", { id: `${id}-row`, class: "account-field" },
    html("label", { for: id, text: label }),
    html("input", { id, name: id, required: true, spellcheck: "false", ...attrs }),
    hint ? html("span", { class: "small", id: `${id}-hint`, text: hint }) : null);
}

/** @returns {HTMLDialogElement} */
function makeDialog() {
  const form = html("form", { id: "account-form", novalidate: true },
    html("h2", { id: "account-title", text: "Sign in" }),
    field("account-login", "Name or email", { type: "text", autocomplete: "username", maxlength: 320 }),
    field("account-new-name", "Name", { type: "text", autocomplete: "username", maxlength: 20, pattern: "[A-Za-z0-9_\\-]{2,20}",
      "aria-describedby": "account-new-name-hint" }, "2 to 20 letters, digits, - or _; others see it"),
    field("account-email", "Email", { type: "email", autocomplete: "email", maxlength: 320, "aria-describedby": "account-email-hint" },
      "signs you in, as the name does; never shown to others"),
    field("account-password", "Password", { type: "password", autocomplete: "current-password", maxlength: 200 }),
    html("p", { id: "account-error", class: "error", role: "alert" }),
    html("p", { class: "account-buttons" },
      html("button", { type: "submit", id: "account-submit", text: "Sign in" }), " ",
      html("button", { type: "button", class: "quiet", id: "account-cancel", text: "Cancel", onclick: close })),
    html("p", { class: "small", id: "account-switch" }));
  form.addEventListener("submit", submit);
  /** @type {HTMLDialogElement} */
  const made = html("dialog", { id: "account-dialog", "aria-labelledby": "account-title" }, form);
  made.addEventListener("close", () => {
    const password = document.getElementById("account-password");
    if (password instanceof HTMLInputElement) password.value = "";
  });
  document.body.append(made);
  return made;
}

/**
 * @param {string} id
 * @returns {HTMLInputElement}
 */
function input(id) {
  const element = document.getElementById(id);
  if (!(element instanceof HTMLInputElement)) throw new Error(`no input #${id}`);
  return element;
}

/** @param {"in" | "up"} which */
function open(which) {
  if (!dialog) dialog = makeDialog();
  mode = which;
  const up = which === "up";
  const title = up ? "Sign up" : "Sign in";
  const form = /** @type {HTMLFormElement} */ (dialog.querySelector("form"));
  /** @type {HTMLElement} */ (form.querySelector("#account-title")).textContent = title;
  /** @type {HTMLElement} */ (form.querySelector("#account-submit")).textContent = title;
  for (const [id, shown] of /** @type {[string, boolean][]} */ ([["account-login", !up], ["account-new-name", up], ["account-email", up]])) {
    /** @type {HTMLElement} */ (form.querySelector(`#${id}-row`)).hidden = !shown;
    input(id).required = shown;
  }
  input("account-password").autocomplete = up ? "new-password" : "current-password";
  input("account-password").minLength = up ? 8 : 0;
  /** @type {HTMLElement} */ (form.querySelector("#account-error")).textContent = "";
  const other = up ? "in" : "up";
  /** @type {HTMLElement} */ (form.querySelector("#account-switch")).replaceChildren(
    up ? "Have an account? " : "No account yet? ",
    html("button", { type: "button", class: "link", text: up ? "Sign in" : "Sign up", onclick: () => open(other) }));
  if (!dialog.open) dialog.showModal();
  input(up ? "account-new-name" : "account-login").focus();
}

function close() {
  if (dialog && dialog.open) dialog.close();
  const back = document.getElementById(mode === "up" ? "sign-up" : "sign-in");
  if (back) back.focus();
}

/**
 * What is wrong with the form before anything is sent, or "".
 * @returns {string}
 */
function problem() {
  for (const id of mode === "up" ? ["account-new-name", "account-email", "account-password"] : ["account-login", "account-password"]) {
    const box = input(id);
    if (box.validity.valid) continue;
    const label = /** @type {HTMLElement} */ (document.querySelector(`label[for=${id}]`)).textContent;
    if (box.validity.valueMissing) return `${label}: needed`;
    if (id === "account-new-name") return "Name: 2 to 20 letters, digits, - or _";
    if (id === "account-password") return "Password: at least 8 characters";
    return `${label}: ${box.validationMessage}`;
  }
  return "";
}

/** @param {SubmitEvent} event */
async function submit(event) {
  event.preventDefault();
  const error = /** @type {HTMLElement} */ (document.getElementById("account-error"));
  const wrong = problem();
  error.textContent = wrong;
  if (wrong) return;
  const password = input("account-password");
  const body = mode === "up"
    ? { name: input("account-new-name").value.trim(), email: input("account-email").value.trim(), password: password.value }
    : { login: input("account-login").value.trim(), password: password.value };
  password.value = "";  // sent once, kept nowhere
  const button = /** @type {HTMLButtonElement} */ (document.getElementById("account-submit"));
  button.disabled = true;
  try {
    await postJson(mode === "up" ? "/api/account/signup" : "/api/account/signin", body);
    /** @type {Me} */
    const account = await getJson("/api/account");
    if (dialog) dialog.close();
    changed(account);
    const link = document.getElementById("account-name-link");
    if (link) link.focus();
    say(`${mode === "up" ? "Welcome" : "Signed in"}, ${account.name}.${await claim()}`);
  } catch (failure) {
    error.textContent = failure instanceof Error ? failure.message : String(failure);
    password.focus();
  } finally {
    button.disabled = false;
  }
}

/**
 * Claim this browser's guest seats for the account just signed in; what to say of it ("" if none).
 * @returns {Promise<string>}
 */
async function claim() {
  const tokens = held().flatMap((e) => ("token" in e ? [e.token] : []));
  if (!tokens.length) return "";
  try {
    /** @type {{claimed: string[]}} */
    const answer = await postJson("/api/account/claim", { tokens });
    const n = answer.claimed.length;
    if (!n) return " No guest game of this browser was left to claim.";
    return ` ${n} game${n === 1 ? "" : "s"} this browser played as a guest ${n === 1 ? "is" : "are"} now your account's.`;
  } catch (failure) {
    return ` This browser's guest games could not be claimed: ${failure instanceof Error ? failure.message : failure}`;
  }
}

async function signOut() {
  const answer = await post("/api/account/signout");
  if (!answer.ok) {
    const data = await answer.json().catch(() => ({}));
    say(`Could not sign out: ${data.error || answer.statusText}`);
    return;
  }
  changed(null);
  say("Signed out.");
  const back = document.getElementById("sign-in");
  if (back) back.focus();
}

async function start() {
  corner();
  const answer = await fetch("/api/account").catch(() => null);
  changed(answer && answer.ok ? await answer.json() : null);
}
start();
