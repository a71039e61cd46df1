// @ts-check
// Every request of the pages that changes something goes through here. A signed-in browser carries
// its session cookie on each request, so the server takes a change from it only with the CSRF
// header: the value of the tussle_csrf cookie, which only this site's pages can read (another
// site's page can make the browser send the cookie, but cannot read it to send it back). A guest
// sends it too, harmlessly, whenever the cookie is there.

/** The cookie the server sets for the pages to read, and the header they send its value in. */
const CSRF_COOKIE = "tussle_csrf";
const CSRF_HEADER = "x-csrf-token";

/**
 * The CSRF cookie's value, or "" before the server has set it.
 * @returns {string}
 */
export function csrfToken() {
  for (const part of document.cookie.split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === CSRF_COOKIE) return decodeURIComponent(value.join("="));
  }
  return "";
}

/**
 * POST a JSON body; the answer as it comes (a caller reads its status and body).
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<Response>}
 */
export function post(path, body = {}) {
  /** @type {Record<string, string>} */
  const headers = { "content-type": "application/json" };
  const csrf = csrfToken();
  if (csrf) headers[CSRF_HEADER] = csrf;
  return fetch(path, { method: "POST", headers, body: JSON.stringify(body), credentials: "same-origin" });
}

/**
 * POST a JSON body and read the JSON answer; a refusal throws its one line.
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<any>}
 */
export async function postJson(path, body = {}) {
  const answer = await post(path, body);
  const data = await answer.json().catch(() => ({}));
  if (!answer.ok) throw new Error(/** @type {import("/web/types.js").Refusal} */ (data).error || answer.statusText);
  return data;
}

/**
 * GET a JSON answer; a refusal throws its one line.
 * @param {string} path
 * @returns {Promise<any>}
 */
export async function getJson(path) {
  const answer = await fetch(path);
  const data = await answer.json().catch(() => ({}));
  if (!answer.ok) throw new Error(/** @type {import("/web/types.js").Refusal} */ (data).error || answer.statusText);
  return data;
}
