"""graphmem checked against people (docs/validation.md): games of people with their stated beliefs replayed
through graphmem with rehearsal, and the pre-registered comparison of what their memories predict.

- :mod:`~graphmem.validation.replay`: a game replayed live, every message preceded by its writer's recall, and what
  a player holds read at chosen moments;
- :mod:`~graphmem.validation.evidence`: the evidence about a player in a believer's memories (pure);
- :mod:`~graphmem.validation.beliefs`: the logistic model, leave-one-game-out log-loss and AUC, the bootstrap (pure);
- :mod:`~graphmem.validation.vote_claims`: people's claims about earlier votes, found by rule and checked (pure);
- :mod:`~graphmem.validation.study`: the whole comparison; :mod:`~graphmem.validation.report`: its tables;
- :mod:`~graphmem.validation.synthetic`: games whose believers weigh evidence in a known way (the instrument's check).
"""
