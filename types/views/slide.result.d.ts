// Written by `npm run types`: do not edit. (from docs/schemas/)

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
