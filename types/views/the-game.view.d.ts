// Written by `npm run types`: do not edit. (from docs/schemas/)

export interface View {
cards_left: number
draw_pile: number
game: string
hand: (number[] | null)
hand_sizes: number[]
minimum: number
minimum_empty: number
over: boolean
piles: {
[k: string]: number
}
played: number[]
played_this_turn: number
players: number
result?: Result
seat: (number | null)
signals: {
[k: string]: string
}[]
to_act: number[]
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
