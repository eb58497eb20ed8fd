"""Claims: what a statement asserts, and which of one owner's memories contradict each other
(docs/perception.md#claims, docs/jobs.md#contradictions). Pure: text, events and memories in, claims and conflicts
out; no I/O. Ingest (:mod:`graphmem.ingest.encode`) and the importers extract claims here; the contradiction job
(:mod:`graphmem.jobs.contradictions`) reads and writes the graph and calls the rules here.

The modules:

- :mod:`.extract`: the rule-based claim extractor (roles, sides, votes with the ballot round they are about) and the
  claims derived at encoding (:func:`~graphmem.claims.extract.derived_claims`);
- :mod:`.stances`: the stances ``suspects``/``trusts`` read from text;
- :mod:`.coverage`: how much of what players say the stance extractor reads (``python -m bench.stance_coverage``);
- :mod:`.conflict_model`: what the contradiction rules work on and produce (an owner's memories, truths, plans);
- :mod:`.conflict_rules`: conflicts between the claims of one owner's memories (identity, lie, temporal,
  preference);
- :mod:`.conflicts`: the detectors in order (claims, then similar texts) and the resolution by a known truth;
- :mod:`.conflict_words`: a conflict in the words a player would use, from the owner's side.

The calls other parts of graphmem use::

    from graphmem.claims import ClaimExtractor, extract_claims

    extract_claims("I'm a faithful, and Riley is a traitor.", speaker="Casey", players=["Casey", "Riley"])
"""

from graphmem.claims.extract import ClaimExtractor, extract_claims

__all__ = ["ClaimExtractor", "extract_claims"]
