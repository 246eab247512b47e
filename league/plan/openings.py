"""A league's ``openings``: every seat-swapped pair of games starts from its own position.

``openings: {plies: N}`` plays the first N plies of each game by a uniform random legal policy
drawn from the match seed (the two games of a pair share it, so both start from the same
position); ``openings: {file: PATH}`` takes each pair's opening, a move list in the game's own
reply notation, from a file: round k of every pairing (its k-th pair of games) plays line k, the
lines wrapping round when the league has more rounds than the file has lines (as fastchess
cycles its book; the repeated games are then counted as repeats). The engine side, which plays an
opening on a state and keeps the bots told of it, is ``engine.openings``.

Which of the seven games can repeat, and how an opening reaches the bots (each game's README,
section "Openings"):

* versus2048: no randomness at all (its README, section 1), so two deterministic bots repeat every
  game. Every turn input tells a bot the whole position (turn, time left, both scores, both
  boards), so the referee plays the opening's plies for both seats and the bots are next asked
  from the position they lead to. The pre-game is how a bot learns its seat: under an opening
  each bot is still sent its seat line and its pre-game reply is read and judged as always, but
  the opening's cell is put (its first turn input shows it). Supported.
* attack2048: the default ``empty`` and ``attacker_two`` openings have no randomness (only
  ``random_two`` draws two cells from the seed), so deterministic bots repeat. Every request shows
  the whole board, but a match is two halves on fresh boards with fresh processes and the
  opening's slides would score for a defender that did not make them: not supported yet (refused
  in one line; its own ``opening: random_two`` varies the start per seed).
* geister: no randomness (``seed`` is unused), so deterministic bots repeat. Every ``MOV?`` tells
  a bot the whole board in its frame, so the opening's moves could be played by the referee after
  both setups (the setups stay the bots' own secret); not supported yet (refused in one line).
* pk2048: every spawned tile is drawn from the match seed (its README), so every pair of games
  already differs: ``openings`` is refused, saying so.
* nimmt: the deal is drawn from the match seed: refused, saying so.
* fish: the board's fish are shuffled from the match seed: refused, saying so.
* codevs21: the packs are drawn from the match seed (a fixed ``packs`` file repeats them; its
  solo mode seats one bot): refused, saying so.
"""
