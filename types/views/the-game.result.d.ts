// Written by `npm run types`: do not edit. (from docs/schemas/)

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
