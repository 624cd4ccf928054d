// Written by `npm run types` from docs/schemas/: do not edit.

export interface Result {
cards_left: number
good: boolean
over: boolean
ranks: number[]
scores: number[]
short_by: number
stuck_seat: (number | null)
winners: number[]
won?: boolean
}
