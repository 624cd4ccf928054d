// Written by `npm run types` from docs/schemas/: do not edit.

export interface Result {
deals: {
[k: string]: unknown
}[]
over: boolean
ranks: number[]
remaining: number[]
scores: number[]
winners: number[]
won?: boolean
}
