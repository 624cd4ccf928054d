// Written by `npm run types`: do not edit. (from docs/schemas/)

export interface Result {
foundation: number
over: boolean
ranks: number[]
scores: number[]
winners: number[]
won?: boolean
}
