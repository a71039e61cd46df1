// The shapes the browser code shares, declared once: what a game's drawing receives (`View`, `UI`),
// what the server sends on a game's WebSocket, and the HTTP answers the pages read. Declarations
// only: the pages stay plain JavaScript, and a module names a type in JSDoc,
//   /** @typedef {import("/web/types.js").View} View */
// which the TypeScript checker (npm run check:js) holds the code to; nothing here is served.
// docs/web.md and docs/server.md describe the same shapes in words; the server's side is
// src/tussle/server/hub.py (the views) and app.py (the HTTP answers).

export type JSONValue = null | boolean | number | string | JSONValue[] | { [key: string]: JSONValue };
export type JSONObject = { [key: string]: JSONValue };

/** An action's structured form (`State.action_to_json`): each game has its own shape, and every one fits this. */
export type Move = JSONObject;

/** Who made an event: a seat, or "chance" for dice and shuffles. */
export type Player = number | "chance";

/**
 * A finished game's result (`Result.to_json`): `winner` is the seat alone in first place, else null,
 * and `draw` is then true, also where several seats share the first place (`ranking` tells which).
 */
export interface Result {
  winner: number | null;
  draw: boolean;
  /** each seat's place, 1 the best */
  ranking: number[];
  returns: number[];
  reason: string;
  termination: "rules" | "limit" | "time" | "resignation" | "agreement" | "abandonment" | "aborted";
}

/**
 * A `Result` as an observation holds it (`Result.to_json()`): the same fields, declared as a type
 * rather than an interface so that an observation holding one still fits `JSONObject` (an
 * interface has no index signature, so TypeScript would not take it as a JSON object).
 */
export type ResultJSON = { [K in keyof Result]: Result[K] };

/**
 * Who holds a seat: a person, the computer, or nobody yet (open in the lobby, kept for an
 * invitation or a rematch, being joined).
 */
export type SeatKind = "person" | "computer" | "open" | "invite" | "reserved" | "joining";

/** A seat as the views list it (`connected` in a seat's or a spectator's view, not in a cover). */
export interface Seat {
  seat: number;
  kind: SeatKind;
  name: string | null;
  connected?: boolean;
  /** played by an account (whose name is the seat's name) */
  account?: boolean;
  /** that account is a program's (a bot) */
  bot?: boolean;
}

/**
 * What a game's drawing gets to draw (docs/web.md, "Drawing a game"). A drawing may name its own
 * observation's and action's shapes: `View<FiteObservation, FiteMove>`.
 */
export interface View<O extends JSONObject = JSONObject, M extends Move = Move> {
  /** the seat's `State.observation(seat)` */
  observation: O;
  /** the same as text (`State.observation_text`) */
  text: string;
  /** the seat shown, or null for a spectator */
  seat: number | null;
  /** the seat whose side is drawn at the bottom; absent in a replay: use `seat` */
  bottom?: number | null;
  /** the legal actions' notation on this seat's turn, else null (also when there are too many to list) */
  legal: string[] | null;
  /** the same actions, index for index, in their structured form: what a drawing reads */
  moves: M[] | null;
  /** how many legal actions there are (0 when it is not this seat's turn) */
  legal_count: number;
  your_turn: boolean;
  /** the observation drawn before this one, to animate from */
  previous: O | null;
  result: Result | null;
  seats: Seat[];
  /** true on the replay page */
  replay: boolean;
}

/** What a drawing may do: play an action, one of `view.moves` (or one built in that form) or its notation. */
export interface UI<M extends Move = Move> {
  act(action: M | string): void;
}

/** A game's drawing module (`/draw/<game>.js`). */
export interface Drawing {
  draw(view: View, ui: UI): Element;
  /** it draws `view.bottom`'s side at the bottom, so the page offers to turn the board at one screen */
  orientable?: boolean;
}

// --- what the server sends on /ws/games/<game> -----------------------------------------------------

/** An event of the move list. */
export interface GameEvent {
  /** its place among the game's events */
  number: number;
  player: Player;
  /** its notation */
  action: string;
}

/** A game's time control: each player's seconds for the whole game plus an increment a move, or
 * (per_move, a correspondence game) the seconds each move may take, given whole again at each move. */
export interface TimeControl {
  base: number;
  increment: number;
  per_move: boolean;
}

/** One event of the game's story, in plain words as the receiver may know it (a reveal adds a line). */
export interface StoryEntry {
  /** its place among the game's events, from 0 (the page shows it counted from 1) */
  number: number;
  player: Player;
  lines: string[];
}

/** The answer to {"type": "look", "at": n}: what this seat (or a spectator) was shown after event `at`. */
export interface LookMessage {
  type: "look";
  game: string;
  /** the event looked back at (a position chance was to act in moves on to the next one shown) */
  at: number;
  /** the game's events now */
  events: number;
  seat: number | null;
  observation: JSONObject;
  text: string;
  story: StoryEntry;
}

