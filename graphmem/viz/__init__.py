"""Pictures of a game (docs/queries.md): who told whom, and how a player's memories fade.

- :mod:`graphmem.viz.told`: the who-told-whom graph (networkx MultiDiGraph) read from Neo4j, and its layout.
- :mod:`graphmem.viz.static`: PNG and SVG drawings (matplotlib).
- :mod:`graphmem.viz.html`: a self-contained interactive HTML page (inline SVG and vanilla JavaScript).
- :mod:`graphmem.viz.export`: GraphML and GEXF files for Gephi.
- :mod:`graphmem.viz.decay`: a player's memory strengths over phases with the clarity bands.
- :mod:`graphmem.viz.trust`: who trusts whom over a series of games (networkx; PNG, SVG, HTML, GraphML).
- :mod:`graphmem.viz.outputs`: output kinds by extension, checked before any work, atomic writes.
- :mod:`graphmem.viz.style`: colours by role, marks by fate, line styles by channel kind.

The CLI is ``graphmem viz told``, ``graphmem viz decay`` and ``graphmem viz trust``.
matplotlib is imported only by the modules that draw.
"""
