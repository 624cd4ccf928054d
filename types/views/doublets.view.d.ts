// Written by `npm run types`: do not edit. (from docs/schemas/)

export interface View {
foundation: string[]
game: string
needed: number
over: boolean
players: number
redeals_left: number
reserves: (string | null)[]
result?: Result
score: number
seat: (number | null)
stock: number
to_act: number[]
waste: string[]
}
/**
 * What ``State.result()`` answers for every game (``over``, ``scores``, ``winners``,
 * ``ranks``); games add figures of their own (``Game.result_type``).
 */
export interface Result {
over: boolean
ranks: number[]
scores: number[]
winners: number[]
won?: boolean
}
