// Written by `npm run types`: do not edit. (from docs/schemas/)

export interface View {
centre: number[]
choice: (string | null)
chosen: boolean[]
deal: number
deal_results: {
[k: string]: unknown
}[]
first: (number | null)
game: string
grids: (number | string | null)[][][]
holes: (string | null)[]
phase: string
players: number
result?: Result
revealed: (number | null)[]
round: number
seat: (number | null)
target: (number | null)
to_act: number[]
totals: number[]
turn: (number | null)
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