/** A seat's clock in a game with a time control. */
export interface Clock {
  seat: number;
  /** seconds */
  remaining: number;
  running: boolean;
}

/** The legal actions of the seat shown: both lists are null when there are too many to list. */
export interface Legal {
  count: number;
  actions: string[] | null;
  moves: Move[] | null;
}

export type Status = "waiting" | "playing" | "finished";

/** A seat's view, or a spectator's (no `your_turn`, no `legal`: GET /api/games/<game> answers one). */
export interface ViewMessage {
  type: "view";
  /** the game's id */
  game: string;
  /** which game it is ("fite") */
  game_id: string;
  seat: number | null;
  events: number;
  status: Status;
  seats: Seat[];
  to_act: Player[];
  observation: JSONObject;
  text: string;
  /** the latest events this seat may see (all of them in a connection's first view) */
  last: GameEvent[];
  /** the game's story as this seat may know it: all of it in a connection's first view, else the latest events */
  story: StoryEntry[];
  result: Result | null;
  /** a rated game: its result changes its accounts' ratings */
  rated?: boolean;
  /** the finished game's rematch, once one is made (a spectator's page follows it there) */
  rematch?: string | null;
  clock?: TimeControl;
  clocks?: Clock[];
  your_turn?: boolean;
  legal?: Legal;
  /** a seat's view: whether it may still abort (before every player has moved); else it may resign */
  abortable?: boolean;
  /** the seat whose draw offer stands (a spectator sees it too), or null */
  draw_offer?: number | null;
  /** a seat's view: whether it may offer a draw now (or accept the other's, by offering back) */
  can_offer_draw?: boolean;
  /** a seat's view: when every other person has left, in how many seconds it may claim, and whether the win */
  claim?: { in: number; win: boolean } | null;
  /** the computer seats to act, and how long each had thought when the view was made */
  thinking?: { seat: number; seconds: number }[];
}

/** What a covered table (a game at one screen) shows: who is to act, nothing any seat keeps to itself. */
export interface CoverMessage {
  type: "cover";
  game: string;
  game_id: string;
  events: number;
  status: Status;
  /** a game of perfect information: nothing to hide between its players */
  perfect: boolean;
  seats: Seat[];
  /** the person seats to act */
  to_act: number[];
  result: Result | null;
}

/** A message refused (an illegal action, a malformed message): nothing changed. */
export interface ErrorMessage {
  type: "error";
  /** one line */
  error: string;
}

/** This game's rematch is made. */
export interface RematchMessage {
  type: "rematch";
  /** the rematch's id */
  game: string;
}

/** A chat message as the server keeps it: who wrote it, when, and what (docs/server.md, "Chat"). */
export interface ChatLine {
  /** orders a game's messages; a page that got one twice tells by it */
  id: number;
  /** the writer's seat; null: a spectator */
  seat: number | null;
  /** the seat's display name, or "spectator" */
  name: string;
  /** when, in seconds since 1970 */
  at: number;
  /** what the person typed: shown as text only */
  text: string;
}

/** Chat messages of the connection's room: stored ones on arrival (history), then each new one. */
export interface ChatMessage {
  type: "chat";
  room: "players" | "spectators";
  history: boolean;
  messages: ChatLine[];
}

export type ServerMessage = ViewMessage | CoverMessage | ErrorMessage | RematchMessage | LookMessage | ChatMessage;

// --- HTTP answers the pages read ---------------------------------------------------------------------

/** An answer refused: its one line. */
export interface Refusal {
  error?: string;
}

/** An option of a game, as the home page's form needs it. */
export interface GameOption {
  name: string;
  kind: "bool" | "int" | "str" | "choice" | "document";
  default: string | number | boolean | null;
  help: string;
  choices: string[];
  minimum: number | null;
  maximum: number | null;
  /** the documents the server offers, for a document option */
  documents: string[];
  /** the most characters of a document given whole */
  max_length: number | null;
}

/** A game of GET /api/catalog. */
export interface CatalogGame {
  id: string;
  name: string;
  description: string;
  /** the fewest and the most */
  players: [number, number];
  information: string;
  levels: string[];
  /** what the rules call each seat, seat 0 first (White, Black); empty where they are numbered */
  seat_names: string[];
  options: GameOption[];
}

export interface Catalog {
  games: CatalogGame[];
}

/** A seat of a game just made (POST /api/games): the maker's with its token, a friend's with its invitation. */
export interface MadeSeat {
  seat: number;
  kind: SeatKind;
  name: string | null;
  token?: string;
  link?: string;
  invite?: string;
  invite_link?: string;
}

/** POST /api/games: the seats, or, at one screen, the table's handle. */
export interface MadeGame {
  id: string;
  game: string;
  seats: MadeSeat[];
  spectate: string;
  table?: string;
}

/** A seat taken (POST /api/games/<game>/join, a rematch's seat): its token and its page. */
export interface JoinedSeat {
  id: string;
  seat: number;
  token: string;
  link: string;
}

