// Interim: the text drawing, until this game draws its own board.
export { draw } from "/web/text.js";
