// What the pages hand each other, written by hand (games/generic.js lists a game module's
// hooks): a game's board and what it may do. The server's own messages are in api.d.ts,
// written from what the server publishes (npm run types).
import type { LastMove, SeatInfo, StateMessage, TableInfo } from "@api";

/** the board a game's module draws: the table page's state message, or a replay's step */
export interface Board<View = StateMessage["view"]> {
  view: View;
  legal: string[];
  labels: string[];
  seat: number | null;
  table: TableInfo;
  version: number;
  /** the last move to highlight (its action null while secret from this viewer) */
  last: LastMove | null;
  /** a finished game's replay: each seat's own view */
  seatViews?: View[];
  to_act?: number[];
}

/** what a game's module may do, and the page's choices it keeps between redraws */
export interface Context {
  act(action: string): void;
  /** page-local choices the server need not know (a picked card, a hint, an open panel) */
  ui: Record<string, any>;
  names: string[];
  readOnly: boolean;
  rerender(): void;
  /** the last move just happened: animate it */
  fresh: boolean;
  /** the table is over, even closed before its game's end */
  over: boolean;
}

/** a seat as the table page keeps it: when its person's seat may go to a bot, by this clock */
export interface ShownSeat extends SeatInfo {
  ready_at?: number | null;
}