/** A rematch made: a seat, or at one screen a new table. */
export type Rematch = JoinedSeat | { id: string; table: string };

/** A game waiting in GET /api/lobby. */
export interface LobbyGame {
  id: string;
  game: string;
  /** the options that differ from the game's defaults (a long document by its length) */
  options: { [name: string]: JSONValue };
  open_seats: number[];
  seats: LobbySeat[];
  clock: TimeControl | null;
  /** when it was made, in the server's seconds since 1970 */
  created: number;
}

/** A seat as the lobby lists it: a computer's level too. */
export interface LobbySeat extends Seat {
  agent?: string | null;
}

/** A game being played, to watch, in the live lobby. */
export interface PlayingGame {
  id: string;
  game: string;
  options: { [name: string]: JSONValue };
  seats: LobbySeat[];
  clock: TimeControl | null;
  /** when play began, in the server's seconds since 1970 */
  started: number;
  /** spectators' connections, as the server process this page is connected to counts them */
  spectators: number;
}

/** What WS /ws/lobby sends whenever its lists change (or an error). */
export type LobbyMessage =
  | { type: "lobby"; open: LobbyGame[]; playing: PlayingGame[]; now: number }
  | ErrorMessage;

/** A seek answered (POST /api/seek): a seat, in a game joined (`paired`) or made to wait. */
export interface SoughtSeat extends JoinedSeat {
  paired: boolean;
}

/** A game of POST /api/my-games: one of the seats (or tables) a browser holds. */
export interface MyGame {
  id: string;
  game: string;
  /** null for a table */
  seat: number | null;
  table: boolean;
  status: Status;
  your_turn: boolean;
  created: number;
  result: Result | null;
  /** the time control, null without one */
  clock: TimeControl | null;
}

/** A step of a replay: the event (none at the start) and what the seat saw after it. */
export interface ReplayStep {
  player: Player | null;
  action: string | null;
  observation: JSONObject;
  text: string;
  /** the event in words as the replay's seat knew it (the game's story lines); none at the start */
  told: string[];
}

/** A replay as `seat` saw it (GET /api/games/<game>/replay, POST /api/replay). */
export interface Replay {
  /** which game it is ("fite") */
  game: string;
  /** their names */
  players: string[];
  num_players: number;
  seat: number | null;
  result: Result | null;
  steps: ReplayStep[];
  /** the tussle record */
  record: JSONObject;
}

// --- accounts, ratings, profiles (GET /api/account, /api/players/<name>, /api/leaderboard/<game>) ---

/** The signed-in account (GET /api/account; only ever to itself). */
export interface Me {
  name: string;
  bot: boolean;
  email: string;
  created: number;
}

/** A point of a rating's history: the rating after one rated game. */
export interface RatingPoint {
  game_id: string;
  at: number;
  rating: number;
  deviation: number;
}

/** An account's rating at one game, as its profile shows it. */
export interface Rating {
  game: string;
  rating: number;
  /** fewer rated games than the server's provisional count: shown with a "?" */
  provisional: boolean;
  /** the rating as shown: "1562?" */
  shown: string;
  deviation: number;
  games: number;
  /** the computer level nearest the rating */
  about: string | null;
  history?: RatingPoint[];
}

/** An account's wins, draws and losses against one computer level at one game. */
export interface LevelRecord {
  game: string;
  level: string;
  level_rating: number | null;
  won: number;
  drawn: number;
  lost: number;
}

/** GET /api/players/<name> */
export interface Profile {
  name: string;
  bot: boolean;
  created: number;
  ratings: Rating[];
  record: LevelRecord[];
  games: { waiting: number; playing: number; finished: number; total: number };
  links: { games: string; archive: string };
}

/** A seat of a game in an account's list of games. */
export interface ProfileSeat {
  seat: number;
  kind: SeatKind;
  name: string | null;
  /** the account playing it */
  player?: string;
  bot?: boolean;
  agent?: string;
}

/** A game in GET /api/players/<name>/games. */
export interface ProfileGame {
  id: string;
  game: string;
  status: Status;
  rated: boolean;
  created: number;
  seat: number | null;
  seats: ProfileSeat[];
  result: Result | null;
  outcome: "won" | "drawn" | "lost" | "aborted" | null;
  replay?: string;
  record?: string;
  watch?: string;
}

/** GET /api/players/<name>/games */
export interface ProfileGames {
  name: string;
  games: ProfileGame[];
  /** the `before` of the next, older page, or null */
  next: number | null;
}

/** A computer level on the ratings' scale. */
export interface LevelRating {
  level: string;
  rating: number;
  mu: number;
  plays: string;
}

/** GET /api/leaderboard/<game> */
export interface Leaderboard {
  game: string;
  players: { place: number; name: string; bot: boolean; rating: number; provisional: boolean; shown: string; games: number; about: string | null }[];
  levels: LevelRating[];
}

/** GET /api/levels */
export interface Levels {
  scale: { base: number; provisional_games: number };
  games: { game: string; levels: LevelRating[] }[];
}
