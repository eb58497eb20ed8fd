"""The session embedder of the tests, whose vectors are kept on disk between sessions (tests/conftest.py's
``embedder``).

The real games the tests ingest are the same in every run: the three corpora of the real-games group alone hold
23,268 distinct memory texts, about 330 s of CPU on the real model (all-MiniLM-L6-v2 under ONNX Runtime) of a
`make test` that should take less than 10 minutes on two cores. A :class:`StoredEmbedder` computes each text with
the real model once per machine and reads it back afterwards, from one SQLite file per model: its name is the
digest of the vectors the loaded model gives a few fixed texts, so another model, backend or export gets a file of
its own instead of vectors that are not its own. Both pytest-xdist workers read and extend the same file (SQLite's
write-ahead log; a text two workers embed at once is stored once).

Where: ``$GRAPHMEM_TEST_EMBEDDINGS`` (a folder; ``off`` computes every text as a plain Embedder does), else
``graphmem/test-embeddings`` in ``$XDG_CACHE_HOME`` or ``~/.cache``, beside the ONNX export of the model
(:func:`graphmem.encoders.default_cache_dir`). Delete the folder to embed everything again.
"""

from __future__ import annotations

import hashlib
import logging
import os
import sqlite3
import threading
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from graphmem.embedding import Embedder, Vectors
from graphmem.encoders import default_cache_dir

log = logging.getLogger(__name__)

PROBES = ("Riley voted to banish Casey at the round table.", "player-3 proposed a team of player-1 and player-4.",
          "Who was murdered last night?")
"""Texts whose vectors name the model's file (see the module docstring)."""

CHUNK = 500
"""Keys per SELECT (SQLite allows 32,766 parameters since 3.32; 500 keeps each statement small)."""


def store_folder(environ: dict[str, str] | os._Environ[str] | None = None) -> Path | None:
    """The folder of the stored vectors (see the module docstring), or None when ``$GRAPHMEM_TEST_EMBEDDINGS`` is
    ``off``."""
    env = os.environ if environ is None else environ
    given = env.get("GRAPHMEM_TEST_EMBEDDINGS", "")
    if given.lower() == "off":
        return None
    return Path(given).expanduser() if given else default_cache_dir(env).parent / "test-embeddings"


class StoredEmbedder(Embedder):
    """An :class:`Embedder` of the default model that reads the vectors of texts it was asked for in an earlier
    session from ``folder`` and adds the ones it computes (see the module docstring). A store that cannot be
    opened or read (a full disk, a damaged file) is logged and left alone: the texts are then computed."""

    def __init__(self, folder: Path | None) -> None:
        super().__init__()
        self.folder = folder
        self.read_back = 0  # texts read from the store instead of computed
        self._db: sqlite3.Connection | None = None
        self._db_lock = threading.Lock()
        self._opened = folder is None

    def _store(self) -> sqlite3.Connection | None:
        with self._db_lock:
            if not self._opened:
                self._opened = True
                assert self.folder is not None
                probes = self._encode_now(list(PROBES))  # the model loaded: its vectors name the file
                digest = hashlib.sha256(np.round(probes, 5).tobytes()).hexdigest()[:16]
                path = self.folder / f"{self.encoder.backend}-{digest}.sqlite"
                try:
                    self.folder.mkdir(parents=True, exist_ok=True)
                    db = sqlite3.connect(path, timeout=120, check_same_thread=False, isolation_level=None)
                    db.execute("PRAGMA journal_mode=WAL")
                    db.execute("CREATE TABLE IF NOT EXISTS vectors (key TEXT PRIMARY KEY, vector BLOB NOT NULL)")
                    self._db = db
                except sqlite3.Error as e:
                    log.warning("embedding every text: cannot open the stored vectors %s (%s)", path, e)
            return self._db

    def _compute(self, missing: dict[str, str]) -> dict[str, Vectors]:
        found = self._read(missing)
        if found:
            with self._cond:
                for key, vector in found.items():
                    self._cache[key] = vector
                self.read_back += len(found)
        rest = {k: t for k, t in missing.items() if k not in found}
        if rest:
            computed = super()._compute(rest)
            self._write(computed.items())
            found.update(computed)
        return found

    def _read(self, missing: dict[str, str]) -> dict[str, Vectors]:
        db = self._store()
        if db is None:
            return {}
        keys = list(missing)
        found: dict[str, Vectors] = {}
        try:
            with self._db_lock:
                for start in range(0, len(keys), CHUNK):
                    chunk = keys[start:start + CHUNK]
                    rows = db.execute(f"SELECT key, vector FROM vectors WHERE key IN ({','.join('?' * len(chunk))})",
                                      chunk).fetchall()
                    found.update((key, np.frombuffer(blob, dtype=np.float32).copy()) for key, blob in rows)
        except sqlite3.Error as e:
            log.warning("embedding every text: cannot read the stored vectors (%s)", e)
            self._db = None
            return {}
        return {k: v for k, v in found.items() if v.shape == (self.dimension,)}

    def _write(self, vectors: Iterable[tuple[str, Vectors]]) -> None:
        db = self._store()
        if db is None:
            return
        rows = [(key, np.asarray(vector, dtype=np.float32).tobytes()) for key, vector in vectors]
        try:
            with self._db_lock:
                db.execute("BEGIN")
                db.executemany("INSERT OR IGNORE INTO vectors (key, vector) VALUES (?, ?)", rows)
                db.execute("COMMIT")
        except sqlite3.Error as e:
            log.warning("cannot store %d embedded texts (%s): the next session embeds them again", len(rows), e)
            self._db = None
