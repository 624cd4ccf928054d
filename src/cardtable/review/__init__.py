"""Game review: where a finished game was won or lost, judged from each seat's own view.

For every decision of a seat, ``engine`` asks the game's strongest fair bot (``Game.review_bot``,
fed that seat's views only) for the best move, then estimates the chance of winning after the
move played and after the best one over positions resampled from the seat's view
(``State.redraw_hidden``) and scored by the game's judge (``judges``: a playout, the bots, or
a solver on the sample). A drop of 10, 20 or 30 points marks an inaccuracy, a mistake or a
blunder. ``verdict`` adds the separate, labelled answer with every card known (it peeks): could
the deal be won at all, and after which move could it no longer. ``words`` puts a review into
the reader's language.

An adapter above the games, the bots and the solvers (it imports them; nothing there imports
it), with no I/O: the server runs it in a worker process, the command line in its own.
"""

from cardtable.review.engine import (
    DEPTHS,
    MARKS,
    BudgetSpent,
    NotFinished,
    Review,
    review_record,
)

__all__ = ["DEPTHS", "MARKS", "BudgetSpent", "NotFinished", "Review", "review_record"]
