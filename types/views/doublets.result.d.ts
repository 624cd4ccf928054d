// Written by `npm run types` from docs/schemas/: do not edit.

export interface Result {
foundation: number
over: boolean
ranks: number[]
scores: number[]
winners: number[]
won?: boolean
}
