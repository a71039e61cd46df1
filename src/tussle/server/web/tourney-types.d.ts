// The tournaments' HTTP answers (GET /api/tournaments and /api/tournaments/<id>), as the pages
// tournaments.js and tournament.js read them; src/tussle/server/tournaments.py writes them and
// docs/server.md (Tournaments) describes them. Declarations only, for the TypeScript checker.

/** A tournament as the list shows it. */
export interface TournamentSummary {
  id: string;
  name: string;
  game: string;
  /** the game's name, as the catalog spells it */
  game_name: string;
  kind: "elimination" | "swiss";
  status: "registering" | "playing" | "finished";
  /** the round being played (0 before the start) */
  round: number;
  /** a Swiss's rounds (fixed at its start), an elimination's expected number; null before known */
  rounds: number | null;
  clock: { minutes: number; increment: number };
  rated: boolean;
  max_entrants: number;
  /** when it starts by itself (epoch seconds), or null: its maker starts it */
  starts_at: number | null;
  /** the maker's account name */
  maker: string;
  created: number;
  started: number | null;
  finished: number | null;
  /** in the list only: how many have registered */
  entrants?: number;
}

/** GET /api/tournaments */
export interface TournamentList {
  registering: TournamentSummary[];
  playing: TournamentSummary[];
  finished: TournamentSummary[];
}

/** An entrant: an account (a person or a bot) or a computer level. */
export interface TournamentEntrant {
  /** its number, in registration order (from 1): how pairings name it */
  number: number;
  name: string;
  /** a computer entrant's level, or null for an account */
  computer: string | null;
  bot: boolean;
  /** FITE: its super power (null: none) */
  power: string | null;
}

/** One game of a pairing (an elimination's drawn game is played again: several). */
export interface TournamentGame {
  attempt: number;
  id: string;
  /** entrant numbers in seat order */
  seats: number[];
  status: string | null;
  /** each seat's points once finished (1, 1/2, 0) */
  points: number[] | null;
  reason: string | null;
  /** how it ended (a result's termination: rules, time, resignation, aborted...) */
  termination: string | null;
}

/** A pairing of a round: two entrants and their games, or one entrant's bye. */
export interface TournamentBoard {
  board: number;
  entrants: number[];
  bye: boolean;
  winner: number | null;
  games: TournamentGame[];
}

export interface TournamentRound {
  round: number;
  boards: TournamentBoard[];
}

/** A Swiss's line of the standings. */
export interface TournamentStanding {
  entrant: number;
  rank: number;
  points: number;
  buchholz: number;
  wins: number;
  byes: number;
  opponents: number[];
}

/** GET /api/tournaments/<id> */
export interface Tournament extends Omit<TournamentSummary, "entrants"> {
  entrants: TournamentEntrant[];
  rounds_played: TournamentRound[];
  champion: number | null;
  /** finished without a round: fewer than two entrants when it was to start */
  cancelled: boolean;
  options: { [name: string]: string | number | boolean };
  /** the powers an entrant may bring (FITE), else empty */
  powers: string[];
  standings?: TournamentStanding[];
  tiebreak?: string;
  /** to a signed-in account: its entrant number, its game in progress, whether it made the tournament */
  you?: { entrant: number | null; game: string | null; maker: boolean };
}
